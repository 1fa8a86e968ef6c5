//! The tangent (and adjoint) space of each primitive type, as Futhark
//! defines it: every primitive value has a tangent of its own type.
//! Floats use ordinary arithmetic; integers wrap around (so integer
//! polynomials get exact derivatives modulo 2ⁿ); booleans use `||` as
//! addition and `&&` as multiplication. Accumulators have no tangent
//! value of their own.

use parad_base::PrimType;
use parad_core::pexp::{eq, if_};
use parad_core::*;
use parad_core::{consts, PExp};

/// Whether values of type `t` (scalars or arrays of any element type)
/// carry tangents and adjoints.
pub fn is_diff(t: &Type) -> bool {
    t.elem().is_some()
}

/// Whether `t` has floating-point elements.
pub fn is_float(t: &Type) -> bool {
    matches!(t.elem(), Some(PrimType::Float(_)))
}

/// Zeros with the type (and run-time shape) of `like`.
pub fn zeros_like(b: &mut Builder, like: Operand) -> Operand {
    match like {
        Operand::Var(v) => zero_elem(b, v, 0),
        Operand::Const(c) => consts::zero(c.prim_type()).into(),
    }
}

/// Zeros shaped like `arr` without its `k` outer dimensions.
pub fn zero_elem(b: &mut Builder, arr: VName, k: usize) -> Operand {
    let t = b.type_of(arr);
    let mut z = consts::zero(t.elem().expect("ad: zeros of an accumulator")).into();
    for d in (k..t.rank()).rev() {
        let n = b.dim(arr, d);
        z = b.replicate(n, z).into();
    }
    z
}

/// The type of a tangent expression (one operand at least has one).
fn prim(b: &Builder, x: &PExp, y: &PExp) -> PrimType {
    b.expr_type(x)
        .or_else(|| b.expr_type(y))
        .unwrap_or_else(|| panic!("ad: untyped tangent arithmetic {x:?}, {y:?}"))
}

/// Scalar tangent addition (`||` on booleans; a constant zero operand is
/// dropped).
pub fn add(b: &mut Builder, x: impl Into<PExp>, y: impl Into<PExp>) -> Operand {
    let (x, y) = (x.into(), y.into());
    let t = prim(b, &x, &y);
    if x.is_zero() {
        b.expr_at(t, y)
    } else if y.is_zero() {
        b.expr_at(t, x)
    } else if t == PrimType::Bool {
        b.expr(x | y)
    } else {
        b.expr(x + y)
    }
}

/// Scalar tangent multiplication (`&&` on booleans). A constant factor
/// one is dropped and a constant factor zero gives zero: a zero tangent
/// or adjoint contributes nothing, even where the other factor is
/// infinite (as with static zeros), and Jacobians built symbolically
/// show their zero entries.
pub fn mul(b: &mut Builder, x: impl Into<PExp>, y: impl Into<PExp>) -> Operand {
    let (x, y) = (x.into(), y.into());
    let t = prim(b, &x, &y);
    if x.is_zero() || y.is_zero() {
        consts::zero(t).into()
    } else if x.is_one() {
        b.expr_at(t, y)
    } else if y.is_one() {
        b.expr_at(t, x)
    } else if t == PrimType::Bool {
        b.expr(x & y)
    } else {
        b.expr(x * y)
    }
}

/// Scalar tangent subtraction (`||` on booleans, as Futhark does).
pub fn sub(b: &mut Builder, x: impl Into<PExp>, y: impl Into<PExp>) -> Operand {
    let (x, y) = (x.into(), y.into());
    if prim(b, &x, &y) == PrimType::Bool {
        b.expr(x | y)
    } else {
        b.expr(x - y)
    }
}

/// Scalar tangent negation (the identity on booleans).
pub fn neg(b: &mut Builder, x: impl Into<PExp>) -> Operand {
    let x = x.into();
    if prim(b, &x, &x) == PrimType::Bool {
        b.expr(x)
    } else {
        b.expr(-x)
    }
}

/// `if c then x else y` on scalars (an `if` expression, so that only the
/// chosen operand matters).
pub fn select(
    b: &mut Builder,
    c: impl Into<PExp>,
    x: impl Into<PExp>,
    y: impl Into<PExp>,
) -> Operand {
    b.expr(if_(c, x, y))
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
        let ok = eq(b.dim(s, k), b.dim(l, k));
        let ok = b.expr(ok);
        b.assert(
            ok,
            format!(
                "size mismatch: dimension {} of the {what} differs from the value's",
                k + 1
            ),
        );
    }
}
