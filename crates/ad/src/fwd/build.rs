//! Small IR-building helpers shared by the forward rules.

use parad_base::{FloatType, IntType, PrimType};
use parad_core::*;
use parad_values::Scalar;

/// Whether values of `t` (scalars or arrays) have floating-point elements,
/// i.e. can carry a tangent.
pub fn is_float(t: &Type) -> bool {
    matches!(t.elem(), Some(PrimType::Float(_)))
}

/// The floating-point type of a scalar operator annotation, if any.
pub fn float_of(t: PrimType) -> Option<FloatType> {
    match t {
        PrimType::Float(f) => Some(f),
        _ => None,
    }
}

/// The constant `v` of type `t`; `f16` constants are cast from `f32`,
/// so that this crate needs no half-precision library.
pub fn fconst(b: &mut Builder, t: FloatType, v: f64) -> Operand {
    match t {
        FloatType::F64 => Operand::f64(v),
        FloatType::F32 => Operand::f32(v as f32),
        FloatType::F16 => b
            .cast(PrimType::Float(FloatType::F16), Operand::f32(v as f32))
            .into(),
    }
}

/// The zero of a primitive type as an operand (`f16` zero is built by a
/// cast, see [`fconst`]).
pub fn zero_of(b: &mut Builder, t: PrimType) -> Operand {
    let s = match t {
        PrimType::Float(f) => return fconst(b, f, 0.0),
        PrimType::Bool => Scalar::Bool(false),
        PrimType::Int(it) => match it {
            IntType::I8 => Scalar::I8(0),
            IntType::I16 => Scalar::I16(0),
            IntType::I32 => Scalar::I32(0),
            IntType::I64 => Scalar::I64(0),
            IntType::U8 => Scalar::U8(0),
            IntType::U16 => Scalar::U16(0),
            IntType::U32 => Scalar::U32(0),
            IntType::U64 => Scalar::U64(0),
        },
    };
    Operand::Const(s)
}

/// Zeros of the type (and shape) of `like`.
pub fn zeros_like(b: &mut Builder, like: Operand) -> Operand {
    let t = b.type_of(like);
    let elem = t.elem().expect("fwd: zeros of an accumulator");
    let mut z = zero_of(b, elem);
    let Operand::Var(v) = like else { return z };
    for k in (0..t.rank()).rev() {
        let n = b.dim(v, k);
        z = b.replicate(n, z).into();
    }
    z
}

/// `x * y`, where `None` stands for a static zero.
pub fn mul(b: &mut Builder, x: Operand, y: Option<Operand>) -> Option<Operand> {
    Some(b.mul(x, y?).into())
}

/// `x + y`, where `None` stands for a static zero.
pub fn add(b: &mut Builder, x: Option<Operand>, y: Option<Operand>) -> Option<Operand> {
    match (x, y) {
        (Some(x), Some(y)) => Some(b.add(x, y).into()),
        (x, None) => x,
        (None, y) => y,
    }
}

/// `x - y`, where `None` stands for a static zero.
pub fn sub(b: &mut Builder, x: Option<Operand>, y: Option<Operand>) -> Option<Operand> {
    match (x, y) {
        (Some(x), Some(y)) => Some(b.sub(x, y).into()),
        (x, None) => x,
        (None, Some(y)) => Some(b.neg(y).into()),
    }
}

/// `if c then x else y` on scalars of type `t`, as an `if` expression.
pub fn select(b: &mut Builder, c: Operand, x: Operand, y: Operand) -> Operand {
    b.if_(c, |_| vec![x], |_| vec![y])[0].into()
}

/// The types of the rows of `arrs` (accumulators are passed whole).
pub fn row_types(b: &Builder, arrs: &[VName]) -> Vec<Type> {
    arrs.iter()
        .map(|&a| {
            let t = b.type_of(a);
            if t.is_acc() {
                t
            } else {
                t.row().expect("fwd: SOAC input is not an array")
            }
        })
        .collect()
}
