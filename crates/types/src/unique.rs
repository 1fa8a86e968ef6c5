//! Uniqueness and aliasing, checked on each finished function body.
//!
//! Futhark's in-place updates are safe because a consumed array is never
//! used again: `a with [i] = v`, `let a[i] = v`, passing `a` for a unique
//! (`*`) parameter and a loop whose body consumes its parameter all consume
//! `a`, and with it every value that may alias `a`. This pass tracks, for
//! each value, what it may alias (per tuple or record component): variables,
//! top-level constants, and the results of function applications and loops
//! (a non-unique result of one application is one value as far as aliasing
//! goes: its components may alias each other). It reports:
//!
//! - a use of a variable after it, or something it aliases, was consumed;
//! - consuming what may not be consumed: a parameter (of a function,
//!   lambda or loop) declared with a type that is not unique, a variable
//!   free in a lambda or loop body, a top-level constant;
//! - passing one array both to a unique parameter and to another
//!   parameter of the same call, or a self-aliased value to a unique one;
//! - an in-place update whose value may alias the updated array;
//! - a unique result that aliases a parameter not declared unique, a
//!   top-level constant, or another component of the same result; a
//!   function (not a constant) whose result aliases a top-level array;
//! - a loop whose new value for a consumed parameter aliases something
//!   bound outside the loop, another consumed parameter or a value
//!   returned for an earlier parameter;
//! - a function value made by consuming (partial application), and a
//!   consuming function passed as an argument.
//!
//! A function's result aliases its arguments unless its return type is
//! unique; without a declared return type, each component is unique when
//! it aliases only unique parameters and no other component. The result of
//! an in-place update, of `copy` and of every SOAC is fresh (the prelude
//! declares them `*`). A function value (lambda, local function, partial
//! application) aliases what it captures, and so does the result of
//! calling it. Loop parameters without a declared type become unique when
//! the body consumes them (the loop then consumes their initial values).
use crate::env::{Checker, Res};
use crate::tast::*;
use parad_base::{Diagnostic, Span};
use parad_syntax::ast::{Pat, TypeExp};
use std::collections::{BTreeSet, HashMap};

/// The uniqueness of a function type's parameters and result.
pub(crate) type FnShape = (Vec<UShape>, UShape);

/// Which parts of a parameter or result are declared unique.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UShape {
    Unique,
    Shared,
    Comps(Vec<UShape>),
}

impl UShape {
    pub fn of_type(te: &TypeExp) -> UShape {
        match te {
            TypeExp::Unique(..) => UShape::Unique,
            TypeExp::Tuple(ts, _) if ts.len() > 1 => {
                UShape::Comps(ts.iter().map(UShape::of_type).collect())
            }
            TypeExp::Tuple(ts, _) if ts.len() == 1 => UShape::of_type(&ts[0]),
            TypeExp::Exists(_, t, _) => UShape::of_type(t),
            _ => UShape::Shared,
        }
    }
    /// The parameters' and the result's uniqueness of a function type
    /// `t1 -> t2 -> r` as a specification (`val f: ...`) declares it.
    pub fn of_fun_type(te: &TypeExp) -> (Vec<UShape>, UShape) {
        match te {
            TypeExp::Arrow(_, a, r, _) => {
                let (mut ps, ret) = UShape::of_fun_type(r);
                ps.insert(0, UShape::of_type(a));
                (ps, ret)
            }
            TypeExp::Tuple(ts, _) if ts.len() == 1 => UShape::of_fun_type(&ts[0]),
            t => (vec![], UShape::of_type(t)),
        }
    }
    /// Whether a value whose uniqueness is `actual` cannot be used where
    /// `self` is expected: as a result, `self` is unique where `actual`
    /// is not; as a parameter (`param`), `actual` consumes where `self`
    /// does not.
    pub fn violated_by(&self, actual: &UShape, param: bool) -> bool {
        let (need, have) = if param {
            (actual, self)
        } else {
            (self, actual)
        };
        fn less(need: &UShape, have: &UShape) -> bool {
            match (need, have) {
                (UShape::Shared, _) | (_, UShape::Unique) => false,
                (UShape::Unique, _) => true,
                (UShape::Comps(a), UShape::Comps(b)) => a.iter().zip(b).any(|(x, y)| less(x, y)),
                (UShape::Comps(a), UShape::Shared) => a.iter().any(UShape::any_unique),
            }
        }
        less(need, have)
    }
    pub fn of_pat(p: &Pat) -> UShape {
        match p {
            Pat::Ascribe(_, te, _) => UShape::of_type(te),
            Pat::Tuple(ps, _) if ps.len() > 1 => {
                UShape::Comps(ps.iter().map(UShape::of_pat).collect())
            }
            Pat::Tuple(ps, _) if ps.len() == 1 => UShape::of_pat(&ps[0]),
            Pat::Attr(_, p, _) => UShape::of_pat(p),
            _ => UShape::Shared,
        }
    }
    /// The uniqueness a parameter `p` declared with a function type
    /// gives that function's parameters and result (`f: *acc t -> x -> acc t`).
    pub fn fn_param(p: &Pat) -> Option<FnShape> {
        fn arrow(te: &TypeExp) -> Option<FnShape> {
            match te {
                TypeExp::Arrow(..) => Some(UShape::of_fun_type(te)),
                TypeExp::Tuple(ts, _) if ts.len() == 1 => arrow(&ts[0]),
                _ => None,
            }
        }
        match p {
            Pat::Ascribe(_, te, _) => arrow(te),
            Pat::Tuple(ps, _) if ps.len() == 1 => UShape::fn_param(&ps[0]),
            Pat::Attr(_, p, _) => UShape::fn_param(p),
            _ => None,
        }
    }
    pub fn any_unique(&self) -> bool {
        match self {
            UShape::Unique => true,
            UShape::Shared => false,
            UShape::Comps(cs) => cs.iter().any(UShape::any_unique),
        }
    }
}

/// A function's uniqueness signature: its parameters', its result's.
#[derive(Clone, Debug)]
pub(crate) struct USig {
    pub params: Vec<UShape>,
    pub ret: UShape,
    /// The top-level constants its result may alias.
    pub globals: Vec<FunId>,
    /// For a function without a declared return type, the parameters its
    /// result may alias (as its body shows); otherwise every parameter
    /// not consumed.
    pub inferred: Option<Vec<usize>>,
    /// Whether the return type was declared (`ret` is inferred otherwise).
    pub declared_ret: bool,
    /// For each parameter declared with a function type, that type's
    /// uniqueness ([`UShape::fn_param`]).
    pub fn_params: Vec<Option<FnShape>>,
}

