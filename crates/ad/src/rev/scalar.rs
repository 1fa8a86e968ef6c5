//! Scalar operators: `x̄ += ∂y/∂x · ȳ` for each active operand, with the
//! partial derivatives of [`crate::partials`] (every primitive type has
//! adjoints, as in Futhark). A conversion sends the adjoint back through
//! the inverse conversion; comparisons have zero partials.

use super::adjenv::Rev;
use crate::linear::mul;
use crate::partials;
use parad_core::*;

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) {
    let y = s.pat[0].name;
    let yv: Operand = r.p(y).into();
    let ops: Vec<Operand> = match &s.exp {
        Exp::Basic(BasicOp::UnOp(_, _, x)) | Exp::Basic(BasicOp::Conv(_, _, _, x)) => vec![*x],
        Exp::Basic(BasicOp::BinOp(_, _, x, z)) => vec![*x, *z],
        Exp::Basic(BasicOp::TernOp(_, _, x, y1, z)) => vec![*x, *y1, *z],
        _ => return,
    };
    let wants: Vec<bool> = ops.iter().map(|&o| r.wants_op(b, o)).collect();
    if !wants.iter().any(|&w| w) {
        return;
    }
    let ybar = r.adj_val(b, y);
    let p: Vec<Operand> = ops.iter().map(|&o| r.po(o)).collect();
    let partials: Vec<Option<PExp>> = match s.exp {
        Exp::Basic(BasicOp::UnOp(op, t, _)) => vec![partials::unop(b, op, t, p[0], yv)],
        Exp::Basic(BasicOp::BinOp(op, t, _, _)) => {
            let (dx, dz) = partials::binop(b, op, t, p[0], p[1], yv, (wants[0], wants[1]));
            vec![dx, dz]
        }
        Exp::Basic(BasicOp::TernOp(op, ..)) => partials::ternop(op, [p[0], p[1], p[2]]).to_vec(),
        Exp::Basic(BasicOp::Conv(op, from, to, _)) => {
            let back = b.emit1(Exp::Basic(BasicOp::Conv(op, to, from, ybar)));
            r.add_op(b, ops[0], back.into());
            return;
        }
        _ => unreachable!(),
    };
    for ((o, d), w) in ops.into_iter().zip(partials).zip(wants) {
        if let (true, Some(d)) = (w, d) {
            let c = mul(b, d, ybar);
            r.add_op(b, o, c);
        }
    }
}
