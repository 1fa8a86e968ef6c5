//! The state of a reverse sweep: the renaming of primal variables, the
//! adjoint environment (adjoints created lazily: a variable without an
//! entry has a zero adjoint), and the set of active variables (those that
//! depend on the differentiated parameters; only they get adjoints).
//!
//! Adjoints are keyed by the ORIGINAL names of the primal variables, so
//! that re-executed (renamed) copies of a scope share them.

use super::build::{add_values, in_bounds, is_diff, map, zeros_like};
use parad_core::free::{body_binds, exp_binds, exp_uses};
use parad_core::subst::Subst;
use parad_core::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// The adjoint of one variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Adj {
    /// A value of the primal's type.
    Val(Operand),
    /// An accumulator (free arrays inside a map's return sweep): updates
    /// add into it and it cannot be read.
    Acc(VName),
}

pub struct Rev {
    pub subst: Subst,
    pub adj: FxHashMap<VName, Adj>,
    /// Statically sparse adjoints (seed 001 §3.2): arrays whose adjoint
    /// is zero except at the listed rows, `(index, row adjoint)`, as the
    /// `min`/`max` reduction rule produces. A name is never in both maps;
    /// every accessor of [`Self::adj`] makes a sparse adjoint dense first,
    /// except the `map` rule, which runs only the iterations at the points
    /// (see [`super::sparse`]).
    pub sparse: FxHashMap<VName, Vec<(Operand, Operand)>>,
    pub active: FxHashSet<VName>,
    /// Set when the next body's seeds are a user's adjoints, to be checked
    /// against the results' shapes (with the `vjp`'s location).
    pub check_seeds: Option<parad_base::Span>,
}

/// Names that (transitively) depend on `params` in `body`; names bound
/// inside a statement are all active when the statement uses an active
/// name (conservative, and cheap).
pub fn activity(params: &[VName], body: &Body) -> FxHashSet<VName> {
    let mut active: FxHashSet<VName> = params.iter().copied().collect();
    mark_body(body, &mut active);
    active
}

fn mark_body(body: &Body, active: &mut FxHashSet<VName>) {
    for s in &body.stms {
        // `iota`'s count gets an adjoint in reverse mode (see `rev_stm`).
        if crate::linear::never_active(&s.exp) && !matches!(s.exp, Exp::Basic(BasicOp::Iota { .. }))
        {
            continue;
        }
        let mut uses_active = false;
        exp_uses(&s.exp, &mut |v| uses_active |= active.contains(&v));
        if uses_active {
            for p in &s.pat {
                active.insert(p.name);
            }
            exp_binds(&s.exp, &mut |v| {
                active.insert(v);
            });
        }
    }
}

impl Rev {
    pub fn new(active: FxHashSet<VName>) -> Rev {
        Rev {
            subst: Subst::default(),
            adj: FxHashMap::default(),
            sparse: FxHashMap::default(),
            active,
            check_seeds: None,
        }
    }

    /// The current copy of primal variable `v`.
    pub fn p(&self, v: VName) -> VName {
        self.subst.get(v)
    }

    pub fn po(&self, o: Operand) -> Operand {
        self.subst.operand(o)
    }

    /// Whether `v` carries an adjoint: active and not an accumulator.
    pub fn wants(&self, b: &Builder, v: VName) -> bool {
        self.active.contains(&v) && b.ctx.types.get(&v).is_some_and(is_diff)
    }

    pub fn wants_op(&self, b: &Builder, o: Operand) -> bool {
        o.var().is_some_and(|v| self.wants(b, v))
    }

    pub fn has_adj(&self, v: VName) -> bool {
        self.adj.contains_key(&v) || self.sparse.contains_key(&v)
    }

    /// Turns a sparse adjoint of `v` into an ordinary one.
    pub fn densify(&mut self, b: &mut Builder, v: VName) {
        if let Some(points) = self.sparse.remove(&v) {
            for (i, c) in points {
                self.add_row(b, v, i, c);
            }
        }
    }

