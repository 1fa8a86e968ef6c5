//! Static values: what lowering knows about a source value. First-order
//! data lives in core variables (tuples and records are flattened into
//! their components, arrays of tuples become tuples of arrays); functions
//! are closures known at compile time, so that every call is inlined and
//! no function value survives into the core IR.

use crate::error::{LowerError, R};
use parad_base::{FloatType, IntType, PrimType, Span};
use parad_core::{Dim, Operand, VName};
use parad_types::intrinsics::Intrinsic;
use parad_types::tast::{FunId, TExp, TLocalFun, TPat, Type, TypeParamId, VarId};
use parad_values::Scalar;
use std::rc::Rc;

/// A source value during lowering.
#[derive(Clone, Debug)]
pub enum SV<'p> {
    /// A scalar.
    Prim(Operand),
    /// A core array of scalars (any rank): a source array of scalars, or
    /// one component of a source array of tuples or records.
    Arr(VName),
    /// A tuple, or an array of tuples (then every leaf is an array).
    Tuple(Vec<SV<'p>>),
    /// A record (fields sorted by name), or an array of records.
    Record(Vec<(String, SV<'p>)>),
    Fun(Rc<Closure<'p>>),
    /// An accumulator (`acc t`): one core variable of accumulator type
    /// covering every leaf array of `t`.
    Acc(VName),
    /// A value of a sum type (or an array of them): the tag (the index
    /// of the constructor in the sorted list of the type's constructors;
    /// a scalar, or an array of tags) and the payload of every
    /// constructor. Payloads of constructors other than the tag's are
    /// blanks (zeros and empty arrays), so that values of one sum type
    /// always have the same leaves. A tag known at compile time lets
    /// `match` pick its case statically.
    Sum(Box<SV<'p>>, Vec<Vec<SV<'p>>>),
    /// The blank of a function-typed payload of a constructor the value
    /// statically does not have; it has no leaves.
    Absent,
}

/// A function value: a callee and the arguments given so far.
#[derive(Clone, Debug)]
pub struct Closure<'p> {
    pub callee: Callee<'p>,
    pub args: Vec<SV<'p>>,
}

#[derive(Clone, Debug)]
pub enum Callee<'p> {
    Lambda {
        params: &'p [TPat],
        body: &'p TExp,
        env: Env<'p>,
    },
    Global(FunId, Vec<Type>, SizeVals),
    Local {
        fun: &'p TLocalFun,
        env: Env<'p>,
        inst: Vec<Type>,
        sizes: SizeVals,
    },
    Intrinsic(Intrinsic, Vec<Type>),
}

/// The values that the context gives a function's size parameters at
/// one use (from [`parad_types::tast::SizeInst`]); parameters not listed
/// are unknown there.
pub type SizeVals = Vec<(VarId, Operand)>;

/// Variable bindings and type parameter instantiations in scope
/// (persistent maps, so that closures capture them cheaply).
#[derive(Clone, Debug, Default)]
pub struct Env<'p> {
    pub vars: imbl::HashMap<VarId, SV<'p>>,
    pub tys: imbl::HashMap<TypeParamId, Type>,
}

impl<'p> Env<'p> {
    pub fn bind(&mut self, v: VarId, sv: SV<'p>) {
        self.vars.insert(v, sv);
    }

    /// `t` with the type parameters in scope replaced by their types.
    pub fn resolve(&self, t: &Type) -> Type {
        t.subst(&|p| self.tys.get(&p).cloned())
    }
}

impl<'p> SV<'p> {
    /// The core operands of a first-order value, leaves left to right.
    pub fn leaves(&self, span: Span) -> R<Vec<Operand>> {
        let mut out = vec![];
        self.push_leaves(&mut out, span)?;
        Ok(out)
    }

    fn push_leaves(&self, out: &mut Vec<Operand>, span: Span) -> R<()> {
        match self {
            SV::Prim(o) => out.push(*o),
            SV::Arr(v) | SV::Acc(v) => out.push(Operand::Var(*v)),
            SV::Tuple(xs) => {
                for x in xs {
                    x.push_leaves(out, span)?
                }
            }
            SV::Record(fs) => {
                for (_, x) in fs {
                    x.push_leaves(out, span)?
                }
            }
            SV::Sum(tag, ps) => {
                tag.push_leaves(out, span)?;
                for x in ps.iter().flatten() {
                    x.push_leaves(out, span)?
                }
            }
            SV::Fun(_) | SV::Absent => {
                return Err(LowerError::unsupported(
                    span,
                    "a function value cannot be stored in data here",
                ))
            }
        }
        Ok(())
    }

    /// The array leaves of an array value.
    pub fn arrays(&self, span: Span) -> R<Vec<VName>> {
        self.leaves(span)?
            .into_iter()
            .map(|o| match o {
                Operand::Var(v) => Ok(v),
                Operand::Const(_) => {
                    Err(LowerError::bug(span, "scalar where an array was expected"))
                }
            })
            .collect()
    }

