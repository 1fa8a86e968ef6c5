//! Scalar expressions (Futhark's `PrimExp`): a tree of scalar operators
//! over operands and literals that [`Builder::expr`] turns into one
//! statement per operator. A partial derivative or an index computation
//! is then written as one expression, as in the AD digests:
//!
//! ```ignore
//! // d/dx atan(x) = 1 / (1 + x²), at whatever float type x has
//! let d = b.expr(1.0 / (1.0 + x * x));
//! // the last index of a non-empty array
//! let last = b.expr(w - 1);
//! ```
//!
//! Operators are overloaded on [`PExp`], [`Operand`] and [`VName`]
//! (`+ - * /`, `&`/`|` for `and`/`or`, unary `-` and `!`); other
//! operators have short constructors ([`un`], [`bin`], [`cmp`], [`lt`],
//! [`if_`], …).
//!
//! Each operator takes its type from its operands, as the builder's
//! scalar methods do (the left operand first; the value operand of
//! `ldexp`). A literal (`1.0`, `-1`) takes the type of the expression it
//! meets, converted exactly (see [`crate::consts`]), so one expression
//! serves every numeric type. Nothing is folded or reordered: the
//! statements compute exactly what the tree says, in IEEE arithmetic.

use crate::builder::Builder;
use crate::consts;
use crate::ir::{BasicOp, If, Operand};
use crate::names::VName;
use crate::ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
use crate::types::Type;
use crate::typing::{operand_type, TypeEnv};
use parad_base::PrimType;
use parad_base::Scalar;

/// A number without a type of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit {
    Int(i128),
    Float(f64),
}

impl Lit {
    /// The literal at type `t`.
    pub fn at(self, t: PrimType) -> Scalar {
        match self {
            Lit::Int(n) => consts::int(t, n),
            Lit::Float(x) => consts::float(t, x),
        }
    }
}

/// A scalar expression.
#[derive(Clone, Debug, PartialEq)]
pub enum PExp {
    Leaf(Operand),
    Lit(Lit),
    Un(UnOp, Box<PExp>),
    Bin(BinOp, Box<PExp>, Box<PExp>),
    Tern(TernOp, Box<[PExp; 3]>),
    Cmp(CmpOp, Box<PExp>, Box<PExp>),
    Conv(ConvOp, PrimType, Box<PExp>),
    /// `if c then x else y`: an `if` expression, so only the chosen
    /// side's statements run.
    If(Box<[PExp; 3]>),
}

impl PExp {
    /// The type of the value, where the leaves determine it (`None` for
    /// an expression of literals).
    pub fn prim_type(&self, env: &dyn TypeEnv) -> Option<PrimType> {
        match self {
            PExp::Leaf(o) => Some(leaf_type(env, o)),
            PExp::Lit(_) => None,
            PExp::Un(op, x) => op.result_type(x.prim_type(env)?),
            PExp::Bin(op, x, y) => bin_type(env, *op, x, y),
            PExp::Tern(_, xs) => xs.iter().find_map(|x| x.prim_type(env)),
            PExp::Cmp(..) => Some(PrimType::Bool),
            PExp::Conv(_, to, _) => Some(*to),
            PExp::If(xs) => xs[1..].iter().find_map(|x| x.prim_type(env)),
        }
    }

    /// The constant the expression is, if it is one (a literal converts
    /// exactly to every type, so it is compared as a number).
    fn is_const(&self, n: i128) -> bool {
        match self {
            PExp::Leaf(Operand::Const(c)) => *c == consts::int(c.prim_type(), n),
            PExp::Lit(Lit::Int(m)) => *m == n,
            PExp::Lit(Lit::Float(x)) => *x == n as f64,
            _ => false,
        }
    }

    /// Whether the expression is a constant zero (`-0.0` included).
    pub fn is_zero(&self) -> bool {
        self.is_const(0)
    }

    /// Whether the expression is a constant one.
    pub fn is_one(&self) -> bool {
        self.is_const(1)
    }
}

fn leaf_type(env: &dyn TypeEnv, o: &Operand) -> PrimType {
    match operand_type(env, o) {
        Ok(Type::Prim(t)) => t,
        Ok(t) => panic!("pexp: {o} has type {t}, expected a scalar"),
        Err(e) => panic!("pexp: {e}"),
    }
}

