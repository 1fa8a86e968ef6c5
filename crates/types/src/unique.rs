//! Uniqueness and aliasing, checked on each finished function body.
//!
//! Futhark's in-place updates are safe because a consumed array is never
//! used again: `a with [i] = v`, `let a[i] = v`, passing `a` for a unique
//! (`*`) parameter and a loop whose body consumes its parameter all consume
//! `a`, and with it every value that may alias `a`. This pass tracks, for
//! each value, the variables it may alias (per tuple or record component),
//! and reports:
//!
//! - a use of a variable after it, or something it aliases, was consumed;
//! - consuming what may not be consumed: a parameter not declared unique,
//!   a variable free in a lambda or loop body, a top-level constant;
//! - passing one array both to a unique parameter and to another
//!   parameter of the same call;
//! - a unique result that aliases a parameter not declared unique, a
//!   top-level constant, or another component of the same result.
//!
//! A function's result aliases its arguments unless its return type is
//! unique; the result of an in-place update, of `copy` and of every SOAC
//! is fresh (the prelude declares them `*`). Lambda parameters may be
//! consumed (the lambda's caller decides what it passes).

use crate::env::{Checker, Res};
use crate::tast::*;
use parad_base::{Diagnostic, Span};
use parad_syntax::ast::{Pat, TypeExp};
use std::collections::{BTreeSet, HashMap};

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
            _ => UShape::Shared,
        }
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
    fn any_unique(&self) -> bool {
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
}

/// What a value may alias.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Name {
    Var(VarId),
    Global(FunId),
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
}

fn has_array(t: &Type) -> bool {
    match t {
        Type::Array(..) | Type::Param(_) | Type::Var(_) | Type::Acc(_) => true,
        Type::Tuple(ts) => ts.iter().any(has_array),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_array(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_array)),
        Type::Prim(_) | Type::Arrow(..) => false,
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
        };
        for (p, shape) in params.iter().zip(&sig.params) {
            u.bind_param(p, shape);
        }
        let al = u.exp(body)?;
        // A function (not a constant) may not return a top-level array.
        if !params.is_empty() {
            u.check_globals(&al, body.span, name)?;
        }
        u.check_result(&al, &sig.ret, body.span, name)?;
        sig.globals = al
            .all()
            .into_iter()
            .filter_map(|n| match n {
                Name::Global(f) => Some(f),
                Name::Var(_) => None,
            })
            .collect();
        if declared_ret.is_none() {
            let names = al.all();
            sig.inferred = Some(
                params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| {
                        let mut vs = vec![];
                        p.vars(&mut vs);
                        vs.iter().any(|v| names.contains(&Name::Var(*v)))
                    })
                    .map(|(i, _)| i)
                    .collect(),
            );
        }
        Ok(())
    }
}

