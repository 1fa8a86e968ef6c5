//! Solving a [`RankSystem`] as an integer linear program: the optimum, the
//! ambiguity check, and the choice of the associated ranks.
//!
//! The encoding is described in the documentation of [`crate::automap`].

use super::ranks::{AppId, RankExpr, RankSystem, RankVar, VarKind};
use microlp::{ComparisonOp, OptimizationDirection, Problem, Variable};
use std::time::Duration;

/// The default bound `U` on every rank variable (see the module
/// documentation): no implicit map nest, replicate nest or type-variable
/// instance is deeper than this.
pub const DEFAULT_BOUND: u32 = 32;

/// What the ILP minimises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// `Σ_apps M + max(0, R − |S1|)`: replicates induced by the maps of an
    /// earlier argument of the same chain are free, since elaboration fuses
    /// them into a captured value (the real implementation, thesis §4.8).
    #[default]
    InducedRepsFree,
    /// `Σ_apps M + R`: the formal system's size (thesis §4.6, Rule 1).
    Formal,
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub objective: Objective,
    /// The bound `U` on every rank variable and the big-M of the Rule-2
    /// encoding. A system whose only solutions need a larger rank is
    /// reported infeasible.
    pub bound: u32,
    /// After the check on the binaries (does another optimum insert maps or
    /// replicates at a different set of applications?), also check whether
    /// another optimum has the same set but different counts. Without it the
    /// check is the thesis' conjectured-complete one; with it the check is
    /// exact. It costs one more small solve when the optimum is not size 0.
    pub exact_ambiguity: bool,
    /// Wall-clock limit for each solve; reaching it gives
    /// [`Outcome::Failed`].
    pub time_limit: Option<Duration>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            objective: Objective::default(),
            bound: DEFAULT_BOUND,
            exact_ambiguity: true,
            time_limit: None,
        }
    }
}

/// Sizes of the ILP, for reporting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IlpStats {
    /// Applications in the system.
    pub applications: usize,
    /// Rank variables (`M`, `R`, `ᾱ`).
    pub rank_vars: usize,
    /// Equalities given, less those that normalise to `0 = 0`.
    pub equalities: usize,
    /// Variables of the main ILP (rank variables, two binaries per
    /// application, and one excess variable per application with a
    /// non-constant or non-zero frame under [`Objective::InducedRepsFree`]).
    pub variables: usize,
    /// Constraints (rows) of the main ILP; bounds are not counted.
    pub constraints: usize,
    /// ILP solves run: the optimum, the ambiguity checks, and the choice of
    /// associated ranks.
    pub solves: usize,
}

/// The result of [`RankSystem::solve`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    pub outcome: Outcome,
    pub stats: IlpStats,
}

/// Whether the system has a unique optimal solution.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The unique optimum (unique in every `M` and `R`; the associated ranks
    /// are the least that fit it, see the module documentation).
    Unique(Solution),
    /// Two optima that differ in the `M`/`R` of some application.
    Ambiguous(Box<Ambiguity>),
    /// No assignment within the bound satisfies the constraints: a type
    /// error (a rank mismatch that no maps or replicates can fix).
    Infeasible,
    /// The solver gave no answer it could vouch for (a time limit, or a
    /// numerical failure). A compiler bug or a pathological program rather
    /// than a user error.
    Failed(String),
}

/// Two competing optimal elaborations.
#[derive(Clone, Debug)]
pub struct Ambiguity {
    /// The optimum found first.
    pub first: Solution,
    /// A different optimum of the same cost.
    pub second: Solution,
    /// The applications whose `M` or `R` differ between the two, in
    /// creation order.
    pub differing: Vec<AppId>,
}

/// An assignment of every rank variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    values: Vec<i64>,
    /// Per application: `M`, `R`, and the value of its frame `|S1|`.
    apps: Vec<(i64, i64, i64)>,
    cost: i64,
}

impl Solution {
    /// The value of a rank variable.
    pub fn value(&self, v: RankVar) -> i64 {
        self.values[v.index()]
    }

    /// The value of an expression.
    pub fn eval(&self, e: &RankExpr) -> i64 {
        e.eval(|v| self.value(v))
    }

