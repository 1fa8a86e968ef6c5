//! Types of core IR values: scalars, regular arrays of scalars whose
//! dimensions are operands, and accumulators (reverse AD).

use crate::ir::Operand;
use crate::names::VName;
use parad_base::{IntType, PrimType, Scalar};

/// One array dimension. Sizes are checked at run time (DESIGN §2), so a
/// dimension may be `Ext`: known only once the value exists (e.g. the
/// result of a filter). `Const` and `Var` (an `i64` variable) are operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Const(i64),
    Var(VName),
    Ext,
}

impl Dim {
    /// The dimension as an operand, unless it is existential.
    pub fn operand(self) -> Option<Operand> {
        match self {
            Dim::Const(n) => Some(Operand::Const(Scalar::I64(n))),
            Dim::Var(v) => Some(Operand::Var(v)),
            Dim::Ext => None,
        }
    }

    /// The dimension given by an operand; non-`i64` constants become `Ext`
    /// (the checker reports operands of the wrong type separately).
    pub fn from_operand(o: &Operand) -> Dim {
        match o {
            Operand::Var(v) => Dim::Var(*v),
            Operand::Const(Scalar::I64(n)) => Dim::Const(*n),
            Operand::Const(_) => Dim::Ext,
        }
    }
}

impl From<i64> for Dim {
    fn from(n: i64) -> Dim {
        Dim::Const(n)
    }
}

impl From<VName> for Dim {
    fn from(v: VName) -> Dim {
        Dim::Var(v)
    }
}

impl From<Operand> for Dim {
    fn from(o: Operand) -> Dim {
        Dim::from_operand(&o)
    }
}

/// An accumulator: a write-only view of arrays of shape `ispace ++ row`,
/// updated at indices into `ispace` with values of the `elems` types.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AccType {
    pub ispace: Vec<Dim>,
    pub elems: Vec<Type>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Prim(PrimType),
    /// Never has an empty shape (that is `Prim`); build with [`Type::array`].
    Array {
        elem: PrimType,
        shape: Vec<Dim>,
    },
    Acc(AccType),
}

pub const I64: Type = Type::Prim(PrimType::Int(IntType::I64));
pub const I32: Type = Type::Prim(PrimType::Int(IntType::I32));
pub const BOOL: Type = Type::Prim(PrimType::Bool);
pub const F32: Type = Type::Prim(PrimType::Float(parad_base::FloatType::F32));
pub const F64: Type = Type::Prim(PrimType::Float(parad_base::FloatType::F64));

impl Type {
    /// `[shape]elem`, or the scalar type when `shape` is empty.
    pub fn array(elem: PrimType, shape: Vec<Dim>) -> Type {
        if shape.is_empty() {
            Type::Prim(elem)
        } else {
            Type::Array { elem, shape }
        }
    }

    pub fn rank(&self) -> usize {
        match self {
            Type::Array { shape, .. } => shape.len(),
            _ => 0,
        }
    }

    /// Element type of scalars and arrays; `None` for accumulators.
    pub fn elem(&self) -> Option<PrimType> {
        match self {
            Type::Prim(t) | Type::Array { elem: t, .. } => Some(*t),
            Type::Acc(_) => None,
        }
    }

    pub fn as_prim(&self) -> Option<PrimType> {
        match self {
            Type::Prim(t) => Some(*t),
            _ => None,
        }
    }

    pub fn shape(&self) -> &[Dim] {
        match self {
            Type::Array { shape, .. } => shape,
            _ => &[],
        }
    }

    pub fn is_acc(&self) -> bool {
        matches!(self, Type::Acc(_))
    }

    /// The outermost dimension of an array.
    pub fn outer_dim(&self) -> Option<Dim> {
        self.shape().first().copied()
    }

    /// The type of one row: the array with its outer dimension removed.
    pub fn row(&self) -> Option<Type> {
        self.drop_dims(1)
    }

    /// The type after removing the `k` outermost dimensions.
    pub fn drop_dims(&self, k: usize) -> Option<Type> {
        match self {
            Type::Array { elem, shape } if shape.len() >= k => {
                Some(Type::array(*elem, shape[k..].to_vec()))
            }
            Type::Prim(_) if k == 0 => Some(self.clone()),
            _ => None,
        }
    }

    /// An array of `n` values of this type (`None` for accumulators).
    pub fn array_of(&self, n: impl Into<Dim>) -> Option<Type> {
        self.array_of_shape(&[n.into()])
    }

    /// An array with extra outer dimensions `dims`.
    pub fn array_of_shape(&self, dims: &[Dim]) -> Option<Type> {
        let elem = self.elem()?;
        let mut shape = dims.to_vec();
        shape.extend_from_slice(self.shape());
        Some(Type::array(elem, shape))
    }

    /// Same rank and element type (or equal accumulator structure);
    /// dimensions are not compared, since sizes are checked at run time.
    pub fn same_shape_class(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Prim(a), Type::Prim(b)) => a == b,
            (Type::Array { elem: a, shape: s }, Type::Array { elem: b, shape: t }) => {
                a == b && s.len() == t.len()
            }
            (Type::Acc(a), Type::Acc(b)) => {
                a.ispace.len() == b.ispace.len()
                    && a.elems.len() == b.elems.len()
                    && a.elems
                        .iter()
                        .zip(&b.elems)
                        .all(|(x, y)| x.same_shape_class(y))
            }
            _ => false,
        }
    }

    /// The same type with every dimension existential (e.g. for a
    /// function's return type, whose dimensions may not be in scope).
    pub fn erase_dims(&self) -> Type {
        match self {
            Type::Prim(_) => self.clone(),
            Type::Array { elem, shape } => Type::Array {
                elem: *elem,
                shape: vec![Dim::Ext; shape.len()],
            },
            Type::Acc(a) => Type::Acc(AccType {
                ispace: vec![Dim::Ext; a.ispace.len()],
                elems: a.elems.iter().map(|t| t.erase_dims()).collect(),
            }),
        }
    }

    /// Variables named in the dimensions (including inside accumulators).
    pub fn dim_vars(&self, out: &mut Vec<VName>) {
        match self {
            Type::Prim(_) => {}
            Type::Array { shape, .. } => dims_vars(shape, out),
            Type::Acc(a) => {
                dims_vars(&a.ispace, out);
                for t in &a.elems {
                    t.dim_vars(out);
                }
            }
        }
    }
}

fn dims_vars(dims: &[Dim], out: &mut Vec<VName>) {
    out.extend(dims.iter().filter_map(|d| match d {
        Dim::Var(v) => Some(*v),
        _ => None,
    }));
}

impl From<PrimType> for Type {
    fn from(t: PrimType) -> Type {
        Type::Prim(t)
    }
}
