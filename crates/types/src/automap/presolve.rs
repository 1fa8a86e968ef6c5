//! Local solving before the ILP: rank variables that the constraints force,
//! and the split of the rest into independent parts.
//!
//! A variable is *forced* when every solution within the bound gives it the
//! same value, so fixing it changes neither the optimum nor the ambiguity
//! verdict. Three rules, applied until nothing changes:
//!
//! * an equality with one unknown, `k·v = c`, forces `v = c / k`;
//! * an equality whose unknowns are one application's `M` and `R`,
//!   `k·M − k·R = c`, forces `M = max(0, c/k)`, `R = max(0, −c/k)` by Rule 2;
//! * a positive `M` forces `R = 0`, and a positive `R` forces `M = 0`.
//!
//! A value that is fractional, negative or above the bound makes the system
//! infeasible. Arithmetic on monomorphic operators is solved completely by
//! these rules (every application's equality is `M − R = rank difference`
//! once the operands' ranks are known), which is what keeps large
//! definitions cheap (the thesis' "local solving", §4.10).
//!
//! The unknowns left are split into connected parts: two variables are
//! connected when they share an equality, are the `M` and `R` of one
//! application, or meet in one application's cost `max(0, R − |S1|)`.
//! Parts have disjoint variables, separable costs and no shared
//! constraints, so each is optimised and checked for ambiguity alone.

use super::ranks::{AppId, RankExpr, RankSystem, RankVar, VarKind};
use super::solve::{Objective, SolveOptions};

/// The outcome of local solving.
pub(crate) struct Presolved {
    /// The forced value of each variable, if any.
    pub fixed: Vec<Option<i64>>,
    /// The independent parts of what is left.
    pub parts: Vec<Part>,
}

/// One independent sub-system.
pub(crate) struct Part {
    /// Its unknown variables, in increasing order.
    pub vars: Vec<RankVar>,
    /// The applications whose `M`, `R` or cost involve its unknowns.
    pub apps: Vec<AppId>,
    /// Its equalities, `e = 0`, with the forced values substituted.
    pub eqs: Vec<RankExpr>,
}

/// Substitutes the fixed variables of `e`.
pub(crate) fn substitute(e: &RankExpr, fixed: &[Option<i64>]) -> RankExpr {
    let mut out = RankExpr::constant(e.constant_part());
    for &(v, k) in e.terms() {
        match fixed[v.index()] {
            Some(x) => out = out + k * x,
            None => out.add_term(v, k),
        }
    }
    out
}

/// Whether an application's replicates are partly free under `objective`
/// (its cost is `M + max(0, R − |S1|)` rather than `M + R`).
pub(crate) fn free_reps(sys: &RankSystem, app: AppId, objective: Objective) -> bool {
    objective == Objective::InducedRepsFree && sys.app(app).frame.as_constant() != Some(0)
}

/// The other variable of an application's `M`/`R` pair.
fn partner(sys: &RankSystem, v: RankVar) -> Option<RankVar> {
    match sys.kind(v) {
        VarKind::Maps(a) => Some(sys.reps(a)),
        VarKind::Reps(a) => Some(sys.maps(a)),
        VarKind::Assoc => None,
    }
}