/// What a value may alias.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Name {
    Var(VarId),
    Global(FunId),
    /// A top-level constant that the result of a call may alias (the
    /// callee's [`USig::globals`]): not consumable either, but not what
    /// this function returns by naming it.
    Const(FunId),
    /// The result of an application or loop (described in `U::fresh`):
    /// consumable, and gone out of scope.
    Fresh(u32),
}

/// A value's aliases, per component where its components are known.
#[derive(Clone, Debug)]
enum Al {
    Set(BTreeSet<Name>),
    Comps(Vec<Al>),
}

impl Al {
    fn none() -> Al {
        Al::Set(BTreeSet::new())
    }
    fn all(&self) -> BTreeSet<Name> {
        match self {
            Al::Set(s) => s.clone(),
            Al::Comps(cs) => cs.iter().flat_map(Al::all).collect(),
        }
    }
    fn flat(&self) -> Al {
        Al::Set(self.all())
    }
    fn comp(&self, i: usize) -> Al {
        match self {
            Al::Comps(cs) => cs.get(i).cloned().unwrap_or_else(Al::none),
            s => s.clone(),
        }
    }
    fn union(&self, other: &Al) -> Al {
        match (self, other) {
            (Al::Comps(a), Al::Comps(b)) if a.len() == b.len() => {
                Al::Comps(a.iter().zip(b).map(|(x, y)| x.union(y)).collect())
            }
            (a, b) => {
                let mut s = a.all();
                s.extend(b.all());
                Al::Set(s)
            }
        }
    }
    fn with(&self, n: Name) -> Al {
        match self {
            Al::Set(s) => {
                let mut s = s.clone();
                s.insert(n);
                Al::Set(s)
            }
            Al::Comps(cs) => Al::Comps(cs.iter().map(|c| c.with(n)).collect()),
        }
    }
}

/// What a function's parameters and result are declared: the uniqueness
/// of each parameter, of the result (`None` where it is inferred), and
/// the function types of parameters declared with one.
struct Decl<'d> {
    shapes: &'d [UShape],
    ret: Option<UShape>,
    fn_params: &'d [Option<FnShape>],
}

struct Bound {
    al: Al,
    /// The lambda or loop-body nesting depth the variable was bound at.
    depth: u32,
    /// A parameter not declared unique.
    shared_param: bool,
}

struct U<'a> {
    ck: &'a Checker,
    vars: HashMap<VarId, Bound>,
    consumed: HashMap<Name, Span>,
    depth: u32,
    /// Signatures of local functions.
    local: HashMap<VarId, USig>,
    /// The array of the in-place update being checked: the parser repeats
    /// it inside the value for `a with [i].f = v`, where it is one value.
    updating: Option<(Span, Option<Al>)>,
    /// Uses of variables bound outside the lambda, loop or local function
    /// being checked.
    outer_uses: Vec<(VarId, Span)>,
    /// What each [`Name::Fresh`] stands for ("the result of applying ...").
    fresh: Vec<String>,
    /// The signature of the lambda just checked (for its application).
    last_lambda: Option<USig>,
}

/// Whether a value of type `t` may alias anything: arrays, values of
/// abstract types (which may be arrays) and function values (which alias
/// what they capture).
fn has_array(t: &Type) -> bool {
    match t {
        Type::Array(..) | Type::Param(_) | Type::Var(_) | Type::Acc(_) | Type::Arrow(..) => true,
        Type::Tuple(ts) => ts.iter().any(has_array),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_array(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_array)),
        Type::Prim(_) => false,
    }
}

/// `al` without aliases for the components of type `t` that cannot
/// alias anything.
fn restrict(al: &Al, t: &Type) -> Al {
    if !has_array(t) {
        return Al::none();
    }
    match (al, t) {
        (Al::Comps(cs), Type::Tuple(ts)) if cs.len() == ts.len() => {
            Al::Comps(cs.iter().zip(ts).map(|(c, t)| restrict(c, t)).collect())
        }
        (Al::Comps(cs), Type::Record(fs)) if cs.len() == fs.len() => Al::Comps(
            cs.iter()
                .zip(fs)
                .map(|(c, (_, t))| restrict(c, t))
                .collect(),
        ),
        _ => al.clone(),
    }
}

/// The aliases of top-level constant `n` of type `t`: its arrays alias
/// it. Its functions do not, nor values of abstract types (a module
/// parameter's `t`), as in Futhark.
fn global_al(t: &Type, n: Name) -> Al {
    match t {
        Type::Tuple(ts) => Al::Comps(ts.iter().map(|t| global_al(t, n)).collect()),
        Type::Record(fs) => Al::Comps(fs.iter().map(|(_, t)| global_al(t, n)).collect()),
        t if has_real_array(t) => Al::Set([n].into()),
        _ => Al::none(),
    }
}

/// Whether `t` holds an array (not counting abstract types).
fn has_real_array(t: &Type) -> bool {
    match t {
        Type::Array(..) => true,
        Type::Tuple(ts) => ts.iter().any(has_real_array),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_real_array(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_real_array)),
        _ => false,
    }
}

impl Checker {
    /// Checks the uniqueness rules in a finished function.
    pub(crate) fn check_uniqueness(
        &self,
        params: &[TPat],
        sig: &mut USig,
        body: &TExp,
        name: &str,
        declared_ret: Option<&parad_syntax::ast::TypeExp>,
    ) -> Res<()> {
        let mut u = U {
            ck: self,
            vars: HashMap::new(),
            consumed: HashMap::new(),
            depth: 0,
            local: HashMap::new(),
            updating: None,
            outer_uses: vec![],
            fresh: vec![],
            last_lambda: None,
        };
        // A constant declared with a function type (`def g : t -> u = f`)
        // holds a function of that type's uniqueness.
        if let (true, Some(te)) = (params.is_empty(), declared_ret) {
            let (eps, eret) = UShape::of_fun_type(te);
            let mut f = body;
            while let TExpKind::Coerce(x) = &f.kind {
                f = x;
            }
            if let (false, Some(given)) = (eps.is_empty(), u.sig_of(f)) {
                if let Some(d) = u.fn_arg_mismatch(f, &given, Some(&(eps, eret))) {
                    let msg = format!("Function body does not have expected type: {}", d.message);
                    return Err(Diagnostic { message: msg, ..d });
                }
            }
        }
        let shapes = sig.params.clone();
        let fn_params = sig.fn_params.clone();
        let decl = Decl {
            shapes: &shapes,
            ret: declared_ret.is_some().then(|| sig.ret.clone()),
            fn_params: &fn_params,
        };
        let (s, _) = u.fun_body(params, decl, body, name, false)?;
        sig.ret = s.ret;
        sig.inferred = s.inferred;
        sig.globals = s.globals;
        Ok(())
    }
}

