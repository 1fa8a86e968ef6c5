//! Evaluation of bodies, statements and the non-SOAC expressions.
//!
//! Values are reference counted. A variable's reference is released at
//! its last use (computed once per body), so an operation that consumes
//! an array (update, scatter, loop parameter, …) usually holds the only
//! reference and works in place.

use crate::array::{self, Ix};
use crate::error::{shape_str, Msg, RunError};
use crate::prim;
use crate::value::{Array, CopyCounter, Val};
use parad_base::Span;
use parad_core::consume;
use parad_core::{
    AccOp, Body, Dim, DimIndex, Exp, FunDef, LoopForm, Operand, Param, Program, Symbol, Type, VName,
};
use parad_core::{
    AdOp, Apply, BasicOp, Hist, If, Jvp, Loop, Map, Reduce, Scan, Scatter, Soac, Vjp, WithAcc,
    WithVjp,
};
use parad_values::Scalar;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub type Env = FxHashMap<VName, Val>;

/// Variables whose last use in a body is a given statement.
#[derive(Default)]
pub struct Drops {
    /// All of them: removed from the environment after the statement.
    pub after: Vec<VName>,
    /// Those not used inside the statement's nested bodies: released
    /// before the statement's main work, once its operands are read.
    pub early: Vec<VName>,
}

const MAX_DEPTH: usize = 2000;

pub struct Interp<'p> {
    pub(crate) funs: FxHashMap<Symbol, &'p FunDef>,
    /// Liveness per body, keyed by address: every body evaluated lives in
    /// the program or in `acc_ops`, both alive as long as `self`.
    live: FxHashMap<*const Body, Rc<Vec<Drops>>>,
    /// Accumulator operators held by accumulator values, one per operator
    /// in the program.
    pub(crate) acc_ops: FxHashMap<*const AccOp, Rc<AccOp>>,
    pub copies: CopyCounter,
    depth: usize,
    /// Set from elsewhere (a Ctrl-C handler) to stop the run: checked
    /// before each body, so loops and SOACs stop within one iteration.
    interrupt: Option<Arc<AtomicBool>>,
}

/// Adds the span of the statement being run to an error message.
pub(crate) fn at<T>(r: Result<T, Msg>, span: Span) -> Result<T, RunError> {
    r.map_err(|m| RunError::new(m, Some(span)))
}

/// Last uses of the variables bound in `body` (or as its `params`), from
/// `parad_core::consume::last_uses`; free variables are left alone (an
/// enclosing body or a later iteration may still need them).
fn liveness(body: &Body, params: &[VName]) -> Vec<Drops> {
    consume::last_uses(body, params)
        .stms
        .into_iter()
        .map(|uses| {
            let bound = uses.iter().filter(|u| u.bound);
            Drops {
                after: bound.clone().map(|u| u.name).collect(),
                early: bound.filter(|u| !u.nested).map(|u| u.name).collect(),
            }
        })
        .collect()
}

