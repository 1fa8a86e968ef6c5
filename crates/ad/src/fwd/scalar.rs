//! Tangents of scalar operators: `ẏ = Σᵢ ∂y/∂xᵢ · ẋᵢ` (seed 002 §3.2.1)
//! with the partial derivatives of [`crate::partials`], for every
//! primitive type. Conversions carry the tangent through the same
//! conversion (as Futhark does, bit casts included); comparisons have
//! zero tangents.

use super::Fwd;
use crate::linear::{add, mul};
use crate::partials;
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    b.add_stm(s.clone());
    let y: Operand = s.pat[0].name.into();
    let t = match &s.exp {
        Exp::Basic(BasicOp::UnOp(op, t, x)) => f.tan(*x).and_then(|dx| {
            let d = partials::unop(b, *op, *t, *x, y)?;
            Some(mul(b, d, dx))
        }),
        Exp::Basic(BasicOp::BinOp(op, t, x, z)) => {
            let (dx, dz) = (f.tan(*x), f.tan(*z));
            let want = (dx.is_some(), dz.is_some());
            let (px, pz) = partials::binop(b, *op, *t, *x, *z, y, want);
            sum_of_products(b, [(px, dx), (pz, dz)])
        }
        Exp::Basic(BasicOp::TernOp(op, _, x, y2, z)) => {
            let ps = partials::ternop(*op, [*x, *y2, *z]);
            let ds = [f.tan(*x), f.tan(*y2), f.tan(*z)];
            sum_of_products(b, ps.into_iter().zip(ds))
        }
        Exp::Basic(BasicOp::Conv(op, from, to, x)) => f.tan(*x).map(|dx| {
            b.emit1(Exp::Basic(BasicOp::Conv(*op, *from, *to, dx)))
                .into()
        }),
        _ => None,
    };
    f.set(s.pat[0].name, &s.pat[0].ty, t);
    Ok(())
}

/// `Σ pᵢ·ẋᵢ` over the terms where both the partial and the tangent are
/// non-zero (`None` when there is none).
fn sum_of_products(
    b: &mut Builder,
    terms: impl IntoIterator<Item = (Option<PExp>, Option<Operand>)>,
) -> Option<Operand> {
    let mut acc: Option<Operand> = None;
    for (p, d) in terms {
        if let (Some(p), Some(d)) = (p, d) {
            let m = mul(b, p, d);
            acc = Some(match acc {
                None => m,
                Some(a) => add(b, a, m),
            });
        }
    }
    acc
}
