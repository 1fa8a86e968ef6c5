//! Dead code: statements whose results are unused, unused results of
//! `map`s (and of the mapped part of `screma`s), extra results of
//! `withacc`s and results of `if`s, and loop
//! parameters that nothing after the loop uses and that the body uses
//! only to compute dead parameters.
//!
//! Names are unique, so one use count per name for the whole function
//! suffices; statements are visited last to first, so that removing one
//! makes its operands' producers dead in the same pass. Counts only ever
//! overestimate (a dropped result's operand is subtracted, other removed
//! uses may not be), which can keep a statement one round too long but
//! never removes a used one. Kept regardless of use: assertions, and
//! statements binding nothing that contain one.

use parad_core::free::stm_uses;
use parad_core::*;
use rustc_hash::{FxHashMap, FxHashSet};

type Counts = FxHashMap<VName, u32>;

/// Removes dead code from `f`; whether anything changed.
pub fn dce_fun(f: &mut FunDef) -> bool {
    let counts = parad_core::free::fun_use_counts(f);
    let mut d = Dce {
        counts,
        changed: false,
    };
    d.body(&mut f.body);
    d.changed
}

struct Dce {
    counts: Counts,
    changed: bool,
}

fn is_assert(s: &Stm) -> bool {
    matches!(s.exp, Exp::Basic(BasicOp::Assert { .. }))
}

/// Whether `s` must stay even if its results are unused.
fn has_effect(s: &Stm) -> bool {
    is_assert(s)
        || (s.pat.is_empty() && {
            let mut hit = false;
            visit::each_body(&s.exp, |b| hit = hit || walk::any_in_body(b, is_assert));
            hit
        })
}

impl Dce {
    fn used(&self, v: VName) -> bool {
        self.counts.get(&v).copied().unwrap_or(0) > 0
    }

    fn forget(&mut self, o: Operand) {
        if let Some(c) = o.var().and_then(|v| self.counts.get_mut(&v)) {
            *c = c.saturating_sub(1);
        }
    }

    fn body(&mut self, b: &mut Body) {
        let stms = std::mem::take(&mut b.stms);
        let mut kept: Vec<Stm> = Vec::with_capacity(stms.len());
        for mut s in stms.into_iter().rev() {
            if has_effect(&s) || s.pat.iter().any(|p| self.used(p.name)) {
                self.prune_results(&mut s);
                visit::each_body_mut(&mut s.exp, |b| self.body(b));
                kept.push(s);
            } else {
                self.changed = true;
                stm_uses(&s, &mut |v| {
                    if let Some(c) = self.counts.get_mut(&v) {
                        *c = c.saturating_sub(1);
                    }
                });
            }
        }
        kept.reverse();
        b.stms = kept;
    }

    /// Keeps the first `skip` results of `lam` and, of the others (the
    /// `k`-th after them), those that are `live(k)`; the dropped ones'
    /// uses are forgotten.
    fn keep_lambda_results(&mut self, lam: &mut Lambda, skip: usize, live: impl Fn(usize) -> bool) {
        let res = lam.body.result.split_off(skip);
        let ret = lam.ret.split_off(skip);
        for (k, (r, t)) in res.into_iter().zip(ret).enumerate() {
            if live(k) {
                lam.body.result.push(r);
                lam.ret.push(t);
            } else {
                self.forget(r);
            }
        }
    }

