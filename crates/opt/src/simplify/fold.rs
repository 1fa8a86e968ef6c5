//! Constant folding and algebraic identities on scalars.
//!
//! Folding evaluates with the interpreter's scalar semantics
//! (`parad_interp::prim`), so folded and run-time results agree bit for
//! bit; an operation the interpreter reports as an error (an integer
//! division by zero, a negative integer exponent) is left to fail at run
//! time. Identities are exact: on integers (wrapping) and booleans all
//! the usual ones; on floats only those IEEE arithmetic keeps for every
//! operand, NaN, infinities and signed zeros included (see the module
//! doc of [`super`]).

use super::{with_exp, Ctx};
use parad_base::{PrimType, Scalar};
use parad_core::consts::{is_one, is_zero};
use parad_core::*;
use parad_interp::prim;

pub fn const_fold(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    use BasicOp as B;
    use Operand::Const as C;
    let r = match &s.exp {
        Exp::Basic(B::UnOp(op, t, C(x))) => prim::unop(*op, *t, *x),
        Exp::Basic(B::BinOp(op, t, C(x), C(y))) => prim::binop(*op, *t, *x, *y),
        Exp::Basic(B::TernOp(op, t, C(x), C(y), C(z))) => prim::ternop(*op, *t, *x, *y, *z),
        Exp::Basic(B::Cmp(op, _, C(x), C(y))) => prim::cmp(*op, *x, *y),
        Exp::Basic(B::Conv(op, _, to, C(x))) => prim::convert(*op, *to, *x),
        _ => return None,
    };
    let c = r.ok()?;
    match s.pat.as_slice() {
        [p] if p.ty == Type::Prim(c.prim_type()) => Some(vec![with_exp(s, Exp::atom(c))]),
        _ => None,
    }
}

/// Whether `o` is the constant `-0.0`.
fn is_neg_zero(o: Operand) -> bool {
    match o {
        Operand::Const(Scalar::F16(x)) => x.to_f32() == 0.0 && x.is_sign_negative(),
        Operand::Const(Scalar::F32(x)) => x == 0.0 && x.is_sign_negative(),
        Operand::Const(Scalar::F64(x)) => x == 0.0 && x.is_sign_negative(),
        _ => false,
    }
}

fn zero(o: Operand) -> bool {
    matches!(o, Operand::Const(c) if is_zero(c))
}

/// `+0.0` or an integer zero or `false`.
fn pos_zero(o: Operand) -> bool {
    zero(o) && !is_neg_zero(o)
}

fn one(o: Operand) -> bool {
    matches!(o, Operand::Const(c) if is_one(c))
}

/// The all-ones value (`-1` of signed types, the maximum of unsigned
/// ones, `true`).
fn all_ones(o: Operand) -> bool {
    match o {
        Operand::Const(Scalar::Bool(b)) => b,
        Operand::Const(c) => match c.prim_type() {
            PrimType::Int(it) => c == Scalar::from_int(it, -1),
            _ => false,
        },
        _ => false,
    }
}

/// The simpler operand `op(a, b)` equals, or a constant.
fn binop_identity(op: BinOp, t: PrimType, a: Operand, b: Operand) -> Option<Operand> {
    use BinOp::*;
    let exact = !matches!(t, PrimType::Float(_));
    let same = a == b && a.var().is_some();
    let k = |n: i128| Some(Operand::Const(parad_core::consts::int(t, n)));
    match op {
        Add if zero(b) && (exact || is_neg_zero(b)) => Some(a),
        Add if zero(a) && (exact || is_neg_zero(a)) => Some(b),
        Sub if pos_zero(b) => Some(a),
        Sub if exact && same => k(0),
        Mul if one(b) => Some(a),
        Mul if one(a) => Some(b),
        Mul if exact && (zero(a) || zero(b)) => k(0),
        Div | Quot if one(b) => Some(a),
        Mod | Rem if exact && one(b) => k(0),
        Pow if exact && zero(b) => k(1),
        Pow if exact && one(b) => Some(a),
        Min | Max if same => Some(a),
        And | Or if same => Some(a),
        And if all_ones(b) => Some(a),
        And if all_ones(a) => Some(b),
        And if zero(a) || zero(b) => k(0),
        Or | Xor if zero(b) => Some(a),
        Or | Xor if zero(a) => Some(b),
        Or if all_ones(a) || all_ones(b) => Some(Operand::Const(if t == PrimType::Bool {
            Scalar::Bool(true)
        } else {
            parad_core::consts::int(t, -1)
        })),
        Xor if same => k(0),
        Shl | AShr | LShr if zero(b) => Some(a),
        _ => None,
    }
}

