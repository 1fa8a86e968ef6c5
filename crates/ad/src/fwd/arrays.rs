//! Array operations are linear in their array operands: the tangent is
//! the same operation applied to the tangents (indices, sizes and shapes
//! stay primal). `iota`, `scratch`, `size` and tuning parameters have zero
//! tangents.

use super::Fwd;
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let p = &s.pat;
    // The same expression on the tangent of `arr`, if it has one.
    let on_tan = |f: &Fwd, arr: VName, g: &dyn Fn(VName) -> Exp| -> Option<Exp> {
        f.tan(arr.into()).map(|t| match t {
            Operand::Var(t) => g(t),
            Operand::Const(_) => unreachable!("array tangents are variables"),
        })
    };
    let tan_exp: Option<Exp> = match &s.exp {
        Exp::Basic(BasicOp::Index { arr, slice }) => on_tan(f, *arr, &|t| {
            Exp::Basic(BasicOp::Index {
                arr: t,
                slice: slice.clone(),
            })
        }),
        Exp::Basic(BasicOp::Update { arr, slice, value }) => {
            // Built before the primal update, which consumes `arr`.
            let ta = f.tan_or_zero(b, (*arr).into());
            let tv = f.tan_or_zero(b, *value);
            let Operand::Var(ta) = ta else {
                unreachable!("array tangents are variables")
            };
            b.add_stm(s.clone());
            let t = b.emit1_as(
                "upd_tan",
                Exp::Basic(BasicOp::Update {
                    arr: ta,
                    slice: slice.clone(),
                    value: tv,
                }),
            );
            f.set(p[0].name, &p[0].ty, Some(t.into()));
            return Ok(());
        }
        Exp::Basic(BasicOp::Reshape { arr, shape }) => on_tan(f, *arr, &|t| {
            Exp::Basic(BasicOp::Reshape {
                arr: t,
                shape: shape.clone(),
            })
        }),
        Exp::Basic(BasicOp::Flatten { arr }) => {
            on_tan(f, *arr, &|t| Exp::Basic(BasicOp::Flatten { arr: t }))
        }
        Exp::Basic(BasicOp::Unflatten { arr, n, m }) => on_tan(f, *arr, &|t| {
            Exp::Basic(BasicOp::Unflatten {
                arr: t,
                n: *n,
                m: *m,
            })
        }),
        Exp::Basic(BasicOp::Rearrange { arr, perm }) => on_tan(f, *arr, &|t| {
            Exp::Basic(BasicOp::Rearrange {
                arr: t,
                perm: perm.clone(),
            })
        }),
        Exp::Basic(BasicOp::Copy { arr }) => {
            on_tan(f, *arr, &|t| Exp::Basic(BasicOp::Copy { arr: t }))
        }
        Exp::Basic(BasicOp::Reverse { arr }) => {
            on_tan(f, *arr, &|t| Exp::Basic(BasicOp::Reverse { arr: t }))
        }
        Exp::Basic(BasicOp::Rotate { arr, amount }) => on_tan(f, *arr, &|t| {
            Exp::Basic(BasicOp::Rotate {
                arr: t,
                amount: *amount,
            })
        }),
        Exp::Basic(BasicOp::Concat { arrs }) => {
            if arrs.iter().any(|&a| f.tan(a.into()).is_some()) {
                let ts = arrs
                    .iter()
                    .map(|&a| match f.tan_or_zero(b, a.into()) {
                        Operand::Var(t) => t,
                        Operand::Const(_) => unreachable!("array tangents are variables"),
                    })
                    .collect();
                Some(Exp::Basic(BasicOp::Concat { arrs: ts }))
            } else {
                None
            }
        }
        Exp::Basic(BasicOp::Replicate { n, value }) => f
            .tan(*value)
            .map(|t| Exp::Basic(BasicOp::Replicate { n: *n, value: t })),
        // Zero tangents (and asserts, which bind nothing).
        _ => None,
    };
    b.add_stm(s.clone());
    if let Some(e) = tan_exp {
        let t = b.emit1_as("tan", e);
        f.set(p[0].name, &p[0].ty, Some(t.into()));
    }
    Ok(())
}
