//! Function application: every call of a non-recursive function is
//! inlined, so higher-order functions disappear and polymorphic
//! functions are instantiated at each use (recursive functions:
//! [`crate::recursion`]).

use crate::error::{LowerError, R};
use crate::value::{Callee, Closure, Env, SizeVals, SV};
use crate::Lowerer;
use parad_base::Span;
use parad_core::{BasicOp, Dim as CoreDim};
use parad_core::{BinOp, Builder, CmpOp, Exp, Operand};
use parad_types::tast::{Dim, SizeInst, SizeOp, SizeSource, TPat, Type, VarId};
use std::rc::Rc;

/// Inlining deeper than this means runaway expansion, not a real program.
const MAX_DEPTH: usize = 2000;

impl<'p> Lowerer<'p> {
    /// Applies a function value to arguments (possibly too few: a partial
    /// application; possibly more than its parameters: the result is
    /// applied to the rest).
    pub fn apply(
        &mut self,
        b: &mut Builder,
        f: SV<'p>,
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        let SV::Fun(c) = f else {
            return Err(LowerError::bug(span, "application of a non-function"));
        };
        let mut all = c.args.clone();
        all.extend(args);
        let arity = self.arity(&c.callee);
        if all.len() < arity {
            return Ok(SV::Fun(Rc::new(Closure {
                callee: c.callee.clone(),
                args: all,
            })));
        }
        let rest = all.split_off(arity);
        let r = self.call(b, c.callee.clone(), all, span)?;
        if rest.is_empty() {
            Ok(r)
        } else {
            self.apply(b, r, rest, span)
        }
    }

    fn arity(&self, c: &Callee<'p>) -> usize {
        match c {
            Callee::Lambda { params, .. } => params.len(),
            Callee::Global(f, ..) => self.prog.fun(*f).params.len(),
            Callee::Local { fun, .. } => fun.params.len(),
            Callee::Intrinsic(i, _) => i.arity(),
        }
    }

