//! Recursive functions. A top-level function that calls itself cannot be
//! inlined; instead each use from outside makes a core function of it (a
//! specialisation), as Futhark's defunctionaliser does:
//!
//! - its type parameters take the types of that use (the type checker
//!   keeps recursion monomorphic in types, so one specialisation serves
//!   every recursive call);
//! - a first-order parameter becomes the core parameters of its leaves;
//! - a parameter holding function values is static: the specialisation
//!   is made for the closures given at that use, and only the core
//!   variables those closures capture are passed, as further parameters
//!   (the checker made recursive calls pass such parameters unchanged, so
//!   every call passes closures of the same shape).
//!
//! Inside a specialisation, every call of the function is a core `apply`
//! of it. Specialisations without function values are shared by all uses
//! at the same types.

use crate::error::{LowerError, R};
use crate::value::{from_names, types_of, Callee, Closure, Env, SizeVals, SV};
use crate::Lowerer;
use parad_base::Span;
use parad_core::{Builder, Dim, FunDef, Operand, Param, Symbol, Type as CType, VName};
use parad_types::tast::{FunId, Type};
use std::rc::Rc;

/// A specialisation being built or finished.
#[derive(Clone, Debug)]
pub struct Spec {
    pub fun: FunId,
    pub name: Symbol,
}

/// How the parts of an argument become core arguments.
enum Mode<'a, 'b> {
    /// Making a specialisation: each captured variable gets a fresh
    /// parameter (pushed here); the caller passes the variable, in the
    /// order [`Mode::Collect`] lists them.
    Abstract {
        b: &'a mut Builder<'b>,
        params: &'a mut Vec<Param>,
    },
    /// A call of an existing specialisation: only the variables, in the
    /// same order.
    Collect(&'a mut Vec<Operand>),
}

impl Mode<'_, '_> {
    fn var(&mut self, v: VName) -> VName {
        match self {
            Mode::Abstract { b, params } => {
                let ty = ext_dims(&b.type_of(v));
                let p = b.param("captured", ty);
                params.push(p.clone());
                p.name
            }
            Mode::Collect(out) => {
                out.push(Operand::Var(v));
                v
            }
        }
    }
}

/// A walk over the static arguments of one call. A closure reachable
/// along several paths (local functions capture the ones defined before
/// them) is visited once, so that the parameters do not grow
/// exponentially; both modes skip the same repeats, since abstraction
/// keeps the sharing.
struct Walk<'a, 'b, 'p> {
    mode: Mode<'a, 'b>,
    memo: rustc_hash::FxHashMap<*const Closure<'p>, Rc<Closure<'p>>>,
    /// Each captured variable is passed once: abstraction maps distinct
    /// variables to distinct parameters, so the repeats are the same in
    /// both modes.
    vars: rustc_hash::FxHashMap<VName, VName>,
}

impl<'a, 'b, 'p> Walk<'a, 'b, 'p> {
    fn new(mode: Mode<'a, 'b>) -> Self {
        Walk {
            mode,
            memo: Default::default(),
            vars: Default::default(),
        }
    }

    fn var(&mut self, v: VName) -> VName {
        if let Some(&w) = self.vars.get(&v) {
            return w;
        }
        let w = self.mode.var(v);
        self.vars.insert(v, w);
        w
    }