/// The value of `cmp(x, x)` on integers and booleans.
fn cmp_same(op: CmpOp) -> bool {
    matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge)
}

pub fn identity(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    use BasicOp as B;
    let o = match &s.exp {
        Exp::Basic(B::BinOp(op, t, a, b)) => binop_identity(*op, *t, *a, *b)?,
        Exp::Basic(B::Cmp(op, t, a, b))
            if a == b && a.var().is_some() && !matches!(t, PrimType::Float(_)) =>
        {
            Operand::bool(cmp_same(*op))
        }
        // -(-x), not (not x), complement (complement x).
        Exp::Basic(B::UnOp(
            op @ (UnOp::Neg | UnOp::Not | UnOp::Complement),
            t,
            Operand::Var(x),
        )) => match ctx.def(*x) {
            Some(B::UnOp(op2, t2, inner)) if op2 == op && t2 == t => *inner,
            _ => return None,
        },
        Exp::Basic(B::Conv(ConvOp::Cast, from, to, x)) if from == to => *x,
        _ => return None,
    };
    Some(vec![with_exp(s, Exp::atom(o))])
}

pub fn assert_true(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    match &s.exp {
        Exp::Basic(BasicOp::Assert {
            cond: Operand::Const(Scalar::Bool(true)),
            ..
        }) => Some(vec![]),
        _ => None,
    }
}

/// `o` as `y + c` with a constant `c`, from `o`'s definition.
fn offset(ctx: &Ctx, o: Operand) -> Option<(VName, Scalar)> {
    use Operand::{Const as C, Var as V};
    match ctx.def_of(o)? {
        BasicOp::BinOp(BinOp::Add, _, V(y), C(c)) | BasicOp::BinOp(BinOp::Add, _, C(c), V(y)) => {
            Some((*y, *c))
        }
        BasicOp::BinOp(BinOp::Sub, t, V(y), C(c)) => {
            Some((*y, prim::unop(UnOp::Neg, *t, *c).ok()?))
        }
        _ => None,
    }
}

/// `(y + a) + b` is `y + (a + b)`, and likewise with subtractions, on
/// integers (wrapping arithmetic is associative).
pub fn reassociate(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    use Operand::{Const as C, Var as V};
    let (t, x, b) = match &s.exp {
        Exp::Basic(BasicOp::BinOp(BinOp::Add, t, x @ V(_), C(b)))
        | Exp::Basic(BasicOp::BinOp(BinOp::Add, t, C(b), x @ V(_))) => (*t, *x, *b),
        Exp::Basic(BasicOp::BinOp(BinOp::Sub, t, x @ V(_), C(b))) => {
            (*t, *x, prim::unop(UnOp::Neg, *t, *b).ok()?)
        }
        _ => return None,
    };
    if !matches!(t, PrimType::Int(_)) {
        return None;
    }
    let (y, a) = offset(ctx, x)?;
    let c = prim::binop(BinOp::Add, t, a, b).ok()?;
    let e = BasicOp::BinOp(BinOp::Add, t, V(y), C(c));
    Some(vec![with_exp(s, e.into())])
}

/// Whether `o` is known to be at least zero: a constant, a size, a loop
/// index or an element of `iota n`.
fn non_negative(ctx: &Ctx, o: Operand) -> bool {
    match o {
        Operand::Const(c) => super::as_i64(c).is_some_and(|c| c >= 0),
        Operand::Var(v) => {
            ctx.below.contains_key(&v) || matches!(ctx.def(v), Some(BasicOp::Size { .. }))
        }
    }
}

/// Comparisons of a non-negative integer with zero, and its `max` with
/// zero.
pub fn sign_known(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let zero = |o: &Operand| matches!(o, Operand::Const(c) if is_zero(*c));
    let o = match &s.exp {
        Exp::Basic(BasicOp::Cmp(op, PrimType::Int(_), a, b)) => {
            let r = match op {
                CmpOp::Le if zero(a) && non_negative(ctx, *b) => true,
                CmpOp::Ge if zero(b) && non_negative(ctx, *a) => true,
                CmpOp::Lt if zero(b) && non_negative(ctx, *a) => false,
                CmpOp::Gt if zero(a) && non_negative(ctx, *b) => false,
                _ => return None,
            };
            Operand::bool(r)
        }
        Exp::Basic(BasicOp::BinOp(BinOp::Max, PrimType::Int(_), a, b)) => {
            match (zero(a), zero(b)) {
                (_, true) if non_negative(ctx, *a) => *a,
                (true, _) if non_negative(ctx, *b) => *b,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(vec![with_exp(s, Exp::atom(o))])
}