/// Forces what the rules force; `Err(())` if the system is infeasible.
pub(crate) fn presolve(
    sys: &RankSystem,
    eqs: &[RankExpr],
    opts: &SolveOptions,
) -> Result<Presolved, ()> {
    let n = sys.num_vars();
    let bound = i64::from(opts.bound);
    let objective = opts.objective;
    let mut fixed: Vec<Option<i64>> = vec![None; n];
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in eqs.iter().enumerate() {
        for &(v, _) in e.terms() {
            occurs[v.index()].push(i);
        }
    }
    let mut cur: Vec<RankExpr> = eqs.to_vec();
    let mut queued = vec![true; eqs.len()];
    let mut work: Vec<usize> = if opts.local_solving {
        (0..eqs.len()).rev().collect()
    } else {
        Vec::new()
    };
    let mut pending: Vec<(RankVar, i64)> = Vec::new();
    loop {
        // Apply pending fixes, with Rule 2's consequences.
        while let Some((v, x)) = pending.pop() {
            if !(0..=bound).contains(&x) {
                return Err(());
            }
            match fixed[v.index()] {
                Some(y) if y == x => continue,
                Some(_) => return Err(()),
                None => {}
            }
            fixed[v.index()] = Some(x);
            for &i in &occurs[v.index()] {
                if !queued[i] {
                    queued[i] = true;
                    work.push(i);
                }
            }
            if x > 0 {
                if let Some(p) = partner(sys, v) {
                    pending.push((p, 0));
                }
            }
        }
        let Some(i) = work.pop() else { break };
        queued[i] = false;
        let e = substitute(&cur[i], &fixed);
        let c = e.constant_part();
        match *e.terms() {
            [] if c != 0 => return Err(()),
            [(v, k)] => {
                if c % k != 0 {
                    return Err(());
                }
                pending.push((v, -c / k));
            }
            [(v, k), (w, l)] if k == -l && partner(sys, v) == Some(w) => {
                if c % k != 0 {
                    return Err(());
                }
                // k·v − k·w = −c.
                let d = -c / k;
                pending.push((v, d.max(0)));
                pending.push((w, (-d).max(0)));
            }
            _ => {}
        }
        cur[i] = e;
    }

    // Connected parts of the unknowns.
    let mut uf = UnionFind::new(n);
    let residual: Vec<RankExpr> = cur
        .iter()
        .map(|e| substitute(e, &fixed))
        .filter(|e| !e.terms().is_empty())
        .collect();
    for e in &residual {
        let first = e.terms()[0].0;
        for &(v, _) in &e.terms()[1..] {
            uf.union(first.index(), v.index());
        }
    }
    // Per application, one unknown its cost and Rule 2 involve (if any).
    let mut anchor: Vec<Option<RankVar>> = Vec::with_capacity(sys.num_apps());
    for (id, app) in sys.apps() {
        let mut vars: Vec<RankVar> = [app.maps, app.reps]
            .into_iter()
            .filter(|v| fixed[v.index()].is_none())
            .collect();
        if free_reps(sys, id, objective) && fixed[app.reps.index()] != Some(0) {
            vars.extend(
                app.frame
                    .terms()
                    .iter()
                    .map(|&(v, _)| v)
                    .filter(|v| fixed[v.index()].is_none()),
            );
        }
        for w in vars.iter().skip(1) {
            uf.union(vars[0].index(), w.index());
        }
        anchor.push(vars.first().copied());
    }
    let mut part_of: Vec<Option<usize>> = vec![None; n];
    let mut parts: Vec<Part> = Vec::new();
    for (v, f) in fixed.iter().enumerate() {
        if f.is_some() {
            continue;
        }
        let root = uf.find(v);
        let p = *part_of[root].get_or_insert_with(|| {
            parts.push(Part {
                vars: Vec::new(),
                apps: Vec::new(),
                eqs: Vec::new(),
            });
            parts.len() - 1
        });
        parts[p].vars.push(RankVar(v as u32));
    }
    for e in residual {
        let root = uf.find(e.terms()[0].0.index());
        let p = part_of[root].expect("every unknown has a part");
        parts[p].eqs.push(e);
    }
    for (i, a) in anchor.iter().enumerate() {
        if let Some(v) = a {
            let p = part_of[uf.find(v.index())].expect("every unknown has a part");
            parts[p].apps.push(AppId(i as u32));
        }
    }
    Ok(Presolved { fixed, parts })
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        // The smaller index is the root, so parts come out in a fixed order.
        if a < b {
            self.parent[b] = a;
        } else if b < a {
            self.parent[a] = b;
        }
    }
}
