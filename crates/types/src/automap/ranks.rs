//! The rank constraint language: rank variables, linear rank expressions,
//! and the constraint system of one top-level definition.
//!
//! See the module documentation of [`crate::automap`] for what the
//! variables mean and which constraints the caller must generate.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A rank variable: the implicit-map count `M` or implicit-replicate count
/// `R` of one application, or the associated rank `ᾱ` of a type variable.
/// Its meaning is given by the [`RankSystem`] that created it
/// ([`RankSystem::kind`]); variables of different systems must not be mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RankVar(pub(crate) u32);

impl RankVar {
    /// The variable's index in its system, `0..RankSystem::num_vars()`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One application site `e1 e2` of the definition, in creation order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AppId(pub(crate) u32);

impl AppId {
    /// The application's index in its system, `0..RankSystem::num_apps()`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a rank variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// `M` of an application: how many implicit `map`s lift its function.
    Maps(AppId),
    /// `R` of an application: how many implicit `replicate`s pad its
    /// argument.
    Reps(AppId),
    /// The associated rank `ᾱ` of a type variable: how many array dimensions
    /// the type variable's instance has at its outside. The caller keeps the
    /// map from its type variables to these.
    Assoc,
}

/// A linear rank expression `c + Σ kᵢ·vᵢ` with integer coefficients, kept
/// normalised: terms sorted by variable, no variable twice, no zero
/// coefficient. Two expressions are equal as linear forms iff they are `==`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RankExpr {
    constant: i64,
    terms: Vec<(RankVar, i64)>,
}

impl RankExpr {
    /// The constant rank `n` (e.g. `|[][]i32| = 2`).
    pub fn constant(n: i64) -> Self {
        RankExpr {
            constant: n,
            terms: Vec::new(),
        }
    }

    /// The rank `0`.
    pub fn zero() -> Self {
        Self::constant(0)
    }

    /// The expression consisting of one variable.
    pub fn var(v: RankVar) -> Self {
        RankExpr {
            constant: 0,
            terms: vec![(v, 1)],
        }
    }

    /// The constant part.
    pub fn constant_part(&self) -> i64 {
        self.constant
    }

    /// The variable terms, sorted by variable, coefficients non-zero.
    pub fn terms(&self) -> &[(RankVar, i64)] {
        &self.terms
    }

    /// `Some(c)` if the expression has no variables.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// Adds `k·v` in place.
    pub fn add_term(&mut self, v: RankVar, k: i64) {
        if k == 0 {
            return;
        }
        match self.terms.binary_search_by_key(&v, |&(w, _)| w) {
            Ok(i) => {
                self.terms[i].1 += k;
                if self.terms[i].1 == 0 {
                    self.terms.remove(i);
                }
            }
            Err(i) => self.terms.insert(i, (v, k)),
        }
    }

    /// The value under an assignment of every variable.
    pub fn eval(&self, value: impl Fn(RankVar) -> i64) -> i64 {
        self.constant + self.terms.iter().map(|&(v, k)| k * value(v)).sum::<i64>()
    }

    /// `k·self`.
    pub fn scale(&self, k: i64) -> Self {
        if k == 0 {
            return Self::zero();
        }
        RankExpr {
            constant: self.constant * k,
            terms: self.terms.iter().map(|&(v, c)| (v, c * k)).collect(),
        }
    }
}

impl From<RankVar> for RankExpr {
    fn from(v: RankVar) -> Self {
        RankExpr::var(v)
    }
}

impl From<i64> for RankExpr {
    fn from(n: i64) -> Self {
        RankExpr::constant(n)
    }
}

impl AddAssign<&RankExpr> for RankExpr {
    fn add_assign(&mut self, rhs: &RankExpr) {
        self.constant += rhs.constant;
        for &(v, k) in &rhs.terms {
            self.add_term(v, k);
        }
    }
}

impl<T: Into<RankExpr>> Add<T> for RankExpr {
    type Output = RankExpr;
    fn add(mut self, rhs: T) -> RankExpr {
        self += &rhs.into();
        self
    }
}

impl<T: Into<RankExpr>> Sub<T> for RankExpr {
    type Output = RankExpr;
    fn sub(mut self, rhs: T) -> RankExpr {
        self += &rhs.into().scale(-1);
        self
    }
}

impl Neg for RankExpr {
    type Output = RankExpr;
    fn neg(self) -> RankExpr {
        self.scale(-1)
    }
}

impl Mul<i64> for RankExpr {
    type Output = RankExpr;
    fn mul(self, k: i64) -> RankExpr {
        self.scale(k)
    }
}

impl<T: Into<RankExpr>> Add<T> for RankVar {
    type Output = RankExpr;
    fn add(self, rhs: T) -> RankExpr {
        RankExpr::var(self) + rhs
    }
}

impl Mul<i64> for RankVar {
    type Output = RankExpr;
    fn mul(self, k: i64) -> RankExpr {
        RankExpr::var(self).scale(k)
    }
}

impl<T: Into<RankExpr>> Sub<T> for RankVar {
    type Output = RankExpr;
    fn sub(self, rhs: T) -> RankExpr {
        RankExpr::var(self) - rhs
    }
}