impl U<'_> {
    fn name(&self, n: Name) -> String {
        match n {
            Name::Var(v) => self.ck.vars[v.0 as usize].name.clone(),
            Name::Global(f) => self
                .ck
                .funs
                .get(f.0 as usize)
                .map(|f| f.name.clone())
                .unwrap_or_default(),
        }
    }

    fn loc(&self, span: Span) -> String {
        let l = self.ck.files.sources.location(span);
        format!("{}:{}", l.line, l.col)
    }

    fn bind_param(&mut self, p: &TPat, shape: &UShape) {
        match (p, shape) {
            (TPat::Tuple(ps, _), UShape::Comps(ss)) if ps.len() == ss.len() => {
                for (p, s) in ps.iter().zip(ss) {
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
                let al = if has_array(t) {
                    al.with(Name::Var(*v))
                } else {
                    Al::none()
                };
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
                        "\"{}\", which aliases \"{}\"",
                        self.name(Name::Var(v)),
                        self.name(n)
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
                Name::Global(_) => {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "Consuming a value that aliases the free variable \"{}\", a top-level constant, which is not consumable.",
                            self.name(n)
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
                    if let Some(at) = self.consumed.get(&n) {
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "Consuming \"{}\", but this was already consumed at {}.",
                                self.name(n),
                                self.loc(*at)
                            ),
                        ));
                    }
                    self.consumed.insert(n, span);
                }
            }
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
        Ok(if has_array(&e.ty) { al } else { Al::none() })
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
                    Al::Set([Name::Global(*f)].into())
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
                // The value is computed before the array is consumed (and
                // copied into it, so it may alias it).
                let before: BTreeSet<Name> = self.consumed.keys().copied().collect();
                let was = self.updating.replace((a.span, None));
                let r = self.exp(v);
                let memo = std::mem::replace(&mut self.updating, was);
                r?;
                let aa = match memo {
                    Some((_, Some(al))) => al,
                    _ => self.exp(a)?,
                };
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
                let al = self.exp(rhs)?;
                let al = self.live(&al);
                self.bind(pat, &al);
                self.exp(body)
            }
            TExpKind::LetFun(lf, body) => {
                let sig = self.ck.local_uniq.get(&lf.var).cloned().unwrap_or(USig {
                    params: vec![UShape::Shared; lf.params.len()],
                    ret: UShape::Shared,
                    globals: vec![],
                    inferred: None,
                });
                // Its body runs wherever it is called: what is bound
                // outside cannot be consumed there, and a use of the
                // function is a use of what it uses.
                let uses = std::mem::take(&mut self.outer_uses);
                let r = self.nested(|u| {
                    for (p, shape) in lf.params.iter().zip(&sig.params) {
                        u.bind_param(p, shape);
                    }
                    let al = u.exp(&lf.body)?;
                    let name = u.name(Name::Var(lf.var));
                    u.check_result(&al, &sig.ret, lf.body.span, &name)
                });
                let inner = std::mem::replace(&mut self.outer_uses, uses);
                r?;
                let mut free = Al::none();
                for (v, span) in inner {
                    if let Some(b) = self.vars.get(&v) {
                        if b.depth < self.depth {
                            self.outer_uses.push((v, span));
                        }
                        free = free.union(&b.al.with(Name::Var(v)).flat());
                    }
                }
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
                let uses = std::mem::take(&mut self.outer_uses);
                let r = self.nested(|u| {
                    for p in params {
                        u.bind_param(p, &UShape::Unique);
                    }
                    u.exp(body).map(|_| ())
                });
                let inner = std::mem::replace(&mut self.outer_uses, uses);
                r?;
                for (v, span) in inner {
                    if self.vars.get(&v).is_some_and(|b| b.depth < self.depth) {
                        self.outer_uses.push((v, span));
                    }
                }
                Ok(Al::none())
            }
            TExpKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => self.loop_exp(pat, init, form, body),
            TExpKind::Assert(c, x) => {
                self.exp(c)?;
                self.exp(x)
            }
            TExpKind::Coerce(x) => self.exp(x),
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

    fn apply(&mut self, f: &TExp, args: &[TExp], span: Span) -> Res<Al> {
        let sig = match &f.kind {
            TExpKind::Global(id, _, _) => self.ck.fun_uniq.get(id).cloned(),
            TExpKind::Var(v, _, _) => self.local.get(v).cloned(),
            _ => None,
        };
        self.exp(f)?;
        let mut als = vec![];
        for a in args {
            als.push(self.exp(a)?);
        }
        if let TExpKind::Intrinsic(..) = f.kind {
            // Built-in operations make new values (the prelude's
            // functions, not the intrinsics they call, say what aliases).
            return Ok(Al::none());
        }
        let Some(sig) = sig else {
            // An unknown function: its result may alias its arguments.
            return Ok(als.iter().fold(Al::none(), |acc, a| acc.union(&a.flat())));
        };
        let fname = match &f.kind {
            TExpKind::Global(id, _, _) => self.name(Name::Global(*id)),
            TExpKind::Var(v, _, _) => self.name(Name::Var(*v)),
            _ => String::new(),
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
                    "Partial application of \"{fname}\" with consumption of argument {}: the function value could be called many times.",
                    i + 1
                ),
            ));
        }
        // Consumed components of one argument must not alias each other.
        for (i, (al, shape)) in als.iter().zip(&sig.params).enumerate() {
            if let (Al::Comps(cs), UShape::Comps(ss)) = (al, shape) {
                let parts: Vec<BTreeSet<Name>> = cs
                    .iter()
                    .zip(ss)
                    .map(|(c, s)| consumed_part(c, s).all())
                    .filter(|p| !p.is_empty())
                    .collect();
                for (k, a) in parts.iter().enumerate() {
                    if let Some(n) = parts[k + 1..].iter().find_map(|b| a.intersection(b).next()) {
                        return Err(Diagnostic::error(
                            args[i].span,
                            format!(
                                "Cannot apply \"{fname}\": argument {} is self-aliased: two of its consumed components alias \"{}\".",
                                i + 1,
                                self.name(*n)
                            ),
                        ));
                    }
                }
            }
        }
        for (i, part) in &consumed {
            for (j, other) in als.iter().enumerate() {
                if i == &j {
                    continue;
                }
                if let Some(n) = part.all().intersection(&other.all()).next() {
                    return Err(Diagnostic::error(
                        args[*i].span,
                        format!(
                            "Cannot apply \"{fname}\" to argument {}: Argument is consumed, but argument {} aliases it (through \"{}\").",
                            i + 1,
                            j + 1,
                            self.name(*n)
                        ),
                    ));
                }
            }
        }
        for (i, part) in &consumed {
            self.consume(part, args[*i].span)
                .map_err(|d| d.with_label(span, format!("in this application of \"{fname}\"")))?;
        }
        Ok(if sig.ret.any_unique() && !partial {
            Al::none()
        } else {
            let globals = Al::Set(sig.globals.iter().map(|f| Name::Global(*f)).collect());
            als.iter()
                .enumerate()
                .filter(|(i, _)| !consumed.iter().any(|(j, _)| j == i))
                .filter(|(i, _)| partial || sig.inferred.as_ref().is_none_or(|ps| ps.contains(i)))
                .fold(globals, |acc, (_, a)| acc.union(&a.flat()))
        })
    }

    fn loop_exp(&mut self, pat: &TPat, init: &TExp, form: &TLoopForm, body: &TExp) -> Res<Al> {
        let ai = self.exp(init)?;
        let mut params = vec![];
        pat.vars(&mut params);
        let outer_uses = std::mem::take(&mut self.outer_uses);
        let body_consumed = self.nested(|u| {
            let before = u.consumed.clone();
            // Loop parameters are fresh in each iteration.
            u.bind_param(pat, &UShape::Unique);
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
            let consumed: Vec<VarId> = params
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
        let (consumed, ab) = body_consumed?;
        let body_consumed = (consumed, ab, uses.clone());
        // Uses of what is bound further out are uses here too.
        for (v, span) in uses {
            if self.vars.get(&v).is_some_and(|b| b.depth < self.depth) {
                self.outer_uses.push((v, span));
            }
        }
        let (consumed, ab, uses) = body_consumed;
        if !consumed.is_empty() {
            // The initial values of consumed parameters are consumed
            // before the loop runs: the body may not use them otherwise.
            let part = init_part(pat, &ai, &consumed);
            self.consume(&part, init.span)?;
            for (v, span) in uses {
                if let Some(b) = self.vars.get(&v) {
                    let al = b.al.clone();
                    self.check_live(v, &al, span)?;
                }
            }
        }
        let from_params = ab
            .all()
            .iter()
            .any(|n| matches!(n, Name::Var(v) if params.contains(v)));
        let outer: BTreeSet<Name> = ab
            .all()
            .into_iter()
            .filter(|n| match n {
                Name::Var(v) => {
                    self.vars.get(v).is_some_and(|b| b.depth <= self.depth) && !params.contains(v)
                }
                Name::Global(_) => true,
            })
            .collect();
        let mut al = Al::Set(outer);
        if from_params && consumed.is_empty() {
            al = al.union(&ai.flat());
        }
        Ok(self.live(&al))
    }

    /// A function's result may not alias a top-level constant.
    fn check_globals(&self, al: &Al, span: Span, fname: &str) -> Res<()> {
        match al.all().into_iter().find(|n| matches!(n, Name::Global(_))) {
            Some(n) => Err(Diagnostic::error(
                span,
                format!(
                    "The result of function \"{fname}\" aliases the free variable \"{}\"; return a copy.",
                    self.name(n)
                ),
            )),
            None => Ok(()),
        }
    }

    /// A unique result may alias neither a shared parameter nor a
    /// constant, nor another unique component.
    fn check_result(&self, al: &Al, ret: &UShape, span: Span, fname: &str) -> Res<()> {
        let mut uniques: Vec<BTreeSet<Name>> = vec![];
        self.unique_parts(al, ret, &mut uniques);
        for set in &uniques {
            for n in set {
                match n {
                    Name::Global(_) => {
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "Unique-typed return value of \"{fname}\" aliases the free variable \"{}\".",
                                self.name(*n)
                            ),
                        ))
                    }
                    Name::Var(v) => {
                        if self.vars.get(v).is_some_and(|b| b.shared_param) {
                            return Err(Diagnostic::error(
                                span,
                                format!(
                                    "Unique-typed return value of \"{fname}\" is aliased to \"{}\", which is not consumable: declare the parameter unique ('*') or return a copy.",
                                    self.name(*n)
                                ),
                            ));
                        }
                    }
                }
            }
        }
        for (i, a) in uniques.iter().enumerate() {
            for b in &uniques[i + 1..] {
                if let Some(n) = a.intersection(b).next() {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "A unique-typed component of the return value of \"{fname}\" is aliased to some other component (self-aliased: both alias \"{}\").",
                            self.name(*n)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn unique_parts(&self, al: &Al, ret: &UShape, out: &mut Vec<BTreeSet<Name>>) {
        match ret {
            UShape::Unique => out.push(al.all()),
            UShape::Shared => {}
            UShape::Comps(cs) => {
                for (i, c) in cs.iter().enumerate() {
                    self.unique_parts(&al.comp(i), c, out);
                }
            }
        }
    }
}

/// The part of a loop's initial value (aliases `al`) that binds the
/// parameters in `consumed`.
fn init_part(p: &TPat, al: &Al, consumed: &[VarId]) -> Al {
    match p {
        TPat::Var(v, _, _) if consumed.contains(v) => al.clone(),
        TPat::Tuple(ps, _) => ps.iter().enumerate().fold(Al::none(), |acc, (i, p)| {
            acc.union(&init_part(p, &al.comp(i), consumed))
        }),
        TPat::Record(fs, _) => fs.iter().enumerate().fold(Al::none(), |acc, (i, (_, p))| {
            acc.union(&init_part(p, &al.comp(i), consumed))
        }),
        _ => {
            let mut vs = vec![];
            p.vars(&mut vs);
            if vs.iter().any(|v| consumed.contains(v)) {
                al.flat()
            } else {
                Al::none()
            }
        }
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