    /// Implicit maps at an application.
    pub fn maps(&self, app: AppId) -> i64 {
        self.apps[app.index()].0
    }

    /// Implicit replicates at an application (induced or not).
    pub fn reps(&self, app: AppId) -> i64 {
        self.apps[app.index()].1
    }

    /// The rank of the application's function frame, `|S1|`.
    pub fn frame(&self, app: AppId) -> i64 {
        self.apps[app.index()].2
    }

    /// Replicates induced by the frame, `min(R, |S1|)`: elaboration fuses
    /// them (the argument is captured by the lambda of the map nest).
    pub fn induced_reps(&self, app: AppId) -> i64 {
        self.reps(app).min(self.frame(app).max(0))
    }

    /// Replicates that elaboration materialises, `max(0, R − |S1|)`.
    pub fn materialised_reps(&self, app: AppId) -> i64 {
        self.reps(app) - self.induced_reps(app)
    }

    /// The formal size `Σ M + R`.
    pub fn size(&self) -> i64 {
        self.apps.iter().map(|&(m, r, _)| m + r).sum()
    }

    /// The value of the objective that was minimised.
    pub fn cost(&self) -> i64 {
        self.cost
    }

    /// `(M, R)` of every application, in creation order.
    pub fn app_values(&self) -> impl Iterator<Item = (AppId, i64, i64)> + '_ {
        self.apps
            .iter()
            .enumerate()
            .map(|(i, &(m, r, _))| (AppId(i as u32), m, r))
    }
}

