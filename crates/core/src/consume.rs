//! Aliasing, consumption and last use (DESIGN §3, §5): what lets a
//! backend update arrays in place without copies and free memory at its
//! last use, and what lets the IR checker reject a use of an array after
//! the statement that consumed it.
//!
//! # Aliasing
//!
//! Two names *alias* when their values may share memory. The rule is
//! conservative, written for a backend where slices, transposes and
//! reversals are index functions over the same memory (DESIGN §5), even
//! though the interpreter copies most of them today (it shares the data
//! of `reshape`, `flatten` and `unflatten` and gathers the rest; its
//! values are reference counted and copied on write, so it is correct
//! either way and only its copy counts depend on these rules):
//!
//! - scalars alias nothing; arrays and accumulators may;
//! - *views* alias their array: `x` itself (`let y = x`), an index or
//!   slice whose result is an array, `reshape`, `flatten`, `unflatten`,
//!   `rearrange`, `reverse`, `rotate`;
//! - an `if` result aliases what either branch's result aliases;
//! - a loop result aliases its initial value and whatever the body's
//!   result for that parameter aliases outside the loop (through the
//!   other parameters, to a fixed point), unless the loop consumes the
//!   parameter: then it owns its memory and the result is fresh;
//! - a call's result aliases the arguments whose parameters the callee's
//!   result may alias (a [`FunSummary`], computed for every function of a
//!   program to a fixed point, so recursion is handled);
//! - the primal results of `jvp`/`vjp`/`with_vjp` alias what the
//!   function's results alias (outside, or through its parameters, the
//!   primal arguments), their tangents and adjoints alias the seeds;
//! - the arrays returned by `withacc` alias nothing, its extra results
//!   what the function's extra results alias outside;
//! - everything else is fresh memory: `copy`, `concat`, `iota`,
//!   `replicate`, `scratch`, the results of `map`, `reduce`, `scan`,
//!   `screma` (a backend copies a neutral element or row that would
//!   otherwise be returned), and the results of consuming operations
//!   (an update's result takes over the memory of the array it
//!   consumed, which is dead from then on).
//!
//! Alias sets are transitive: a slice of a reshape of `x` aliases both.
//! A result never aliases what its own statement consumes.
//!
//! Inside a body, the parameters of loops, lambdas and functions alias
//! nothing (as Futhark treats consumed loop parameters): what they are
//! bound to is accounted for at the statement that binds them, which
//! consumes the operand of every parameter its body consumes. That is
//! sound because of rules 3 and 4 below: nothing bound outside a loop or
//! SOAC body is consumed inside it except through a parameter.
//!
//! # Consumption
//!
//! A statement *consumes* a name when it may overwrite the name's memory,
//! after which the name (and every name aliasing it) is dead. Consuming
//! `v` consumes `v` and everything `v` aliases.
//!
//! - Directly: `update` its array, `scatter` and `hist` their
//!   destinations, `withacc` its input arrays, `upd` its accumulator.
//! - A loop consumes the initial value of each parameter that its body
//!   consumes.
//! - `map`/`screma` consume an input whose row parameter the function
//!   consumes (a row is a view of its array; an accumulator input is
//!   passed whole).
//! - A call consumes the arguments of the parameters its callee consumes.
//! - `jvp`/`vjp`/`with_vjp` consume the primal arguments of the
//!   parameters their function consumes.
//! - Any statement consumes what its nested bodies and lambdas consume of
//!   the names bound outside it (an `if`: what either branch consumes).
//!
//! Parameters of the operators of `reduce`, `scan`, `hist`, `screma` and
//! `withacc` alias nothing: a backend gives an operator that consumes its
//! parameters memory of its own.
//!
//! # Rules the IR checker enforces ([`Consumption::check_fun`])
//!
//! 1. No name is used after a statement that consumed it or something it
//!    aliases: later in the same body, in nested bodies, or in the body's
//!    result. The two branches of an `if` are independent.
//! 2. A statement does not use what it consumes, other than at the
//!    consuming position: an update's value does not alias its array (as
//!    in Futhark), a scatter's indices and values do not alias its
//!    destinations, an array passed to a call for a consumed parameter is
//!    not passed again, a loop does not start two parameters from the
//!    same array when it consumes one, and the function of a `withacc`
//!    does not read the arrays it accumulates into.
//! 3. A body run repeatedly (a loop body, the function of a `map` or
//!    `screma`, any SOAC operator) consumes nothing bound outside it
//!    except through its parameters, and does not use what the
//!    statement consumes: the next iteration would use it after it was
//!    consumed, or iterations running in parallel would race.
//! 4. The body's result for a loop parameter that the body consumes
//!    aliases nothing bound outside the loop, no parameter the loop does
//!    not consume and no other result: the next iteration consumes it.
//!
//! A function may consume its own parameters; so do the entry points of
//! lowered programs where the source declared nothing unique (Futhark
//! would reject those programs): a backend copies such an argument unless
//! the entry type is unique.
//!
//! [`insert_copies`] makes a program satisfy the rules by copying an array
//! before the statement that consumes it wherever the original is still
//! needed; lowering and AD end with it.
//!
//! # Last use
//!
//! [`last_uses`] tells, for each statement of one body, which names (bound
//! in the body or free in it) it uses for the last time in that body, and
//! whether that last use is inside its nested bodies (the name is needed
//! until the statement ends) or only by its own operands (the name can be
//! released once they are read, so that the statement may work in place).
//! Names used by the body's result are live to its end.

use crate::ir::*;
use crate::names::{NameSource, Symbol, VName};
use crate::types::Type;
use crate::visit::Visitor;
use parad_base::Span;
use rustc_hash::{FxHashMap, FxHashSet};
use std::marker::PhantomData;
use std::rc::Rc;

/// A sorted set of names.
type Set = Rc<[VName]>;