/// The annotation of a binary operator: its left operand's type, or the
/// right's (except for `ldexp`, whose right operand is an `i32`).
fn bin_type(env: &dyn TypeEnv, op: BinOp, x: &PExp, y: &PExp) -> Option<PrimType> {
    x.prim_type(env)
        .or_else(|| (op != BinOp::Ldexp).then(|| y.prim_type(env)).flatten())
}

fn boxed(x: impl Into<PExp>) -> Box<PExp> {
    Box::new(x.into())
}

pub fn un(op: UnOp, x: impl Into<PExp>) -> PExp {
    PExp::Un(op, boxed(x))
}

pub fn bin(op: BinOp, x: impl Into<PExp>, y: impl Into<PExp>) -> PExp {
    PExp::Bin(op, boxed(x), boxed(y))
}

pub fn tern(op: TernOp, x: impl Into<PExp>, y: impl Into<PExp>, z: impl Into<PExp>) -> PExp {
    PExp::Tern(op, Box::new([x.into(), y.into(), z.into()]))
}

pub fn cmp(op: CmpOp, x: impl Into<PExp>, y: impl Into<PExp>) -> PExp {
    PExp::Cmp(op, boxed(x), boxed(y))
}

pub fn cast(to: PrimType, x: impl Into<PExp>) -> PExp {
    PExp::Conv(ConvOp::Cast, to, boxed(x))
}

/// `if c then x else y` (see [`PExp::If`]).
pub fn if_(c: impl Into<PExp>, x: impl Into<PExp>, y: impl Into<PExp>) -> PExp {
    PExp::If(Box::new([c.into(), x.into(), y.into()]))
}

macro_rules! shorthands {
    ($($name:ident => $kind:ident::$op:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($kind), "::", stringify!($op), "`.")]
        pub fn $name(x: impl Into<PExp>, y: impl Into<PExp>) -> PExp {
            shorthands!(@ $kind $op x y)
        }
    )*};
    (@ CmpOp $op:ident $x:ident $y:ident) => { cmp(CmpOp::$op, $x, $y) };
    (@ BinOp $op:ident $x:ident $y:ident) => { bin(BinOp::$op, $x, $y) };
}

shorthands!(
    eq => CmpOp::Eq, ne => CmpOp::Ne, lt => CmpOp::Lt,
    le => CmpOp::Le, gt => CmpOp::Gt, ge => CmpOp::Ge,
    min => BinOp::Min, max => BinOp::Max, pow => BinOp::Pow,
);

impl From<Operand> for PExp {
    fn from(o: Operand) -> PExp {
        PExp::Leaf(o)
    }
}

impl From<VName> for PExp {
    fn from(v: VName) -> PExp {
        PExp::Leaf(Operand::Var(v))
    }
}

impl From<Scalar> for PExp {
    fn from(s: Scalar) -> PExp {
        PExp::Leaf(Operand::Const(s))
    }
}

impl From<Lit> for PExp {
    fn from(l: Lit) -> PExp {
        PExp::Lit(l)
    }
}

macro_rules! int_lits {
    ($($t:ty),*) => {$(
        impl From<$t> for PExp {
            fn from(n: $t) -> PExp {
                PExp::Lit(Lit::Int(n as i128))
            }
        }
    )*};
}

int_lits!(i32, i64, u64);

impl From<f64> for PExp {
    fn from(x: f64) -> PExp {
        PExp::Lit(Lit::Float(x))
    }
}

/// `+ - * / & |` with an expression, operand or name on the left, and
/// with a literal on the left of an expression, operand or name.
macro_rules! bin_op {
    ($tr:ident $m:ident => $op:ident) => {
        bin_op!(@any $tr $m $op; PExp, Operand, VName);
        bin_op!(@lit $tr $m $op; i32, i64, f64);
    };
    (@any $tr:ident $m:ident $op:ident; $($l:ty),*) => {$(
        impl<R: Into<PExp>> std::ops::$tr<R> for $l {
            type Output = PExp;
            fn $m(self, r: R) -> PExp {
                bin(BinOp::$op, self, r)
            }
        }
    )*};
    (@lit $tr:ident $m:ident $op:ident; $($l:ty),*) => {$(
        bin_op!(@lit1 $tr $m $op $l; PExp, Operand, VName);
    )*};
    (@lit1 $tr:ident $m:ident $op:ident $l:ty; $($r:ty),*) => {$(
        impl std::ops::$tr<$r> for $l {
            type Output = PExp;
            fn $m(self, r: $r) -> PExp {
                bin(BinOp::$op, self, r)
            }
        }
    )*};
}