/// One application's rank variables and the rank of its function's frame.
#[derive(Clone, Debug)]
pub struct App {
    /// `M`: implicit maps.
    pub maps: RankVar,
    /// `R`: implicit replicates.
    pub reps: RankVar,
    /// `|S1|`: the rank of the frame of the function expression `e1` (the
    /// maps already applied to it by earlier applications of the same
    /// chain). Up to `|S1|` of the `R` replicates are *induced* and free
    /// under [`Objective::InducedRepsFree`](super::Objective).
    pub frame: RankExpr,
}

/// The rank constraints of one top-level definition: applications (each
/// with `M`, `R` and the implied `M ∨ R`), associated ranks, and linear
/// equalities between rank expressions.
#[derive(Clone, Debug, Default)]
pub struct RankSystem {
    pub(crate) kinds: Vec<VarKind>,
    pub(crate) apps: Vec<App>,
    pub(crate) equalities: Vec<(RankExpr, RankExpr)>,
}

impl RankSystem {
    /// An empty system.
    pub fn new() -> Self {
        Self::default()
    }

    fn fresh(&mut self, kind: VarKind) -> RankVar {
        let v = RankVar(u32::try_from(self.kinds.len()).expect("too many rank variables"));
        self.kinds.push(kind);
        v
    }

    /// Records an application whose function expression has a frame of rank
    /// `frame` (`|S1|`; zero for a function that is not itself the result of
    /// a mapped application) and creates its `M` and `R`; Rule 2 (`M ∨ R`)
    /// is implied. The caller still adds the application's rank equality
    /// `M + |S1| + |τ_param| = R + |S2| + |τ_arg|` with [`Self::equate`].
    pub fn add_app(&mut self, frame: impl Into<RankExpr>) -> AppId {
        let id = AppId(u32::try_from(self.apps.len()).expect("too many applications"));
        let maps = self.fresh(VarKind::Maps(id));
        let reps = self.fresh(VarKind::Reps(id));
        self.apps.push(App {
            maps,
            reps,
            frame: frame.into(),
        });
        id
    }

    /// Replaces the frame rank of an application (for a caller that learns
    /// it after creating the variables).
    pub fn set_frame(&mut self, app: AppId, frame: impl Into<RankExpr>) {
        self.apps[app.index()].frame = frame.into();
    }

    /// A fresh associated rank variable `ᾱ`.
    pub fn assoc(&mut self) -> RankVar {
        self.fresh(VarKind::Assoc)
    }

    /// Adds the linear equality `lhs = rhs`.
    pub fn equate(&mut self, lhs: impl Into<RankExpr>, rhs: impl Into<RankExpr>) {
        self.equalities.push((lhs.into(), rhs.into()));
    }

    /// `M` of an application.
    pub fn maps(&self, app: AppId) -> RankVar {
        self.apps[app.index()].maps
    }

    /// `R` of an application.
    pub fn reps(&self, app: AppId) -> RankVar {
        self.apps[app.index()].reps
    }

    /// An application's record.
    pub fn app(&self, app: AppId) -> &App {
        &self.apps[app.index()]
    }

    /// All applications, in creation order.
    pub fn apps(&self) -> impl Iterator<Item = (AppId, &App)> {
        self.apps
            .iter()
            .enumerate()
            .map(|(i, a)| (AppId(i as u32), a))
    }

    /// The equalities, as given.
    pub fn equalities(&self) -> &[(RankExpr, RankExpr)] {
        &self.equalities
    }

    /// What a variable stands for.
    pub fn kind(&self, v: RankVar) -> VarKind {
        self.kinds[v.index()]
    }

    /// Number of rank variables (`M`, `R` and `ᾱ`).
    pub fn num_vars(&self) -> usize {
        self.kinds.len()
    }

    /// Number of applications.
    pub fn num_apps(&self) -> usize {
        self.apps.len()
    }

    /// The variable's printed name: `M3`/`R3` for application 3, `a7` for
    /// the associated rank that is variable 7.
    pub fn var_name(&self, v: RankVar) -> String {
        match self.kind(v) {
            VarKind::Maps(a) => format!("M{}", a.0),
            VarKind::Reps(a) => format!("R{}", a.0),
            VarKind::Assoc => format!("a{}", v.0),
        }
    }

    /// An expression printed with [`Self::var_name`]: `M0 + 2*a4 - 1`.
    pub fn show(&self, e: &RankExpr) -> String {
        let mut s = String::new();
        for &(v, k) in &e.terms {
            let name = self.var_name(v);
            let mag = k.abs();
            if s.is_empty() {
                if k < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if k < 0 { " - " } else { " + " });
            }
            if mag != 1 {
                s.push_str(&format!("{mag}*"));
            }
            s.push_str(&name);
        }
        if s.is_empty() {
            s = e.constant.to_string();
        } else if e.constant != 0 {
            s.push_str(&format!(
                " {} {}",
                if e.constant < 0 { '-' } else { '+' },
                e.constant.abs()
            ));
        }
        s
    }
}

/// Lists the constraints, one a line: `app 0: M0 ∨ R0, frame 0` and
/// `M0 = R0 + 1`.
impl fmt::Display for RankSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (id, app) in self.apps() {
            writeln!(
                f,
                "app {}: M{0} ∨ R{0}, frame {}",
                id.0,
                self.show(&app.frame)
            )?;
        }
        for (l, r) in &self.equalities {
            writeln!(f, "{} = {}", self.show(l), self.show(r))?;
        }
        Ok(())
    }
}
