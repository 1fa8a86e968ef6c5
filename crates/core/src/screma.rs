//! `screma` in terms of its parts. AD rules work on the plain SOACs
//! (DESIGN §1: fusion runs only after AD), so a `screma` reaching AD (from
//! a printed-IR file, say) is first split into a `map` followed by one
//! `scan` or `reduce` per operator; the split computes the same values.

use crate::builder::{Builder, Ctx};
use crate::ir::*;
use crate::walk;

/// Emits statements binding `pat` to the values of `sc`.
pub fn split(b: &mut Builder, pat: Vec<Param>, sc: Screma) {
    let Screma {
        w,
        arrs,
        scans,
        reds,
        lam,
    } = sc;
    if scans.is_empty() && reds.is_empty() {
        return b.let_pat(pat, Map { w, lam, arrs });
    }
    let mapped = b.map_lambda(w, lam, arrs);
    let (mut inputs, mut pat) = (mapped.into_iter(), pat.into_iter());
    for op in scans {
        let k = op.neutral.len();
        let arrs = inputs.by_ref().take(k).collect();
        b.let_pat(pat.by_ref().take(k).collect(), Scan { w, op, arrs });
    }
    for Reduction { comm, op } in reds {
        let k = op.neutral.len();
        let arrs = inputs.by_ref().take(k).collect();
        b.let_pat(pat.by_ref().take(k).collect(), Reduce { w, comm, op, arrs });
    }
    for (p, v) in pat.zip(inputs) {
        b.let_pat(vec![p], Exp::atom(v));
    }
}

/// Splits every `screma` of `prog`, at any depth.
pub fn split_all(prog: &mut Program) {
    let mut ctx = Ctx::for_program(prog);
    for f in &mut prog.funs {
        walk::rewrite_stms(&mut f.body, &mut |s, out| match s.exp {
            Exp::Soac(Soac::Screma(sc)) => {
                let mut b = Builder::new(&mut ctx);
                b.set_span(s.span);
                split(&mut b, s.pat, sc);
                out.extend(b.finish())
            }
            _ => out.push(s),
        });
    }
    prog.names = ctx.names;
}
