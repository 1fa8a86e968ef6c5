//! The numeric modules `i8 … u64`, `f16 f32 f64` and `bool`, built into the
//! checker as qualifiers: `f32.sqrt` is the scalar intrinsic `sqrt` at
//! `f32`, `i64.f32` a conversion, `f64.pi` a literal, `f32.sum` a partial
//! application of the prelude's `reduce`.

use crate::env::{Checker, Res};
use crate::exp::apply;
use crate::intrinsics::{convert_type, scalar_intrinsic_type, Intrinsic, Reach};
use crate::tast::*;
use parad_base::{Diagnostic, FloatType, IntType, PrimType, Span};

/// Operators as module members (`f32.+`) and their intrinsics.
fn operator_intrinsic(name: &str) -> Option<Intrinsic> {
    Some(match name {
        "+" => Intrinsic::Add,
        "-" => Intrinsic::Sub,
        "*" => Intrinsic::Mul,
        "/" => Intrinsic::Div,
        "%" => Intrinsic::Mod,
        "**" => Intrinsic::Pow,
        "//" => Intrinsic::Quot,
        "%%" => Intrinsic::Rem,
        "&" => Intrinsic::And,
        "|" => Intrinsic::Or,
        "^" => Intrinsic::Xor,
        "<<" => Intrinsic::Shl,
        ">>" => Intrinsic::Shr,
        ">>>" => Intrinsic::Ushr,
        "==" => Intrinsic::Eq,
        "!=" => Intrinsic::Neq,
        "<" => Intrinsic::Lt,
        "<=" => Intrinsic::Le,
        ">" => Intrinsic::Gt,
        ">=" => Intrinsic::Ge,
        _ => return None,
    })
}

fn int_lit(v: i128, t: IntType, span: Span) -> TExp {
    TExp::new(TExpKind::Lit(Literal::Int(v)), int_prim(t), span)
}

fn float_lit(v: f64, t: FloatType, span: Span) -> TExp {
    TExp::new(TExpKind::Lit(Literal::Float(v)), float_prim(t), span)
}

impl Checker {
    /// Member `name` of the numeric module of `p`, or `None` if it has no
    /// such member.
    pub(crate) fn numeric_member(
        &mut self,
        p: PrimType,
        name: &str,
        span: Span,
    ) -> Res<Option<TExp>> {
        let t = Type::Prim(p);
        let intrinsic = |i: Intrinsic, inst: Vec<Type>, ty: Type| {
            TExp::new(TExpKind::Intrinsic(i.name(), inst), ty, span)
        };
        if let Some(from) = PrimType::from_name(name) {
            return Ok(Some(intrinsic(
                Intrinsic::Convert,
                vec![Type::Prim(from), t.clone()],
                convert_type(from, p),
            )));
        }
        if p == PrimType::Bool {
            return Ok(None);
        }
        if let Some(op) = operator_intrinsic(name) {
            let class = op
                .scalar_class()
                .expect("operator intrinsics are scalar intrinsics");
            if !class.admits(p) {
                return Ok(None);
            }
            let ty = scalar_intrinsic_type(op, &t).expect("operator intrinsic has a type");
            return Ok(Some(intrinsic(op, vec![t], ty)));
        }
        let conv = |to: PrimType| {
            Some(intrinsic(
                Intrinsic::Convert,
                vec![Type::Prim(p), Type::Prim(to)],
                convert_type(p, to),
            ))
        };
        let e = match (name, p) {
            ("t", _) => None,
            ("to_i64", _) => conv(PrimType::Int(IntType::I64)),
            ("to_f64", PrimType::Float(_)) => conv(PrimType::Float(FloatType::F64)),
            ("num_bits", _) => {
                let bits = match p {
                    PrimType::Int(i) => i.bits(),
                    PrimType::Float(f) => f.bits(),
                    PrimType::Bool => 8,
                };
                Some(int_lit(bits as i128, IntType::I32, span))
            }
            ("highest" | "lowest", PrimType::Int(i)) => {
                let (lo, hi) = i.bounds();
                let v = if name == "highest" { hi } else { lo };
                // Unsigned literals are kept in their unsigned value.
                Some(int_lit(v, i, span))
            }
            ("highest" | "inf", PrimType::Float(f)) => Some(float_lit(f64::INFINITY, f, span)),
            ("lowest", PrimType::Float(f)) => Some(float_lit(f64::NEG_INFINITY, f, span)),
            ("nan", PrimType::Float(f)) => Some(float_lit(f64::NAN, f, span)),
            ("pi", PrimType::Float(f)) => Some(float_lit(std::f64::consts::PI, f, span)),
            ("e", PrimType::Float(f)) => Some(float_lit(std::f64::consts::E, f, span)),
            ("epsilon", PrimType::Float(f)) => Some(float_lit(
                match f {
                    FloatType::F16 => 0.0009765625,
                    FloatType::F32 => f32::EPSILON as f64,
                    FloatType::F64 => f64::EPSILON,
                },
                f,
                span,
            )),
            ("sum" | "product" | "maximum" | "minimum", _) => Some(self.reduction(p, name, span)?),
            _ => match Intrinsic::from_name(name) {
                // Scalar intrinsics other than `convert` (reached through
                // type names above) and those of operators (`f32.+` above).
                Some(i) if i.reach() == Reach::Member => match i.scalar_class() {
                    Some(class) if class.admits(p) => {
                        scalar_intrinsic_type(i, &t).map(|ty| intrinsic(i, vec![t], ty))
                    }
                    _ => None,
                },
                _ => None,
            },
        };
        Ok(e)
    }