impl<'p> Interp<'p> {
    pub fn new(prog: &'p Program) -> Interp<'p> {
        Interp {
            funs: prog.funs.iter().map(|f| (f.name, f)).collect(),
            live: FxHashMap::default(),
            acc_ops: FxHashMap::default(),
            copies: CopyCounter::default(),
            depth: 0,
            interrupt: None,
        }
    }

    /// Stops the run with the error "interrupted" once `flag` is set
    /// (the flag is left set; the caller clears it).
    pub fn with_interrupt(mut self, flag: Arc<AtomicBool>) -> Self {
        self.interrupt = Some(flag);
        self
    }

    pub(crate) fn get(&self, env: &Env, v: VName, span: Span) -> Result<Val, RunError> {
        env.get(&v)
            .cloned()
            .ok_or_else(|| RunError::new(format!("internal error: {v} has no value"), Some(span)))
    }

    pub(crate) fn operand(&self, env: &Env, o: &Operand, span: Span) -> Result<Val, RunError> {
        match o {
            Operand::Const(s) => Ok(Val::Scalar(*s)),
            Operand::Var(v) => self.get(env, *v, span),
        }
    }

    pub(crate) fn scalar(&self, env: &Env, o: &Operand, span: Span) -> Result<Scalar, RunError> {
        match self.operand(env, o, span)? {
            Val::Scalar(s) => Ok(s),
            _ => Err(RunError::new(
                format!("internal error: {o} is not a scalar"),
                Some(span),
            )),
        }
    }

    pub(crate) fn int(&self, env: &Env, o: &Operand, span: Span) -> Result<i64, RunError> {
        let s = self.scalar(env, o, span)?;
        prim::as_i64(s).ok_or_else(|| {
            RunError::new(format!("internal error: {o} is not an integer"), Some(span))
        })
    }

    pub(crate) fn array(&self, env: &Env, v: VName, span: Span) -> Result<Array, RunError> {
        match self.get(env, v, span)? {
            Val::Array(a) => Ok(a),
            _ => Err(RunError::new(
                format!("internal error: {v} is not an array"),
                Some(span),
            )),
        }
    }

    /// Runs a function on argument values.
    pub fn call(
        &mut self,
        fun: Symbol,
        args: Vec<Val>,
        span: Option<Span>,
    ) -> Result<Vec<Val>, RunError> {
        let f = *self
            .funs
            .get(&fun)
            .ok_or_else(|| RunError::new(format!("unknown function {fun}"), span))?;
        if args.len() != f.params.len() {
            return Err(RunError::new(
                format!(
                    "{fun} expects {} arguments but got {}",
                    f.params.len(),
                    args.len()
                ),
                span,
            ));
        }
        if self.depth >= MAX_DEPTH {
            // Located at the function, as the C backend reports it.
            return Err(RunError::new("call stack too deep", Some(f.span)));
        }
        let mut env = Env::default();
        let names: Vec<VName> = f.params.iter().map(|p| p.name).collect();
        for (p, v) in f.params.iter().zip(args) {
            check_dims(&env, p, &v).map_err(|m| RunError::new(m, span))?;
            env.insert(p.name, v);
        }
        self.depth += 1;
        let r = self.body(&mut env, &f.body, &names);
        self.depth -= 1;
        r
    }

    /// Evaluates `body`, whose parameters `params` are already bound in `env`.
    pub(crate) fn body(
        &mut self,
        env: &mut Env,
        body: &Body,
        params: &[VName],
    ) -> Result<Vec<Val>, RunError> {
        if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(RunError::new("interrupted", None));
        }
        let key = body as *const Body;
        let drops = match self.live.get(&key) {
            Some(d) => d.clone(),
            None => {
                let d = Rc::new(liveness(body, params));
                self.live.insert(key, d.clone());
                d
            }
        };
        self.body_with(env, body, params, &drops)
    }

    fn body_with(
        &mut self,
        env: &mut Env,
        body: &Body,
        params: &[VName],
        drops: &[Drops],
    ) -> Result<Vec<Val>, RunError> {
        let mut result = Ok(());
        for (s, d) in body.stms.iter().zip(drops.iter()) {
            if let Err(e) = self.stm(env, s, d) {
                result = Err(e);
                break;
            }
        }
        let vals = match result {
            Ok(()) => body
                .result
                .iter()
                .map(|o| self.operand(env, o, Span::default()))
                .collect::<Result<Vec<_>, _>>(),
            Err(e) => Err(e),
        };
        for p in params {
            env.remove(p);
        }
        for s in &body.stms {
            for p in &s.pat {
                env.remove(&p.name);
            }
        }
        vals
    }

    fn stm(&mut self, env: &mut Env, s: &parad_core::Stm, d: &Drops) -> Result<(), RunError> {
        let vals = self.exp(env, &s.exp, &d.early, s.span)?;
        if vals.len() != s.pat.len() {
            return Err(RunError::new(
                format!(
                    "internal error: {} values for a pattern of {}",
                    vals.len(),
                    s.pat.len()
                ),
                Some(s.span),
            ));
        }
        for (p, v) in s.pat.iter().zip(&vals) {
            at(check_dims(env, p, v), s.span)?;
        }
        for v in &d.after {
            env.remove(v);
        }
        for (p, v) in s.pat.iter().zip(vals) {
            env.insert(p.name, v);
        }
        Ok(())
    }

