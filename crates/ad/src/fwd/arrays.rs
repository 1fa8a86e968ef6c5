//! Array operations are linear in their array operands: the tangent is
//! the same operation applied to the tangents (indices, sizes and shapes
//! stay primal). `iota`, `scratch` and `size` have zero tangents.

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
        Exp::Index { arr, slice } => on_tan(f, *arr, &|t| Exp::Index {
            arr: t,
            slice: slice.clone(),
        }),
        Exp::Update { arr, slice, value } => {
            // Built before the primal update, which consumes `arr`.
            let ta = f.tan_or_zero(b, (*arr).into());
            let tv = f.tan_or_zero(b, *value);
            let Operand::Var(ta) = ta else {
                unreachable!("array tangents are variables")
            };
            b.add_stm(s.clone());
            let t = b.emit1_as(
                "upd_tan",
                Exp::Update {
                    arr: ta,
                    slice: slice.clone(),
                    value: tv,
                },
            );
            f.set(p[0].name, &p[0].ty, Some(t.into()));
            return Ok(());
        }
        Exp::Reshape { arr, shape } => on_tan(f, *arr, &|t| Exp::Reshape {
            arr: t,
            shape: shape.clone(),
        }),
        Exp::Flatten { arr } => on_tan(f, *arr, &|t| Exp::Flatten { arr: t }),
        Exp::Unflatten { arr, n, m } => on_tan(f, *arr, &|t| Exp::Unflatten {
            arr: t,
            n: *n,
            m: *m,
        }),
        Exp::Rearrange { arr, perm } => on_tan(f, *arr, &|t| Exp::Rearrange {
            arr: t,
            perm: perm.clone(),
        }),
        Exp::Copy { arr } => on_tan(f, *arr, &|t| Exp::Copy { arr: t }),
        Exp::Reverse { arr } => on_tan(f, *arr, &|t| Exp::Reverse { arr: t }),
        Exp::Rotate { arr, amount } => on_tan(f, *arr, &|t| Exp::Rotate {
            arr: t,
            amount: *amount,
        }),
        Exp::Concat { arrs } => {
            if arrs.iter().any(|&a| f.tan(a.into()).is_some()) {
                let ts = arrs
                    .iter()
                    .map(|&a| match f.tan_or_zero(b, a.into()) {
                        Operand::Var(t) => t,
                        Operand::Const(_) => unreachable!("array tangents are variables"),
                    })
                    .collect();
                Some(Exp::Concat { arrs: ts })
            } else {
                None
            }
        }
        Exp::Replicate { n, value } => f.tan(*value).map(|t| Exp::Replicate { n: *n, value: t }),
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