    /// Applies `f` to every leaf, keeping the structure.
    pub fn map_leaves(&self, f: &mut dyn FnMut(Operand) -> R<SV<'p>>) -> R<SV<'p>> {
        Ok(match self {
            SV::Prim(o) => f(*o)?,
            SV::Arr(v) => f(Operand::Var(*v))?,
            SV::Acc(_) => {
                return Err(LowerError::bug(
                    Span::default(),
                    "map_leaves on an accumulator",
                ))
            }
            SV::Tuple(xs) => SV::Tuple(xs.iter().map(|x| x.map_leaves(f)).collect::<R<_>>()?),
            SV::Record(fs) => SV::Record(
                fs.iter()
                    .map(|(n, x)| Ok((n.clone(), x.map_leaves(f)?)))
                    .collect::<R<_>>()?,
            ),
            SV::Sum(tag, ps) => SV::Sum(
                Box::new(tag.map_leaves(f)?),
                ps.iter()
                    .map(|p| p.iter().map(|x| x.map_leaves(f)).collect::<R<_>>())
                    .collect::<R<_>>()?,
            ),
            SV::Fun(_) | SV::Absent => {
                return Err(LowerError::bug(Span::default(), "map_leaves on a function"))
            }
        })
    }

    /// Component `field` of a tuple (`"0"`, `"1"`, …) or record.
    pub fn project(&self, field: &str, span: Span) -> R<SV<'p>> {
        match self {
            SV::Tuple(xs) => field
                .parse::<usize>()
                .ok()
                .and_then(|i| xs.get(i).cloned())
                .ok_or_else(|| LowerError::bug(span, format!("no tuple component {field}"))),
            SV::Record(fs) => fs
                .iter()
                .find(|(n, _)| n == field)
                .map(|(_, x)| x.clone())
                .ok_or_else(|| LowerError::bug(span, format!("no record field {field}"))),
            _ => Err(LowerError::bug(
                span,
                format!("projection .{field} of a non-record"),
            )),
        }
    }
}

/// The core types of the leaves of a value of (resolved) type `t` inside
/// `outer` array dimensions, with unknown dimensions.
pub fn leaf_types(t: &Type, outer: usize, out: &mut Vec<parad_core::Type>, span: Span) -> R<()> {
    leaf_types_in(t, &vec![Dim::Ext; outer], out, false, span)
}

/// The leaves' types of a function's result of type `t`, constant
/// dimensions kept: a `map` over no rows makes rows of that size.
pub fn result_types_of(t: &Type, span: Span) -> R<Vec<parad_core::Type>> {
    let mut out = vec![];
    leaf_types_in(t, &[], &mut out, true, span)?;
    Ok(out)
}

/// [`leaf_types`] inside the dimensions `outer`; constant dimensions are
/// kept if `consts`, the others are unknown.
fn leaf_types_in(
    t: &Type,
    outer: &[Dim],
    out: &mut Vec<parad_core::Type>,
    consts: bool,
    span: Span,
) -> R<()> {
    match t {
        Type::Prim(p) => out.push(if outer.is_empty() {
            parad_core::Type::Prim(*p)
        } else {
            parad_core::Type::array(*p, outer.to_vec())
        }),
        Type::Array(e, ds) => {
            let mut dims = outer.to_vec();
            dims.extend(ds.iter().map(|d| match d {
                parad_types::tast::Dim::Const(c) if consts => Dim::Const(*c),
                _ => Dim::Ext,
            }));
            leaf_types_in(e, &dims, out, consts, span)?
        }
        Type::Tuple(ts) => {
            for t in ts {
                leaf_types_in(t, outer, out, consts, span)?
            }
        }
        Type::Record(fs) => {
            for (_, t) in fs {
                leaf_types_in(t, outer, out, consts, span)?
            }
        }
        Type::Arrow(..) => {
            return Err(LowerError::unsupported(
                span,
                "functions cannot be stored in arrays, loops or branches",
            ))
        }
        Type::Acc(arr) => {
            if !outer.is_empty() {
                return Err(LowerError::unsupported(
                    span,
                    "accumulators cannot be stored in arrays",
                ));
            }
            out.push(acc_type(arr, span)?);
        }
        Type::Sum(cs) => {
            let tag = Type::Prim(tag_type(cs.len()));
            leaf_types_in(&tag, outer, out, consts, span)?;
            for t in cs.iter().flat_map(|(_, ts)| ts) {
                leaf_types_in(t, outer, out, consts, span)?
            }
        }
        Type::Param(_) | Type::Var(_) => {
            return Err(LowerError::bug(span, format!("unresolved type {t}")))
        }
    }
    Ok(())
}

