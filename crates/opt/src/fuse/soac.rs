//! `map`, `reduce`, `scan` and `screma` as one shape: fusion works on
//! `screma`s and gives back a `map` when only mapped results are left.

use parad_core::*;

/// The width and input arrays of a SOAC that fusion handles.
pub fn parts(e: &Exp) -> Option<(Operand, &[VName])> {
    match e {
        Exp::Soac(Soac::Map(Map { w, arrs, .. }))
        | Exp::Soac(Soac::Reduce(Reduce { w, arrs, .. }))
        | Exp::Soac(Soac::Scan(Scan { w, arrs, .. }))
        | Exp::Soac(Soac::Screma(Screma { w, arrs, .. })) => Some((*w, arrs)),
        _ => None,
    }
}

/// `e` (one of those [`parts`] accepts) as a `screma`; a `reduce` or
/// `scan` gets a lambda returning its row.
pub fn to_screma(e: &Exp, names: &mut NameSource) -> Screma {
    match e {
        Exp::Soac(Soac::Map(m)) => Screma {
            w: m.w,
            arrs: m.arrs.clone(),
            scans: vec![],
            reds: vec![],
            lam: m.lam.clone(),
        },
        Exp::Soac(Soac::Reduce(r)) => Screma {
            w: r.w,
            arrs: r.arrs.clone(),
            scans: vec![],
            lam: identity(&r.op, names),
            reds: vec![Reduction {
                comm: r.comm,
                op: r.op.clone(),
            }],
        },
        Exp::Soac(Soac::Scan(s)) => Screma {
            w: s.w,
            arrs: s.arrs.clone(),
            scans: vec![s.op.clone()],
            reds: vec![],
            lam: identity(&s.op, names),
        },
        Exp::Soac(Soac::Screma(sc)) => sc.clone(),
        _ => unreachable!("only SOACs that `parts` accepts are fused"),
    }
}

/// The lambda returning its parameters, typed as `op`'s first operands.
fn identity(op: &AccOp, names: &mut NameSource) -> Lambda {
    let params: Vec<Param> = op.lam.params[..op.neutral.len()]
        .iter()
        .map(|p| Param::new(names.fresh_like(p.name), p.ty.clone()))
        .collect();
    Lambda {
        ret: params.iter().map(|p| p.ty.clone()).collect(),
        body: Body::new(
            vec![],
            params.iter().map(|p| Operand::Var(p.name)).collect(),
        ),
        params,
    }
}

/// `sc` as an expression: a `map` when it only has mapped results.
pub fn to_exp(sc: Screma) -> Exp {
    if sc.scans.is_empty() && sc.reds.is_empty() {
        return Exp::Soac(Soac::Map(Map {
            w: sc.w,
            lam: sc.lam,
            arrs: sc.arrs,
        }));
    }
    Exp::Soac(Soac::Screma(sc))
}

/// Whether some input of `sc` is an accumulator.
pub fn has_acc_inputs(sc: &Screma) -> bool {
    sc.lam.params.iter().any(|p| p.ty.is_acc())
}

/// The lambda's results (and the statement's) in three groups: for the
/// scans, the reductions, and mapped.
pub fn split3<T: Clone>(sc: &Screma, xs: &[T]) -> [Vec<T>; 3] {
    let (ns, nr) = (sc.scan_arity(), sc.red_arity());
    [
        xs[..ns].to_vec(),
        xs[ns..ns + nr].to_vec(),
        xs[ns + nr..].to_vec(),
    ]
}