fn set_of(names: impl IntoIterator<Item = VName>) -> Set {
    let mut v: Vec<VName> = names.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v.into()
}

fn empty() -> Set {
    Rc::from([])
}

/// What a function does to its parameters, as seen by its callers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunSummary {
    /// Per parameter: whether the function consumes it.
    pub consumed: Vec<bool>,
    /// Per result: the parameters (by position) it may alias.
    pub aliases: Vec<Vec<usize>>,
}

impl FunSummary {
    fn merge(&mut self, other: &FunSummary) -> bool {
        let mut changed = false;
        self.consumed
            .resize(other.consumed.len().max(self.consumed.len()), false);
        for (a, &b) in self.consumed.iter_mut().zip(&other.consumed) {
            if b && !*a {
                *a = true;
                changed = true;
            }
        }
        self.aliases
            .resize(other.aliases.len().max(self.aliases.len()), vec![]);
        for (a, b) in self.aliases.iter_mut().zip(&other.aliases) {
            for &i in b {
                if !a.contains(&i) {
                    a.push(i);
                    changed = true;
                }
            }
            a.sort_unstable();
        }
        changed
    }
}

/// A use of a consumed name, or a statement using what it consumes.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsumeError {
    pub message: String,
    /// The statement where the offending use is.
    pub span: Span,
    /// Where [`insert_copies`] would copy to repair it.
    pub(crate) repair: Option<Repair>,
}

/// The consumption summaries of a program's functions; the entry point
/// of the analyses.
#[derive(Clone, Debug, Default)]
pub struct Consumption {
    funs: FxHashMap<Symbol, FunSummary>,
}

/// Consumption and aliasing facts about one IR fragment (a function, a
/// body or a lambda), valid while the fragment is borrowed.
pub struct Info<'a> {
    consumes: FxHashMap<*const Stm, Vec<VName>>,
    aliases: FxHashMap<VName, Set>,
    _fragment: PhantomData<&'a ()>,
}

impl Info<'_> {
    /// The names bound outside `s` that `s` consumes (directly, in its
    /// nested bodies, or through aliases), sorted; `s` must belong to the
    /// analysed fragment.
    pub fn consumed_by(&self, s: &Stm) -> &[VName] {
        self.consumes
            .get(&(s as *const Stm))
            .map_or(&[], |v| v.as_slice())
    }

    /// The names that `v` (bound in the fragment) may share memory with,
    /// sorted; empty for scalars and fresh arrays. Parameters (of the
    /// function, loops and lambdas) and names free in an analysed body or
    /// lambda are roots: they alias nothing.
    pub fn aliases(&self, v: VName) -> &[VName] {
        self.aliases.get(&v).map_or(&[], |s| s)
    }

    /// Every name consumed anywhere in the fragment, at any depth, bound
    /// in it or free in it.
    pub fn all_consumed(&self) -> FxHashSet<VName> {
        self.consumes.values().flatten().copied().collect()
    }
}

impl Consumption {
    /// Summaries of every function of `p`, to a fixed point.
    pub fn of_program(p: &Program) -> Consumption {
        let mut c = Consumption::default();
        for f in &p.funs {
            c.funs.insert(
                f.name,
                FunSummary {
                    consumed: vec![false; f.params.len()],
                    aliases: vec![vec![]; f.ret.len()],
                },
            );
        }
        loop {
            let mut changed = false;
            let mut calls = false;
            for f in &p.funs {
                let mut w = Walker::new(&c, false, false);
                let s = w.summarise(f);
                calls |= w.saw_call;
                if let Some(old) = c.funs.get_mut(&f.name) {
                    changed |= old.merge(&s);
                }
            }
            // Without calls between functions, one round is final.
            if !changed || !calls {
                return c;
            }
        }
    }

    /// What calls of `f` consume and alias, if `f` is known.
    pub fn summary(&self, f: Symbol) -> Option<&FunSummary> {
        self.funs.get(&f)
    }

    /// Consumption facts of a function.
    pub fn fun<'a>(&self, f: &'a FunDef) -> Info<'a> {
        let mut w = Walker::new(self, false, true);
        w.summarise(f);
        w.info()
    }

    /// Consumption facts of a body, its free names taken to alias nothing.
    pub fn body<'a>(&self, b: &'a Body) -> Info<'a> {
        let mut w = Walker::new(self, false, true);
        w.body(&[], None, b);
        w.info()
    }

    /// Consumption facts of a lambda, its parameters and free names taken
    /// to alias nothing.
    pub fn lambda<'a>(&self, l: &'a Lambda) -> Info<'a> {
        let mut w = Walker::new(self, false, true);
        w.lambda(l);
        w.info()
    }

    /// Checks the rules of the module documentation in `f`.
    pub fn check_fun(&self, f: &FunDef) -> Result<(), ConsumeError> {
        let mut w = Walker::new(self, true, false);
        w.summarise(f);
        match w.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Checks every function of `p` (see [`Consumption::check_fun`]); the
/// error names the function.
pub fn check_program(p: &Program) -> Result<(), (Symbol, ConsumeError)> {
    let c = Consumption::of_program(p);
    for f in &p.funs {
        c.check_fun(f).map_err(|e| (f.name, e))?;
    }
    Ok(())
}

/// Which operand of a statement consumes (or, for repairs, which
/// operand to copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pos {
    /// The array of an `update`.
    UpdateArr,
    /// The value of an `update` (copied when it aliases the array).
    UpdateValue,
    /// The accumulator of an `upd`.
    Acc,
    ScatterDest(usize),
    HistDest(usize),
    /// Array `j` of `withacc` input `i`.
    AccArr(usize, usize),
    LoopInit(usize),
    /// Input array `k` of a `map` or `screma` (its row is consumed).
    Row(usize),
    Arg(usize),
    Primal(usize),
    /// The loop body's result for parameter `j` (copied when it aliases
    /// what the next iteration must not consume).
    LoopResult(usize),
}