    fn operand(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => Operand::Var(self.var(v)),
            c => c,
        }
    }

    fn sv(&mut self, v: &SV<'p>) -> SV<'p> {
        match v {
            SV::Prim(o) => SV::Prim(self.operand(*o)),
            SV::Arr(x) => SV::Arr(self.var(*x)),
            SV::Acc(x) => SV::Acc(self.var(*x)),
            SV::Tuple(xs) => SV::Tuple(xs.iter().map(|x| self.sv(x)).collect()),
            SV::Record(fs) => SV::Record(fs.iter().map(|(n, x)| (n.clone(), self.sv(x))).collect()),
            SV::Sum(tag, ps) => SV::Sum(
                Box::new(self.sv(tag)),
                ps.iter()
                    .map(|p| p.iter().map(|x| self.sv(x)).collect())
                    .collect(),
            ),
            SV::Absent => SV::Absent,
            SV::Fun(c) => {
                if let Some(done) = self.memo.get(&Rc::as_ptr(c)) {
                    return SV::Fun(done.clone());
                }
                let new = Rc::new(Closure {
                    callee: self.callee(&c.callee),
                    args: c.args.iter().map(|a| self.sv(a)).collect(),
                });
                self.memo.insert(Rc::as_ptr(c), new.clone());
                SV::Fun(new)
            }
        }
    }

    fn sizes(&mut self, s: &SizeVals) -> SizeVals {
        s.iter().map(|(v, o)| (*v, self.operand(*o))).collect()
    }

    fn callee(&mut self, c: &Callee<'p>) -> Callee<'p> {
        match c {
            Callee::Lambda { params, body, env } => Callee::Lambda {
                params,
                body,
                env: self.env(env),
            },
            Callee::Global(f, inst, sizes) => Callee::Global(*f, inst.clone(), self.sizes(sizes)),
            Callee::Local {
                fun,
                env,
                inst,
                sizes,
            } => Callee::Local {
                fun,
                env: self.env(env),
                inst: inst.clone(),
                sizes: self.sizes(sizes),
            },
            Callee::Intrinsic(i, inst) => Callee::Intrinsic(*i, inst.clone()),
        }
    }

    /// Visits the bindings in the order of their variables, so that the
    /// same environment gives the same order every time.
    fn env(&mut self, env: &Env<'p>) -> Env<'p> {
        let mut keys: Vec<_> = env.vars.keys().copied().collect();
        keys.sort();
        let mut out = Env {
            vars: Default::default(),
            tys: env.tys.clone(),
        };
        for k in keys {
            let v = self.sv(&env.vars[&k]);
            out.vars.insert(k, v);
        }
        out
    }

    /// A fresh parameter of type `ty` (making a specialisation).
    fn param(&mut self, ty: CType) -> VName {
        match &mut self.mode {
            Mode::Abstract { b, params } => {
                let p = b.param("arg", ty);
                params.push(p.clone());
                p.name
            }
            Mode::Collect(_) => unreachable!("parameters are only made when abstracting"),
        }
    }
}

/// `t` with every dimension that names a variable existential (the
/// variable is not in scope inside the function).
fn ext_dims(t: &CType) -> CType {
    let ext = |ds: &[Dim]| -> Vec<Dim> {
        ds.iter()
            .map(|d| match d {
                Dim::Var(_) => Dim::Ext,
                d => *d,
            })
            .collect()
    };
    match t {
        CType::Prim(_) => t.clone(),
        CType::Array { elem, shape } => CType::Array {
            elem: *elem,
            shape: ext(shape),
        },
        CType::Acc(a) => CType::Acc(parad_core::types::AccType {
            ispace: ext(&a.ispace),
            elems: a.elems.iter().map(ext_dims).collect(),
        }),
    }
}

/// A parameter of this type is static in a specialisation.
fn holds_functions(t: &Type) -> bool {
    match t {
        Type::Arrow(..) => true,
        Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
        Type::Array(e, _) | Type::Acc(e) => holds_functions(e),
        Type::Tuple(ts) => ts.iter().any(holds_functions),
        Type::Record(fs) => fs.iter().any(|(_, t)| holds_functions(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(holds_functions)),
    }
}

impl<'p> Lowerer<'p> {
    /// A call of the recursive function `f` with all its arguments: a
    /// call of the specialisation being built if there is one (a
    /// recursive call), of a new or shared one otherwise.
    pub(crate) fn call_recursive(
        &mut self,
        b: &mut Builder,
        (f, inst, context_sizes): (FunId, Vec<Type>, SizeVals),
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        let fun = self.prog.fun(f);
        let active = self.specs.iter().rev().find(|s| s.fun == f).cloned();
        let (name, env) = match active {
            Some(s) => (s.name, self.spec_envs[&s.name].clone()),
            None => {
                let mut env = Env::default();
                for (p, t) in fun.type_params.iter().zip(&inst) {
                    env.tys.insert(*p, t.clone());
                }
                (
                    self.specialise(b, f, env.clone(), context_sizes, &args, span)?,
                    env,
                )
            }
        };
        let mut ops = vec![];
        let mut walk = Walk::new(Mode::Collect(&mut ops));
        for (p, a) in fun.params.iter().zip(&args) {
            let t = env.resolve(&p.ty());
            if holds_functions(&t) {
                walk.sv(a);
            } else if let Mode::Collect(ops) = &mut walk.mode {
                ops.extend(a.leaves(span)?);
            }
        }
        b.set_span(span);
        let outs = b.apply(name, ops);
        from_names(&env.resolve(&fun.ret), 0, &outs, span)
    }

    /// Makes the core function for a use of `f` with arguments `args` (or
    /// finds the shared one) and returns its name.
    fn specialise(
        &mut self,
        b: &mut Builder,
        f: FunId,
        env: Env<'p>,
        context_sizes: SizeVals,
        args: &[SV<'p>],
        span: Span,
    ) -> R<Symbol> {
        let fun = self.prog.fun(f);
        let param_tys: Vec<Type> = fun.params.iter().map(|p| env.resolve(&p.ty())).collect();
        let shared = !param_tys.iter().any(holds_functions);
        let inst: Vec<Type> = fun
            .type_params
            .iter()
            .map(|p| env.tys.get(p).cloned().unwrap_or(Type::Param(*p)))
            .collect();
        if shared {
            if let Some((_, _, name)) = self
                .shared_specs
                .iter()
                .find(|(g, i, _)| *g == f && *i == inst)
            {
                return Ok(*name);
            }
        }
        let ret_ty = env.resolve(&fun.ret);
        let ret = types_of(&ret_ty, 0, span)?;
        self.spec_count += 1;
        // Named after the source function (`M.f` becomes `M_f`), so that
        // the printed IR reads back and AD can name it in its error.
        let base: String = fun
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let name = Symbol::intern(&format!("{base}_rec{}", self.spec_count));
        b.ctx.fun_rets.insert(name, ret.clone());
        if shared {
            self.shared_specs.push((f, inst, name));
        }
        // The parameters, and the arguments bound to them in the body.
        let mut params = vec![];
        let mut inner_args = vec![];
        let mut walk = Walk::new(Mode::Abstract {
            b: &mut *b,
            params: &mut params,
        });
        for (t, a) in param_tys.iter().zip(args) {
            if holds_functions(t) {
                inner_args.push(walk.sv(a));
            } else {
                let names: Vec<VName> = types_of(t, 0, span)?
                    .into_iter()
                    .map(|ty| walk.param(ty))
                    .collect();
                inner_args.push(from_names(t, 0, &names, span)?);
            }
        }
        drop(walk);
        self.spec_envs.insert(name, env.clone());
        self.specs.push(Spec { fun: f, name });
        let mut nb = Builder::new(&mut *b.ctx);
        nb.set_span(fun.span);
        let r = (|| {
            let mut env = env;
            for (p, a) in fun.params.iter().zip(inner_args) {
                self.bind_pat(&mut nb, &mut env, p, a)?;
            }
            self.bind_sizes(&mut nb, &mut env, &fun.size_sources, fun.span)?;
            if let Some((v, _)) = context_sizes
                .iter()
                .find(|(v, _)| !env.vars.contains_key(v))
            {
                return Err(LowerError::unsupported(
                    span,
                    format!(
                        "the size `{}` of the recursive function `{}` is determined by the context only",
                        self.var_name(*v),
                        fun.name
                    ),
                ));
            }
            let v = self.exp(&mut nb, &env, &fun.body)?;
            v.leaves(fun.body.span)
        })();
        self.specs.pop();
        let result = r.inspect_err(|_| self.shared_specs.retain(|s| s.2 != name))?;
        let body = nb.into_body(result);
        self.extra_funs.push(FunDef {
            name,
            params,
            ret,
            body,
            span: fun.span,
        });
        Ok(name)
    }
}
