//! Solving a [`RankSystem`] as an integer linear program: the optimum, the
//! ambiguity check, and the choice of the associated ranks.
//!
//! The encoding is described in the documentation of [`crate::automap`].

use super::presolve::{free_reps, presolve, substitute, Part};
use super::ranks::{AppId, RankExpr, RankSystem, RankVar, VarKind};
use microlp::{ComparisonOp, OptimizationDirection, Problem, Variable};
use std::collections::HashMap;
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
    /// Fix the variables the constraints force before building ILPs (see
    /// the module documentation). Off only to test the ILP encoding alone.
    pub local_solving: bool,
    /// The most constraints one part's ILP may have; a larger part gives
    /// [`Outcome::Failed`] rather than a solve whose time grows faster than
    /// its size. A limit on size, unlike one on time, gives the same answer
    /// on every machine.
    pub max_part_constraints: usize,
}

/// The default of [`SolveOptions::max_part_constraints`]: well above the
/// parts of real programs (the largest whole ILP in our tests and
/// Futhark's has 1 457 constraints; the thesis reports nearly all at most
/// 1 024), well below what the solver takes seconds over.
pub const DEFAULT_MAX_PART_CONSTRAINTS: usize = 5000;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            objective: Objective::default(),
            bound: DEFAULT_BOUND,
            exact_ambiguity: true,
            time_limit: None,
            local_solving: true,
            max_part_constraints: DEFAULT_MAX_PART_CONSTRAINTS,
        }
    }
}

/// Sizes of the rank problem, for reporting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IlpStats {
    /// Applications in the system.
    pub applications: usize,
    /// Rank variables (`M`, `R`, `ᾱ`).
    pub rank_vars: usize,
    /// Equalities given, less those that normalise to `0 = 0`.
    pub equalities: usize,
    /// Variables of the whole ILP of thesis Table 4.2 (rank variables, two
    /// binaries per application, and one excess variable per application
    /// whose replicates are partly free), as if solved in one piece.
    pub variables: usize,
    /// Constraints (rows, not bounds) of that whole ILP: the equalities,
    /// five per application, one per excess variable. The number to compare
    /// with the thesis' ILP sizes.
    pub constraints: usize,
    /// Rank variables forced by local solving (see `presolve`).
    pub forced: usize,
    /// Independent parts left for the ILP solver.
    pub parts: usize,
    /// Variables and constraints of the largest part's ILP.
    pub largest_part_variables: usize,
    pub largest_part_constraints: usize,
    /// ILP solves run: per part the optimum, the ambiguity checks and the
    /// choice of associated ranks.
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

