//! Dead-code elimination: statements whose results are never used are
//! removed, at every nesting level. Names are unique, so one use count
//! per name for the whole function suffices; statements are visited last
//! to first, so that removing one makes its operands' producers dead in
//! the same pass.

use parad_core::free::stm_uses;
use parad_core::{visit, BasicOp};
use parad_core::{Body, Exp, FunDef, Stm};
use rustc_hash::FxHashMap;

type Counts = FxHashMap<parad_core::VName, u32>;

pub fn dce_fun(f: &mut FunDef) {
    let mut counts = parad_core::free::fun_use_counts(f);
    dce_body(&mut f.body, &mut counts);
}

/// Whether a statement must stay even if its results are unused.
fn has_effect(e: &Exp) -> bool {
    matches!(e, Exp::Basic(BasicOp::Assert { .. }))
}

fn dce_body(b: &mut Body, counts: &mut Counts) {
    let stms = std::mem::take(&mut b.stms);
    let mut kept: Vec<Stm> = Vec::with_capacity(stms.len());
    for mut s in stms.into_iter().rev() {
        let live = has_effect(&s.exp)
            || s.pat
                .iter()
                .any(|p| counts.get(&p.name).copied().unwrap_or(0) > 0);
        if live {
            dce_nested(&mut s.exp, counts);
            kept.push(s);
        } else {
            stm_uses(&s, &mut |v| {
                if let Some(c) = counts.get_mut(&v) {
                    *c = c.saturating_sub(1);
                }
            });
        }
    }
    kept.reverse();
    b.stms = kept;
}

/// Removes dead statements inside the bodies of a live expression. A
/// removed statement's uses are subtracted, which may free outer names.
fn dce_nested(e: &mut Exp, counts: &mut Counts) {
    visit::each_body_mut(e, |b| dce_body(b, counts))
}
