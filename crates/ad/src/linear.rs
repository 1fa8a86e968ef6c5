//! The tangent (and adjoint) space of each primitive type, as Futhark
//! defines it: every primitive value has a tangent of its own type.
//! Floats use ordinary arithmetic; integers wrap around (so integer
//! polynomials get exact derivatives modulo 2ⁿ); booleans use `||` as
//! addition and `&&` as multiplication. Accumulators have no tangent
//! value of their own.

use parad_base::{FloatType, IntType, PrimType};
use parad_core::*;
use parad_values::Scalar;

/// Whether values of type `t` (scalars or arrays of any element type)
/// carry tangents and adjoints.
pub fn is_diff(t: &Type) -> bool {
    t.elem().is_some()
}

/// Whether `t` has floating-point elements.
pub fn is_float(t: &Type) -> bool {
    matches!(t.elem(), Some(PrimType::Float(_)))
}

/// The constant `x` of type `t` (truncated for integers, `x ≠ 0` for
/// booleans).
pub fn const_of(t: PrimType, x: f64) -> Operand {
    Operand::Const(match t {
        PrimType::Float(FloatType::F16) => Scalar::F16(half::f16::from_f64(x)),
        PrimType::Float(FloatType::F32) => Scalar::F32(x as f32),
        PrimType::Float(FloatType::F64) => Scalar::F64(x),
        PrimType::Int(IntType::I8) => Scalar::I8(x as i8),
        PrimType::Int(IntType::I16) => Scalar::I16(x as i16),
        PrimType::Int(IntType::I32) => Scalar::I32(x as i32),
        PrimType::Int(IntType::I64) => Scalar::I64(x as i64),
        PrimType::Int(IntType::U8) => Scalar::U8(x as i64 as u8),
        PrimType::Int(IntType::U16) => Scalar::U16(x as i64 as u16),
        PrimType::Int(IntType::U32) => Scalar::U32(x as i64 as u32),
        PrimType::Int(IntType::U64) => Scalar::U64(x as i64 as u64),
        PrimType::Bool => Scalar::Bool(x != 0.0),
    })
}

/// Whether a constant is the zero of its type.
pub fn is_zero(c: Scalar) -> bool {
    use Scalar::*;
    match c {
        F16(x) => f32::from(x) == 0.0,
        F32(x) => x == 0.0,
        F64(x) => x == 0.0,
        I8(x) => x == 0,
        I16(x) => x == 0,
        I32(x) => x == 0,
        I64(x) => x == 0,
        U8(x) => x == 0,
        U16(x) => x == 0,
        U32(x) => x == 0,
        U64(x) => x == 0,
        Bool(x) => !x,
    }
}

/// Zeros with the type (and run-time shape) of `like`.
pub fn zeros_like(b: &mut Builder, like: Operand) -> Operand {
    let t = b.type_of(like);
    let elem = t.elem().expect("ad: zeros of an accumulator");
    let mut z = const_of(elem, 0.0);
    let Operand::Var(v) = like else { return z };
    for k in (0..t.rank()).rev() {
        let n = b.dim(v, k);
        z = b.replicate(n, z).into();
    }
    z
}

fn prim(b: &Builder, x: Operand) -> PrimType {
    b.type_of(x)
        .as_prim()
        .unwrap_or_else(|| panic!("ad: {x} is not a scalar"))
}

fn const_zero(o: Operand) -> bool {
    matches!(o, Operand::Const(c) if is_zero(c))
}

/// Scalar tangent addition (a constant zero operand is dropped).
pub fn add(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    if const_zero(x) {
        return y;
    }
    if const_zero(y) {
        return x;
    }
    let op = if prim(b, x) == PrimType::Bool {
        BinOp::Or
    } else {
        BinOp::Add
    };
    b.binop(op, x, y).into()
}

/// Scalar tangent multiplication. A constant factor one is dropped and a
/// constant factor zero gives zero: a zero tangent or adjoint contributes
/// nothing, even where the other factor is infinite (as with static
/// zeros), and Jacobians built symbolically show their zero entries.
pub fn mul(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    let t = prim(b, x);
    if const_zero(x) || const_zero(y) {
        return const_of(t, 0.0);
    }
    if x == const_of(t, 1.0) {
        return y;
    }
    if y == const_of(t, 1.0) {
        return x;
    }
    let op = if prim(b, x) == PrimType::Bool {
        BinOp::And
    } else {
        BinOp::Mul
    };
    b.binop(op, x, y).into()
}

/// Scalar tangent subtraction (`||` on booleans, as Futhark does).
pub fn sub(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    let op = if prim(b, x) == PrimType::Bool {
        BinOp::Or
    } else {
        BinOp::Sub
    };
    b.binop(op, x, y).into()
}

/// Scalar tangent negation (the identity on booleans).
pub fn neg(b: &mut Builder, x: Operand) -> Operand {
    if prim(b, x) == PrimType::Bool {
        return x;
    }
    b.neg(x).into()
}

/// `if c then x else y` on scalars (an `if` expression, so that only the
/// chosen operand matters).
pub fn select(
    b: &mut Builder,
    c: impl Into<Operand>,
    x: impl Into<Operand>,
    y: impl Into<Operand>,
) -> Operand {
    let (x, y) = (x.into(), y.into());
    let t = b.type_of(x);
    let then_br = b.body(|_| vec![x]);
    let else_br = b.body(|_| vec![y]);
    b.emit(Exp::If(If {
        cond: c.into(),
        then_br,
        else_br,
        ret: vec![t],
    }))[0]
        .into()
}

/// Expressions whose results have zero derivatives whatever their
/// operands: sizes, comparisons, `iota` and uninitialised arrays. Activity
/// analyses stop at them.
pub fn never_active(e: &Exp) -> bool {
    matches!(
        e,
        Exp::Basic(BasicOp::Size { .. })
            | Exp::Basic(BasicOp::Cmp(..))
            | Exp::Basic(BasicOp::Iota { .. })
            | Exp::Basic(BasicOp::Scratch { .. })
    )
}

/// Asserts that `seed` has the shape of `like` (a tangent or adjoint
/// passed to `jvp`/`vjp` must match the value it belongs to); the check
/// carries the builder's current span, the AD node's.
pub fn check_same_shape(b: &mut Builder, seed: Operand, like: Operand, what: &str) {
    let (Operand::Var(s), Operand::Var(l)) = (seed, like) else {
        return;
    };
    let rank = b.type_of(l).rank();
    if b.type_of(s).rank() != rank || b.type_of(s).is_acc() {
        return;
    }
    for k in 0..rank {
        let ns = b.dim(s, k);
        let nl = b.dim(l, k);
        let ok = b.cmp(CmpOp::Eq, ns, nl);
        b.assert(
            ok,
            format!(
                "size mismatch: dimension {} of the {what} differs from the value's",
                k + 1
            ),
        );
    }
}