    /// Drops the unused results of a kept statement where that is
    /// possible.
    fn prune_results(&mut self, s: &mut Stm) {
        let live: Vec<bool> = s.pat.iter().map(|p| self.used(p.name)).collect();
        if live.iter().all(|l| *l) {
            return;
        }
        match &mut s.exp {
            Exp::Soac(Soac::Map(m)) => self.keep_lambda_results(&mut m.lam, 0, |k| live[k]),
            Exp::Soac(Soac::Screma(sc)) => {
                let first = sc.scan_arity() + sc.red_arity();
                // Scan and reduction results stay (their operators
                // combine all their components).
                let live: Vec<bool> = (0..live.len()).map(|k| k < first || live[k]).collect();
                if live.iter().all(|l| *l) {
                    return;
                }
                self.keep_lambda_results(&mut sc.lam, 0, |k| live[k]);
                keep_pattern(s, &live);
                self.changed = true;
                return;
            }
            Exp::Soac(Soac::WithAcc(w)) => {
                // The input arrays stay (the function returns one
                // accumulator for all of an input's arrays); unused
                // extra results go.
                let arrs: usize = w.inputs.iter().map(|i| i.arrs.len()).sum();
                let accs = w.inputs.len();
                let live: Vec<bool> = (0..live.len()).map(|k| k < arrs || live[k]).collect();
                let extras = live.len().saturating_sub(arrs);
                if live.iter().all(|l| *l)
                    || w.lam.body.result.len() != accs + extras
                    || w.lam.ret.len() != accs + extras
                {
                    return;
                }
                self.keep_lambda_results(&mut w.lam, accs, |k| live[arrs + k]);
                keep_pattern(s, &live);
                self.changed = true;
                return;
            }
            Exp::If(i) => {
                let then_res = std::mem::take(&mut i.then_br.result);
                let else_res = std::mem::take(&mut i.else_br.result);
                let ret = std::mem::take(&mut i.ret);
                for (k, ((a, b), t)) in then_res.into_iter().zip(else_res).zip(ret).enumerate() {
                    if live[k] {
                        i.then_br.result.push(a);
                        i.else_br.result.push(b);
                        i.ret.push(t);
                    } else {
                        self.forget(a);
                        self.forget(b);
                    }
                }
            }
            Exp::Loop(l) => {
                let live = self.live_loop_params(l, &live);
                if live.iter().all(|l| *l) {
                    return;
                }
                let params = std::mem::take(&mut l.params);
                let res = std::mem::take(&mut l.body.result);
                for (k, (p, r)) in params.into_iter().zip(res).enumerate() {
                    if live[k] {
                        l.params.push(p);
                        l.body.result.push(r);
                    } else {
                        self.forget(r);
                        self.forget(p.1);
                    }
                }
                keep_pattern(s, &live);
                self.changed = true;
                return;
            }
            _ => return,
        }
        keep_pattern(s, &live);
        self.changed = true;
    }

    /// The loop parameters needed: those whose results are used after the
    /// loop, the condition of a `while` loop, and, to a fixed point,
    /// those that the body needs to compute needed ones (or its
    /// assertions).
    fn live_loop_params(&self, l: &Loop, used_after: &[bool]) -> Vec<bool> {
        let mut live = used_after.to_vec();
        for (k, (p, _)) in l.params.iter().enumerate() {
            if matches!(l.form, LoopForm::While { cond } if cond == p.name) {
                live[k] = true;
            }
        }
        loop {
            let mut needed: FxHashSet<VName> = FxHashSet::default();
            for (k, (p, _)) in l.params.iter().enumerate() {
                if live[k] {
                    if let Some(v) = l.body.result[k].var() {
                        needed.insert(v);
                    }
                    let mut vs = vec![];
                    p.ty.dim_vars(&mut vs);
                    needed.extend(vs);
                }
            }
            for s in l.body.stms.iter().rev() {
                if has_effect(s) || s.pat.iter().any(|p| needed.contains(&p.name)) {
                    stm_uses(s, &mut |v| {
                        needed.insert(v);
                    });
                }
            }
            let mut grew = false;
            for (k, (p, _)) in l.params.iter().enumerate() {
                if !live[k] && needed.contains(&p.name) {
                    live[k] = true;
                    grew = true;
                }
            }
            if !grew {
                return live;
            }
        }
    }
}

fn keep_pattern(s: &mut Stm, live: &[bool]) {
    let pat = std::mem::take(&mut s.pat);
    s.pat = pat
        .into_iter()
        .zip(live)
        .filter(|(_, l)| **l)
        .map(|(p, _)| p)
        .collect();
}