/// The ambiguity check a model is built for.
enum Check<'a> {
    /// The optimisation itself.
    None,
    /// Objective at most `opt`, and some binary differs from `first`'s.
    DiffersOnBinaries { first: &'a Solution, opt: i64 },
    /// Objective at most `opt`, the binaries as in `first`, and some
    /// non-zero `M`/`R` of `first` has another value.
    DiffersOnCounts { first: &'a Solution, opt: i64 },
}

/// An ILP built from a system, with the handles needed to read it back.
struct Model {
    problem: Problem,
    rank: Vec<Variable>,
    variables: usize,
    constraints: usize,
}

impl Model {
    fn var(&mut self, v: Variable) -> Variable {
        self.variables += 1;
        v
    }

    fn row(&mut self, terms: &[(Variable, f64)], op: ComparisonOp, rhs: f64) {
        self.constraints += 1;
        self.problem.add_constraint(terms, op, rhs);
    }
}

/// `lhs − rhs` of every equality, without the trivial ones; `Err(())` if one
/// is a false constant equality.
fn normalise(sys: &RankSystem) -> Result<Vec<RankExpr>, ()> {
    let mut out = Vec::new();
    for (l, r) in &sys.equalities {
        let d = l.clone() - r.clone();
        match d.as_constant() {
            Some(0) => {}
            Some(_) => return Err(()),
            None => out.push(d),
        }
    }
    Ok(out)
}

fn build(sys: &RankSystem, eqs: &[RankExpr], opts: &SolveOptions, check: &Check) -> Model {
    let u = f64::from(opts.bound);
    let ub = i32::try_from(opts.bound).unwrap_or(i32::MAX);
    let mut m = Model {
        problem: Problem::new(OptimizationDirection::Minimize),
        rank: Vec::with_capacity(sys.num_vars()),
        variables: 0,
        constraints: 0,
    };
    // Objective coefficients of the rank variables; the excess variables of
    // the induced-reps-free objective are added per application below.
    let mut cost = vec![0.0; sys.num_vars()];
    for app in &sys.apps {
        cost[app.maps.index()] = 1.0;
        let free_reps =
            opts.objective == Objective::InducedRepsFree && app.frame.as_constant() != Some(0);
        if !free_reps {
            cost[app.reps.index()] = 1.0;
        }
    }
    for (i, &c) in cost.iter().enumerate() {
        let v = m.problem.add_integer_var(c, (0, ub));
        let v = m.var(v);
        m.rank.push(v);
        debug_assert_eq!(v.idx(), i);
    }
    let mut objective: Vec<(Variable, f64)> = sys
        .apps
        .iter()
        .flat_map(|a| [a.maps, a.reps])
        .filter(|v| cost[v.index()] != 0.0)
        .map(|v| (m.rank[v.index()], 1.0))
        .collect();
    for eq in eqs {
        let terms: Vec<(Variable, f64)> = eq
            .terms()
            .iter()
            .map(|&(v, k)| (m.rank[v.index()], k as f64))
            .collect();
        m.row(&terms, ComparisonOp::Eq, -(eq.constant_part() as f64));
    }
    let fixed = match check {
        Check::DiffersOnCounts { first, .. } => Some(*first),
        _ => None,
    };
    let mut binaries = Vec::with_capacity(2 * sys.apps.len());
    for app in &sys.apps {
        // b_Q ∈ {0,1} with b_Q = 1 ⇔ Q > 0: Q ≤ U·b_Q and b_Q ≤ Q.
        let mut bs = [None; 2];
        for (j, q) in [app.maps, app.reps].into_iter().enumerate() {
            let b = match fixed {
                Some(first) => {
                    let on = i32::from(first.value(q) > 0);
                    m.problem.add_integer_var(0.0, (on, on))
                }
                None => m.problem.add_binary_var(0.0),
            };
            let b = m.var(b);
            let qv = m.rank[q.index()];
            m.row(&[(qv, 1.0), (b, -u)], ComparisonOp::Le, 0.0);
            m.row(&[(b, 1.0), (qv, -1.0)], ComparisonOp::Le, 0.0);
            bs[j] = Some(b);
            binaries.push((q, b));
        }
        // Rule 2: not both.
        let (bm, br) = (bs[0].unwrap(), bs[1].unwrap());
        m.row(&[(bm, 1.0), (br, 1.0)], ComparisonOp::Le, 1.0);
        // E ≥ R − |S1|, E ≥ 0: at the optimum E = max(0, R − |S1|).
        if cost[app.reps.index()] == 0.0 {
            let e = m.problem.add_integer_var(1.0, (0, ub));
            let e = m.var(e);
            objective.push((e, 1.0));
            let mut terms = vec![(e, 1.0), (m.rank[app.reps.index()], -1.0)];
            terms.extend(
                app.frame
                    .terms()
                    .iter()
                    .map(|&(v, k)| (m.rank[v.index()], k as f64)),
            );
            m.row(
                &terms,
                ComparisonOp::Ge,
                -(app.frame.constant_part() as f64),
            );
        }
    }
    match check {
        Check::None => {}
        Check::DiffersOnBinaries { first, opt } => {
            m.row(&objective, ComparisonOp::Le, *opt as f64 + 0.5);
            // Σ_{b=0 in first} b + Σ_{b=1 in first} (1 − b) ≥ 1.
            let mut ones = 0.0;
            let terms: Vec<(Variable, f64)> = binaries
                .iter()
                .map(|&(q, b)| {
                    if first.value(q) > 0 {
                        ones += 1.0;
                        (b, -1.0)
                    } else {
                        (b, 1.0)
                    }
                })
                .collect();
            m.row(&terms, ComparisonOp::Ge, 1.0 - ones);
        }
        Check::DiffersOnCounts { first, opt } => {
            m.row(&objective, ComparisonOp::Le, *opt as f64 + 0.5);
            // For each non-zero Q of `first` (value q): up ⇒ Q ≥ q + 1,
            // down ⇒ Q ≤ q − 1; at least one of them.
            let mut any = Vec::new();
            for &(q, _) in &binaries {
                let val = first.value(q);
                if val == 0 {
                    continue;
                }
                let qv = m.rank[q.index()];
                let up = m.problem.add_binary_var(0.0);
                let up = m.var(up);
                let down = m.problem.add_binary_var(0.0);
                let down = m.var(down);
                m.row(
                    &[(qv, 1.0), (up, -((val + 1) as f64))],
                    ComparisonOp::Ge,
                    0.0,
                );
                m.row(
                    &[(qv, 1.0), (down, u - val as f64 + 1.0)],
                    ComparisonOp::Le,
                    u,
                );
                any.push((up, 1.0));
                any.push((down, 1.0));
            }
            m.row(&any, ComparisonOp::Ge, 1.0);
        }
    }
    m
}

/// Solves a model: `Ok(None)` if infeasible, else the rounded value of
/// every rank variable. `feasibility`: any point will do (an ambiguity
/// check), so a stop on a limit with an incumbent is an answer.
fn run(
    m: &Model,
    opts: &SolveOptions,
    feasibility: bool,
    solves: &mut usize,
) -> Result<Option<Vec<i64>>, String> {
    *solves += 1;
    let mut options = microlp::SolveOptions::default();
    options.time_limit = opts.time_limit;
    // Dual fixing keeps an optimum but may drop other feasible points; a
    // check only needs one point, but stay on the safe side.
    options.dual_fixing = !feasibility;
    let outcome = match m.problem.solve_with(options) {
        Ok(o) => o,
        Err(microlp::Error::Infeasible) => return Ok(None),
        Err(e) => return Err(format!("the rank ILP solver failed: {e}")),
    };
    let sol = match outcome {
        microlp::SolveOutcome::Solution(s) => s,
        microlp::SolveOutcome::Interrupted(_) => {
            return Err("the rank ILP solver reached its time limit".into())
        }
    };
    if !feasibility && sol.status() != microlp::SolutionStatus::Optimal {
        return Err("the rank ILP solver stopped before proving an optimum".into());
    }
    m.rank
        .iter()
        .map(|&v| {
            let x = sol.var_value(v);
            let r = x.round();
            if (x - r).abs() > 1e-3 {
                Err(format!(
                    "the rank ILP solver returned a non-integer rank {x}"
                ))
            } else {
                Ok(r as i64)
            }
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Checks an assignment exactly (the solver computes in floating point) and
/// packages it.
fn assemble(
    sys: &RankSystem,
    eqs: &[RankExpr],
    opts: &SolveOptions,
    values: Vec<i64>,
) -> Result<Solution, String> {
    if eqs.iter().any(|e| e.eval(|v| values[v.index()]) != 0) {
        return Err("the rank ILP solver returned an assignment that violates an equality".into());
    }
    let mut cost = 0;
    let mut apps = Vec::with_capacity(sys.apps.len());
    for app in &sys.apps {
        let (m, r) = (values[app.maps.index()], values[app.reps.index()]);
        if m != 0 && r != 0 {
            return Err("the rank ILP solver returned both maps and replicates".into());
        }
        let frame = app.frame.eval(|v| values[v.index()]);
        cost += m + match opts.objective {
            Objective::Formal => r,
            Objective::InducedRepsFree => (r - frame).max(0),
        };
        apps.push((m, r, frame));
    }
    Ok(Solution { values, apps, cost })
}

/// Gives the associated ranks the least values (by their sum) that fit the
/// `M`/`R` of `sol`: an unconstrained type variable keeps rank 0, so it is
/// generalised as it stands rather than as an array of something.
fn least_assoc(
    sys: &RankSystem,
    eqs: &[RankExpr],
    opts: &SolveOptions,
    sol: &mut Solution,
    solves: &mut usize,
) -> Result<(), String> {
    let is_assoc = |v: RankVar| sys.kind(v) == VarKind::Assoc;
    if !sys.kinds.iter().any(|&k| k == VarKind::Assoc) {
        return Ok(());
    }
    let mut problem = Problem::new(OptimizationDirection::Minimize);
    let ub = i32::try_from(opts.bound).unwrap_or(i32::MAX);
    let mut var: Vec<Option<Variable>> = vec![None; sys.num_vars()];
    let mut rows = 0;
    for eq in eqs {
        let mut rhs = -eq.constant_part();
        let mut terms = Vec::new();
        for &(v, k) in eq.terms() {
            if is_assoc(v) {
                let x =
                    *var[v.index()].get_or_insert_with(|| problem.add_integer_var(1.0, (0, ub)));
                terms.push((x, k as f64));
            } else {
                rhs -= k * sol.value(v);
            }
        }
        if !terms.is_empty() {
            problem.add_constraint(&terms[..], ComparisonOp::Eq, rhs as f64);
            rows += 1;
        }
    }
    let mut values = sol.values.clone();
    for (i, &k) in sys.kinds.iter().enumerate() {
        if k == VarKind::Assoc && var[i].is_none() {
            values[i] = 0;
        }
    }
    if rows > 0 {
        *solves += 1;
        let mut options = microlp::SolveOptions::default();
        options.time_limit = opts.time_limit;
        let s = match problem.solve_with(options) {
            Ok(microlp::SolveOutcome::Solution(s)) => s,
            Ok(microlp::SolveOutcome::Interrupted(_)) => {
                return Err("the rank ILP solver reached its time limit".into())
            }
            Err(e) => {
                return Err(format!(
                    "the rank ILP solver failed on the associated ranks: {e}"
                ))
            }
        };
        for (i, x) in var.iter().enumerate() {
            if let Some(x) = x {
                values[i] = s.var_value(*x).round() as i64;
            }
        }
    }
    *sol = assemble(sys, eqs, opts, values)?;
    Ok(())
}

impl RankSystem {
    /// Solves the system: minimises the objective of `opts`, then checks
    /// that the optimum is unique in the `M`/`R` of every application.
    pub fn solve(&self, opts: &SolveOptions) -> SolveResult {
        let mut stats = IlpStats {
            applications: self.apps.len(),
            rank_vars: self.num_vars(),
            ..Default::default()
        };
        let Ok(eqs) = normalise(self) else {
            stats.equalities = self.equalities.len();
            return SolveResult {
                outcome: Outcome::Infeasible,
                stats,
            };
        };
        stats.equalities = eqs.len();
        let outcome = self.solve_normalised(&eqs, opts, &mut stats);
        SolveResult {
            outcome: outcome.unwrap_or_else(Outcome::Failed),
            stats,
        }
    }

    fn solve_normalised(
        &self,
        eqs: &[RankExpr],
        opts: &SolveOptions,
        stats: &mut IlpStats,
    ) -> Result<Outcome, String> {
        if self.num_vars() == 0 {
            // Only constant equalities, all true.
            return Ok(Outcome::Unique(Solution {
                values: Vec::new(),
                apps: Vec::new(),
                cost: 0,
            }));
        }
        let main = build(self, eqs, opts, &Check::None);
        stats.variables = main.variables;
        stats.constraints = main.constraints;
        let Some(values) = run(&main, opts, false, &mut stats.solves)? else {
            return Ok(Outcome::Infeasible);
        };
        let mut first = assemble(self, eqs, opts, values)?;
        let opt = first.cost;
        let mut second = None;
        // Without applications every optimum has the same (empty) `M`/`R`.
        if !self.apps.is_empty() {
            let check = build(
                self,
                eqs,
                opts,
                &Check::DiffersOnBinaries { first: &first, opt },
            );
            if let Some(values) = run(&check, opts, true, &mut stats.solves)? {
                second = Some(assemble(self, eqs, opts, values)?);
            }
        }
        if second.is_none() && opts.exact_ambiguity && first.size() > 0 {
            let check = build(
                self,
                eqs,
                opts,
                &Check::DiffersOnCounts { first: &first, opt },
            );
            if let Some(values) = run(&check, opts, true, &mut stats.solves)? {
                second = Some(assemble(self, eqs, opts, values)?);
            }
        }
        least_assoc(self, eqs, opts, &mut first, &mut stats.solves)?;
        let Some(mut second) = second else {
            return Ok(Outcome::Unique(first));
        };
        if second.cost != opt {
            return Err("the rank ILP solver's second optimum has a different cost".into());
        }
        least_assoc(self, eqs, opts, &mut second, &mut stats.solves)?;
        let differing = first
            .apps
            .iter()
            .zip(&second.apps)
            .enumerate()
            .filter(|(_, (a, b))| (a.0, a.1) != (b.0, b.1))
            .map(|(i, _)| AppId(i as u32))
            .collect();
        Ok(Outcome::Ambiguous(Box::new(Ambiguity {
            first,
            second,
            differing,
        })))
    }
}