    /// `v̄[i] += c` for one row, nothing if `i` is out of bounds.
    fn add_row(&mut self, b: &mut Builder, v: VName, i: Operand, c: Operand) {
        let new = match self.adj_any(b, v) {
            Adj::Acc(acc) => Adj::Acc(acc_add_slice(b, acc, &[DimIndex::Fix(i)], c)),
            Adj::Val(a) => {
                let a = a.var().expect("array adjoint");
                let n = b.width(a);
                let ok = in_bounds(b, i, n);
                let t = b.type_of(a);
                let r = super::build::if_(
                    b,
                    ok,
                    vec![t],
                    |b| {
                        let old = b.index(a, &[i]);
                        let sum = add_values(b, old.into(), c);
                        vec![b.update(a, &[i], sum).into()]
                    },
                    |_| vec![a.into()],
                );
                Adj::Val(r[0].into())
            }
        };
        self.adj.insert(v, new);
    }

    /// `v̄[i] += c` for one row `i` (ignored when out of bounds), kept
    /// sparse while `v` has no other adjoint.
    pub fn add_point(&mut self, b: &mut Builder, v: VName, i: Operand, c: Operand) {
        if !self.wants(b, v) {
            return;
        }
        if !self.adj.contains_key(&v) {
            self.sparse.entry(v).or_default().push((i, c));
            return;
        }
        self.add_row(b, v, i, c);
    }

    /// Forgets any adjoint of `v`.
    pub fn forget(&mut self, v: VName) {
        self.adj.remove(&v);
        self.sparse.remove(&v);
    }

    /// Forgets the adjoints of every name bound in `body` (a scope about
    /// to be differentiated again).
    pub fn forget_body(&mut self, body: &Body) {
        body_binds(body, &mut |v| {
            self.adj.remove(&v);
            self.sparse.remove(&v);
        });
    }

    /// The adjoint of `v` as a value (zeros if none yet).
    pub fn adj_val(&mut self, b: &mut Builder, v: VName) -> Operand {
        self.densify(b, v);
        match self.adj.get(&v) {
            Some(Adj::Val(o)) => *o,
            Some(Adj::Acc(_)) => panic!("rev: reading the accumulated adjoint of {v}"),
            None => {
                let z = zeros_like(b, Operand::Var(self.p(v)));
                self.adj.insert(v, Adj::Val(z));
                z
            }
        }
    }

    /// The adjoint of `v`, materialising zeros for a missing value adjoint.
    pub fn adj_any(&mut self, b: &mut Builder, v: VName) -> Adj {
        self.densify(b, v);
        match self.adj.get(&v) {
            Some(a) => *a,
            None => Adj::Val(self.adj_val(b, v)),
        }
    }

    /// `v̄ += c`.
    pub fn add(&mut self, b: &mut Builder, v: VName, c: Operand) {
        if !self.wants(b, v) {
            return;
        }
        self.densify(b, v);
        let new = match self.adj.get(&v) {
            None => Adj::Val(c),
            Some(Adj::Val(a)) => Adj::Val(add_values(b, *a, c)),
            Some(Adj::Acc(acc)) => Adj::Acc(acc_add_slice(b, *acc, &[], c)),
        };
        self.adj.insert(v, new);
    }

    pub fn add_op(&mut self, b: &mut Builder, o: Operand, c: Operand) {
        if let Operand::Var(v) = o {
            self.add(b, v, c)
        }
    }

    /// `v̄[slice] += c` (indices are in bounds: the primal read succeeded).
    pub fn add_at(&mut self, b: &mut Builder, v: VName, slice: &[DimIndex], c: Operand) {
        if !self.wants(b, v) {
            return;
        }
        self.densify(b, v);
        let new = match self.adj.get(&v).copied() {
            Some(Adj::Acc(acc)) => Adj::Acc(acc_add_slice(b, acc, slice, c)),
            cur => {
                let (a, c) = match cur {
                    Some(Adj::Val(a)) => {
                        let old = b.slice(a.var().expect("array adjoint"), slice.to_vec());
                        (a, add_values(b, old.into(), c))
                    }
                    _ => (zeros_like(b, Operand::Var(self.p(v))), c),
                };
                let arr = a.var().expect("array adjoint");
                Adj::Val(
                    b.emit1(Exp::Basic(BasicOp::Update {
                        arr,
                        slice: slice.to_vec(),
                        value: c,
                    }))
                    .into(),
                )
            }
        };
        self.adj.insert(v, new);
    }