/// A statement (and the depth of its body) and the operand through
/// which it consumed something.
#[derive(Clone, Copy)]
struct Culprit<'a> {
    stm: &'a Stm,
    depth: u32,
    pos: Pos,
}

/// Where a copy would repair an error; statements are named by their
/// first pattern name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Repair {
    /// Copy the operand of `stm` at `pos`, before `stm`.
    Operand { stm: VName, pos: Pos },
    /// Copy `var` (a slice, cheaper than the array) before `stm`, and use
    /// the copy in the statements after `stm`.
    Later { stm: VName, var: VName },
}

/// An open body: the names used in it but bound outside it, and the
/// names its statements consumed (with the innermost statement that did).
struct Frame<'a> {
    depth: u32,
    free: FxHashSet<VName>,
    consumed: FxHashMap<VName, Culprit<'a>>,
}

/// What walking a nested body found.
struct BodyOut<'a> {
    /// Per result: the result and everything it aliases.
    results: Vec<Set>,
    free: FxHashSet<VName>,
    consumed: FxHashMap<VName, Culprit<'a>>,
}

/// What one statement does, before the conflicts between its parts are
/// checked.
#[derive(Default)]
struct ExpOut<'a> {
    /// Operands consumed at consuming positions.
    direct: Vec<(Pos, VName)>,
    /// Names bound outside the statement consumed in its nested bodies.
    nested: Vec<(VName, Culprit<'a>)>,
    /// Free uses of bodies run repeatedly: none may alias what the
    /// statement consumes.
    repeated: Vec<VName>,
    /// Free uses of bodies run once: none may alias what the statement
    /// consumes directly.
    once: Vec<VName>,
    /// Per pattern element: what the result may alias (fresh if absent).
    results: Vec<Set>,
}

struct Walker<'c, 'a> {
    sums: &'c Consumption,
    /// Alias sets of the array and accumulator names seen.
    al: FxHashMap<VName, Set>,
    /// Nesting depth at which each name was bound (absent: free in the
    /// fragment, depth 0).
    level: FxHashMap<VName, u32>,
    depth: u32,
    frames: Vec<Frame<'a>>,
    /// Checking only: the names consumed on the current path, by whom,
    /// and the order they were consumed in (for leaving a body).
    consumed: FxHashMap<VName, Culprit<'a>>,
    undo: Vec<VName>,
    check: bool,
    error: Option<ConsumeError>,
    span: Span,
    /// Recording only: what each statement consumes.
    record: Option<FxHashMap<*const Stm, Vec<VName>>>,
    saw_call: bool,
    /// Arrays bound by indexing (views smaller than their array).
    slices: FxHashSet<VName>,
}

/// The uses by an expression's own operands (not in its nested bodies
/// or lambdas, not in types: dimensions are scalars).
struct TopUses(Vec<VName>);

impl Visitor for TopUses {
    fn visit_var(&mut self, v: &VName) {
        self.0.push(*v)
    }
    fn visit_type(&mut self, _: &Type) {}
    fn visit_body(&mut self, _: &Body) {}
    fn visit_lambda(&mut self, _: &Lambda) {}
}

fn kind(e: &Exp) -> String {
    match e {
        Exp::Basic(BasicOp::Update { .. }) => "update".into(),
        Exp::Basic(BasicOp::Upd { .. }) => "accumulator update".into(),
        Exp::Basic(_) => "statement".into(),
        Exp::Apply(a) => format!("call of {}", a.fun),
        Exp::If(_) => "if".into(),
        Exp::Loop(_) => "loop".into(),
        Exp::Soac(Soac::Map(_)) => "map".into(),
        Exp::Soac(Soac::Reduce(_)) => "reduce".into(),
        Exp::Soac(Soac::Scan(_)) => "scan".into(),
        Exp::Soac(Soac::Hist(_)) => "histogram".into(),
        Exp::Soac(Soac::Scatter(_)) => "scatter".into(),
        Exp::Soac(Soac::WithAcc(_)) => "withacc".into(),
        Exp::Soac(Soac::Screma(_)) => "screma".into(),
        Exp::Ad(AdOp::Jvp(_)) => "jvp".into(),
        Exp::Ad(AdOp::Vjp(_)) => "vjp".into(),
        Exp::Ad(AdOp::WithVjp(_)) => "with_vjp".into(),
    }
}

/// ``the update `let y_3 = x_2 with [0i64] = 1i32` ``: the kind and first
/// line of a statement.
fn describe(s: &Stm) -> String {
    let text = s.to_string();
    let mut line: String = text.lines().next().unwrap_or_default().to_string();
    if line.chars().count() > 72 {
        line = line.chars().take(70).collect::<String>() + " …";
    } else if text.lines().nth(1).is_some() {
        line.push_str(" …");
    }
    format!("the {} `{line}`", kind(&s.exp))
}

impl<'c, 'a> Walker<'c, 'a> {
    fn new(sums: &'c Consumption, check: bool, record: bool) -> Self {
        Walker {
            sums,
            al: FxHashMap::default(),
            level: FxHashMap::default(),
            depth: 0,
            frames: vec![],
            consumed: FxHashMap::default(),
            undo: vec![],
            check,
            error: None,
            span: Span::default(),
            record: record.then(FxHashMap::default),
            saw_call: false,
            slices: FxHashSet::default(),
        }
    }