bin_op!(Add add => Add);
bin_op!(Sub sub => Sub);
bin_op!(Mul mul => Mul);
bin_op!(Div div => Div);
bin_op!(BitAnd bitand => And);
bin_op!(BitOr bitor => Or);

/// Unary `-` (`neg`) and `!` (`not` on booleans, `complement` on
/// integers, as Futhark's `!`).
macro_rules! un_ops {
    ($($l:ty),*) => {$(
        impl std::ops::Neg for $l {
            type Output = PExp;
            fn neg(self) -> PExp {
                un(UnOp::Neg, self)
            }
        }
        impl std::ops::Not for $l {
            type Output = PExp;
            fn not(self) -> PExp {
                un(UnOp::Not, self)
            }
        }
    )*};
}

un_ops!(PExp, Operand, VName);

impl Builder<'_> {
    /// Emits the statements computing `e`; its value (the operand
    /// itself for a leaf). Panics where a literal's type cannot be
    /// inferred (see [`Self::expr_at`]).
    pub fn expr(&mut self, e: impl Into<PExp>) -> Operand {
        self.emit_pexp(&e.into(), None)
    }

    /// [`Self::expr`] with literals that meet no typed operand taken at
    /// type `t`.
    pub fn expr_at(&mut self, t: PrimType, e: impl Into<PExp>) -> Operand {
        self.emit_pexp(&e.into(), Some(t))
    }

    /// The type of `e`'s value where its leaves determine it.
    pub fn expr_type(&self, e: &PExp) -> Option<PrimType> {
        e.prim_type(&*self.ctx)
    }

    /// Emits `e`, whose context expects type `want` (known or not).
    fn emit_pexp(&mut self, e: &PExp, want: Option<PrimType>) -> Operand {
        let typed = |t: Option<PrimType>| {
            t.unwrap_or_else(|| panic!("pexp: cannot infer the type of {e:?}"))
        };
        let op = match e {
            PExp::Leaf(o) => return *o,
            PExp::Lit(l) => return l.at(typed(want)).into(),
            PExp::Un(op, x) => {
                // The context types the operand of a type-preserving operator.
                let keeps = want.filter(|&w| op.result_type(w) == Some(w));
                let t = typed(self.expr_type(x).or(keeps));
                let x = self.emit_pexp(x, Some(t));
                let op = match (op, t) {
                    (UnOp::Not, PrimType::Int(_)) => UnOp::Complement,
                    _ => *op,
                };
                BasicOp::UnOp(op, t, x)
            }
            PExp::Bin(op, x, y) => {
                let t = typed(bin_type(&*self.ctx, *op, x, y).or(want));
                let ty = op.operand_types(t).map_or(t, |(_, ty)| ty);
                let x = self.emit_pexp(x, Some(t));
                let y = self.emit_pexp(y, Some(ty));
                BasicOp::BinOp(*op, t, x, y)
            }
            PExp::Tern(op, xs) => {
                let t = typed(self.expr_type(e).or(want));
                let [x, y, z] = xs.as_ref().each_ref().map(|x| self.emit_pexp(x, Some(t)));
                BasicOp::TernOp(*op, t, x, y, z)
            }
            PExp::Cmp(op, x, y) => {
                let t = typed(self.expr_type(x).or_else(|| self.expr_type(y)));
                let x = self.emit_pexp(x, Some(t));
                let y = self.emit_pexp(y, Some(t));
                BasicOp::Cmp(*op, t, x, y)
            }
            PExp::Conv(op, to, x) => {
                let from = typed(self.expr_type(x));
                let x = self.emit_pexp(x, Some(from));
                BasicOp::Conv(*op, from, *to, x)
            }
            PExp::If(xs) => {
                let [c, x, y] = xs.as_ref();
                let t = typed(self.expr_type(e).or(want));
                let cond = self.emit_pexp(c, Some(PrimType::Bool));
                let then_br = self.body(|b| vec![b.emit_pexp(x, Some(t))]);
                let else_br = self.body(|b| vec![b.emit_pexp(y, Some(t))]);
                let ret = vec![Type::Prim(t)];
                return self
                    .emit1(If {
                        cond,
                        then_br,
                        else_br,
                        ret,
                    })
                    .into();
            }
        };
        self.emit1(op).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Ctx;
    use crate::ir::{Exp, Stm};
    use parad_base::{FloatType, IntType};

    const F32: PrimType = PrimType::Float(FloatType::F32);
    const U8: PrimType = PrimType::Int(IntType::U8);

    fn var(ctx: &mut Ctx, t: PrimType) -> VName {
        let v = ctx.names.fresh("x");
        ctx.types.insert(v, Type::Prim(t));
        v
    }

    fn ops(stms: &[Stm]) -> Vec<&BasicOp> {
        stms.iter().filter_map(|s| s.exp.as_basic()).collect()
    }

    #[test]
    fn literals_take_the_type_they_meet() {
        let mut ctx = Ctx::default();
        let x = var(&mut ctx, F32);
        let mut b = Builder::new(&mut ctx);
        let r = b.expr(1.0 / (2 * x));
        let stms = b.finish();
        let two = Operand::f32(2.0);
        assert_eq!(
            ops(&stms),
            [
                &BasicOp::BinOp(BinOp::Mul, F32, two, x.into()),
                &BasicOp::BinOp(
                    BinOp::Div,
                    F32,
                    Operand::f32(1.0),
                    stms[0].pat[0].name.into()
                ),
            ]
        );
        assert_eq!(r, stms[1].pat[0].name.into());
    }

    #[test]
    fn leaves_emit_nothing_and_negation_of_unsigned_wraps() {
        let mut ctx = Ctx::default();
        let x = var(&mut ctx, U8);
        let mut b = Builder::new(&mut ctx);
        assert_eq!(b.expr(x), x.into());
        assert_eq!(b.expr_at(U8, -1), consts::highest(U8).into());
        let _ = b.expr(!x);
        let stms = b.finish();
        assert_eq!(ops(&stms), [&BasicOp::UnOp(UnOp::Complement, U8, x.into())]);
    }

    #[test]
    fn if_builds_the_branches_inside() {
        let mut ctx = Ctx::default();
        let x = var(&mut ctx, F32);
        let mut b = Builder::new(&mut ctx);
        let _ = b.expr(if_(lt(x, 0), 0, x * x));
        let stms = b.finish();
        assert_eq!(stms.len(), 2);
        let Exp::If(i) = &stms[1].exp else {
            panic!("{:?}", stms[1].exp)
        };
        assert_eq!(i.then_br.result, [Operand::f32(0.0)]);
        assert_eq!(i.else_br.stms.len(), 1);
        assert_eq!(i.ret, [Type::Prim(F32)]);
    }

    #[test]
    fn ldexp_takes_its_type_from_the_value() {
        let mut ctx = Ctx::default();
        let z = var(&mut ctx, PrimType::Int(IntType::I32));
        let mut b = Builder::new(&mut ctx);
        let _ = b.expr_at(F32, bin(BinOp::Ldexp, 1, z));
        let stms = b.finish();
        assert_eq!(
            ops(&stms),
            [&BasicOp::BinOp(
                BinOp::Ldexp,
                F32,
                Operand::f32(1.0),
                z.into()
            )]
        );
    }

    #[test]
    fn constants_are_recognised() {
        assert!(PExp::from(0.0).is_zero());
        assert!(PExp::from(consts::zero(F32)).is_zero());
        assert!(PExp::from(Scalar::F64(-0.0)).is_zero());
        assert!(PExp::from(1).is_one());
        assert!(PExp::from(consts::one(PrimType::Bool)).is_one());
        assert!(!PExp::from(consts::highest(U8)).is_one());
    }
}