impl U<'_> {
    fn name(&self, n: Name) -> String {
        match n {
            Name::Var(v) => self.ck.vars[v.0 as usize].name.clone(),
            Name::Global(f) | Name::Const(f) => self
                .ck
                .funs
                .get(f.0 as usize)
                .map(|f| f.name.rsplit('.').next().unwrap_or(&f.name).to_string())
                .unwrap_or_default(),
            Name::Fresh(i) => self.fresh[i as usize].clone(),
        }
    }

    /// `n` for a message: a variable or constant in quotes, the result of
    /// an application or loop described.
    fn describe(&self, n: Name) -> String {
        match n {
            Name::Fresh(_) => self.name(n),
            _ => format!("\"{}\"", self.name(n)),
        }
    }

    fn loc(&self, span: Span) -> String {
        let l = self.ck.files.sources.location(span);
        format!("{}:{}", l.line, l.col)
    }

    fn new_fresh(&mut self, what: String) -> Name {
        self.fresh.push(what);
        Name::Fresh(self.fresh.len() as u32 - 1)
    }

    /// The uniqueness of a lambda's or loop's parameter pattern, as its
    /// ascriptions declare it.
    fn declared_shape(&self, p: &TPat) -> UShape {
        match p {
            TPat::Var(v, _, _) => match self.ck.declared_uniq.get(v) {
                Some(true) => UShape::Unique,
                _ => UShape::Shared,
            },
            TPat::Tuple(ps, _) => {
                UShape::Comps(ps.iter().map(|p| self.declared_shape(p)).collect())
            }
            TPat::Record(fs, _) => {
                UShape::Comps(fs.iter().map(|(_, p)| self.declared_shape(p)).collect())
            }
            _ => UShape::Shared,
        }
    }

    fn bind_param(&mut self, p: &TPat, shape: &UShape) {
        match (p, shape) {
            (TPat::Tuple(ps, _), UShape::Comps(ss)) if ps.len() == ss.len() => {
                for (p, s) in ps.iter().zip(ss) {
                    self.bind_param(p, s);
                }
            }
            (TPat::Record(fs, _), UShape::Comps(ss)) if fs.len() == ss.len() => {
                for ((_, p), s) in fs.iter().zip(ss) {
                    self.bind_param(p, s);
                }
            }
            _ => {
                let unique = shape.any_unique();
                let mut vs = vec![];
                p.vars(&mut vs);
                for v in vs {
                    self.vars.insert(
                        v,
                        Bound {
                            al: Al::Set([Name::Var(v)].into()),
                            depth: self.depth,
                            shared_param: !unique,
                        },
                    );
                }
            }
        }
    }

    /// Binds a pattern to a value with aliases `al`.
    fn bind(&mut self, p: &TPat, al: &Al) {
        match p {
            TPat::Var(v, t, _) => {
                let al = restrict(&al.with(Name::Var(*v)), t);
                self.vars.insert(
                    *v,
                    Bound {
                        al,
                        depth: self.depth,
                        shared_param: false,
                    },
                );
            }
            TPat::Tuple(ps, _) => {
                for (i, p) in ps.iter().enumerate() {
                    self.bind(p, &al.comp(i));
                }
            }
            TPat::Record(fs, _) => {
                for (i, (_, p)) in fs.iter().enumerate() {
                    self.bind(p, &al.comp(i));
                }
            }
            TPat::Constr(_, ps, _, _) => {
                let al = al.flat();
                for p in ps {
                    self.bind(p, &al);
                }
            }
            TPat::Wildcard(..) | TPat::Lit(..) => {}
        }
    }

    /// The aliases of variable `v`, after checking it is not consumed.
    fn observe(&mut self, v: VarId, span: Span) -> Res<Al> {
        let Some(b) = self.vars.get(&v) else {
            return Ok(Al::none());
        };
        let al = b.al.clone();
        if b.depth < self.depth {
            self.outer_uses.push((v, span));
        }
        self.check_live(v, &al, span)?;
        Ok(al)
    }

    /// A use of `v` (aliases `al`) must not follow its consumption.
    fn check_live(&self, v: VarId, al: &Al, span: Span) -> Res<()> {
        for n in al.all().into_iter().chain([Name::Var(v)]) {
            if let Some(at) = self.consumed.get(&n) {
                let what = if n == Name::Var(v) {
                    format!("\"{}\"", self.name(n))
                } else {
                    format!(
                        "\"{}\", which aliases {}",
                        self.name(Name::Var(v)),
                        self.describe(n)
                    )
                };
                return Err(Diagnostic::error(
                    span,
                    format!("Using {what}, but this was consumed at {}.", self.loc(*at)),
                )
                .with_label(*at, "consumed here"));
            }
        }
        Ok(())
    }

    /// Consumes everything `al` may alias.
    fn consume(&mut self, al: &Al, span: Span) -> Res<()> {
        for n in al.all() {
            match n {
                Name::Global(_) | Name::Const(_) => {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "Consuming {}, a top-level constant, which is not consumable.",
                            self.describe(n)
                        ),
                    ))
                }
                Name::Var(v) => {
                    if let Some(b) = self.vars.get(&v) {
                        let why = if b.shared_param {
                            Some("it is a parameter whose type is not unique (declare it with '*')")
                        } else if b.depth < self.depth {
                            Some("it is free in this lambda or loop body, which may run many times; only unique parameters and values bound inside can be consumed here")
                        } else {
                            None
                        };
                        if let Some(why) = why {
                            return Err(Diagnostic::error(
                                span,
                                format!(
                                    "Consuming variable \"{}\", which is not consumable: {why}.",
                                    self.name(n)
                                ),
                            ));
                        }
                    }
                }
                Name::Fresh(_) => {}
            }
            if let Some(at) = self.consumed.get(&n) {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "Consuming {}, but this was already consumed at {}.",
                        self.describe(n),
                        self.loc(*at)
                    ),
                )
                .with_label(*at, "consumed here"));
            }
            self.consumed.insert(n, span);
        }
        Ok(())
    }

    /// `al` without what has been consumed: a value computed by
    /// consuming an array does not alias it.
    fn live(&self, al: &Al) -> Al {
        match al {
            Al::Set(s) => Al::Set(
                s.iter()
                    .copied()
                    .filter(|n| !self.consumed.contains_key(n))
                    .collect(),
            ),
            Al::Comps(cs) => Al::Comps(cs.iter().map(|c| self.live(c)).collect()),
        }
    }

    fn indices(&mut self, idx: &[TDimIndex]) -> Res<()> {
        for i in idx {
            match i {
                TDimIndex::Fix(e) => {
                    self.exp(e)?;
                }
                TDimIndex::Slice { start, end, stride } => {
                    for e in [start, end, stride].into_iter().flatten() {
                        self.exp(e)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks `e` in a nested body (lambda, loop body): variables bound
    /// outside cannot be consumed there.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Checks the body of a function, local function or lambda with
    /// parameters `params` declared as `decl` says, and its result against
    /// the declared result (or infers the result's uniqueness). Gives its
    /// signature and, for a nested one, what it captures.
    fn fun_body(
        &mut self,
        params: &[TPat],
        decl: Decl,
        body: &TExp,
        name: &str,
        nested: bool,
    ) -> Res<(USig, Al)> {
        let Decl {
            shapes,
            ret,
            fn_params,
        } = decl;
        let uses = std::mem::take(&mut self.outer_uses);
        let ret_declared = ret.clone();
        let run = |u: &mut Self| -> Res<USig> {
            for (p, shape) in params.iter().zip(shapes) {
                u.bind_param(p, shape);
            }
            let al = u.exp(body)?;
            // A function (not a constant) may not return a top-level array.
            if !params.is_empty() {
                u.check_globals(&al, body.span, name)?;
            }
            let mut pvars = vec![];
            for p in params {
                p.vars(&mut pvars);
            }
            let ret = match &ret {
                Some(r) => {
                    u.check_result(&al, r, body.span, name)?;
                    r.clone()
                }
                None if params.is_empty() => UShape::Shared,
                None => u.infer_ret(&al, &pvars),
            };
            let globals = al
                .all()
                .into_iter()
                .filter_map(|n| match n {
                    Name::Global(f) | Name::Const(f) => Some(f),
                    _ => None,
                })
                .collect();
            let names = al.all();
            let inferred = ret_declared.is_none().then(|| {
                params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| {
                        let mut vs = vec![];
                        p.vars(&mut vs);
                        vs.iter().any(|v| names.contains(&Name::Var(*v)))
                    })
                    .map(|(i, _)| i)
                    .collect()
            });
            Ok(USig {
                params: shapes.to_vec(),
                ret,
                globals,
                inferred,
                declared_ret: ret_declared.is_some(),
                fn_params: fn_params.to_vec(),
            })
        };
        let r = if nested { self.nested(run) } else { run(self) };
        let inner = std::mem::replace(&mut self.outer_uses, uses);
        let sig = r?;
        let mut free = Al::none();
        for (v, span) in inner {
            if let Some(b) = self.vars.get(&v) {
                if b.depth < self.depth {
                    self.outer_uses.push((v, span));
                }
                free = free.union(&b.al.with(Name::Var(v)).flat());
            }
        }
        Ok((sig, free))
    }

    /// The uniqueness of a result with aliases `al` whose type was not
    /// declared: a component is unique when what it aliases from outside
    /// the function (`params` or what is bound further out) is only
    /// unique parameters, and nothing it aliases is aliased by another
    /// component.
    fn infer_ret(&self, al: &Al, params: &[VarId]) -> UShape {
        fn leaves(al: &Al, out: &mut Vec<BTreeSet<Name>>) {
            match al {
                Al::Set(s) => out.push(s.clone()),
                Al::Comps(cs) => cs.iter().for_each(|c| leaves(c, out)),
            }
        }
        let mut ls = vec![];
        leaves(al, &mut ls);
        let mut count: HashMap<Name, usize> = HashMap::new();
        for l in &ls {
            for n in l {
                *count.entry(*n).or_default() += 1;
            }
        }
        let unique_set = |s: &BTreeSet<Name>| {
            s.iter().all(|n| {
                count[n] < 2
                    && match n {
                        Name::Fresh(_) => true,
                        Name::Global(_) | Name::Const(_) => false,
                        Name::Var(v) => match self.vars.get(v) {
                            _ if params.contains(v) => {
                                self.vars.get(v).is_some_and(|b| !b.shared_param)
                            }
                            Some(b) => b.depth >= self.depth,
                            None => true,
                        },
                    }
            })
        };
        fn delve(al: &Al, f: &dyn Fn(&BTreeSet<Name>) -> bool) -> UShape {
            match al {
                Al::Set(s) if f(s) => UShape::Unique,
                Al::Set(_) => UShape::Shared,
                Al::Comps(cs) => UShape::Comps(cs.iter().map(|c| delve(c, f)).collect()),
            }
        }
        delve(al, &unique_set)
    }

    fn exp(&mut self, e: &TExp) -> Res<Al> {
        if let Some((span, memo)) = &self.updating {
            if *span == e.span {
                if let Some(al) = memo {
                    return Ok(al.clone());
                }
                let was = self.updating.take();
                let al = self.exp(e);
                self.updating = was;
                let al = al?;
                if let Some((_, memo)) = &mut self.updating {
                    *memo = Some(al.clone());
                }
                return Ok(al);
            }
        }
        let al = self.exp_inner(e)?;
        Ok(restrict(&al, &e.ty))
    }

    fn exp_inner(&mut self, e: &TExp) -> Res<Al> {
        match &e.kind {
            TExpKind::Lit(_) | TExpKind::Intrinsic(..) => Ok(Al::none()),
            TExpKind::Var(v, _, _) => self.observe(*v, e.span),
            TExpKind::Global(f, _, _) => {
                let is_constant =
                    self.ck.funs.get(f.0 as usize).is_some_and(|f| {
                        f.params.is_empty() && f.size_params.is_empty() && !f.prelude
                    });
                Ok(if is_constant {
                    global_al(&e.ty, Name::Global(*f))
                } else {
                    Al::none()
                })
            }
            TExpKind::Tuple(es) => Ok(Al::Comps(
                es.iter().map(|e| self.exp(e)).collect::<Res<_>>()?,
            )),
            TExpKind::Record(fs) => Ok(Al::Comps(
                fs.iter().map(|(_, e)| self.exp(e)).collect::<Res<_>>()?,
            )),
            TExpKind::ArrayLit(es) => {
                for e in es {
                    self.exp(e)?;
                }
                Ok(Al::none())
            }
            TExpKind::Range {
                start, second, end, ..
            } => {
                self.exp(start)?;
                if let Some(s) = second {
                    self.exp(s)?;
                }
                self.exp(end)?;
                Ok(Al::none())
            }
            TExpKind::Project(r, f) => {
                let al = self.exp(r)?;
                let i = match &r.ty {
                    Type::Record(fs) => fs.iter().position(|(n, _)| n == f),
                    Type::Tuple(_) => f.parse().ok(),
                    _ => None,
                };
                Ok(match i {
                    Some(i) => al.comp(i),
                    None => al.flat(),
                })
            }
            TExpKind::Index(a, idx) => {
                let al = self.exp(a)?;
                self.indices(idx)?;
                Ok(al.flat())
            }
            TExpKind::Update(a, idx, v) => {
                self.indices(idx)?;
                // The value is computed before the array is consumed.
                let before: BTreeSet<Name> = self.consumed.keys().copied().collect();
                let was = self.updating.replace((a.span, None));
                let r = self.exp(v);
                let memo = std::mem::replace(&mut self.updating, was);
                let av = r?;
                let (aa, repeated) = match memo {
                    Some((_, Some(al))) => (al, true),
                    _ => (self.exp(a)?, false),
                };
                // The value must not alias the array it is written into
                // (unless it is the parser's repetition of the array in
                // `a with [i].f = v`, which updates a part of it).
                if !repeated {
                    if let Some(n) = aa.all().intersection(&av.all()).next() {
                        return Err(Diagnostic::error(
                            v.span,
                            format!(
                                "Source array for in-place update might alias the update value (through {}). Hint: use \"copy\" to remove aliases from the value.",
                                self.describe(*n)
                            ),
                        )
                        .with_label(a.span, "the array updated in place"));
                    }
                }
                // An update nested in the value (`a with [i].f[j] = v`)
                // already consumed the same array.
                let aa = Al::Set(
                    aa.all()
                        .into_iter()
                        .filter(|n| before.contains(n) || !self.consumed.contains_key(n))
                        .collect(),
                );
                self.consume(&aa, a.span)?;
                Ok(Al::none())
            }
            TExpKind::RecordUpdate(r, _, v) => {
                let ar = self.exp(r)?;
                let av = self.exp(v)?;
                Ok(self.live(&ar.union(&av).flat()))
            }
            TExpKind::Apply(f, args) => self.apply(f, args, e.span),
            TExpKind::If(c, t, f) => {
                self.exp(c)?;
                let before = self.consumed.clone();
                let at = self.exp(t)?;
                let after_t = std::mem::replace(&mut self.consumed, before);
                let af = self.exp(f)?;
                self.consumed.extend(after_t);
                // A branch that consumed something did not return it.
                Ok(self.live(&at.union(&af)))
            }
            TExpKind::Let { pat, rhs, body, .. } => {
                self.last_lambda = None;
                let al = self.exp(rhs)?;
                let lambda = self.last_lambda.take();
                let al = self.live(&al);
                self.bind(pat, &al);
                // A let-bound lambda is called like a local function.
                if let (TPat::Var(v, _, _), TExpKind::Lambda(..), Some(sig)) =
                    (pat, &rhs.kind, lambda)
                {
                    self.local.insert(*v, sig);
                }
                self.exp(body)
            }
            TExpKind::LetFun(lf, body) => {
                let declared = self.ck.local_uniq.get(&lf.var).cloned();
                let shapes = declared
                    .as_ref()
                    .map(|s| s.params.clone())
                    .unwrap_or_else(|| vec![UShape::Shared; lf.params.len()]);
                let fns = declared
                    .as_ref()
                    .map(|s| s.fn_params.clone())
                    .unwrap_or_default();
                let ret = declared.filter(|s| s.declared_ret).map(|s| s.ret);
                // Its body runs wherever it is called: what is bound
                // outside cannot be consumed there, and a use of the
                // function is a use of what it uses.
                let name = self.name(Name::Var(lf.var));
                let (sig, free) = self.fun_body(
                    &lf.params,
                    Decl {
                        shapes: &shapes,
                        ret,
                        fn_params: &fns,
                    },
                    &lf.body,
                    &name,
                    true,
                )?;
                self.vars.insert(
                    lf.var,
                    Bound {
                        al: free,
                        depth: self.depth,
                        shared_param: false,
                    },
                );
                self.local.insert(lf.var, sig);
                self.exp(body)
            }
            TExpKind::Lambda(params, body) => {
                let shapes: Vec<UShape> = params.iter().map(|p| self.declared_shape(p)).collect();
                let ret = self.ck.lambda_ret.get(&e.span).cloned();
                let decl = Decl {
                    shapes: &shapes,
                    ret,
                    fn_params: &[],
                };
                let (sig, free) = self.fun_body(params, decl, body, "lambda", true)?;
                self.last_lambda = Some(sig);
                Ok(free)
            }
            TExpKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => self.loop_exp(pat, init, form, body, e.span),
            TExpKind::Assert(c, x) => {
                self.exp(c)?;
                self.exp(x)
            }
            TExpKind::Coerce(x) | TExpKind::UserParam(_, x) => self.exp(x),
            TExpKind::Constr(_, es) => {
                let mut al = Al::none();
                for e in es {
                    al = al.union(&self.exp(e)?);
                }
                Ok(al.flat())
            }
            TExpKind::Match(scrut, cases) => {
                let sa = self.exp(scrut)?;
                let before = self.consumed.clone();
                let mut all = before.clone();
                let mut res: Option<Al> = None;
                for (p, body) in cases {
                    self.consumed = before.clone();
                    self.bind(p, &sa);
                    let a = self.exp(body)?;
                    all.extend(self.consumed.drain());
                    res = Some(match res {
                        None => a,
                        Some(r) => r.union(&a),
                    });
                }
                self.consumed = all;
                Ok(self.live(&res.unwrap_or_else(Al::none)))
            }
        }
    }

    /// What a lambda passed as an argument says it consumes: its
    /// parameters as declared (its result counts as unique, so that only
    /// consumption is compared with the parameter it is passed for).
    fn lambda_sig(&self, a: &TExp) -> Option<USig> {
        let TExpKind::Lambda(params, _) = &a.kind else {
            return None;
        };
        Some(USig {
            params: params.iter().map(|p| self.declared_shape(p)).collect(),
            ret: UShape::Unique,
            globals: vec![],
            inferred: None,
            declared_ret: true,
            fn_params: vec![None; params.len()],
        })
    }

    /// The signature of the function `f` refers to, if it is known.
    fn sig_of(&self, f: &TExp) -> Option<USig> {
        match &f.kind {
            TExpKind::Global(id, _, _) => self.ck.fun_uniq.get(id).cloned(),
            TExpKind::Var(v, _, _) => self.local.get(v).cloned().or_else(|| {
                // A parameter declared with a function type.
                let (params, ret) = self.ck.declared_fn.get(v)?.clone();
                Some(USig {
                    fn_params: vec![None; params.len()],
                    params,
                    ret,
                    globals: vec![],
                    inferred: None,
                    declared_ret: true,
                })
            }),
            _ => None,
        }
    }

    fn apply(&mut self, f: &TExp, args: &[TExp], span: Span) -> Res<Al> {
        let sig = self.sig_of(f);
        self.last_lambda = None;
        let fal = self.exp(f)?;
        let sig = match (&f.kind, sig) {
            (TExpKind::Lambda(..), _) => self.last_lambda.take(),
            (_, s) => s,
        };
        let fname = match &f.kind {
            TExpKind::Global(id, _, _) => self.name(Name::Global(*id)),
            TExpKind::Var(v, _, _) => self.name(Name::Var(*v)),
            TExpKind::Intrinsic(..) => String::new(),
            _ => "function".to_string(),
        };
        let mut als = vec![];
        for (i, a) in args.iter().enumerate() {
            // A function passed for a parameter declared with a function
            // type must consume no more than that type says and give a
            // result at least as unique (what an intrinsic or a function
            // value accepts is not known here).
            let given = self.sig_of(a).or_else(|| self.lambda_sig(a));
            if let (Some(callee), Some(given)) = (&sig, given) {
                let expected = callee.fn_params.get(i).cloned().flatten();
                if let Some(d) = self.fn_arg_mismatch(a, &given, expected.as_ref()) {
                    return Err(d.with_note(format!("in argument {} of \"{fname}\"", i + 1)));
                }
            }
            als.push(self.exp(a)?);
        }
        if let TExpKind::Intrinsic(..) = f.kind {
            // Built-in operations make new values (the prelude's
            // functions, not the intrinsics they call, say what aliases).
            return Ok(Al::none());
        }
        let result = self.new_fresh(format!(
            "the result of applying \"{fname}\" (at {})",
            self.loc(span)
        ));
        let Some(sig) = sig else {
            // An unknown function value: its result may alias what the
            // function captures and its arguments.
            let al = als
                .iter()
                .fold(fal.flat(), |acc, a| acc.union(&a.flat()))
                .with(result);
            return Ok(al);
        };
        // Consumed parts of the arguments.
        let mut consumed: Vec<(usize, Al)> = vec![];
        for (i, (al, shape)) in als.iter().zip(&sig.params).enumerate() {
            let part = consumed_part(al, shape);
            if !part.all().is_empty() {
                consumed.push((i, part));
            }
        }
        let partial = args.len() < sig.params.len();
        if let (true, Some((i, _))) = (partial, consumed.first()) {
            return Err(Diagnostic::error(
                args[*i].span,
                format!(
                    "Partial application of \"{fname}\" consumes argument {}: a function value that contains consumption is not allowed, as it could be called many times [contains-consumption].",
                    i + 1
                ),
            ));
        }
        // What is passed for a unique parameter must not alias itself.
        for (i, (al, shape)) in als.iter().zip(&sig.params).enumerate() {
            let mut parts: Vec<BTreeSet<Name>> = vec![];
            self_alias_parts(al, shape, &mut parts);
            for (k, a) in parts.iter().enumerate() {
                if let Some(n) = parts[k + 1..].iter().find_map(|b| a.intersection(b).next()) {
                    return Err(Diagnostic::error(
                        args[i].span,
                        format!(
                            "Cannot apply \"{fname}\": argument {} is passed for a consuming parameter and is self-aliased: two of its components alias {}.",
                            i + 1,
                            self.describe(*n)
                        ),
                    ));
                }
            }
        }
        for (i, part) in &consumed {
            for (j, other) in als.iter().enumerate() {
                // A function argument may read the consumed array while the
                // callee runs (an accumulator's operator reads the
                // destination): the callee, not this call, orders the two.
                if i == &j || matches!(args[j].ty, Type::Arrow(..)) {
                    continue;
                }
                if let Some(n) = part.all().intersection(&other.all()).next() {
                    return Err(Diagnostic::error(
                        args[*i].span,
                        format!(
                            "Cannot apply \"{fname}\" to argument {}: Argument is consumed, but argument {} aliases it (through {}).",
                            i + 1,
                            j + 1,
                            self.describe(*n)
                        ),
                    ));
                }
            }
        }
        for (i, part) in &consumed {
            self.consume(part, args[*i].span)
                .map_err(|d| d.with_label(span, format!("in this application of \"{fname}\"")))?;
        }
        let observed = als
            .iter()
            .enumerate()
            .filter(|(i, _)| !consumed.iter().any(|(j, _)| j == i))
            .filter(|(i, _)| partial || sig.inferred.as_ref().is_none_or(|ps| ps.contains(i)))
            .fold(fal.flat(), |acc, (_, a)| acc.union(&a.flat()));
        if partial {
            return Ok(observed);
        }
        let mut shared: BTreeSet<Name> = observed.all();
        shared.extend(sig.globals.iter().map(|f| Name::Const(*f)));
        shared.insert(result);
        Ok(ret_aliases(&sig.ret, &shared))
    }

    /// Why function `a` (signature `given`) cannot be passed where a
    /// function of uniqueness `expected` is (one not declared with a
    /// function type may consume nothing).
    fn fn_arg_mismatch(
        &self,
        a: &TExp,
        given: &USig,
        expected: Option<&FnShape>,
    ) -> Option<Diagnostic> {
        let what = match &a.kind {
            TExpKind::Global(id, _, _) => self.describe(Name::Global(*id)),
            TExpKind::Var(v, _, _) => self.describe(Name::Var(*v)),
            _ => "passed here".to_string(),
        };
        let consumes = given.params.iter().enumerate().any(|(k, p)| {
            p.any_unique()
                && !expected.is_some_and(|(eps, _)| eps.get(k).is_some_and(UShape::any_unique))
        });
        if consumes {
            return Some(Diagnostic::error(
                a.span,
                format!(
                    "The function {what} consumes its argument where the function expected here does not: parameters are incompatible regarding consuming their arguments."
                ),
            ));
        }
        let (eps, eret) = expected?;
        if eps.len() == given.params.len() && eret.violated_by(&given.ret, false) {
            return Some(Diagnostic::error(
                a.span,
                format!(
                    "The function {what} returns a value that is not unique where the function expected here returns a unique one: return types have incompatible uniqueness."
                ),
            ));
        }
        None
    }

    fn loop_exp(
        &mut self,
        pat: &TPat,
        init: &TExp,
        form: &TLoopForm,
        body: &TExp,
        span: Span,
    ) -> Res<Al> {
        let ai = self.exp(init)?;
        let mut params = vec![];
        pat.vars(&mut params);
        let outer_uses = std::mem::take(&mut self.outer_uses);
        let body_consumed = self.nested(|u| {
            let before = u.consumed.clone();
            // Loop parameters are fresh in each iteration; those declared
            // with a type that is not unique cannot be consumed.
            for v in &params {
                u.vars.insert(
                    *v,
                    Bound {
                        al: Al::Set([Name::Var(*v)].into()),
                        depth: u.depth,
                        shared_param: u.ck.declared_uniq.get(v) == Some(&false),
                    },
                );
            }
            match form {
                TLoopForm::For(i, n) => {
                    u.depth -= 1;
                    let r = u.exp(n);
                    u.depth += 1;
                    r?;
                    u.vars.insert(
                        *i,
                        Bound {
                            al: Al::none(),
                            depth: u.depth,
                            shared_param: false,
                        },
                    );
                }
                TLoopForm::ForIn(p, xs) => {
                    u.depth -= 1;
                    let r = u.exp(xs);
                    u.depth += 1;
                    let ax = r?;
                    u.bind(p, &ax.flat());
                }
                TLoopForm::While(c) => {
                    u.exp(c)?;
                }
            }
            let ab = u.exp(body)?;
            let consumed: BTreeSet<VarId> = params
                .iter()
                .copied()
                .filter(|v| u.consumed.contains_key(&Name::Var(*v)))
                .collect();
            // What the body consumed of the loop's own variables is
            // consumed afresh in the next iteration.
            let mut after = before;
            for (n, s) in u.consumed.drain() {
                if let Name::Var(v) = n {
                    if u.vars.get(&v).is_some_and(|b| b.depth < u.depth) {
                        after.insert(n, s);
                    }
                }
            }
            u.consumed = after;
            Ok((consumed, ab))
        });
        let uses = std::mem::replace(&mut self.outer_uses, outer_uses);
        let (mut consumed, ab) = body_consumed?;
        // Uses of what is bound further out are uses here too.
        for (v, span) in &uses {
            if self.vars.get(v).is_some_and(|b| b.depth < self.depth) {
                self.outer_uses.push((*v, *span));
            }
        }
        consumed.extend(
            params
                .iter()
                .filter(|v| self.ck.declared_uniq.get(v) == Some(&true)),
        );
        // The new values of the parameters, in the pattern's order.
        let mut comps = vec![];
        merge_comps(pat, &ab, &mut comps);
        // Returning for a consumed parameter what another one's value
        // aliases makes that one consumed too.
        loop {
            let mut cons: BTreeSet<Name> = BTreeSet::new();
            let mut obs: BTreeSet<Name> = BTreeSet::new();
            for (v, al) in &comps {
                let names = al.all();
                let consuming = consumed.contains(v);
                if consuming {
                    let free = names.iter().find(|n| match n {
                        Name::Var(w) => {
                            !params.contains(w)
                                && self.vars.get(w).is_some_and(|b| b.depth <= self.depth)
                        }
                        Name::Global(_) | Name::Const(_) => true,
                        Name::Fresh(_) => false,
                    });
                    if let Some(n) = free {
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "Return value for consuming loop parameter {} aliases {} [consuming-loop-param-aliases].",
                                self.describe(Name::Var(*v)),
                                self.describe(*n)
                            ),
                        ));
                    }
                }
                if names.intersection(&cons).next().is_some() {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "Return value for loop parameter {} aliases other consumed loop parameter [loop-parameter-aliases-other].",
                            self.describe(Name::Var(*v))
                        ),
                    ));
                }
                if consuming && names.iter().any(|n| cons.contains(n) || obs.contains(n)) {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "Return value for consuming loop parameter {} aliases previously returned value [aliases-previously-returned].",
                            self.describe(Name::Var(*v))
                        ),
                    ));
                }
                if consuming {
                    cons.extend(names);
                } else {
                    obs.extend(names);
                }
            }
            let before = consumed.len();
            consumed.extend(params.iter().filter(|p| cons.contains(&Name::Var(**p))));
            if consumed.len() == before {
                break;
            }
        }
        let consumed: Vec<VarId> = consumed.into_iter().collect();
        if !consumed.is_empty() {
            // The initial values of consumed parameters are consumed
            // before the loop runs: the body may not use them otherwise.
            let mut parts = vec![];
            init_parts(pat, &ai, &consumed, &mut parts);
            for (k, a) in parts.iter().enumerate() {
                if let Some(n) = parts[k + 1..]
                    .iter()
                    .find_map(|b| a.all().intersection(&b.all()).next().copied())
                {
                    return Err(Diagnostic::error(
                        init.span,
                        format!(
                            "Argument passed for consuming loop parameters is self-aliased: two of its components alias {}.",
                            self.describe(n)
                        ),
                    ));
                }
            }
            let part = parts.iter().fold(Al::none(), |acc, p| acc.union(p));
            self.consume(&part, init.span)?;
            for (v, span) in uses {
                if let Some(b) = self.vars.get(&v) {
                    let al = b.al.clone();
                    self.check_live(v, &al, span).map_err(|d| {
                        d.with_note(
                            "the loop body uses this, but the loop's initial value consumed it",
                        )
                    })?;
                }
            }
        }
        // The result: what the body's value aliases (a loop parameter
        // stands for the loop's result), and for a parameter not
        // consumed, what its initial value aliases.
        let mut stand_in: HashMap<VarId, Name> = HashMap::new();
        let loc = self.loc(span);
        for v in &params {
            let n = self.new_fresh(format!("the result of the loop at {loc}"));
            stand_in.insert(*v, n);
        }
        let loop_res = self.new_fresh(format!("the result of the loop at {loc}"));
        let result_of = |p: &TPat, body: &Al, init: &Al| -> Al {
            let mut vs = vec![];
            p.vars(&mut vs);
            let body = rename_al(body, &stand_in);
            if !vs.is_empty() && vs.iter().all(|v| consumed.contains(v)) {
                body
            } else {
                body.union(&init.flat()).with(loop_res)
            }
        };
        let subs: Option<Vec<&TPat>> = match pat {
            TPat::Tuple(ps, _) => Some(ps.iter().collect()),
            TPat::Record(fs, _) => Some(fs.iter().map(|(_, p)| p).collect()),
            _ => None,
        };
        let al = match subs {
            Some(subs) => Al::Comps(
                subs.iter()
                    .enumerate()
                    .map(|(i, p)| result_of(p, &ab.comp(i), &ai.comp(i)))
                    .collect(),
            ),
            None => result_of(pat, &ab, &ai),
        };
        Ok(self.live(&al))
    }

    /// A function's result may not alias a top-level constant.
    fn check_globals(&self, al: &Al, span: Span, fname: &str) -> Res<()> {
        if self.ck.functor_apps > 0 {
            // Checked where the functor is defined, with abstract types.
            return Ok(());
        }
        match al.all().into_iter().find(|n| matches!(n, Name::Global(_))) {
            Some(n) => Err(Diagnostic::error(
                span,
                format!(
                    "The result of function \"{fname}\" aliases the free variable {}; return a copy.",
                    self.describe(n)
                ),
            )),
            None => Ok(()),
        }
    }

    /// A unique result may alias neither a shared parameter nor a
    /// constant, nor another component.
    fn check_result(&self, al: &Al, ret: &UShape, span: Span, fname: &str) -> Res<()> {
        let mut parts: Vec<(bool, BTreeSet<Name>)> = vec![];
        result_parts(al, ret, &mut parts);
        for (unique, set) in &parts {
            if !unique {
                continue;
            }
            for n in set {
                match n {
                    Name::Global(_) | Name::Const(_) => {
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "Unique-typed return value of \"{fname}\" aliases the free variable {}.",
                                self.describe(*n)
                            ),
                        ))
                    }
                    Name::Var(v) => {
                        if self.vars.get(v).is_some_and(|b| b.shared_param) {
                            return Err(Diagnostic::error(
                                span,
                                format!(
                                    "Unique-typed return value of \"{fname}\" is aliased to {}, which is not consumable: declare the parameter unique ('*') or return a copy.",
                                    self.describe(*n)
                                ),
                            ));
                        }
                    }
                    Name::Fresh(_) => {}
                }
            }
        }
        // A unique component may alias no other component.
        for (i, (ua, a)) in parts.iter().enumerate() {
            for (ub, b) in &parts[i + 1..] {
                if !ua && !ub {
                    continue;
                }
                if let Some(n) = a.intersection(b).next() {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "A unique-typed component of the return value of \"{fname}\" is aliased to some other component (self-aliased: both alias {}).",
                            self.describe(*n)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The new value of each loop parameter (variable of `p`) in the body's
/// result with aliases `al`, in the pattern's order.
fn merge_comps(p: &TPat, al: &Al, out: &mut Vec<(VarId, Al)>) {
    match p {
        TPat::Var(v, _, _) => out.push((*v, al.clone())),
        TPat::Tuple(ps, _) => {
            for (i, p) in ps.iter().enumerate() {
                merge_comps(p, &al.comp(i), out);
            }
        }
        TPat::Record(fs, _) => {
            for (i, (_, p)) in fs.iter().enumerate() {
                merge_comps(p, &al.comp(i), out);
            }
        }
        _ => {
            let mut vs = vec![];
            p.vars(&mut vs);
            out.extend(vs.into_iter().map(|v| (v, al.flat())));
        }
    }
}

/// The parts of a loop's initial value (aliases `al`) that bind the
/// parameters in `consumed`.
fn init_parts(p: &TPat, al: &Al, consumed: &[VarId], out: &mut Vec<Al>) {
    match p {
        TPat::Var(v, _, _) if consumed.contains(v) => out.push(al.clone()),
        TPat::Tuple(ps, _) => {
            for (i, p) in ps.iter().enumerate() {
                init_parts(p, &al.comp(i), consumed, out);
            }
        }
        TPat::Record(fs, _) => {
            for (i, (_, p)) in fs.iter().enumerate() {
                init_parts(p, &al.comp(i), consumed, out);
            }
        }
        _ => {
            let mut vs = vec![];
            p.vars(&mut vs);
            if vs.iter().any(|v| consumed.contains(v)) {
                out.push(al.flat());
            }
        }
    }
}

/// `al` with the variables in `to` replaced.
fn rename_al(al: &Al, to: &HashMap<VarId, Name>) -> Al {
    match al {
        Al::Set(s) => Al::Set(
            s.iter()
                .map(|n| match n {
                    Name::Var(v) => to.get(v).copied().unwrap_or(*n),
                    n => *n,
                })
                .collect(),
        ),
        Al::Comps(cs) => Al::Comps(cs.iter().map(|c| rename_al(c, to)).collect()),
    }
}

/// The components of a result with aliases `al` as its declared
/// uniqueness `ret` splits it: whether each is unique, and its aliases.
fn result_parts(al: &Al, ret: &UShape, out: &mut Vec<(bool, BTreeSet<Name>)>) {
    match ret {
        UShape::Unique => out.push((true, al.all())),
        UShape::Shared => out.push((false, al.all())),
        UShape::Comps(cs) => {
            for (i, c) in cs.iter().enumerate() {
                result_parts(&al.comp(i), c, out);
            }
        }
    }
}

/// The components of an argument with aliases `al` passed for a
/// parameter declared `shape` that must not alias each other: all of
/// them, where any part of the parameter is unique.
fn self_alias_parts(al: &Al, shape: &UShape, out: &mut Vec<BTreeSet<Name>>) {
    fn leaves(al: &Al, out: &mut Vec<BTreeSet<Name>>) {
        match al {
            Al::Set(s) => out.push(s.clone()),
            Al::Comps(cs) => cs.iter().for_each(|c| leaves(c, out)),
        }
    }
    if shape.any_unique() {
        leaves(al, out);
    }
}

/// The aliases of a call's result whose declared uniqueness is `ret`:
/// none for its unique parts, `shared` for the others.
fn ret_aliases(ret: &UShape, shared: &BTreeSet<Name>) -> Al {
    match ret {
        UShape::Unique => Al::none(),
        UShape::Shared => Al::Set(shared.clone()),
        UShape::Comps(cs) => Al::Comps(cs.iter().map(|c| ret_aliases(c, shared)).collect()),
    }
}

/// The part of an argument with aliases `al` that a parameter declared
/// `shape` consumes.
fn consumed_part(al: &Al, shape: &UShape) -> Al {
    match shape {
        UShape::Unique => al.flat(),
        UShape::Shared => Al::none(),
        UShape::Comps(cs) => cs.iter().enumerate().fold(Al::none(), |acc, (i, c)| {
            acc.union(&consumed_part(&al.comp(i), c))
        }),
    }
}
