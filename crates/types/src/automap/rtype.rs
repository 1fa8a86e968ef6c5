//! Types as AUTOMAP's rank inference sees them: a rank (a linear
//! expression over rank variables) on a *base* that is not an array, and
//! their unification, which equates ranks in the [`RankSystem`] and unifies
//! bases syntactically (see `infer` for why this makes the rank equalities
//! of function types structural).

use super::{RankExpr, RankSystem};
use parad_base::PrimType;

/// Rank inference stopped: a construct it does not model, or a mismatch no
/// insertion of maps or replicates can repair.
#[derive(Debug)]
pub(crate) struct GiveUp(pub &'static str);

pub(crate) type R<T> = Result<T, GiveUp>;

/// A type as rank and base (module documentation).
#[derive(Clone, Debug)]
pub(crate) struct RType {
    pub(crate) rank: RankExpr,
    pub(crate) base: usize,
}

#[derive(Clone, Debug)]
pub(crate) enum Base {
    Link(usize),
    Var,
    Prim(PrimType),
    Tuple(Vec<RType>),
    Record(Vec<(String, RType)>),
    Fun(RType, RType),
    /// `acc t`.
    Acc(RType),
    /// A sum type: constructors sorted by name, with their payloads.
    Sum(Vec<(String, Vec<RType>)>),
    /// A sum type known so far by some of its constructors (from
    /// constructor expressions and patterns).
    SomeSum(Vec<(String, Vec<RType>)>),
    /// A record or tuple known so far by some of its fields (from
    /// projections of a value of a type not yet known).
    SomeRecord(Vec<(String, RType)>),
    /// A type parameter of the definition (rigid).
    Param(crate::tast::TypeParamId),
}

/// The bases of one definition (a union-find), the rank system their
/// unification adds to, and the types whose base may turn out a function
/// type.
#[derive(Default)]
pub(crate) struct Types {
    pub(crate) sys: RankSystem,
    bases: Vec<Base>,
    watch: Vec<RType>,
}

impl Types {
    fn base(&mut self, b: Base) -> usize {
        self.bases.push(b);
        self.bases.len() - 1
    }

    pub(crate) fn scalar(&mut self, b: Base) -> RType {
        RType {
            rank: RankExpr::zero(),
            base: self.base(b),
        }
    }

    /// A fresh type variable `[]^ᾱ β`.
    pub(crate) fn fresh(&mut self) -> RType {
        let rank = RankExpr::var(self.sys.assoc());
        let base = self.base(Base::Var);
        let t = RType { rank, base };
        self.watch.push(t.clone());
        t
    }

    /// The representative of base `b`, with path compression (chains of
    /// links would make long operator chains quadratic).
    fn find(&mut self, b: usize) -> usize {
        let mut root = b;
        while let Base::Link(n) = self.bases[root] {
            root = n;
        }
        let mut at = b;
        while let Base::Link(n) = self.bases[at] {
            self.bases[at] = Base::Link(root);
            at = n;
        }
        root
    }

    pub(crate) fn unify(&mut self, a: &RType, b: &RType) -> R<()> {
        self.sys.equate(a.rank.clone(), b.rank.clone());
        self.unify_base(a.base, b.base)
    }

    pub(crate) fn unify_base(&mut self, x: usize, y: usize) -> R<()> {
        let (x, y) = (self.find(x), self.find(y));
        if x == y {
            return Ok(());
        }
        match (self.bases[x].clone(), self.bases[y].clone()) {
            (Base::Var, _) => self.link(x, y),
            (_, Base::Var) => self.link(y, x),
            (Base::Prim(a), Base::Prim(b)) if a == b => Ok(()),
            (Base::Tuple(a), Base::Tuple(b)) if a.len() == b.len() => {
                self.bases[x] = Base::Link(y);
                a.iter().zip(&b).try_for_each(|(a, b)| self.unify(a, b))
            }
            (Base::Record(a), Base::Record(b))
                if a.len() == b.len() && a.iter().zip(&b).all(|(a, b)| a.0 == b.0) =>
            {
                self.bases[x] = Base::Link(y);
                a.iter()
                    .zip(&b)
                    .try_for_each(|(a, b)| self.unify(&a.1, &b.1))
            }
            (Base::Fun(p1, r1), Base::Fun(p2, r2)) => {
                self.bases[x] = Base::Link(y);
                self.unify(&p1, &p2)?;
                self.unify(&r1, &r2)
            }
            (Base::Acc(a), Base::Acc(b)) => {
                self.bases[x] = Base::Link(y);
                self.unify(&a, &b)
            }
            (Base::Sum(a), Base::Sum(b))
                if a.len() == b.len()
                    && a.iter()
                        .zip(&b)
                        .all(|(a, b)| a.0 == b.0 && a.1.len() == b.1.len()) =>
            {
                self.bases[x] = Base::Link(y);
                a.iter()
                    .zip(&b)
                    .flat_map(|(a, b)| a.1.iter().zip(&b.1))
                    .try_for_each(|(a, b)| self.unify(a, b))
            }
            (Base::Param(a), Base::Param(b)) if a == b => Ok(()),
            (Base::SomeSum(a), Base::Sum(_) | Base::SomeSum(_)) => {
                self.bases[x] = Base::Link(y);
                a.iter().try_for_each(|(c, ts)| {
                    let have = self.constructor(y, c, ts.len())?;
                    ts.iter().zip(&have).try_for_each(|(a, b)| self.unify(a, b))
                })
            }
            (Base::Sum(_), Base::SomeSum(_)) => self.unify_base(y, x),
            (Base::SomeRecord(a), Base::Record(_) | Base::Tuple(_) | Base::SomeRecord(_)) => {
                self.bases[x] = Base::Link(y);
                let whole = RType {
                    rank: RankExpr::zero(),
                    base: y,
                };
                a.iter().try_for_each(|(f, t)| {
                    let have = self.field(&whole, f)?;
                    self.unify(t, &have)
                })
            }
            (Base::Record(_) | Base::Tuple(_), Base::SomeRecord(_)) => self.unify_base(y, x),
            _ => Err(GiveUp("base mismatch")),
        }
    }

    /// Binds base variable `v` to base `b`, unless `v` occurs in `b`.
    fn link(&mut self, v: usize, b: usize) -> R<()> {
        if self.occurs(v, b) {
            return Err(GiveUp("occurs check"));
        }
        self.bases[v] = Base::Link(b);
        Ok(())
    }

    fn occurs(&mut self, v: usize, b: usize) -> bool {
        let b = self.find(b);
        if b == v {
            return true;
        }
        let parts: Vec<usize> = match &self.bases[b] {
            Base::Tuple(ts) => ts.iter().map(|t| t.base).collect(),
            Base::Record(fs) => fs.iter().map(|(_, t)| t.base).collect(),
            Base::Fun(p, r) => vec![p.base, r.base],
            Base::Acc(t) => vec![t.base],
            Base::Sum(cs) | Base::SomeSum(cs) => cs
                .iter()
                .flat_map(|(_, ts)| ts.iter().map(|t| t.base))
                .collect(),
            _ => vec![],
        };
        parts.into_iter().any(|p| self.occurs(v, p))
    }

    /// The parameter and result of a function type (rank 0).
    pub(crate) fn as_fun(&mut self, t: &RType) -> R<(RType, RType)> {
        self.sys.equate(t.rank.clone(), 0);
        let b = self.find(t.base);
        match self.bases[b].clone() {
            Base::Fun(p, r) => Ok((p, r)),
            Base::Var => {
                let (p, r) = (self.fresh(), self.fresh());
                self.bases[b] = Base::Fun(p.clone(), r.clone());
                Ok((p, r))
            }
            _ => Err(GiveUp("not a function")),
        }
    }

    /// The components of a tuple of `n` (rank 0).
    pub(crate) fn as_tuple(&mut self, t: &RType, n: usize) -> R<Vec<RType>> {
        self.sys.equate(t.rank.clone(), 0);
        let b = self.find(t.base);
        match self.bases[b].clone() {
            Base::Tuple(ts) if ts.len() == n => Ok(ts),
            Base::Var => {
                let ts: Vec<RType> = (0..n).map(|_| self.fresh()).collect();
                self.bases[b] = Base::Tuple(ts.clone());
                Ok(ts)
            }
            _ => Err(GiveUp("not a tuple")),
        }
    }

    /// The payload types of constructor `c` (with `n` payloads) of the sum
    /// type whose base is `b`, adding it to a sum known only in part.
    pub(crate) fn constructor(&mut self, b: usize, c: &str, n: usize) -> R<Vec<RType>> {
        let b = self.find(b);
        match self.bases[b].clone() {
            Base::Sum(cs) | Base::SomeSum(cs) if cs.iter().any(|(d, _)| d == c) => {
                let ts = cs.into_iter().find(|(d, _)| d == c).unwrap().1;
                if ts.len() == n {
                    Ok(ts)
                } else {
                    Err(GiveUp("constructor arity"))
                }
            }
            Base::SomeSum(mut cs) => {
                let ts: Vec<RType> = (0..n).map(|_| self.fresh()).collect();
                cs.push((c.to_string(), ts.clone()));
                self.bases[b] = Base::SomeSum(cs);
                Ok(ts)
            }
            Base::Var => {
                let ts: Vec<RType> = (0..n).map(|_| self.fresh()).collect();
                self.bases[b] = Base::SomeSum(vec![(c.to_string(), ts.clone())]);
                Ok(ts)
            }
            _ => Err(GiveUp("constructor of a type that is not a sum")),
        }
    }

    /// The type of field `f` of a record (or tuple) of rank 0 whose base is
    /// known by now.
    pub(crate) fn field(&mut self, t: &RType, f: &str) -> R<RType> {
        self.sys.equate(t.rank.clone(), 0);
        let b = self.find(t.base);
        match self.bases[b].clone() {
            Base::Record(fs) => fs
                .into_iter()
                .find(|(n, _)| n == f)
                .map(|(_, t)| t)
                .ok_or(GiveUp("no such field")),
            Base::Tuple(ts) => f
                .parse::<usize>()
                .ok()
                .and_then(|i| ts.get(i))
                .cloned()
                .ok_or(GiveUp("no such field")),
            Base::SomeRecord(mut fs) => match fs.iter().find(|(n, _)| n == f) {
                Some((_, t)) => Ok(t.clone()),
                None => {
                    let t = self.fresh();
                    fs.push((f.to_string(), t.clone()));
                    self.bases[b] = Base::SomeRecord(fs);
                    Ok(t)
                }
            },
            Base::Var => {
                let t = self.fresh();
                self.bases[b] = Base::SomeRecord(vec![(f.to_string(), t.clone())]);
                Ok(t)
            }
            _ => Err(GiveUp("field of a type without fields")),
        }
    }

    pub(crate) fn with_rank(&mut self, t: &RType, rank: RankExpr) -> RType {
        let t = RType { rank, base: t.base };
        self.watch.push(t.clone());
        t
    }

    /// After the walk: types whose base is a function type have rank 0.
    pub(crate) fn close(&mut self) {
        for t in std::mem::take(&mut self.watch) {
            let b = self.find(t.base);
            if matches!(self.bases[b], Base::Fun(..)) {
                self.sys.equate(t.rank, 0);
            }
        }
    }
}