    /// `T.sum` and friends: `reduce op ne`, partially applied.
    fn reduction(&mut self, p: PrimType, name: &str, span: Span) -> Res<TExp> {
        let t = Type::Prim(p);
        let Some(reduce) = self.reduce_fun else {
            return Err(Diagnostic::error(
                span,
                format!("'{name}' needs the prelude's 'reduce'"),
            ));
        };
        let (op, ne) = match (name, p) {
            ("sum", PrimType::Int(i)) => (Intrinsic::Add, int_lit(0, i, span)),
            ("sum", PrimType::Float(f)) => (Intrinsic::Add, float_lit(0.0, f, span)),
            ("product", PrimType::Int(i)) => (Intrinsic::Mul, int_lit(1, i, span)),
            ("product", PrimType::Float(f)) => (Intrinsic::Mul, float_lit(1.0, f, span)),
            ("maximum", PrimType::Int(i)) => (Intrinsic::Max, int_lit(i.bounds().0, i, span)),
            ("maximum", PrimType::Float(f)) => {
                (Intrinsic::Max, float_lit(f64::NEG_INFINITY, f, span))
            }
            ("minimum", PrimType::Int(i)) => (Intrinsic::Min, int_lit(i.bounds().1, i, span)),
            ("minimum", PrimType::Float(f)) => (Intrinsic::Min, float_lit(f64::INFINITY, f, span)),
            _ => {
                return Err(Diagnostic::error(
                    span,
                    format!("module 'bool' has no member '{name}'"),
                ))
            }
        };
        let op_ty = Type::arrows(vec![t.clone(), t.clone()], t.clone());
        let opf = TExp::new(
            TExpKind::Intrinsic(op.name(), vec![t.clone()]),
            op_ty.clone(),
            span,
        );
        let arr = Type::array(t.clone(), 1);
        let reduce_ty = Type::arrows(vec![op_ty, t.clone(), arr.clone()], t.clone());
        let f = TExp::new(
            TExpKind::Global(reduce, vec![t.clone()], vec![]),
            reduce_ty,
            span,
        );
        Ok(apply(f, vec![opf, ne], Type::arrow(arr, t), span))
    }
}