    /// Calls `callee` with exactly its number of arguments.
    pub fn call(
        &mut self,
        b: &mut Builder,
        callee: Callee<'p>,
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(LowerError::unsupported(
                span,
                "function calls nested too deeply to inline",
            ));
        }
        let r = self.call_inner(b, callee, args, span);
        self.depth -= 1;
        r
    }

    fn call_inner(
        &mut self,
        b: &mut Builder,
        callee: Callee<'p>,
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        // A recursive function is called, not inlined: from inside the
        // prelude (`jvp (f 3) x 1`), the call is located at the user's
        // call of the prelude function.
        if let Callee::Global(f, ..) = &callee {
            if self.prog.fun(*f).recursive {
                let at = b.pinned_span().unwrap_or(span);
                return self.call_callee(b, callee, args, at);
            }
        }
        // Code inlined from the prelude is located at the user's call;
        // user code called from inside the prelude (a lambda passed to
        // `map`) keeps its own locations.
        let user = match &callee {
            Callee::Lambda { body, .. } => !self.prelude_files.contains(&body.span.file),
            Callee::Global(f, ..) => !self.prog.fun(*f).prelude,
            Callee::Local { fun, .. } => !self.prelude_files.contains(&fun.body.span.file),
            Callee::Intrinsic(..) => false,
        };
        // A named function of the user's is an inlined call of the
        // backtrace (from inside the prelude, at the user's call of the
        // prelude function).
        let named = matches!(callee, Callee::Global(..) | Callee::Local { .. });
        let frame = (user && named).then(|| {
            let call = b.pinned_span().unwrap_or(span);
            b.ctx.enter_frame(call)
        });
        let pin = match (user, b.pinned_span()) {
            (true, Some(_)) => Some(b.pin_span(None)),
            (false, None) => Some(b.pin_span(Some(span))),
            _ => None,
        };
        let r = self.call_callee(b, callee, args, span);
        if let Some(old) = pin {
            b.pin_span(old);
        }
        if let Some(f) = frame {
            b.ctx.leave_frame(f);
        }
        r
    }

    fn call_callee(
        &mut self,
        b: &mut Builder,
        callee: Callee<'p>,
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        match callee {
            Callee::Lambda { params, body, env } => {
                let mut env = env;
                self.bind_params(b, &mut env, params, args)?;
                self.exp(b, &env, body)
            }
            Callee::Global(f, inst, sizes) if self.prog.fun(f).recursive => {
                self.call_recursive(b, (f, inst, sizes), args, span)
            }
            Callee::Global(f, inst, sizes) => {
                let fun = self.prog.fun(f);
                let parts = (
                    &fun.type_params[..],
                    &fun.params[..],
                    &fun.size_sources[..],
                    &fun.body,
                );
                let name = &fun.name;
                self.inline(b, Env::default(), inst, sizes, parts, name, args, span)
            }
            Callee::Local {
                fun,
                env,
                inst,
                sizes,
            } => {
                let parts = (
                    &fun.type_params[..],
                    &fun.params[..],
                    &fun.size_sources[..],
                    &fun.body,
                );
                let name = self.var_name(fun.var);
                self.inline(b, env, inst, sizes, parts, name, args, span)
            }
            Callee::Intrinsic(name, inst) => self.intrinsic(b, name, &inst, args, span),
        }
    }

    /// The body of a named function (top-level or local) evaluated in
    /// `env` with its type parameters, parameters and sizes bound.
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn inline(
        &mut self,
        b: &mut Builder,
        mut env: Env<'p>,
        inst: Vec<parad_types::tast::Type>,
        context_sizes: SizeVals,
        (tparams, params, sizes, body): (
            &'p [parad_types::tast::TypeParamId],
            &'p [TPat],
            &'p [SizeSource],
            &'p parad_types::tast::TExp,
        ),
        name: &str,
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        for (p, t) in tparams.iter().zip(inst) {
            env.tys.insert(*p, t);
        }
        let copies = (!context_sizes.is_empty()).then(|| args.clone());
        self.bind_params(b, &mut env, params, args)?;
        self.bind_sizes(b, &mut env, sizes, span)?;
        // Sizes no argument determines come from the context; the
        // arguments must then have the shapes the parameters' types say
        // (`split`'s argument has `n + m` elements).
        let mut from_context = false;
        for (v, o) in context_sizes {
            if !env.vars.contains_key(&v) {
                env.bind(v, SV::Prim(o));
                from_context = true;
            }
        }
        if let (true, Some(args)) = (from_context, copies) {
            for (i, (p, a)) in params.iter().zip(&args).enumerate() {
                let what = format!("argument {} of `{name}`", i + 1);
                self.check_shape(b, &env, a, &env.resolve(&p.ty()), &what, span)?;
            }
        }
        self.exp(b, &env, body)
    }

    /// The values of the size parameters that no source determines, from
    /// what the type checker inferred at this use.
    pub fn size_vals(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        sources: &[SizeSource],
        sinst: &[SizeInst],
    ) -> SizeVals {
        let mut out = vec![];
        for (v, d) in sinst {
            if sources.iter().any(|s| s.size == *v) {
                continue;
            }
            if let Some(o) = self.dim_value(b, env, d) {
                out.push((*v, o));
            }
        }
        out
    }

    /// The value of a dimension in `env`, if it is known there.
    pub fn dim_value(&mut self, b: &mut Builder, env: &Env<'p>, d: &Dim) -> Option<Operand> {
        match d {
            Dim::Any | Dim::Infer(_) | Dim::AbbrevParam(_) => None,
            Dim::Const(c) => Some(Operand::i64(*c)),
            Dim::Var(v) => match env.vars.get(v) {
                Some(SV::Prim(o)) => Some(*o),
                _ => None,
            },
            Dim::Op(op, x, y) => {
                let x = self.dim_value(b, env, x)?;
                let y = self.dim_value(b, env, y)?;
                Some(Operand::Var(match op {
                    SizeOp::Add => b.add(x, y),
                    SizeOp::Sub => b.sub(x, y),
                    SizeOp::Mul => b.mul(x, y),
                }))
            }
        }
    }

    /// Checks at run time that the value `v` (described by `what` in the
    /// error message) has the known dimensions of type `t`, and returns it
    /// with that type: an empty array whose inner sizes are constants
    /// other than the declared ones (`[] : [0]a` with `a = [x]i32`) takes
    /// the declared sizes, as the type says it has.
    pub fn check_shape(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        v: &SV<'p>,
        t: &Type,
        what: &str,
        span: Span,
    ) -> R<SV<'p>> {
        match (v, t) {
            (SV::Tuple(vs), Type::Tuple(ts)) if vs.len() == ts.len() => {
                let mut out = Vec::with_capacity(vs.len());
                for (i, (v, t)) in vs.iter().zip(ts).enumerate() {
                    let what = format!("component {i} of {what}");
                    out.push(self.check_shape(b, env, v, t, &what, span)?);
                }
                Ok(SV::Tuple(out))
            }
            (SV::Record(vs), Type::Record(ts)) if vs.len() == ts.len() => {
                let mut out = Vec::with_capacity(vs.len());
                for ((n, v), (_, t)) in vs.iter().zip(ts) {
                    let what = format!("field `{n}` of {what}");
                    out.push((n.clone(), self.check_shape(b, env, v, t, &what, span)?));
                }
                Ok(SV::Record(out))
            }
            (_, Type::Array(elem, dims)) => {
                // Every leaf of an array (of tuples) has the outer dimensions.
                let Some(Operand::Var(a)) = v.leaves(span)?.into_iter().next() else {
                    return Ok(v.clone());
                };
                let rank = dims.len().min(b.type_of(a).rank());
                b.set_span(span);
                let mut ok: Option<Operand> = None;
                let (mut haves, mut wants) = (vec![], vec![]);
                let mut known: Vec<Option<Operand>> = vec![];
                let mut want_text = String::new();
                // The dimensions inside an empty one are not checked: the
                // backends do not always keep them (a `map` over no rows).
                let mut empty: Option<Operand> = None;
                for (k, d) in dims.iter().enumerate().take(rank) {
                    let have = size(b, a, k);
                    haves.push(have);
                    let outer_empty = empty;
                    let zero = Operand::Var(b.cmp(CmpOp::Eq, have, Operand::i64(0)));
                    empty = Some(match empty {
                        None => zero,
                        Some(e) => Operand::Var(b.binop(BinOp::Or, e, zero)),
                    });
                    let Some(want) = self.dim_value(b, env, d) else {
                        want_text.push_str("[]");
                        known.push(None);
                        continue;
                    };
                    want_text.push_str("[{}]");
                    wants.push(want);
                    known.push(Some(want));
                    let mut eq = Operand::Var(b.cmp(CmpOp::Eq, have, want));
                    if let Some(e) = outer_empty {
                        eq = Operand::Var(b.binop(BinOp::Or, e, eq));
                    }
                    ok = Some(match ok {
                        None => eq,
                        Some(prev) => Operand::Var(b.binop(BinOp::And, prev, eq)),
                    });
                }
                let Some(ok) = ok else {
                    return Ok(v.clone());
                };
                if rank == dims.len() {
                    want_text.push_str(&plain_type(elem));
                }
                let have_text = "[{}]".repeat(haves.len());
                // The shape the value has once the check passes: a known
                // size where the type gives one. Only an empty array can
                // pass with a different one.
                let shape: Vec<Operand> = haves
                    .iter()
                    .zip(&known)
                    .map(|(h, w)| w.unwrap_or(*h))
                    .collect();
                let stale = b.type_of(a).shape().iter().zip(&known).any(|(d, w)| {
                    matches!((d, w), (CoreDim::Const(c), Some(w)) if *w != Operand::i64(*c))
                });
                haves.extend(wants);
                let context = if self.binding_entry_params {
                    "entry point arguments have invalid sizes: "
                } else {
                    ""
                };
                b.assert_with(
                    ok,
                    format!(
                        "{context}{what} of shape {have_text} cannot match shape of type \"{want_text}\""
                    ),
                    haves,
                );
                match v {
                    SV::Arr(a) if stale && b.type_of(*a).rank() == shape.len() => {
                        Ok(SV::Arr(b.reshape(*a, shape)))
                    }
                    _ => Ok(v.clone()),
                }
            }
            _ => Ok(v.clone()),
        }
    }

    fn bind_params(
        &mut self,
        b: &mut Builder,
        env: &mut Env<'p>,
        params: &'p [TPat],
        args: Vec<SV<'p>>,
    ) -> R<()> {
        for (p, a) in params.iter().zip(args) {
            self.bind_pat(b, env, p, a)?;
        }
        Ok(())
    }

    /// Binds the variables of `pat` to the parts of `v`.
    pub fn bind_pat(
        &mut self,
        b: &mut Builder,
        env: &mut Env<'p>,
        pat: &'p TPat,
        v: SV<'p>,
    ) -> R<()> {
        match pat {
            TPat::Var(x, _, _) => env.bind(*x, v),
            TPat::Wildcard(..) => {}
            TPat::Tuple(ps, span) => {
                for (i, p) in ps.iter().enumerate() {
                    let c = v.project(&i.to_string(), *span)?;
                    self.bind_pat(b, env, p, c)?;
                }
            }
            TPat::Record(fs, span) => {
                for (n, p) in fs {
                    let c = v.project(n, *span)?;
                    self.bind_pat(b, env, p, c)?;
                }
            }
            TPat::Constr(name, ps, t, span) => {
                self.bind_constr(b, env, (name, ps, t, *span), v)?;
            }
            TPat::Lit(..) => {}
        }
        Ok(())
    }

    /// Binds size parameters to dimensions of the values they are read
    /// from; a size read from several places must be the same everywhere.
    pub fn bind_sizes(
        &mut self,
        b: &mut Builder,
        env: &mut Env<'p>,
        sources: &[SizeSource],
        span: Span,
    ) -> R<()> {
        for s in sources {
            let Some(n) = self.size_of_source(b, env, s, span)? else {
                continue;
            };
            match env.vars.get(&s.size) {
                Some(SV::Prim(prev)) => {
                    let prev = *prev;
                    b.set_span(span);
                    let ok = b.cmp(CmpOp::Eq, prev, n);
                    let msg = format!(
                        "size mismatch: dimension {} of `{}` must be `{}`, as elsewhere in the type",
                        s.dim + 1,
                        self.var_name(s.of),
                        self.var_name(s.size)
                    );
                    b.assert(ok, msg);
                }
                _ => env.bind(s.size, SV::Prim(n)),
            }
        }
        Ok(())
    }

    /// Dimension `s.dim` of the value at `s.path` inside variable `s.of`;
    /// `None` if that value has no array leaf (an array of empty tuples).
    fn size_of_source(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        s: &SizeSource,
        span: Span,
    ) -> R<Option<Operand>> {
        let mut v = env
            .vars
            .get(&s.of)
            .cloned()
            .ok_or_else(|| self.unbound(s.of, span))?;
        for f in &s.path {
            v = v.project(f, span)?;
        }
        if let SV::Fun(_) = v {
            return Ok(None);
        }
        for leaf in v.leaves(span)? {
            if let Operand::Var(a) = leaf {
                if b.type_of(a).rank() > s.dim as usize {
                    return Ok(Some(size(b, a, s.dim as usize)));
                }
            }
        }
        Ok(None)
    }

    /// A dimension as written in the source (`n * m`).
    pub fn show_dim(&self, d: &Dim) -> String {
        d.show(&|v| self.var_name(v).to_string(), "?")
    }

    pub fn var_name(&self, v: VarId) -> &'p str {
        &self.prog.var(v).name
    }

    pub fn unbound(&self, v: VarId, span: Span) -> LowerError {
        let name = self.var_name(v);
        LowerError::unsupported(
            span,
            format!(
                "the size `{name}` is determined by the context (as for `unflatten` or `split`); give it explicitly"
            ),
        )
    }
}

/// An element type as Futhark writes it, for messages; empty if it
/// mentions a type parameter (not instantiated where the check is made).
fn plain_type(t: &Type) -> String {
    fn closed(t: &Type) -> bool {
        match t {
            Type::Prim(_) => true,
            Type::Array(e, _) => closed(e),
            Type::Tuple(ts) => ts.iter().all(closed),
            Type::Record(fs) => fs.iter().all(|(_, t)| closed(t)),
            Type::Sum(cs) => cs.iter().all(|(_, ts)| ts.iter().all(closed)),
            _ => false,
        }
    }
    if closed(t) {
        parad_types::print::type_to_string(t, &[])
    } else {
        String::new()
    }
}

/// Dimension `dim` of array `a`, as an operand.
pub fn size(b: &mut Builder, a: parad_core::VName, dim: usize) -> Operand {
    Operand::Var(b.emit1_as("n", Exp::Basic(BasicOp::Size { arr: a, dim })))
}