    fn slice(&self, env: &Env, slice: &[DimIndex], span: Span) -> Result<Vec<Ix>, RunError> {
        slice
            .iter()
            .map(|d| {
                Ok(match d {
                    DimIndex::Fix(i) => Ix::Fix(self.int(env, i, span)?),
                    DimIndex::Slice { start, len, stride } => Ix::Slice {
                        start: self.int(env, start, span)?,
                        len: self.int(env, len, span)?,
                        stride: self.int(env, stride, span)?,
                    },
                })
            })
            .collect()
    }

    pub(crate) fn exp(
        &mut self,
        env: &mut Env,
        e: &Exp,
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let one = |v: Val| Ok(vec![v]);
        let arr = |a: Array| Ok(vec![Val::Array(a)]);
        let sc = |r: Result<Scalar, Msg>| at(r, span).map(|s| vec![Val::Scalar(s)]);
        match e {
            Exp::Basic(BasicOp::Atom(o)) => one(self.operand(env, o, span)?),
            Exp::Basic(BasicOp::UnOp(op, t, x)) => {
                sc(prim::unop(*op, *t, self.scalar(env, x, span)?))
            }
            Exp::Basic(BasicOp::BinOp(op, t, x, y)) => sc(prim::binop(
                *op,
                *t,
                self.scalar(env, x, span)?,
                self.scalar(env, y, span)?,
            )),
            Exp::Basic(BasicOp::TernOp(op, t, x, y, z)) => sc(prim::ternop(
                *op,
                *t,
                self.scalar(env, x, span)?,
                self.scalar(env, y, span)?,
                self.scalar(env, z, span)?,
            )),
            Exp::Basic(BasicOp::Cmp(op, _, x, y)) => sc(prim::cmp(
                *op,
                self.scalar(env, x, span)?,
                self.scalar(env, y, span)?,
            )),
            Exp::Basic(BasicOp::Conv(op, _, to, x)) => {
                sc(prim::convert(*op, *to, self.scalar(env, x, span)?))
            }
            Exp::Basic(BasicOp::Index { arr: a, slice }) => {
                let ix = self.slice(env, slice, span)?;
                one(at(array::index(&self.array(env, *a, span)?, &ix), span)?)
            }
            Exp::Basic(BasicOp::Update {
                arr: a,
                slice,
                value,
            }) => {
                let ix = self.slice(env, slice, span)?;
                let v = self.operand(env, value, span)?;
                let target = self.array(env, *a, span)?;
                release(env, early);
                arr(at(array::update(target, &ix, v, &self.copies), span)?)
            }
            Exp::Basic(BasicOp::Reshape { arr: a, shape }) => {
                let dims: Vec<i64> = shape
                    .iter()
                    .map(|d| self.int(env, d, span))
                    .collect::<Result<_, _>>()?;
                arr(at(
                    array::reshape(&self.array(env, *a, span)?, &dims, "reshape"),
                    span,
                )?)
            }
            Exp::Basic(BasicOp::Flatten { arr: a }) => {
                arr(at(array::flatten(&self.array(env, *a, span)?), span)?)
            }
            Exp::Basic(BasicOp::Unflatten { arr: a, n, m }) => {
                let (n, m) = (self.int(env, n, span)?, self.int(env, m, span)?);
                arr(at(
                    array::unflatten(&self.array(env, *a, span)?, n, m),
                    span,
                )?)
            }
            Exp::Basic(BasicOp::Rearrange { arr: a, perm }) => arr(at(
                array::rearrange(&self.array(env, *a, span)?, perm),
                span,
            )?),
            Exp::Basic(BasicOp::Iota { n, start, step, it }) => {
                let n = self.int(env, n, span)?;
                let (s, st) = (
                    self.scalar(env, start, span)?,
                    self.scalar(env, step, span)?,
                );
                arr(at(array::iota(n, s, st, *it), span)?)
            }
            Exp::Basic(BasicOp::Replicate { n, value }) => {
                let n = self.int(env, n, span)?;
                arr(at(
                    array::replicate(n, &self.operand(env, value, span)?),
                    span,
                )?)
            }
            Exp::Basic(BasicOp::Scratch { elem, shape }) => {
                let dims: Vec<i64> = shape
                    .iter()
                    .map(|d| self.int(env, d, span))
                    .collect::<Result<_, _>>()?;
                arr(at(array::scratch(*elem, &dims), span)?)
            }
            Exp::Basic(BasicOp::Concat { arrs }) => {
                let xs: Vec<Array> = arrs
                    .iter()
                    .map(|a| self.array(env, *a, span))
                    .collect::<Result<_, _>>()?;
                arr(at(array::concat(&xs), span)?)
            }
            Exp::Basic(BasicOp::Copy { arr: a }) => arr(at(
                array::copy(&self.array(env, *a, span)?, &self.copies),
                span,
            )?),
            Exp::Basic(BasicOp::Reverse { arr: a }) => {
                arr(array::reverse(&self.array(env, *a, span)?))
            }
            Exp::Basic(BasicOp::Rotate { arr: a, amount }) => {
                let k = self.int(env, amount, span)?;
                arr(at(array::rotate(&self.array(env, *a, span)?, k), span)?)
            }
            Exp::Basic(BasicOp::Size { arr: a, dim }) => {
                let x = self.array(env, *a, span)?;
                let d = x.shape.get(*dim).copied().unwrap_or(0);
                one(Val::Scalar(Scalar::I64(d as i64)))
            }
            // The interpreter has no tuning parameters (as Futhark's): the
            // default is the value.
            Exp::Basic(BasicOp::UserParam { default, .. }) => {
                one(Val::Scalar(self.scalar(env, default, span)?))
            }
            Exp::Apply(Apply { fun, args }) => {
                let vals: Vec<Val> = args
                    .iter()
                    .map(|o| self.operand(env, o, span))
                    .collect::<Result<_, _>>()?;
                release(env, early);
                self.call(*fun, vals, Some(span))
            }
            Exp::If(If {
                cond,
                then_br,
                else_br,
                ..
            }) => {
                let c = self.scalar(env, cond, span)?;
                let br = if c == Scalar::Bool(true) {
                    then_br
                } else {
                    else_br
                };
                self.body(env, br, &[])
            }
            Exp::Loop(Loop { params, form, body }) => {
                self.run_loop(env, params, form, body, early, span)
            }
            Exp::Basic(BasicOp::Assert {
                cond,
                message,
                args,
            }) => {
                if self.scalar(env, cond, span)? == Scalar::Bool(true) {
                    return Ok(vec![]);
                }
                // Fill the `{}` holes with the values, printed bare.
                let mut text = String::new();
                let mut parts = message.split("{}");
                text.push_str(parts.next().unwrap_or(""));
                for (part, a) in parts.zip(args) {
                    let v = self.scalar(env, a, span)?;
                    text.push_str(&plain(v));
                    text.push_str(part);
                }
                Err(RunError::new(text, Some(span)))
            }
            Exp::Soac(Soac::Map(Map { w, lam, arrs })) => self.map(env, w, lam, arrs, early, span),
            Exp::Soac(Soac::Reduce(Reduce { w, op, arrs, .. })) => {
                self.reduce(env, w, op, arrs, span)
            }
            Exp::Soac(Soac::Scan(Scan { w, op, arrs })) => self.scan(env, w, op, arrs, span),
            Exp::Soac(Soac::Hist(Hist {
                w,
                dests,
                op,
                inds,
                vals,
            })) => self.hist(env, w, dests, op, inds, vals, early, span),
            Exp::Soac(Soac::Screma(sc)) => self.screma(env, sc, early, span),
            Exp::Soac(Soac::Scatter(Scatter { w, dests })) => {
                self.scatter(env, w, dests, early, span)
            }
            Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) => {
                self.withacc(env, inputs, lam, early, span)
            }
            Exp::Basic(BasicOp::Upd { acc, inds, vals }) => {
                self.upd(env, *acc, inds, vals, early, span)
            }
            // Outside reverse AD the custom adjoint plays no part.
            Exp::Ad(AdOp::WithVjp(WithVjp { lam, args, .. })) => {
                let vals: Vec<Val> = args
                    .iter()
                    .map(|o| self.operand(env, o, span))
                    .collect::<Result<_, _>>()?;
                release(env, early);
                self.apply(env, lam, vals)
            }
            Exp::Ad(AdOp::Jvp(Jvp { .. })) | Exp::Ad(AdOp::Vjp(Vjp { .. })) => Err(RunError::new(
                "jvp/vjp must be expanded by the AD pass before interpretation",
                Some(span),
            )),
        }
    }

    fn run_loop(
        &mut self,
        env: &mut Env,
        params: &[(Param, Operand)],
        form: &LoopForm,
        body: &Body,
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let mut vals: Vec<Val> = params
            .iter()
            .map(|(_, o)| self.operand(env, o, span))
            .collect::<Result<_, _>>()?;
        let mut names: Vec<VName> = params.iter().map(|(p, _)| p.name).collect();
        let n = match form {
            LoopForm::For { bound, .. } => self.int(env, bound, span)?,
            LoopForm::While { .. } => 0,
        };
        release(env, early);
        match form {
            LoopForm::For { i, it, .. } => {
                names.push(*i);
                for k in 0..n.max(0) {
                    env.insert(*i, Val::Scalar(prim::mk_int(*it, k as i128)));
                    for ((p, _), v) in params.iter().zip(vals) {
                        env.insert(p.name, v);
                    }
                    vals = self.body(env, body, &names)?;
                }
            }
            LoopForm::While { cond } => {
                let c = params
                    .iter()
                    .position(|(p, _)| p.name == *cond)
                    .ok_or_else(|| {
                        RunError::new(
                            "internal error: while condition is not a loop parameter",
                            Some(span),
                        )
                    })?;
                while matches!(vals[c], Val::Scalar(Scalar::Bool(true))) {
                    for ((p, _), v) in params.iter().zip(vals) {
                        env.insert(p.name, v);
                    }
                    vals = self.body(env, body, &names)?;
                }
            }
        }
        Ok(vals)
    }
}

