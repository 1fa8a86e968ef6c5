//! What each statement of one body binds, uses and consumes, for
//! deciding which statements may move past which.

use parad_core::consume::Consumption;
use parad_core::free::stm_uses;
use parad_core::*;
use rustc_hash::{FxHashMap, FxHashSet};

pub type Names = FxHashSet<VName>;

pub struct Facts {
    /// Per statement: the names its pattern binds.
    pub bound: Vec<Vec<VName>>,
    /// Per statement: every variable it uses, at any depth (names bound
    /// inside it included; they never clash with others).
    pub uses: Vec<Names>,
    /// Per statement: what it consumes of the names bound outside it,
    /// with everything those alias.
    pub consumed: Vec<Names>,
    /// The statement binding each name bound in the body.
    pub def: FxHashMap<VName, usize>,
    /// Names the body's result uses.
    pub result_uses: Names,
    /// Names that names bound in the body may share memory with.
    aliases: FxHashMap<VName, Vec<VName>>,
}

impl Facts {
    pub fn of_body(b: &Body, sums: &Consumption) -> Facts {
        let info = sums.body(b);
        let mut f = Facts {
            bound: vec![],
            uses: vec![],
            consumed: vec![],
            def: FxHashMap::default(),
            result_uses: b.result.iter().filter_map(|o| o.var()).collect(),
            aliases: FxHashMap::default(),
        };
        for (k, s) in b.stms.iter().enumerate() {
            let bound: Vec<VName> = s.pat.iter().map(|p| p.name).collect();
            for v in &bound {
                f.def.insert(*v, k);
                let a = info.aliases(*v);
                if !a.is_empty() {
                    f.aliases.insert(*v, a.to_vec());
                }
            }
            f.bound.push(bound);
            let mut uses = Names::default();
            stm_uses(s, &mut |v| {
                uses.insert(v);
            });
            f.uses.push(uses);
        }
        for s in &b.stms {
            let consumed = f.with_aliases(info.consumed_by(s).iter().copied());
            f.consumed.push(consumed);
        }
        f
    }

    /// `vs` and every name they may share memory with.
    pub fn with_aliases(&self, vs: impl IntoIterator<Item = VName>) -> Names {
        let mut out = Names::default();
        for v in vs {
            out.insert(v);
            if let Some(a) = self.aliases.get(&v) {
                out.extend(a.iter().copied());
            }
        }
        out
    }

    /// What statement `k` reads, with aliases.
    pub fn reads(&self, k: usize) -> Names {
        self.with_aliases(self.uses[k].iter().copied())
    }

    /// Whether a name bound by statement `k` is used after it other than
    /// by statement `except`, or by the body's result.
    pub fn used_after(&self, v: VName, k: usize, except: usize) -> bool {
        self.result_uses.contains(&v)
            || (k + 1..self.uses.len()).any(|m| m != except && self.uses[m].contains(&v))
    }

    pub fn is_assert(b: &Body, k: usize) -> bool {
        matches!(b.stms[k].exp, Exp::Basic(BasicOp::Assert { .. }))
    }
}