    fn info(self) -> Info<'a> {
        Info {
            consumes: self.record.unwrap_or_default(),
            aliases: self.al,
            _fragment: PhantomData,
        }
    }

    fn summarise(&mut self, f: &'a FunDef) -> FunSummary {
        let ps: Vec<&Param> = f.params.iter().collect();
        let out = self.body(&ps, None, &f.body);
        FunSummary {
            consumed: f
                .params
                .iter()
                .map(|p| out.consumed.contains_key(&p.name))
                .collect(),
            aliases: out
                .results
                .iter()
                .map(|r| {
                    f.params
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| r.contains(&p.name))
                        .map(|(i, _)| i)
                        .collect()
                })
                .collect(),
        }
    }

    fn fail(&mut self, message: String, repair: Option<Repair>) {
        if self.check && self.error.is_none() {
            self.error = Some(ConsumeError {
                message,
                span: self.span,
                repair,
            })
        }
    }

    fn repair(c: &Culprit) -> Option<Repair> {
        c.stm.pat.first().map(|p| Repair::Operand {
            stm: p.name,
            pos: c.pos,
        })
    }

    /// `v` and everything it aliases.
    fn k(&self, v: VName) -> Vec<VName> {
        let mut out = vec![v];
        if let Some(s) = self.al.get(&v) {
            out.extend(s.iter().copied())
        }
        out
    }

    fn k_set(&self, o: &Operand) -> Set {
        match o {
            Operand::Var(v) => set_of(self.k(*v)),
            Operand::Const(_) => empty(),
        }
    }

    fn k_all<'o>(&self, os: impl IntoIterator<Item = &'o Operand>) -> Set {
        set_of(os.into_iter().flat_map(|o| self.k_set(o).to_vec()))
    }

    fn bind(&mut self, v: VName, ty: &Type, aliases: Set) {
        self.level.insert(v, self.depth);
        if !matches!(ty, Type::Prim(_)) {
            self.al.insert(v, aliases);
        }
    }

    /// Whether `v` is bound at the current depth or outside it.
    fn is_outer(&self, v: VName) -> bool {
        self.level.get(&v).copied().unwrap_or(0) <= self.depth
    }

    /// The names of `names` bound at the current depth or outside it.
    fn outer<'s>(&self, names: impl IntoIterator<Item = &'s VName>) -> Vec<VName> {
        names
            .into_iter()
            .filter(|v| self.is_outer(**v))
            .copied()
            .collect()
    }

    fn use_var(&mut self, v: VName) {
        let lv = self.level.get(&v).copied().unwrap_or(0);
        for f in self.frames.iter_mut().rev() {
            if f.depth <= lv {
                break;
            }
            f.free.insert(v);
        }
        if self.check && self.error.is_none() && !self.consumed.is_empty() {
            if let Some((c, by)) = self
                .k(v)
                .into_iter()
                .find_map(|c| self.consumed.get(&c).map(|&k| (c, k)))
            {
                let what = describe(by.stm);
                let msg = if c == v {
                    format!("{v} is used after it was consumed by {what}")
                } else {
                    format!("{v} is used after {c}, which it aliases, was consumed by {what}")
                };
                // A slice bound next to the consumer is copied rather
                // than the whole array.
                let repair = match by.stm.pat.first() {
                    Some(p)
                        if self.slices.contains(&v) && self.level.get(&v) == Some(&by.depth) =>
                    {
                        Some(Repair::Later {
                            stm: p.name,
                            var: v,
                        })
                    }
                    _ => Self::repair(&by),
                };
                self.fail(msg, repair)
            }
        }
    }

    /// Walks `b` one level deeper; its parameters alias nothing (`index`
    /// is a loop index).
    fn body(&mut self, params: &[&'a Param], index: Option<VName>, b: &'a Body) -> BodyOut<'a> {
        self.depth += 1;
        let mark = self.undo.len();
        self.frames.push(Frame {
            depth: self.depth,
            free: FxHashSet::default(),
            consumed: FxHashMap::default(),
        });
        for p in params {
            self.bind(p.name, &p.ty, empty());
        }
        if let Some(i) = index {
            self.level.insert(i, self.depth);
        }
        for s in &b.stms {
            self.stm(s);
        }
        let mut results = vec![];
        for o in &b.result {
            if let Operand::Var(v) = o {
                self.use_var(*v);
            }
            results.push(self.k_set(o));
        }
        let frame = self.frames.pop().expect("frame");
        for v in self.undo.drain(mark..) {
            self.consumed.remove(&v);
        }
        self.depth -= 1;
        BodyOut {
            results,
            free: frame.free,
            consumed: frame.consumed,
        }
    }

    fn lambda(&mut self, l: &'a Lambda) -> BodyOut<'a> {
        let ps: Vec<&Param> = l.params.iter().collect();
        self.body(&ps, None, &l.body)
    }

    /// An operator run repeatedly; its parameters alias nothing.
    fn operator(&mut self, op: &'a AccOp, out: &mut ExpOut<'a>) {
        let b = self.lambda(&op.lam);
        self.repeated(b, out);
    }

    /// What the body consumed of the names bound outside the statement.
    fn nested(&self, b: &BodyOut<'a>, out: &mut ExpOut<'a>) {
        out.nested.extend(
            b.consumed
                .iter()
                .filter(|(v, _)| self.is_outer(**v))
                .map(|(v, c)| (*v, *c)),
        );
    }

    /// Adds what a body run repeatedly consumes and uses to `out`.
    fn repeated(&self, b: BodyOut<'a>, out: &mut ExpOut<'a>) {
        self.nested(&b, out);
        out.repeated.extend(b.free);
    }

    /// Adds what a body run once consumes and uses to `out`.
    fn once(&self, b: &BodyOut<'a>, out: &mut ExpOut<'a>) {
        self.nested(b, out);
        out.once.extend(b.free.iter().copied());
    }

    /// The results of a body as seen from outside it.
    fn outer_results(&self, b: &BodyOut) -> Vec<Set> {
        b.results
            .iter()
            .map(|r| set_of(self.outer(r.iter())))
            .collect()
    }

    /// Consuming positions of the operands of the parameters `b` consumed.
    /// A function applied to each row of `arrs` (a map, or a screma with
    /// the operators `ops`): it consumes the rows whose parameters it
    /// consumes, and runs repeatedly.
    fn mapped(
        &mut self,
        lam: &'a Lambda,
        arrs: &[VName],
        ops: impl IntoIterator<Item = &'a AccOp>,
        out: &mut ExpOut<'a>,
    ) {
        let b = self.lambda(lam);
        out.direct =
            Self::consumed_params(&lam.params, arrs.iter().map(|&a| Some(a)), &b, Pos::Row);
        self.repeated(b, out);
        for op in ops {
            self.operator(op, out);
        }
    }

    fn consumed_params(
        params: &[Param],
        args: impl IntoIterator<Item = Option<VName>>,
        b: &BodyOut,
        pos: impl Fn(usize) -> Pos,
    ) -> Vec<(Pos, VName)> {
        params
            .iter()
            .zip(args)
            .enumerate()
            .filter(|(_, (p, _))| b.consumed.contains_key(&p.name))
            .filter_map(|(i, (_, a))| a.map(|a| (pos(i), a)))
            .collect()
    }

    fn stm(&mut self, s: &'a Stm) {
        if self.error.is_some() {
            return;
        }
        self.span = s.span;
        let mut tops = TopUses(vec![]);
        tops.visit_exp(&s.exp);
        for &v in &tops.0 {
            self.use_var(v);
        }
        let mut out = self.exp(s);
        self.span = s.span;
        // Everything the statement consumes, with the innermost culprit.
        let mut c_s: FxHashMap<VName, Culprit<'a>> = FxHashMap::default();
        for &(pos, v) in &out.direct {
            for c in self.k(v) {
                c_s.entry(c).or_insert(Culprit {
                    stm: s,
                    depth: self.depth,
                    pos,
                });
            }
        }
        for &(v, c) in &out.nested {
            c_s.entry(v).or_insert(c);
        }
        self.conflicts(s, &out, tops.0, &c_s);
        for (i, p) in s.pat.iter().enumerate() {
            let al = match out.results.get_mut(i) {
                Some(r) if !c_s.is_empty() => {
                    set_of(r.iter().copied().filter(|v| !c_s.contains_key(v)))
                }
                Some(r) => r.clone(),
                None => empty(),
            };
            self.bind(p.name, &p.ty, al);
        }
        if let (Exp::Basic(BasicOp::Index { .. }), [p]) = (&s.exp, s.pat.as_slice()) {
            if matches!(p.ty, Type::Array { .. }) {
                self.slices.insert(p.name);
            }
        }
        if c_s.is_empty() {
            return;
        }
        if let Some(r) = &mut self.record {
            let mut names: Vec<VName> = c_s.keys().copied().collect();
            names.sort_unstable();
            r.insert(s as *const Stm, names);
        }
        if let Some(f) = self.frames.last_mut() {
            for (&v, &c) in &c_s {
                f.consumed.entry(v).or_insert(c);
            }
        }
        if self.check {
            for (v, c) in c_s {
                if let std::collections::hash_map::Entry::Vacant(e) = self.consumed.entry(v) {
                    e.insert(c);
                    self.undo.push(v);
                }
            }
        }
    }

    /// Rules 2 and 3 of the module documentation, for one statement
    /// whose own operands are `tops`.
    fn conflicts(
        &mut self,
        s: &'a Stm,
        out: &ExpOut<'a>,
        tops: Vec<VName>,
        c_s: &FxHashMap<VName, Culprit<'a>>,
    ) {
        if !self.check || self.error.is_some() || c_s.is_empty() {
            return;
        }
        let here = |pos| s.pat.first().map(|p| Repair::Operand { stm: p.name, pos });
        // What is consumed directly, and through which operand.
        let mut direct: FxHashMap<VName, VName> = FxHashMap::default();
        for &(pos, v) in &out.direct {
            for c in self.k(v) {
                if let Some(&w) = direct.get(&c) {
                    let through = if c == v && c == w {
                        String::new()
                    } else {
                        format!(" (through {w} and {v})")
                    };
                    return self.fail(
                        format!("{c} is consumed twice by {}{through}", describe(s)),
                        here(pos),
                    );
                }
                direct.insert(c, v);
            }
        }
        let what = |c: VName, u: VName| {
            if c == u {
                "it".to_string()
            } else {
                format!("{c}, which it aliases")
            }
        };
        let hit = |w: &Self, u: VName| {
            w.k(u)
                .into_iter()
                .find_map(|c| c_s.get(&c).map(|k| (c, *k)))
        };
        // Other operands of the statement.
        let mut observed = tops;
        for (_, v) in &out.direct {
            if let Some(i) = observed.iter().position(|u| u == v) {
                observed.swap_remove(i);
            }
        }
        for u in observed {
            if let Some((c, by)) = hit(self, u) {
                // An update's value is copied rather than its array.
                let repair = match &s.exp {
                    Exp::Basic(BasicOp::Update {
                        value: Operand::Var(v),
                        ..
                    }) if *v == u => here(Pos::UpdateValue),
                    _ => Self::repair(&by),
                };
                return self.fail(
                    format!(
                        "{u} is used by {}, which consumes {}",
                        describe(s),
                        what(c, u)
                    ),
                    repair,
                );
            }
        }
        for &u in &out.repeated {
            if let Some((c, by)) = hit(self, u) {
                return self.fail(
                    format!(
                        "{u} is used inside {}, which consumes {} (another iteration may \
                         already have consumed it)",
                        describe(s),
                        what(c, u)
                    ),
                    Self::repair(&by),
                );
            }
        }
        for &u in &out.once {
            if let Some(c) = self.k(u).into_iter().find(|c| direct.contains_key(c)) {
                let by = c_s[&c];
                return self.fail(
                    format!(
                        "{u} is used inside {}, which consumes {}",
                        describe(s),
                        what(c, u)
                    ),
                    Self::repair(&by),
                );
            }
        }
    }

    /// The consumption rules of each kind of expression.
    fn exp(&mut self, s: &'a Stm) -> ExpOut<'a> {
        let mut out = ExpOut::default();
        match &s.exp {
            Exp::Basic(b) => match b {
                BasicOp::Atom(Operand::Var(v))
                | BasicOp::Index { arr: v, .. }
                | BasicOp::Reshape { arr: v, .. }
                | BasicOp::Flatten { arr: v }
                | BasicOp::Unflatten { arr: v, .. }
                | BasicOp::Rearrange { arr: v, .. }
                | BasicOp::Reverse { arr: v }
                | BasicOp::Rotate { arr: v, .. } => out.results = vec![set_of(self.k(*v))],
                BasicOp::Update { arr, .. } => out.direct.push((Pos::UpdateArr, *arr)),
                BasicOp::Upd { acc, .. } => out.direct.push((Pos::Acc, *acc)),
                _ => {}
            },
            Exp::Apply(Apply { fun, args }) => {
                self.saw_call = true;
                match self.sums.funs.get(fun) {
                    Some(sum) => {
                        for (i, (a, &c)) in args.iter().zip(&sum.consumed).enumerate() {
                            if let (Operand::Var(v), true) = (a, c) {
                                out.direct.push((Pos::Arg(i), *v))
                            }
                        }
                        out.results = sum
                            .aliases
                            .iter()
                            .map(|ps| self.k_all(ps.iter().filter_map(|&i| args.get(i))))
                            .collect();
                    }
                    None => out.results = vec![self.k_all(args); s.pat.len()],
                }
            }
            Exp::If(If {
                then_br, else_br, ..
            }) => {
                let t = self.body(&[], None, then_br);
                let f = self.body(&[], None, else_br);
                // The branches are exclusive: neither's uses conflict
                // with the other's consumption.
                self.nested(&t, &mut out);
                self.nested(&f, &mut out);
                let (tr, fr) = (self.outer_results(&t), self.outer_results(&f));
                out.results = tr
                    .iter()
                    .zip(&fr)
                    .map(|(a, b)| set_of(a.iter().chain(b.iter()).copied()))
                    .collect();
            }
            Exp::Loop(l) => self.loop_(s, l, &mut out),
            Exp::Soac(soac) => match soac {
                Soac::Map(Map { lam, arrs, .. }) => self.mapped(lam, arrs, [], &mut out),
                Soac::Screma(Screma {
                    arrs,
                    scans,
                    reds,
                    lam,
                    ..
                }) => {
                    let ops = scans.iter().chain(reds.iter().map(|r| &r.op));
                    self.mapped(lam, arrs, ops, &mut out)
                }
                Soac::Reduce(Reduce { op, .. }) | Soac::Scan(Scan { op, .. }) => {
                    self.operator(op, &mut out)
                }
                Soac::Hist(Hist { dests, op, .. }) => {
                    out.direct.extend(
                        dests
                            .iter()
                            .enumerate()
                            .map(|(i, &d)| (Pos::HistDest(i), d)),
                    );
                    self.operator(op, &mut out);
                }
                Soac::Scatter(Scatter { dests, .. }) => {
                    out.direct.extend(
                        dests
                            .iter()
                            .enumerate()
                            .map(|(i, d)| (Pos::ScatterDest(i), d.arr)),
                    );
                }
                Soac::WithAcc(WithAcc { inputs, lam }) => {
                    for (i, input) in inputs.iter().enumerate() {
                        out.direct.extend(
                            input
                                .arrs
                                .iter()
                                .enumerate()
                                .map(|(j, &a)| (Pos::AccArr(i, j), a)),
                        );
                        if let Some(op) = &input.op {
                            self.operator(op, &mut out);
                        }
                    }
                    let b = self.lambda(lam);
                    self.once(&b, &mut out);
                    let narrs: usize = inputs.iter().map(|i| i.arrs.len()).sum();
                    out.results = vec![empty(); narrs];
                    out.results
                        .extend(self.outer_results(&b).into_iter().skip(inputs.len()));
                }
            },
            Exp::Ad(ad) => {
                let (lam, primals, seeds): (&Lambda, &[Operand], &[Operand]) = match ad {
                    AdOp::Jvp(Jvp {
                        lam,
                        primals,
                        tangents,
                    }) => (lam, primals, tangents),
                    AdOp::Vjp(Vjp {
                        lam,
                        primals,
                        adjoints,
                    }) => (lam, primals, adjoints),
                    AdOp::WithVjp(WithVjp { lam, args, .. }) => (lam, args, &[]),
                };
                let b = self.lambda(lam);
                out.direct = Self::consumed_params(
                    &lam.params,
                    primals.iter().map(|o| o.var()),
                    &b,
                    Pos::Primal,
                );
                self.once(&b, &mut out);
                // Primal results alias what the function's results alias
                // outside, and the arguments of the parameters they alias.
                out.results = b
                    .results
                    .iter()
                    .map(|r| {
                        let via: Vec<&Operand> = lam
                            .params
                            .iter()
                            .zip(primals)
                            .filter(|(p, _)| r.contains(&p.name))
                            .map(|(_, o)| o)
                            .collect();
                        set_of(
                            self.outer(r.iter())
                                .into_iter()
                                .chain(self.k_all(via).to_vec()),
                        )
                    })
                    .collect();
                out.results.resize(s.pat.len(), self.k_all(seeds));
                if let AdOp::WithVjp(WithVjp { adj, .. }) = ad {
                    let b = self.lambda(adj);
                    self.once(&b, &mut out);
                }
            }
        }
        out
    }

    /// A loop: its parameters alias nothing in the body (each consumed
    /// one owns its memory, taken over from its initial value, which the
    /// loop consumes; the others are never consumed inside); the body's
    /// result for a consumed parameter must alias nothing the next
    /// iteration must not consume.
    fn loop_(&mut self, s: &'a Stm, l: &'a Loop, out: &mut ExpOut<'a>) {
        let index = match &l.form {
            LoopForm::For { i, .. } => Some(*i),
            LoopForm::While { .. } => None,
        };
        let ps: Vec<&Param> = l.params.iter().map(|(p, _)| p).collect();
        let b = self.body(&ps, index, &l.body);
        let consumed: Vec<bool> = ps
            .iter()
            .map(|p| b.consumed.contains_key(&p.name))
            .collect();
        out.direct = l
            .params
            .iter()
            .enumerate()
            .filter(|(j, _)| consumed[*j])
            .filter_map(|(j, (_, o))| o.var().map(|v| (Pos::LoopInit(j), v)))
            .collect();
        if self.check {
            self.loop_results(s, &ps, &consumed, &b);
        }
        // What each result aliases: its initial value, and what the body's
        // result aliases outside, through the other parameters to a fixed
        // point; a consumed parameter's result is fresh.
        let mut aliases: Vec<Set> = l
            .params
            .iter()
            .zip(&consumed)
            .zip(&b.results)
            .map(|(((p, o), &c), r)| {
                if c || matches!(p.ty, Type::Prim(_)) {
                    empty()
                } else {
                    set_of(self.k_set(o).iter().copied().chain(self.outer(r.iter())))
                }
            })
            .collect();
        loop {
            let mut changed = false;
            for k in 0..aliases.len() {
                if consumed[k] || matches!(ps[k].ty, Type::Prim(_)) {
                    continue;
                }
                let mut a: Vec<VName> = aliases[k].to_vec();
                for (l, p) in ps.iter().enumerate() {
                    if l != k && !consumed[l] && b.results[k].contains(&p.name) {
                        a.extend(aliases[l].iter().copied());
                    }
                }
                let a = set_of(a);
                if a.len() != aliases[k].len() {
                    aliases[k] = a;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.repeated(b, out);
        out.results = aliases;
    }

    /// Rule 4: the body's result for a consumed parameter aliases no name
    /// bound outside the loop, no parameter that is not consumed, and no
    /// other result.
    fn loop_results(&mut self, s: &'a Stm, ps: &[&Param], consumed: &[bool], b: &BodyOut) {
        for (j, r) in b.results.iter().enumerate() {
            if !consumed.get(j).copied().unwrap_or(false) {
                continue;
            }
            let bad = r.iter().find_map(|&v| {
                if self.is_outer(v) {
                    return Some(format!("{v}, bound outside the loop"));
                }
                if let Some(k) = ps.iter().position(|p| p.name == v) {
                    if !consumed[k] {
                        return Some(format!(
                            "the parameter {v}, which the loop does not consume"
                        ));
                    }
                }
                b.results
                    .iter()
                    .enumerate()
                    .find(|(k, rk)| *k != j && rk.contains(&v))
                    .map(|(k, _)| format!("{v}, also the result for {}", ps[k].name))
            });
            if let Some(bad) = bad {
                let repair = s.pat.first().map(|p| Repair::Operand {
                    stm: p.name,
                    pos: Pos::LoopResult(j),
                });
                return self.fail(
                    format!(
                        "{} consumes its parameter {}, but the body's result for it aliases \
                         {bad} (the next iteration would consume it)",
                        describe(s),
                        ps[j].name
                    ),
                    repair,
                );
            }
        }
    }
}

/// Makes `p` satisfy the rules of the module documentation by copying
/// arrays before the statements that consume them while they are still
/// needed (Futhark's compiler copies consumed arrays in the same way
/// after reverse AD). A valid program is left as it is. Lowering runs
/// this because the front end does not check uniqueness yet (DESIGN §2),
/// and AD because its return sweeps restore and re-execute in place.
/// Errors that no copy can repair (an accumulator used after being
/// consumed) are left for the checker to report.
pub fn insert_copies(p: &mut Program) {
    // Each round repairs one error per function; a copy never creates an
    // error, so this ends (a repair that changes nothing stops it too).
    let mut last: Vec<Option<Repair>> = vec![None; p.funs.len()];
    loop {
        let sums = Consumption::of_program(p);
        let mut repaired = false;
        for (i, last) in last.iter_mut().enumerate() {
            let Err(e) = sums.check_fun(&p.funs[i]) else {
                continue;
            };
            if let Some(r) = e.repair.filter(|r| *last != Some(*r)) {
                *last = Some(r);
                repaired |= apply_repair(&mut p.funs[i], r, &mut p.names);
            }
        }
        if !repaired {
            return;
        }
    }
}

/// Inserts `x' = copy x` before the statement of `r` and makes it use
/// `x'` at the position of `r`. Returns whether it did.
fn apply_repair(f: &mut FunDef, r: Repair, names: &mut NameSource) -> bool {
    struct Types(FxHashMap<VName, Type>);
    impl Visitor for Types {
        fn visit_binder(&mut self, v: &VName, ty: &Type) {
            self.0.insert(*v, ty.clone());
        }
    }
    let mut types = Types(f.params.iter().map(|p| (p.name, p.ty.clone())).collect());
    types.visit_body(&f.body);
    repair_body(&mut f.body, r, &types.0, names)
}

fn copy_of(
    v: VName,
    types: &FxHashMap<VName, Type>,
    names: &mut NameSource,
    span: Span,
) -> Option<(VName, Stm)> {
    let ty = types.get(&v)?;
    if !matches!(ty, Type::Array { .. }) {
        return None;
    }
    let c = names.fresh_like(v);
    let s = Stm::new(
        vec![Param::new(c, ty.clone())],
        BasicOp::Copy { arr: v },
        span,
    );
    Some((c, s))
}

fn repair_body(
    b: &mut Body,
    r: Repair,
    types: &FxHashMap<VName, Type>,
    names: &mut NameSource,
) -> bool {
    let key = match r {
        Repair::Operand { stm, .. } | Repair::Later { stm, .. } => stm,
    };
    let Some(at) = b
        .stms
        .iter()
        .position(|s| s.pat.first().map(|p| p.name) == Some(key))
    else {
        let mut done = false;
        for s in &mut b.stms {
            crate::visit::each_body_mut(&mut s.exp, |nb| {
                done = done || repair_body(nb, r, types, names);
            });
            if done {
                return true;
            }
        }
        return false;
    };
    let span = b.stms[at].span;
    match r {
        Repair::Later { var, .. } => {
            let Some((c, copy)) = copy_of(var, types, names, span) else {
                return false;
            };
            let mut sub = crate::subst::Subst::default();
            sub.set(var, c);
            for s in &mut b.stms[at + 1..] {
                crate::subst::stm(s, &sub);
            }
            for o in &mut b.result {
                *o = sub.operand(*o);
            }
            b.stms.insert(at, copy);
            true
        }
        Repair::Operand {
            pos: Pos::LoopResult(j),
            ..
        } => {
            let Exp::Loop(l) = &mut b.stms[at].exp else {
                return false;
            };
            let Some(Operand::Var(v)) = l.body.result.get(j).copied() else {
                return false;
            };
            let Some((c, copy)) = copy_of(v, types, names, span) else {
                return false;
            };
            l.body.stms.push(copy);
            l.body.result[j] = Operand::Var(c);
            true
        }
        Repair::Operand { pos, .. } => {
            let Some(slot) = operand_at(&mut b.stms[at].exp, pos) else {
                return false;
            };
            let Some((c, copy)) = copy_of(*slot, types, names, span) else {
                return false;
            };
            *slot = c;
            b.stms.insert(at, copy);
            true
        }
    }
}

/// The variable at position `pos` of `e`.
fn operand_at(e: &mut Exp, pos: Pos) -> Option<&mut VName> {
    fn var(o: &mut Operand) -> Option<&mut VName> {
        match o {
            Operand::Var(v) => Some(v),
            Operand::Const(_) => None,
        }
    }
    match (e, pos) {
        (Exp::Basic(BasicOp::Update { arr, .. }), Pos::UpdateArr) => Some(arr),
        (Exp::Basic(BasicOp::Update { value, .. }), Pos::UpdateValue) => var(value),
        (Exp::Soac(Soac::Scatter(s)), Pos::ScatterDest(i)) => {
            s.dests.get_mut(i).map(|d| &mut d.arr)
        }
        (Exp::Soac(Soac::Hist(h)), Pos::HistDest(i)) => h.dests.get_mut(i),
        (Exp::Soac(Soac::WithAcc(w)), Pos::AccArr(i, j)) => w.inputs.get_mut(i)?.arrs.get_mut(j),
        (Exp::Loop(l), Pos::LoopInit(j)) => var(&mut l.params.get_mut(j)?.1),
        (Exp::Soac(Soac::Map(m)), Pos::Row(k)) => m.arrs.get_mut(k),
        (Exp::Soac(Soac::Screma(m)), Pos::Row(k)) => m.arrs.get_mut(k),
        (Exp::Apply(a), Pos::Arg(i)) => var(a.args.get_mut(i)?),
        (Exp::Ad(AdOp::Jvp(Jvp { primals, .. })), Pos::Primal(i))
        | (Exp::Ad(AdOp::Vjp(Vjp { primals, .. })), Pos::Primal(i))
        | (Exp::Ad(AdOp::WithVjp(WithVjp { args: primals, .. })), Pos::Primal(i)) => {
            var(primals.get_mut(i)?)
        }
        _ => None,
    }
}

/// The last use of a name in a body (see [`last_uses`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastUse {
    pub name: VName,
    /// The last use is inside the statement's nested bodies or lambdas
    /// (the name is needed until the statement ends), not only by its
    /// own operands (the name is dead once they are read).
    pub nested: bool,
    /// Bound in the body (by a statement or as one of its parameters);
    /// otherwise free in it.
    pub bound: bool,
}

/// The last uses of the names of one body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LastUses {
    /// Per statement: the names whose last use in the body is that
    /// statement, sorted by name. Names used by the body's result, and
    /// names never used, appear nowhere.
    pub stms: Vec<Vec<LastUse>>,
}

/// Uses in one statement: each variable and whether some use is nested.
struct StmUses {
    depth: u32,
    uses: FxHashMap<VName, bool>,
}

impl Visitor for StmUses {
    fn visit_var(&mut self, v: &VName) {
        *self.uses.entry(*v).or_default() |= self.depth > 0;
    }
    fn visit_body(&mut self, b: &Body) {
        self.depth += 1;
        self.super_body(b);
        self.depth -= 1;
    }
    fn visit_lambda(&mut self, l: &Lambda) {
        self.depth += 1;
        self.super_lambda(l);
        self.depth -= 1;
    }
}

/// Where each name bound in `body` (by its statements or as one of
/// `params`) or free in it is used for the last time in `body`. A use
/// is any occurrence in a statement, including the dimensions of its
/// pattern's types and everything inside its nested bodies.
pub fn last_uses(body: &Body, params: &[VName]) -> LastUses {
    let mut bound: FxHashSet<VName> = params.iter().copied().collect();
    let mut last: FxHashMap<VName, (usize, bool)> = FxHashMap::default();
    for (k, s) in body.stms.iter().enumerate() {
        let mut u = StmUses {
            depth: 0,
            uses: FxHashMap::default(),
        };
        u.visit_stm(s);
        for (v, nested) in u.uses {
            last.insert(v, (k, nested));
        }
        bound.extend(s.pat.iter().map(|p| p.name));
    }
    for v in body.result.iter().filter_map(|o| o.var()) {
        last.remove(&v);
    }
    let mut stms: Vec<Vec<LastUse>> = vec![vec![]; body.stms.len()];
    for (name, (k, nested)) in last {
        stms[k].push(LastUse {
            name,
            nested,
            bound: bound.contains(&name),
        });
    }
    for s in &mut stms {
        s.sort_by_key(|u| u.name);
    }
    LastUses { stms }
}