/// Removes variables at their last use, so that the values they held may
/// be updated in place by the statement.
pub(crate) fn release(env: &mut Env, early: &[VName]) {
    for v in early {
        env.remove(v);
    }
}

/// Checks a value against the known dimensions of its declared type.
pub(crate) fn check_dims(env: &Env, p: &Param, v: &Val) -> Result<(), Msg> {
    let Type::Array { shape, .. } = &p.ty else {
        return Ok(());
    };
    let actual = v.shape();
    if actual.len() != shape.len() {
        return Err(format!(
            "internal error: {} has rank {} but type {}",
            p.name,
            actual.len(),
            p.ty
        ));
    }
    for (d, &a) in shape.iter().zip(actual) {
        let expected = match d {
            Dim::Const(c) => Some(*c),
            Dim::Var(x) => match env.get(x) {
                Some(Val::Scalar(s)) => prim::as_i64(*s),
                _ => None,
            },
            Dim::Ext => None,
        };
        if let Some(e) = expected {
            if e != a as i64 {
                let want: Vec<String> = shape
                    .iter()
                    .map(|d| match d {
                        Dim::Var(x) => match env.get(x) {
                            Some(Val::Scalar(s)) => format!("[{}]", prim::as_i64(*s).unwrap_or(0)),
                            _ => "[]".into(),
                        },
                        Dim::Const(c) => format!("[{c}]"),
                        Dim::Ext => "[]".into(),
                    })
                    .collect();
                return Err(format!(
                    "Sizes do not match: value of shape {} where shape {} was expected",
                    shape_str(actual),
                    want.concat()
                ));
            }
        }
    }
    Ok(())
}

/// A scalar as a run-time error message shows it: integers and booleans
/// bare (Futhark's messages read `Range 1..1...5 is invalid`).
fn plain(v: Scalar) -> String {
    use Scalar::*;
    match v {
        I8(x) => x.to_string(),
        I16(x) => x.to_string(),
        I32(x) => x.to_string(),
        I64(x) => x.to_string(),
        U8(x) => x.to_string(),
        U16(x) => x.to_string(),
        U32(x) => x.to_string(),
        U64(x) => x.to_string(),
        Bool(x) => x.to_string(),
        f => parad_values::scalar_to_text(f),
    }
}
