//! AUTOMAP: which applications get implicit `map`s or `replicate`s, found
//! by integer linear programming, and the program rewritten with them.
//!
//! AUTOMAP (Schenck's thesis, ch. 4) lets an application `f x` whose
//! argument has too many dimensions be read as `map f x`, and one whose
//! argument has too few as `f (replicate x)`. The phases of the thesis'
//! implementation (§4.8), one module each:
//!
//! 1. constraint generation (`infer.rs`, over the types of `rtype.rs`): a
//!    [`RankSystem`] per top-level definition, from a walk over its body;
//! 2. solving (`presolve.rs`, `solve.rs`): [`RankSystem::solve`] chooses the
//!    insertions, or finds the program ambiguous;
//! 3. elaboration (`elab.rs`): the definition rewritten with explicit
//!    `mapN` and `replicate`;
//! 4. residual checking (`check.rs`): the elaborated definition checked as
//!    usual, which also infers the sizes of the replicates.
//!
//! `check.rs` also says when AUTOMAP runs (on definitions that do not check
//! as written). The rest of this documentation is about the solver.
//!
//! # Variables
//!
//! * Per application `e1 e2` ([`RankSystem::add_app`]): `M` (implicit maps
//!   lifting `e1`) and `R` (implicit replicates of `e2`), both in `0..=U`,
//!   and the rank `|S1|` of the *frame* of `e1`: the maps earlier
//!   applications of the same chain already put around it (`f xs` in
//!   `f xs y` has frame `[]^M`). `|S1|` is a [`RankExpr`] over other
//!   variables, and must be non-negative.
//! * Per type variable `α` ([`RankSystem::assoc`]): its associated rank `ᾱ`,
//!   the number of outer array dimensions of whatever `α` becomes.
//!
//! # Constraints
//!
//! The rank `|τ|` of a type is `|[]^Q| = Q`, `|[]| = 1`, `|S τ| = |S| + |τ|`,
//! `|α| = ᾱ`, and `0` for scalars, records and function types. The caller
//! adds, with [`RankSystem::equate`], the relaxation of every type equality
//! `τ1 ≐ τ2` it generates, `|τ1| = |τ2|`; for an application (rule C-APP,
//! `e1 : S1 (τ1 → τ2)`, `e2 : S2 τ3`) that is
//!
//! ```text
//!     M + |S1| + |τ1|  =  R + |S2| + |τ3|        result: S = []^M S1, type τ2
//! ```
//!
//! and for an array literal, an `if`, a pattern annotation… the plain rank
//! equalities of its unifications. Rule 2, `M ∨ R` (one application gets
//! maps or replicates, never both), is implied by `add_app`.
//!
//! **Function types (erratum).** The thesis gives function types rank 0 and
//! never looks inside them, so the ranks of parameters and results of
//! function-typed values are left unconstrained: for `app f x` with
//! `app : (γ→δ) → γ → δ`, `f : i32 → i32`, `x : []i32` the ILP's unique
//! optimum is size 0 with `γ̄ = 1`, after which unification fails, although
//! `map (app f) x` is valid (digest §4.7, reviewer's caution). The caller
//! must therefore generate rank equalities **structurally**: whenever it
//! equates two types with known function structure (`γ → δ ≐ i32 → i32`,
//! or a lambda against a higher-order parameter), it equates the ranks of
//! the parameters and of the results as well (`γ̄ = 0`, `δ̄ = 0`), not just
//! the ranks (`0 = 0`) of the function types. The tests
//! `caution_function_types_*` show both.
//!
//! # The ILP (thesis Table 4.2, with the implementation's objective)
//!
//! ```text
//! variables    M, R, ᾱ ∈ {0..U} integer; b_M, b_R ∈ {0,1} per application;
//!              E ∈ {0..U} per application whose frame is not the constant 0
//! constraints  Σ kᵢ·vᵢ = −c            for each equality c + Σ kᵢ·vᵢ = 0
//!              M ≤ U·b_M,  b_M ≤ M      (b_M = 1 ⇔ M > 0)
//!              R ≤ U·b_R,  b_R ≤ R      (b_R = 1 ⇔ R > 0)
//!              b_M + b_R ≤ 1            (Rule 2)
//!              E ≥ R − |S1|             (with E ≥ 0: E = max(0, R − |S1|) at an optimum)
//! objective    minimise Σ_apps M + max(0, R − |S1|)      (Objective::InducedRepsFree)
//!           or minimise Σ_apps M + R                     (Objective::Formal)
//! ```
//!
//! The default objective is the real implementation's (thesis §4.8): up to
//! `|S1|` replicates of an application are *induced* by the maps of an
//! earlier argument of its chain, and elaboration fuses them away (the
//! argument is captured inside the map's lambda), so they cost nothing. An
//! application whose frame is the constant 0 needs no `E`: its `R` is
//! costed directly. `b_Q ≤ Q` makes the binaries exact indicators, which
//! the ambiguity check relies on.
//!
//! **The bound `U`** ([`DEFAULT_BOUND`] = 32, [`SolveOptions::bound`]) is the
//! big-M of the Rule-2 encoding and the upper bound of every variable: no
//! application gets more than `U` implicit maps or replicates, and no type
//! variable stands for an array of more than `U` dimensions. Futhark programs
//! stay far below it; a system that needs more is reported infeasible.
//!
//! # Solving (thesis Fig. 4.11, SOLVE)
//!
//! 0. Local solving (`presolve.rs`; [`SolveOptions::local_solving`]): fix
//!    the variables the constraints force (an equality with one unknown; an
//!    equality `M − R = k` in one application's pair, by Rule 2; the
//!    partner of a positive `M` or `R` is 0), then split the unknowns left
//!    into independent parts (connected through equalities, Rule 2 and the
//!    cost terms). Forced values are the same in every solution, and the
//!    parts share neither variables, constraints nor cost, so this changes
//!    no answer; it only keeps the ILPs small. Monomorphic arithmetic is
//!    solved completely here (30 000 applications in 16 ms), which is the
//!    thesis' proposed cure for its 28 104-constraint outlier.
//!
//! Then per part:
//!
//! 1. Minimise. Infeasible ⇒ [`Outcome::Infeasible`] (a rank error).
//! 2. Ambiguity, on the binaries (thesis §4.8): the same ILP plus
//!    `objective ≤ optimum` and `Σ_{b=0 in s} b + Σ_{b=1 in s} (1 − b) ≥ 1`
//!    (another optimum inserts at a different set of places).
//! 3. Ambiguity, on the counts ([`SolveOptions::exact_ambiguity`], on by
//!    default): the binaries fixed as in the optimum, and some non-zero `M`
//!    or `R` takes another value (two binaries per non-zero variable). With
//!    free induced replicates this is a real case (`R` may range over
//!    `0..=|S1|` at no cost), and steps 2 and 3 together decide ambiguity
//!    exactly rather than by the thesis' unproved conjecture.
//! 4. A feasible check ⇒ [`Outcome::Ambiguous`]: the first solution, the
//!    second (the first with every ambiguous part replaced by its
//!    alternative), and the applications whose `M`/`R` differ; otherwise
//!    [`Outcome::Unique`].
//!
//! Ambiguity concerns only `M` and `R` (the insertions). The associated
//! ranks of the reported solutions are then made canonical by one more
//! small ILP: with every `M`/`R` fixed, minimise `Σ ᾱ`. A type variable the
//! constraints leave free thus gets rank 0 (it is generalised as it is),
//! and one tied to others by `ᾱ = β̄ + k` gets the least rank that fits.
//!
//! Every answer is checked exactly in integer arithmetic (the solver
//! computes in floating point); a violated constraint, a time limit, or a
//! solver error gives [`Outcome::Failed`]. The solver is `microlp`, a
//! maintained pure-Rust simplex with branch and bound. [`SolveResult::stats`]
//! gives the size of the whole Table-4.2 ILP (the number comparable with
//! the thesis' "constraints per program") and of what was actually solved.
//!
//! # Obligations of the caller
//!
//! * Type variables that only stand for scalars (numeric overloading, `+`
//!   on `i32`/`f64`…) get `ᾱ = 0`; otherwise `xs + 1` has the competing
//!   reading `xs + replicate 1` with `+` at type `[]i32` (test
//!   `xs_plus_one_numeric_class`).
//! * Rank equalities for function types are generated structurally (above).
//! * After solving: substitute, unify the now closed types, elaborate with
//!   `mapN` over the frame, materialise `max(0, R − |S1|)` replicates
//!   ([`Solution::materialised_reps`]) and fuse the induced ones
//!   ([`Solution::induced_reps`]), then check sizes as usual.

mod check;
mod elab;
mod infer;
mod presolve;
mod ranks;
mod rtype;
mod solve;
#[cfg(test)]
mod tests;

pub(crate) use check::Elaborated;
pub use check::Mode;
pub use ranks::{App, AppId, RankExpr, RankSystem, RankVar, VarKind};
pub use solve::{
    Ambiguity, IlpStats, Objective, Outcome, Solution, SolveOptions, SolveResult, DEFAULT_BOUND,
    DEFAULT_MAX_PART_CONSTRAINTS,
};
