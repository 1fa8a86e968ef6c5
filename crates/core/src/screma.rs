//! `screma` in terms of its parts. AD rules work on the plain SOACs
//! (DESIGN §1: fusion runs only after AD), so a `screma` reaching AD (from
//! a printed-IR file, say) is first split into a `map` followed by one
//! `scan` or `reduce` per operator; the split computes the same values.

use crate::builder::{Builder, Ctx};
use crate::ir::*;
use crate::visit::{self, VisitorMut};

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
    struct Splitter<'a>(&'a mut Ctx);
    impl VisitorMut for Splitter<'_> {
        fn visit_body(&mut self, body: &mut Body) {
            let mut b = Builder::new(self.0);
            for mut s in std::mem::take(&mut body.stms) {
                visit::each_body_mut(&mut s.exp, |inner| Splitter(b.ctx).visit_body(inner));
                match s.exp {
                    Exp::Soac(Soac::Screma(sc)) => {
                        b.set_span(s.span);
                        split(&mut b, s.pat, sc)
                    }
                    _ => b.add_stm(s),
                }
            }
            body.stms = b.finish();
        }
    }
    let mut ctx = Ctx::for_program(prog);
    for f in &mut prog.funs {
        Splitter(&mut ctx).visit_body(&mut f.body);
    }
    prog.names = ctx.names;
}
