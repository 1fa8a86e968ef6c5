//! Copy elimination: `let y = copy(x)` becomes `let y = x` wherever the
//! consumption rules still hold with `y` an alias of `x`.
//!
//! Lowering and AD insert copies ([`parad_core::consume::insert_copies`])
//! before every statement that consumes an array that is still needed
//! *at that point of the program as first written*; later passes (DCE,
//! CSE, hoisting, the simplifier) often remove the later uses, and the
//! user's own `copy` is often needless too. With `y` aliasing `x`, a
//! statement that consumes `y` consumes `x`, so the copy can go exactly
//! when no name aliasing `x` is used after that consumption — which is
//! rule 1 of the consumption checker (and rules 2–4 say the same of
//! loops and parallel bodies). So the pass replaces one copy at a time
//! and keeps the replacement when the IR checker accepts the program;
//! a valid program's results do not depend on whether updates happen in
//! place, so meaning is kept. The C backend then updates in place (its
//! run-time uniqueness check finds the block unshared) instead of
//! copying first.
//!
//! A function whose parameter becomes consumed changes what its callers
//! may do, which is why the whole program is checked, not the function.
//! Copies are tried last first, so that the positions of the ones not
//! yet tried stay valid.

use parad_core::visit::VisitorMut;
use parad_core::{check_program_at, BasicOp, Exp, Program, Stage, Stm};

/// Removes the copies that the consumption rules do not need.
pub fn remove_copies(prog: &mut Program, stage: Stage) {
    let n = count_copies(prog);
    for k in (0..n).rev() {
        let mut candidate = prog.clone();
        if replace_copy(&mut candidate, k) && check_program_at(&candidate, stage).is_ok() {
            *prog = candidate;
        }
    }
}

fn is_copy(s: &Stm) -> bool {
    matches!(s.exp, Exp::Basic(BasicOp::Copy { .. }))
}

fn count_copies(prog: &Program) -> usize {
    parad_core::walk::count(prog, is_copy)
}

/// Turns the `k`-th copy (in the order of [`parad_core::walk`]: a
/// statement before the statements nested in it) into an alias.
fn replace_copy(prog: &mut Program, k: usize) -> bool {
    struct Replace {
        seen: usize,
        k: usize,
        done: bool,
    }
    impl VisitorMut for Replace {
        fn visit_stm(&mut self, s: &mut Stm) {
            if let Exp::Basic(BasicOp::Copy { arr }) = s.exp {
                if self.seen == self.k {
                    s.exp = Exp::atom(arr);
                    self.done = true;
                }
                self.seen += 1;
            }
            self.super_stm(s)
        }
    }
    let mut r = Replace {
        seen: 0,
        k,
        done: false,
    };
    for f in &mut prog.funs {
        r.visit_body(&mut f.body);
    }
    r.done
}