/// The type of the tag of a sum type with `n` constructors.
pub fn tag_type(n: usize) -> PrimType {
    parad_types::tast::sum_tag_type(n)
}

/// The tag of constructor number `k` of a sum type with `n` constructors.
pub fn tag_scalar(n: usize, k: usize) -> Scalar {
    num_scalar(tag_type(n), k as i64)
}

/// The core type of an accumulator of the array type `arr` (resolved):
/// indexed by the outer dimension, with the row types of `arr`'s leaves
/// as elements. Dimensions are unknown (core IR does not compare them).
pub fn acc_type(arr: &Type, span: Span) -> R<parad_core::Type> {
    let Type::Array(e, ds) = arr else {
        return Err(LowerError::bug(
            span,
            format!("accumulator of a non-array type {arr}"),
        ));
    };
    let mut elems = vec![];
    leaf_types(e, ds.len() - 1, &mut elems, span)?;
    Ok(parad_core::Type::Acc(parad_core::AccType {
        ispace: vec![Dim::Ext],
        elems,
    }))
}

pub fn types_of(t: &Type, outer: usize, span: Span) -> R<Vec<parad_core::Type>> {
    let mut out = vec![];
    leaf_types(t, outer, &mut out, span)?;
    Ok(out)
}

/// Rebuilds a value of type `t` (inside `outer` dimensions) from its
/// leaves.
pub fn from_leaves<'p>(
    t: &Type,
    outer: usize,
    leaves: &mut dyn Iterator<Item = Operand>,
    span: Span,
) -> R<SV<'p>> {
    let mut next = || {
        leaves
            .next()
            .ok_or_else(|| LowerError::bug(span, "too few leaves for a value"))
    };
    Ok(match t {
        Type::Prim(_) if outer == 0 => SV::Prim(next()?),
        Type::Prim(_) => match next()? {
            Operand::Var(v) => SV::Arr(v),
            Operand::Const(_) => return Err(LowerError::bug(span, "constant array leaf")),
        },
        Type::Array(e, ds) => from_leaves(e, outer + ds.len(), leaves, span)?,
        Type::Tuple(ts) => SV::Tuple(
            ts.iter()
                .map(|t| from_leaves(t, outer, leaves, span))
                .collect::<R<_>>()?,
        ),
        Type::Record(fs) => SV::Record(
            fs.iter()
                .map(|(n, t)| Ok((n.clone(), from_leaves(t, outer, leaves, span)?)))
                .collect::<R<_>>()?,
        ),
        Type::Sum(cs) => {
            let tag = from_leaves(&Type::Prim(tag_type(cs.len())), outer, leaves, span)?;
            let ps = cs
                .iter()
                .map(|(_, ts)| {
                    ts.iter()
                        .map(|t| from_leaves(t, outer, leaves, span))
                        .collect::<R<Vec<_>>>()
                })
                .collect::<R<_>>()?;
            SV::Sum(Box::new(tag), ps)
        }
        Type::Acc(_) if outer > 0 => {
            return Err(LowerError::unsupported(
                span,
                "accumulators cannot be stored in arrays",
            ))
        }
        Type::Acc(_) => match next()? {
            Operand::Var(v) => SV::Acc(v),
            Operand::Const(_) => return Err(LowerError::bug(span, "constant accumulator")),
        },
        Type::Arrow(..) | Type::Param(_) | Type::Var(_) => {
            return Err(LowerError::bug(
                span,
                format!("cannot rebuild a value of type {t}"),
            ))
        }
    })
}

/// Rebuilds from names (e.g. the results of a statement).
pub fn from_names<'p>(t: &Type, outer: usize, names: &[VName], span: Span) -> R<SV<'p>> {
    let mut it = names.iter().map(|&v| Operand::Var(v));
    let sv = from_leaves(t, outer, &mut it, span)?;
    if it.next().is_some() {
        return Err(LowerError::bug(span, "too many leaves for a value"));
    }
    Ok(sv)
}

/// The number of array dimensions of type `t` and its element type.
pub fn array_parts(t: &Type) -> (usize, &Type) {
    match t {
        Type::Array(e, ds) => (ds.len(), e),
        _ => (0, t),
    }
}

/// A literal integer of type `t`, wrapped as Futhark does.
pub fn int_scalar(t: IntType, v: i128) -> Scalar {
    Scalar::from_int(t, v)
}

pub fn float_scalar(t: FloatType, v: f64) -> Scalar {
    Scalar::from_float(t, v)
}

/// The constant `v` (an integer, possibly converted to a float) of type `t`.
pub fn num_scalar(t: PrimType, v: i64) -> Scalar {
    match t {
        PrimType::Int(it) => int_scalar(it, v as i128),
        PrimType::Float(ft) => float_scalar(ft, v as f64),
        PrimType::Bool => Scalar::Bool(v != 0),
    }
}
