//! Statements at any depth, for passes and tests that ask "is there a …"
//! or "how many …" about a whole body or program, and for passes that
//! replace statements wherever they are ([`rewrite_stms`]). Built on
//! [`crate::visit`], so every nested body counts (branches, loop bodies,
//! the lambdas of SOACs, operators and AD nodes) and no caller needs its
//! own recursion over [`Exp`](crate::ir::Exp).

use crate::ir::{Body, Program, Stm};
use crate::visit::{self, Visitor};

struct Stms<F>(F);

impl<F: FnMut(&Stm)> Visitor for Stms<F> {
    fn visit_stm(&mut self, s: &Stm) {
        (self.0)(s);
        self.super_stm(s)
    }
}

/// Calls `f` on every statement of `body`, a statement before the
/// statements nested in it.
pub fn body_stms(body: &Body, f: impl FnMut(&Stm)) {
    Stms(f).visit_body(body)
}

/// Calls `f` on every statement of every function of `p`.
pub fn stms(p: &Program, mut f: impl FnMut(&Stm)) {
    for fun in &p.funs {
        body_stms(&fun.body, &mut f)
    }
}

/// The number of statements of `p`, at any depth, satisfying `pred`.
pub fn count(p: &Program, mut pred: impl FnMut(&Stm) -> bool) -> usize {
    let mut n = 0;
    stms(p, |s| n += usize::from(pred(s)));
    n
}

/// Whether some statement of `body`, at any depth, satisfies `pred`.
pub fn any_in_body(body: &Body, mut pred: impl FnMut(&Stm) -> bool) -> bool {
    let mut hit = false;
    body_stms(body, |s| hit = hit || pred(s));
    hit
}

/// Rewrites every statement of `body` at any depth, innermost first: `f`
/// gets each statement, its nested bodies already rewritten, and pushes
/// what replaces it (itself, other statements, or nothing) onto the
/// statements of its body.
pub fn rewrite_stms(body: &mut Body, f: &mut dyn FnMut(Stm, &mut Vec<Stm>)) {
    for mut s in std::mem::take(&mut body.stms) {
        visit::each_body_mut(&mut s.exp, |b| rewrite_stms(b, &mut *f));
        f(s, &mut body.stms);
    }
}