    /// `v̄[idx[k]] += vals[k]` for each `k`, skipping out-of-bounds indices;
    /// the in-bounds indices must be distinct.
    pub fn add_scatter(&mut self, b: &mut Builder, v: VName, idx: VName, vals: VName) {
        if !self.wants(b, v) {
            return;
        }
        let w = b.width(idx);
        let new = match self.adj_any(b, v) {
            Adj::Acc(acc) => {
                let r = map(b, w, &[idx, vals, acc], |b, p| {
                    vec![acc_add_slice(b, p[2], &[DimIndex::Fix(p[0].into())], p[1].into()).into()]
                });
                Adj::Acc(r[0])
            }
            Adj::Val(a) => {
                let a = a.var().expect("array adjoint");
                let n = b.width(a);
                let row_t = b.type_of(a).row().expect("row");
                let sums = map(b, w, &[idx, vals], |b, p| {
                    let ok = in_bounds(b, p[0].into(), n);
                    let (i, x) = (p[0], p[1]);
                    super::build::if_(
                        b,
                        ok,
                        vec![row_t],
                        |b| {
                            let old = b.index(a, &[i.into()]);
                            vec![add_values(b, old.into(), x.into())]
                        },
                        |_| vec![x.into()],
                    )
                    .into_iter()
                    .map(Operand::Var)
                    .collect()
                });
                Adj::Val(b.scatter(a, idx, sums[0]).into())
            }
        };
        self.adj.insert(v, new);
    }
}

/// Adds `c` into `acc[slice]` (the accumulator's index space is the whole
/// shape of its array; out-of-bounds updates are ignored by `upd`).
pub fn acc_add_slice(b: &mut Builder, acc: VName, slice: &[DimIndex], c: Operand) -> VName {
    let rank = match b.type_of(acc) {
        Type::Acc(a) => a.ispace.len(),
        t => panic!("rev: {acc} of type {t} is not an accumulator"),
    };
    acc_add_rec(b, acc, slice, rank, vec![], c)
}

fn acc_add_rec(
    b: &mut Builder,
    acc: VName,
    slice: &[DimIndex],
    rank: usize,
    mut prefix: Vec<Operand>,
    c: Operand,
) -> VName {
    if prefix.len() == rank {
        return b.upd(acc, prefix, vec![c]);
    }
    match slice.first() {
        Some(DimIndex::Fix(i)) => {
            prefix.push(*i);
            acc_add_rec(b, acc, &slice[1..], rank, prefix, c)
        }
        first => {
            let cv = c.var().expect("rev: array contribution");
            let w = b.width(cv);
            let is = b.iota(w);
            let rest = if first.is_some() { &slice[1..] } else { slice };
            let first = first.copied();
            let r = map(b, w, &[is, cv, acc], |b, p| {
                let i: Operand = match first {
                    Some(DimIndex::Slice { start, stride, .. }) => {
                        let off = b.mul(p[0], stride);
                        b.add(start, off).into()
                    }
                    _ => p[0].into(),
                };
                let mut pre = prefix.clone();
                pre.push(i);
                vec![acc_add_rec(b, p[2], rest, rank, pre, p[1].into()).into()]
            });
            r[0]
        }
    }
}

impl Rev {
    /// Seeds for a nested body whose results are bound to `pat`: the
    /// adjoints of the float results (others get a placeholder that is
    /// never used).
    pub fn seeds(&mut self, b: &mut Builder, pat: &[Param]) -> Vec<Operand> {
        pat.iter()
            .map(|p| {
                if self.wants(b, p.name) {
                    self.adj_val(b, p.name)
                } else {
                    Operand::i64(0)
                }
            })
            .collect()
    }

    /// The type of an adjoint (value or accumulator).
    pub fn adj_type(&self, b: &Builder, a: Adj) -> Type {
        match a {
            Adj::Val(o) => b.type_of(o),
            Adj::Acc(v) => b.type_of(v),
        }
    }

    /// The current adjoint of `v` as an operand (value or accumulator).
    pub fn adj_operand(&mut self, b: &mut Builder, v: VName) -> Operand {
        match self.adj_any(b, v) {
            Adj::Val(o) => o,
            Adj::Acc(a) => a.into(),
        }
    }

    /// The current copies of `vars`, to be put back after building a
    /// nested scope (whose restores of in-place updated arrays are local).
    pub fn save_subst(&self, vars: &[VName]) -> Vec<(VName, VName)> {
        vars.iter().map(|&v| (v, self.p(v))).collect()
    }

    pub fn restore_subst(&mut self, saved: &[(VName, VName)]) {
        for &(v, p) in saved {
            self.subst.set(v, p);
        }
    }
}