/// The ambiguity check a model is built for; `first` holds the optimum
/// found, indexed by rank variable.
enum Check<'a> {
    /// The optimisation itself.
    None,
    /// Objective at most `opt`, and some binary differs from `first`'s.
    DiffersOnBinaries { first: &'a [i64], opt: i64 },
    /// Objective at most `opt`, the binaries as in `first`, and some
    /// non-zero unknown `M`/`R` of `first` has another value.
    DiffersOnCounts { first: &'a [i64], opt: i64 },
}

/// The ILP of one part, with the handles needed to read it back.
struct Model {
    problem: Problem,
    vars: HashMap<RankVar, Variable>,
    order: Vec<(RankVar, Variable)>,
    variables: usize,
    constraints: usize,
}

impl Model {
    fn new() -> Self {
        Model {
            problem: Problem::new(OptimizationDirection::Minimize),
            vars: HashMap::new(),
            order: Vec::new(),
            variables: 0,
            constraints: 0,
        }
    }

    /// The ILP variable of a rank variable, created on first use with
    /// objective coefficient `cost`: `0..=U`, or pinned to its forced value.
    fn rank(&mut self, v: RankVar, cost: f64, fixed: &[Option<i64>], ub: i32) -> Variable {
        if let Some(&x) = self.vars.get(&v) {
            return x;
        }
        let bounds = match fixed[v.index()] {
            Some(x) => (x as i32, x as i32),
            None => (0, ub),
        };
        let x = self.problem.add_integer_var(cost, bounds);
        self.variables += 1;
        self.vars.insert(v, x);
        self.order.push((v, x));
        x
    }

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

/// An application's contribution to the objective.
fn app_cost(sys: &RankSystem, a: AppId, value: &impl Fn(RankVar) -> i64, obj: Objective) -> i64 {
    let app = sys.app(a);
    let (m, r) = (value(app.maps), value(app.reps));
    m + match obj {
        Objective::Formal => r,
        Objective::InducedRepsFree => (r - app.frame.eval(value)).max(0),
    }
}

fn build(
    sys: &RankSystem,
    part: &Part,
    fixed: &[Option<i64>],
    opts: &SolveOptions,
    check: &Check,
) -> Model {
    let u = f64::from(opts.bound);
    let ub = i32::try_from(opts.bound).unwrap_or(i32::MAX);
    let mut m = Model::new();
    let mut objective: Vec<(Variable, f64)> = Vec::new();
    for &a in &part.apps {
        let app = sys.app(a);
        let free = free_reps(sys, a, opts.objective);
        let mv = m.rank(app.maps, 1.0, fixed, ub);
        let rv = m.rank(app.reps, if free { 0.0 } else { 1.0 }, fixed, ub);
        objective.push((mv, 1.0));
        if !free {
            objective.push((rv, 1.0));
        }
    }
    for &v in &part.vars {
        m.rank(v, 0.0, fixed, ub);
    }
    for eq in &part.eqs {
        let terms: Vec<(Variable, f64)> = eq
            .terms()
            .iter()
            .map(|&(v, k)| (m.rank(v, 0.0, fixed, ub), k as f64))
            .collect();
        m.row(&terms, ComparisonOp::Eq, -(eq.constant_part() as f64));
    }
    let pattern = match check {
        Check::DiffersOnCounts { first, .. } => Some(*first),
        _ => None,
    };
    let mut binaries = Vec::with_capacity(2 * part.apps.len());
    for &a in &part.apps {
        let app = sys.app(a);
        // b_Q ∈ {0,1} with b_Q = 1 ⇔ Q > 0: Q ≤ U·b_Q and b_Q ≤ Q.
        let mut bs = Vec::with_capacity(2);
        for q in [app.maps, app.reps] {
            let b = match pattern {
                Some(first) => {
                    let on = i32::from(first[q.index()] > 0);
                    m.problem.add_integer_var(0.0, (on, on))
                }
                None => m.problem.add_binary_var(0.0),
            };
            let b = m.var(b);
            let qv = m.rank(q, 0.0, fixed, ub);
            m.row(&[(qv, 1.0), (b, -u)], ComparisonOp::Le, 0.0);
            m.row(&[(b, 1.0), (qv, -1.0)], ComparisonOp::Le, 0.0);
            bs.push(b);
            binaries.push((q, b));
        }
        // Rule 2: not both.
        m.row(&[(bs[0], 1.0), (bs[1], 1.0)], ComparisonOp::Le, 1.0);
        // E ≥ R − |S1|, E ≥ 0: at the optimum E = max(0, R − |S1|).
        if free_reps(sys, a, opts.objective) {
            let e = m.problem.add_integer_var(1.0, (0, ub));
            let e = m.var(e);
            objective.push((e, 1.0));
            let frame = substitute(&app.frame, fixed);
            let rv = m.rank(app.reps, 0.0, fixed, ub);
            let mut terms = vec![(e, 1.0), (rv, -1.0)];
            for &(v, k) in frame.terms() {
                terms.push((m.rank(v, 0.0, fixed, ub), k as f64));
            }
            m.row(&terms, ComparisonOp::Ge, -(frame.constant_part() as f64));
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
                    if first[q.index()] > 0 {
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
            // For each non-zero unknown Q of `first` (value q): up ⇒
            // Q ≥ q + 1, down ⇒ Q ≤ q − 1; at least one of them.
            let mut any = Vec::new();
            for &(q, _) in &binaries {
                let val = first[q.index()];
                if val == 0 || fixed[q.index()].is_some() {
                    continue;
                }
                let qv = m.rank(q, 0.0, fixed, ub);
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

/// Solves a model: `Ok(None)` if infeasible, else the rounded value of each
/// of its rank variables. `feasibility`: any point will do (an ambiguity
/// check), so a stop on a limit with an incumbent is an answer.
fn run(
    m: &Model,
    opts: &SolveOptions,
    feasibility: bool,
    solves: &mut usize,
) -> Result<Option<Vec<(RankVar, i64)>>, String> {
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
    m.order
        .iter()
        .map(|&(v, x)| {
            let val = sol.var_value(x);
            let r = val.round();
            if (val - r).abs() > 1e-3 {
                Err(format!(
                    "the rank ILP solver returned a non-integer rank {val}"
                ))
            } else {
                Ok((v, r as i64))
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
    let value = |v: RankVar| values[v.index()];
    if eqs.iter().any(|e| e.eval(value) != 0) {
        return Err("the rank ILP solver returned an assignment that violates an equality".into());
    }
    let mut cost = 0;
    let mut apps = Vec::with_capacity(sys.apps.len());
    for (id, app) in sys.apps() {
        let (m, r) = (value(app.maps), value(app.reps));
        if m != 0 && r != 0 {
            return Err("the rank ILP solver returned both maps and replicates".into());
        }
        cost += app_cost(sys, id, &value, opts.objective);
        apps.push((m, r, app.frame.eval(value)));
    }
    Ok(Solution { values, apps, cost })
}

/// Gives the associated ranks of a part the least values (by their sum)
/// that fit the `M`/`R` in `values`: a type variable the constraints leave
/// free keeps rank 0, so it is generalised as it stands rather than as an
/// array of something.
fn least_assoc(
    sys: &RankSystem,
    part: &Part,
    opts: &SolveOptions,
    values: &mut [i64],
    solves: &mut usize,
) -> Result<(), String> {
    let is_assoc = |v: RankVar| sys.kind(v) == VarKind::Assoc;
    if !part.vars.iter().any(|&v| is_assoc(v)) {
        return Ok(());
    }
    let ub = i32::try_from(opts.bound).unwrap_or(i32::MAX);
    let mut problem = Problem::new(OptimizationDirection::Minimize);
    let mut vars: HashMap<RankVar, Variable> = HashMap::new();
    let mut rows = 0;
    for eq in &part.eqs {
        let mut rhs = -eq.constant_part();
        let mut terms = Vec::new();
        for &(v, k) in eq.terms() {
            if is_assoc(v) {
                let x = *vars
                    .entry(v)
                    .or_insert_with(|| problem.add_integer_var(1.0, (0, ub)));
                terms.push((x, k as f64));
            } else {
                rhs -= k * values[v.index()];
            }
        }
        if !terms.is_empty() {
            problem.add_constraint(&terms[..], ComparisonOp::Eq, rhs as f64);
            rows += 1;
        }
    }
    for &v in &part.vars {
        if is_assoc(v) && !vars.contains_key(&v) {
            values[v.index()] = 0;
        }
    }
    if rows == 0 {
        return Ok(());
    }
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
    for (v, x) in vars {
        values[v.index()] = s.var_value(x).round() as i64;
    }
    Ok(())
}

impl RankSystem {
    /// Solves the system: minimises the objective of `opts`, then checks
    /// that the optimum is unique in the `M`/`R` of every application.
    pub fn solve(&self, opts: &SolveOptions) -> SolveResult {
        let excess = self
            .apps()
            .filter(|&(a, _)| free_reps(self, a, opts.objective))
            .count();
        let mut stats = IlpStats {
            applications: self.apps.len(),
            rank_vars: self.num_vars(),
            variables: self.num_vars() + 2 * self.apps.len() + excess,
            ..Default::default()
        };
        let Ok(eqs) = normalise(self) else {
            stats.equalities = self.equalities.len();
            stats.constraints = stats.equalities + 5 * self.apps.len() + excess;
            return SolveResult {
                outcome: Outcome::Infeasible,
                stats,
            };
        };
        stats.equalities = eqs.len();
        stats.constraints = stats.equalities + 5 * self.apps.len() + excess;
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
        let Ok(pre) = presolve(self, eqs, opts) else {
            return Ok(Outcome::Infeasible);
        };
        stats.forced = pre.fixed.iter().filter(|x| x.is_some()).count();
        let fixed = &pre.fixed;
        let mut first: Vec<i64> = fixed.iter().map(|x| x.unwrap_or(0)).collect();
        // Per ambiguous part: another optimum of it.
        let mut alternatives: Vec<(&Part, Vec<(RankVar, i64)>)> = Vec::new();
        for part in &pre.parts {
            if part.apps.is_empty() && part.eqs.is_empty() {
                continue; // unconstrained associated ranks: 0
            }
            stats.parts += 1;
            if !part.apps.is_empty() {
                let main = build(self, part, fixed, opts, &Check::None);
                if main.constraints > stats.largest_part_constraints {
                    stats.largest_part_constraints = main.constraints;
                    stats.largest_part_variables = main.variables;
                }
                if main.constraints > opts.max_part_constraints {
                    return Err(format!(
                        "the rank problem has a part of {} constraints, more than the {} solved",
                        main.constraints, opts.max_part_constraints
                    ));
                }
                let Some(vals) = run(&main, opts, false, &mut stats.solves)? else {
                    return Ok(Outcome::Infeasible);
                };
                for (v, x) in vals {
                    first[v.index()] = x;
                }
                let value = |v: RankVar| first[v.index()];
                let opt: i64 = part
                    .apps
                    .iter()
                    .map(|&a| app_cost(self, a, &value, opts.objective))
                    .sum();
                let check = build(
                    self,
                    part,
                    fixed,
                    opts,
                    &Check::DiffersOnBinaries { first: &first, opt },
                );
                let mut other = run(&check, opts, true, &mut stats.solves)?;
                let counts_vary = part.apps.iter().any(|&a| {
                    let app = self.app(a);
                    [app.maps, app.reps]
                        .iter()
                        .any(|q| fixed[q.index()].is_none() && first[q.index()] > 0)
                });
                if other.is_none() && opts.exact_ambiguity && counts_vary {
                    let check = build(
                        self,
                        part,
                        fixed,
                        opts,
                        &Check::DiffersOnCounts { first: &first, opt },
                    );
                    other = run(&check, opts, true, &mut stats.solves)?;
                }
                if let Some(vals) = other {
                    alternatives.push((part, vals));
                }
            } else {
                // Only associated ranks: any solution will do for the
                // search below, but the equalities must be satisfiable.
                let main = build(self, part, fixed, opts, &Check::None);
                let Some(vals) = run(&main, opts, false, &mut stats.solves)? else {
                    return Ok(Outcome::Infeasible);
                };
                for (v, x) in vals {
                    first[v.index()] = x;
                }
            }
            least_assoc(self, part, opts, &mut first, &mut stats.solves)?;
        }
        let second = if alternatives.is_empty() {
            None
        } else {
            let mut second = first.clone();
            for (part, vals) in &alternatives {
                for &(v, x) in vals {
                    second[v.index()] = x;
                }
                least_assoc(self, part, opts, &mut second, &mut stats.solves)?;
            }
            Some(second)
        };
        let first = assemble(self, eqs, opts, first)?;
        let Some(second) = second else {
            return Ok(Outcome::Unique(first));
        };
        let second = assemble(self, eqs, opts, second)?;
        if second.cost != first.cost {
            return Err("the rank ILP solver's second optimum has a different cost".into());
        }
        let differing: Vec<AppId> = first
            .apps
            .iter()
            .zip(&second.apps)
            .enumerate()
            .filter(|(_, (a, b))| (a.0, a.1) != (b.0, b.1))
            .map(|(i, _)| AppId(i as u32))
            .collect();
        if differing.is_empty() {
            return Err("the rank ILP solver's second optimum is the first".into());
        }
        Ok(Outcome::Ambiguous(Box::new(Ambiguity {
            first,
            second,
            differing,
        })))
    }
}
