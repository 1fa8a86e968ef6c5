//! Terse construction of core IR. A [`Builder`] collects the statements
//! of one body; nested bodies (branches, loop bodies, lambdas) are built
//! by closures that receive a fresh builder sharing the same name source
//! and type table. Expression types are inferred, so that
//!
//! ```ignore
//! let prods = b.map(&[xs, ys], |b, p| vec![b.expr(p[0] * p[1])]);
//! let sum = b.reduce_op(BinOp::Add, &[prods], vec![Operand::f32(0.0)]);
//! ```
//!
//! reads like the pseudo-code of the AD digests; scalar arithmetic is one
//! expression of [`crate::pexp`], one statement per operator. Building ill-typed IR is a bug in the compiler, not in the user's
//! program: the builder panics with a message naming the expression.
//!
//! Every construct that takes a closure has a `try_` variant whose closure
//! returns a `Result`: the first error ends the construction and is
//! returned (differentiating a nested lambda may fail, for instance). The
//! plain variants are the `try_` ones with a closure that cannot fail.
//!
//! Result types inferred from a body's results (of lambdas, and so of
//! SOACs and `withacc`, and of `if`) are those seen from outside the body:
//! a dimension naming a variable bound inside is replaced by the operand
//! it is a copy of, or else made existential (`Dim::Ext`), so that the
//! types are in scope where the construct is bound.

use crate::free::body_binds;
use crate::ir::*;
use crate::names::{NameSource, Symbol, VName};
use crate::ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
use crate::types::{AccType, Dim, Type, I64};
use crate::typing::{self, TypeEnv};
use crate::visit::Visitor;
use parad_base::{IntType, PrimType, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::convert::Infallible;

/// The value of a construction that cannot fail.
fn ok<T>(r: Result<T, Infallible>) -> T {
    match r {
        Ok(x) => x,
        Err(e) => match e {},
    }
}

/// `t` with every dimension `v` for which `outer(v)` is `Some(d)`
/// replaced by `d` (the dimension as seen where `v` is out of scope).
pub fn rescope(t: &Type, outer: &impl Fn(VName) -> Option<Dim>) -> Type {
    let d = |d: &Dim| match d {
        Dim::Var(v) => outer(*v).unwrap_or(*d),
        d => *d,
    };
    match t {
        Type::Prim(_) => t.clone(),
        Type::Array { elem, shape } => Type::Array {
            elem: *elem,
            shape: shape.iter().map(d).collect(),
        },
        Type::Acc(a) => Type::Acc(AccType {
            ispace: a.ispace.iter().map(d).collect(),
            elems: a.elems.iter().map(|t| rescope(t, outer)).collect(),
        }),
    }
}

/// `t` with the dimensions that name variables in `inner` made
/// existential.
pub fn erase_inner(t: &Type, inner: &FxHashSet<VName>) -> Type {
    rescope(t, &|v| inner.contains(&v).then_some(Dim::Ext))
}

/// State shared by all builders of one program: fresh names and the
/// type of every variable created so far.
#[derive(Default)]
pub struct Ctx {
    pub names: NameSource,
    pub types: FxHashMap<VName, Type>,
    pub fun_rets: FxHashMap<Symbol, Vec<Type>>,
    /// The inlined calls so far ([`Program::frames`]).
    pub frames: Vec<Span>,
    /// The inlined call that the statements built now come from (a
    /// [`Span`]'s `frame`; 0 for none).
    pub frame: u32,
}

impl Ctx {
    /// Statements built from now on come from the function that `call`
    /// (a span of the current frame) calls; returns the frame to go back
    /// to with [`Ctx::leave_frame`].
    pub fn enter_frame(&mut self, call: Span) -> u32 {
        self.frames.push(call.in_frame(self.frame));
        std::mem::replace(&mut self.frame, self.frames.len() as u32)
    }

    pub fn leave_frame(&mut self, frame: u32) {
        self.frame = frame;
    }
}

impl TypeEnv for Ctx {
    fn var_type(&self, v: VName) -> Option<Type> {
        self.types.get(&v).cloned()
    }
    fn fun_ret(&self, f: Symbol) -> Option<Vec<Type>> {
        self.fun_rets.get(&f).cloned()
    }
}

impl Ctx {
    /// A context for extending `prog` (e.g. in a pass): names continue
    /// after the program's, and all bound variables and functions are known.
    pub fn for_program(prog: &Program) -> Ctx {
        let mut ctx = Ctx {
            names: prog.names.clone(),
            ..Ctx::default()
        };
        for f in &prog.funs {
            ctx.fun_rets.insert(f.name, f.ret.clone());
            for p in &f.params {
                ctx.types.insert(p.name, p.ty.clone());
            }
            ctx.record_body(&f.body);
        }
        ctx
    }

    /// Registers the types of every name bound in `b`.
    pub fn record_body(&mut self, b: &Body) {
        Recorder(self).visit_body(b)
    }

    /// Registers the types of the names bound by `s` and inside it.
    pub fn record_stm(&mut self, s: &Stm) {
        Recorder(self).visit_stm(s)
    }

    /// Registers the types of the parameters of `l` and the names bound inside it.
    pub fn record_lambda(&mut self, l: &Lambda) {
        Recorder(self).visit_lambda(l)
    }

    /// Registers the types of the names bound inside `e`.
    pub fn record_exp(&mut self, e: &Exp) {
        Recorder(self).visit_exp(e)
    }
}

/// Records the type of every binder it visits.
struct Recorder<'a>(&'a mut Ctx);

impl Visitor for Recorder<'_> {
    fn visit_binder(&mut self, v: &VName, ty: &Type) {
        self.0.types.insert(*v, ty.clone());
    }
}

/// Builds one body.
pub struct Builder<'a> {
    pub ctx: &'a mut Ctx,
    stms: Vec<Stm>,
    span: Span,
    /// While set, every statement gets this location whatever
    /// [`Self::set_span`] says (lowering pins the user's call site while
    /// it inlines a prelude function).
    pinned: Option<Span>,
}

impl<'a> Builder<'a> {
    pub fn new(ctx: &'a mut Ctx) -> Builder<'a> {
        Builder {
            ctx,
            stms: vec![],
            span: Span::default(),
            pinned: None,
        }
    }

    /// Source location given to the statements emitted from now on.
    /// Inside an inlined call ([`Ctx::frame`]), the span is taken to be
    /// in that call; elsewhere (passes after lowering) it keeps its own.
    pub fn set_span(&mut self, span: Span) {
        self.span = self.pinned.unwrap_or(self.framed(span));
    }

    fn framed(&self, span: Span) -> Span {
        match self.ctx.frame {
            0 => span,
            f => span.in_frame(f),
        }
    }

    /// Pins the location of the statements built from now on (`None`
    /// unpins); returns the previous pin.
    pub fn pin_span(&mut self, pin: Option<Span>) -> Option<Span> {
        let pin = pin.map(|s| self.framed(s));
        if let Some(s) = pin {
            self.span = s;
        }
        std::mem::replace(&mut self.pinned, pin)
    }

    pub fn pinned_span(&self) -> Option<Span> {
        self.pinned
    }

    pub fn span(&self) -> Span {
        self.span
    }

    pub fn fresh(&mut self, base: &str) -> VName {
        self.ctx.names.fresh(base)
    }

    /// A fresh parameter of type `ty` (for lambdas, loops, functions).
    pub fn param(&mut self, base: &str, ty: Type) -> Param {
        let name = self.fresh(base);
        self.ctx.types.insert(name, ty.clone());
        Param { name, ty }
    }

    pub fn type_of(&self, o: impl Into<Operand>) -> Type {
        let o = o.into();
        typing::operand_type(&*self.ctx, &o).unwrap_or_else(|e| panic!("builder: {e}"))
    }

    fn prim_of(&self, o: Operand) -> PrimType {
        match self.type_of(o) {
            Type::Prim(t) => t,
            t => panic!("builder: {o:?} has type {t}, expected a scalar"),
        }
    }

    /// Appends a statement as is (its pattern's types are recorded).
    pub fn add_stm(&mut self, stm: Stm) {
        for p in &stm.pat {
            self.ctx.types.insert(p.name, p.ty.clone());
        }
        self.stms.push(stm);
    }

    /// `let pat = exp` with a pattern of given names and types.
    pub fn let_pat(&mut self, pat: Vec<Param>, exp: impl Into<Exp>) {
        let span = self.span;
        self.add_stm(Stm::new(pat, exp, span))
    }

    /// Binds `exp` (of type `ty`) to a fresh name based on `base`.
    pub fn bind_as(&mut self, base: &str, exp: impl Into<Exp>, ty: Type) -> VName {
        let p = self.param(base, ty);
        let name = p.name;
        self.let_pat(vec![p], exp);
        name
    }

    /// Binds a single-valued `exp` of type `ty` to a fresh name.
    pub fn bind(&mut self, exp: impl Into<Exp>, ty: Type) -> VName {
        self.bind_as("t", exp, ty)
    }

    /// Binds `exp`, inferring its result types, to fresh names based on `base`.
    pub fn emit_as(&mut self, base: &str, exp: impl Into<Exp>) -> Vec<VName> {
        let exp = exp.into();
        let tys = typing::result_types(&*self.ctx, &exp)
            .unwrap_or_else(|e| panic!("builder: cannot type {exp:?}: {e}"));
        let pat: Vec<Param> = tys.into_iter().map(|t| self.param(base, t)).collect();
        let names = pat.iter().map(|p| p.name).collect();
        self.let_pat(pat, exp);
        names
    }

    pub fn emit(&mut self, exp: impl Into<Exp>) -> Vec<VName> {
        self.emit_as("t", exp)
    }

    /// Binds a single-valued `exp`, inferring its type.
    pub fn emit1(&mut self, exp: impl Into<Exp>) -> VName {
        self.emit1_as("t", exp)
    }

    pub fn emit1_as(&mut self, base: &str, exp: impl Into<Exp>) -> VName {
        let vs = self.emit_as(base, exp);
        assert_eq!(
            vs.len(),
            1,
            "builder: emit1 of an expression with {} results",
            vs.len()
        );
        vs[0]
    }

    /// Runs `f` with a builder for a nested body.
    pub fn nested<R>(&mut self, f: impl FnOnce(&mut Builder) -> R) -> (Vec<Stm>, R) {
        let mut inner = Builder {
            ctx: &mut *self.ctx,
            stms: vec![],
            span: self.span,
            pinned: self.pinned,
        };
        let r = f(&mut inner);
        (inner.stms, r)
    }

    /// A body built by `f`, whose return value is the result list.
    pub fn body(&mut self, f: impl FnOnce(&mut Builder) -> Vec<Operand>) -> Body {
        ok(self.try_body(|b| Ok(f(b))))
    }

    pub fn try_body<E>(
        &mut self,
        f: impl FnOnce(&mut Builder) -> Result<Vec<Operand>, E>,
    ) -> Result<Body, E> {
        let (stms, result) = self.nested(f);
        Ok(Body {
            stms,
            result: result?,
        })
    }

    /// The types of `body`'s results where `params` and the names bound in
    /// `body` are out of scope: a dimension bound inside becomes the
    /// operand it copies (`let n = m` at the top of `body`), else `Ext`.
    pub fn outer_types(&self, params: &[Param], body: &Body) -> Vec<Type> {
        let tys: Vec<Type> = body.result.iter().map(|&o| self.type_of(o)).collect();
        let mut dims = vec![];
        for t in &tys {
            t.dim_vars(&mut dims);
        }
        if dims.is_empty() {
            return tys;
        }
        let mut inner: FxHashSet<VName> = params.iter().map(|p| p.name).collect();
        body_binds(body, &mut |v| {
            inner.insert(v);
        });
        let copies: FxHashMap<VName, Operand> = body
            .stms
            .iter()
            .filter_map(|s| match (&s.pat[..], &s.exp) {
                ([p], Exp::Basic(BasicOp::Atom(o))) => Some((p.name, *o)),
                _ => None,
            })
            .collect();
        let outer = |mut v: VName| {
            if !inner.contains(&v) {
                return None;
            }
            loop {
                match copies.get(&v) {
                    Some(Operand::Var(w)) if inner.contains(w) => v = *w,
                    Some(o) => return Some(Dim::from_operand(o)),
                    None => return Some(Dim::Ext),
                }
            }
        };
        tys.iter().map(|t| rescope(t, &outer)).collect()
    }

    /// The statements built so far, ending this builder.
    pub fn finish(self) -> Vec<Stm> {
        self.stms
    }

    pub fn into_body(self, result: Vec<Operand>) -> Body {
        Body {
            stms: self.stms,
            result,
        }
    }

    // ---- scalar operations ----

    pub fn unop(&mut self, op: UnOp, x: impl Into<Operand>) -> VName {
        let x = x.into();
        let t = self.prim_of(x);
        self.emit1(BasicOp::UnOp(op, t, x))
    }

    pub fn binop(&mut self, op: BinOp, x: impl Into<Operand>, y: impl Into<Operand>) -> VName {
        let x = x.into();
        let t = self.prim_of(x);
        self.emit1(BasicOp::BinOp(op, t, x, y.into()))
    }

    pub fn ternop(
        &mut self,
        op: TernOp,
        x: impl Into<Operand>,
        y: impl Into<Operand>,
        z: impl Into<Operand>,
    ) -> VName {
        let x = x.into();
        let t = self.prim_of(x);
        self.emit1(BasicOp::TernOp(op, t, x, y.into(), z.into()))
    }

    pub fn cmp(&mut self, op: CmpOp, x: impl Into<Operand>, y: impl Into<Operand>) -> VName {
        let x = x.into();
        let t = self.prim_of(x);
        self.emit1(BasicOp::Cmp(op, t, x, y.into()))
    }

    pub fn cast(&mut self, to: PrimType, x: impl Into<Operand>) -> VName {
        let x = x.into();
        let from = self.prim_of(x);
        self.emit1(BasicOp::Conv(ConvOp::Cast, from, to, x))
    }

    pub fn bitcast(&mut self, to: PrimType, x: impl Into<Operand>) -> VName {
        let x = x.into();
        let from = self.prim_of(x);
        self.emit1(BasicOp::Conv(ConvOp::Bitcast, from, to, x))
    }

    pub fn add(&mut self, x: impl Into<Operand>, y: impl Into<Operand>) -> VName {
        self.binop(BinOp::Add, x, y)
    }
    pub fn sub(&mut self, x: impl Into<Operand>, y: impl Into<Operand>) -> VName {
        self.binop(BinOp::Sub, x, y)
    }
    pub fn mul(&mut self, x: impl Into<Operand>, y: impl Into<Operand>) -> VName {
        self.binop(BinOp::Mul, x, y)
    }
    pub fn div(&mut self, x: impl Into<Operand>, y: impl Into<Operand>) -> VName {
        self.binop(BinOp::Div, x, y)
    }
    pub fn neg(&mut self, x: impl Into<Operand>) -> VName {
        self.unop(UnOp::Neg, x)
    }

    // ---- arrays ----

    /// `arr[i0, i1, …]` with fixed indices.
    pub fn index(&mut self, arr: VName, idx: &[Operand]) -> VName {
        let slice = idx.iter().map(|&i| DimIndex::Fix(i)).collect();
        self.emit1(BasicOp::Index { arr, slice })
    }

    pub fn slice(&mut self, arr: VName, slice: Vec<DimIndex>) -> VName {
        self.emit1(BasicOp::Index { arr, slice })
    }

    /// `arr with [i0, …] = v`.
    pub fn update(&mut self, arr: VName, idx: &[Operand], v: impl Into<Operand>) -> VName {
        let slice = idx.iter().map(|&i| DimIndex::Fix(i)).collect();
        self.emit1(BasicOp::Update {
            arr,
            slice,
            value: v.into(),
        })
    }

    /// `[0, 1, …, n-1]` as `i64`.
    pub fn iota(&mut self, n: impl Into<Operand>) -> VName {
        self.emit1(BasicOp::Iota {
            n: n.into(),
            start: Operand::i64(0),
            step: Operand::i64(1),
            it: IntType::I64,
        })
    }

    pub fn replicate(&mut self, n: impl Into<Operand>, v: impl Into<Operand>) -> VName {
        self.emit1(BasicOp::Replicate {
            n: n.into(),
            value: v.into(),
        })
    }

    pub fn scratch(&mut self, elem: PrimType, shape: Vec<Operand>) -> VName {
        self.emit1(BasicOp::Scratch { elem, shape })
    }

    pub fn concat(&mut self, arrs: Vec<VName>) -> VName {
        self.emit1(BasicOp::Concat { arrs })
    }

    pub fn copy(&mut self, arr: VName) -> VName {
        self.emit1(BasicOp::Copy { arr })
    }

    pub fn reverse(&mut self, arr: VName) -> VName {
        self.emit1(BasicOp::Reverse { arr })
    }

    pub fn rotate(&mut self, amount: impl Into<Operand>, arr: VName) -> VName {
        self.emit1(BasicOp::Rotate {
            arr,
            amount: amount.into(),
        })
    }

    /// Swaps the two outer dimensions.
    pub fn transpose(&mut self, arr: VName) -> VName {
        let r = self.type_of(arr).rank();
        let mut perm: Vec<usize> = (0..r).collect();
        perm.swap(0, 1);
        self.emit1(BasicOp::Rearrange { arr, perm })
    }

    pub fn rearrange(&mut self, arr: VName, perm: Vec<usize>) -> VName {
        self.emit1(BasicOp::Rearrange { arr, perm })
    }

    pub fn reshape(&mut self, arr: VName, shape: Vec<Operand>) -> VName {
        self.emit1(BasicOp::Reshape { arr, shape })
    }

    pub fn flatten(&mut self, arr: VName) -> VName {
        self.emit1(BasicOp::Flatten { arr })
    }

    pub fn unflatten(&mut self, arr: VName, n: impl Into<Operand>, m: impl Into<Operand>) -> VName {
        self.emit1(BasicOp::Unflatten {
            arr,
            n: n.into(),
            m: m.into(),
        })
    }

    /// The size of dimension `dim` of `arr`: the operand from its type when
    /// known, else a `size` statement.
    pub fn dim(&mut self, arr: VName, dim: usize) -> Operand {
        match self.type_of(arr).shape().get(dim).and_then(|d| d.operand()) {
            Some(o) => o,
            None => Operand::Var(self.emit1_as("n", BasicOp::Size { arr, dim })),
        }
    }

    /// The outer size of `arr`.
    pub fn width(&mut self, arr: VName) -> Operand {
        self.dim(arr, 0)
    }

    // ---- control flow ----

    pub fn apply(&mut self, fun: impl Into<Symbol>, args: Vec<Operand>) -> Vec<VName> {
        self.emit(Apply {
            fun: fun.into(),
            args,
        })
    }

    /// Fails at run time with `message` (at the current span) unless `cond`.
    pub fn assert(&mut self, cond: impl Into<Operand>, message: impl Into<String>) {
        self.assert_with(cond, message, vec![])
    }

    /// [`Self::assert`] with run-time values in the message: each `{}` is
    /// replaced by the next of `args`.
    pub fn assert_with(
        &mut self,
        cond: impl Into<Operand>,
        message: impl Into<String>,
        args: Vec<Operand>,
    ) {
        self.let_pat(
            vec![],
            BasicOp::Assert {
                cond: cond.into(),
                message: message.into(),
                args,
            },
        )
    }

    /// `if cond then … else …`; the result types are those of the
    /// `then` branch's results (seen from outside it).
    pub fn if_(
        &mut self,
        cond: impl Into<Operand>,
        then_f: impl FnOnce(&mut Builder) -> Vec<Operand>,
        else_f: impl FnOnce(&mut Builder) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_if(cond, |b| Ok(then_f(b)), |b| Ok(else_f(b))))
    }

    pub fn try_if<E>(
        &mut self,
        cond: impl Into<Operand>,
        then_f: impl FnOnce(&mut Builder) -> Result<Vec<Operand>, E>,
        else_f: impl FnOnce(&mut Builder) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let then_br = self.try_body(then_f)?;
        let else_br = self.try_body(else_f)?;
        let ret = self.outer_types(&[], &then_br);
        Ok(self.emit(If {
            cond: cond.into(),
            then_br,
            else_br,
            ret,
        }))
    }

    fn loop_params(&mut self, inits: &[Operand]) -> Vec<(Param, Operand)> {
        inits
            .iter()
            .map(|&o| {
                let ty = self.type_of(o);
                (self.param("p", ty), o)
            })
            .collect()
    }

    /// `loop (p… = inits…) for i < bound do f(i, p…)`, with `i` of the
    /// bound's integer type. Returns the final values of the parameters.
    pub fn loop_for(
        &mut self,
        inits: &[Operand],
        bound: impl Into<Operand>,
        f: impl FnOnce(&mut Builder, VName, &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_loop_for(inits, bound, |b, i, p| Ok(f(b, i, p))))
    }

    pub fn try_loop_for<E>(
        &mut self,
        inits: &[Operand],
        bound: impl Into<Operand>,
        f: impl FnOnce(&mut Builder, VName, &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let bound = bound.into();
        let it = match self.prim_of(bound) {
            PrimType::Int(it) => it,
            t => panic!("builder: loop bound of type {t}"),
        };
        let params = self.loop_params(inits);
        let i = self.param("i", Type::Prim(PrimType::Int(it))).name;
        let names: Vec<VName> = params.iter().map(|(p, _)| p.name).collect();
        let body = self.try_body(|b| f(b, i, &names))?;
        Ok(self.emit_as(
            "loopres",
            Loop {
                params,
                form: LoopForm::For { i, it, bound },
                body,
            },
        ))
    }

    /// `loop (c = inits[0], p… = inits[1..]) while c do f(c, p…)`; the first
    /// parameter is the `bool` condition and `f` returns its next value first.
    pub fn loop_while(
        &mut self,
        inits: &[Operand],
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_loop_while(inits, |b, p| Ok(f(b, p))))
    }

    pub fn try_loop_while<E>(
        &mut self,
        inits: &[Operand],
        f: impl FnOnce(&mut Builder, &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let params = self.loop_params(inits);
        let names: Vec<VName> = params.iter().map(|(p, _)| p.name).collect();
        let cond = names[0];
        let body = self.try_body(|b| f(b, &names))?;
        Ok(self.emit_as(
            "loopres",
            Loop {
                params,
                form: LoopForm::While { cond },
                body,
            },
        ))
    }

    // ---- lambdas and SOACs ----

    /// A lambda with parameters of types `tys`; its return types are
    /// those of the operands `f` returns (seen from outside it).
    pub fn lambda(
        &mut self,
        tys: Vec<Type>,
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
    ) -> Lambda {
        ok(self.try_lambda(tys, |b, p| Ok(f(b, p))))
    }

    pub fn try_lambda<E>(
        &mut self,
        tys: Vec<Type>,
        f: impl FnOnce(&mut Builder, &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Lambda, E> {
        let params: Vec<Param> = tys.into_iter().map(|t| self.param("x", t)).collect();
        let names: Vec<VName> = params.iter().map(|p| p.name).collect();
        self.try_lambda_of(params, |b| f(b, &names))
    }

    /// A lambda with the given parameters (made by [`Self::param`]).
    pub fn try_lambda_of<E>(
        &mut self,
        params: Vec<Param>,
        f: impl FnOnce(&mut Builder) -> Result<Vec<Operand>, E>,
    ) -> Result<Lambda, E> {
        let body = self.try_body(f)?;
        let ret = self.outer_types(&params, &body);
        Ok(Lambda { params, ret, body })
    }

    /// An associative operator on tuples of types `tys`: `f(b, xs, ys)`
    /// combines `xs` (left) and `ys` (right).
    pub fn op_lambda(
        &mut self,
        tys: Vec<Type>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Vec<Operand>,
    ) -> Lambda {
        ok(self.try_op_lambda(tys, |b, xs, ys| Ok(f(b, xs, ys))))
    }

    pub fn try_op_lambda<E>(
        &mut self,
        tys: Vec<Type>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Lambda, E> {
        let k = tys.len();
        let all = tys.iter().chain(&tys).cloned().collect();
        self.try_lambda(all, |b, ps| f(b, &ps[..k], &ps[k..]))
    }

    /// The operator `op` applied componentwise to tuples of types `tys`.
    pub fn binop_lambda(&mut self, op: BinOp, tys: Vec<Type>) -> Lambda {
        self.op_lambda(tys, |b, xs, ys| {
            xs.iter()
                .zip(ys)
                .map(|(&x, &y)| b.binop(op, x, y).into())
                .collect()
        })
    }

    /// The types of one row of each of `arrs` (accumulators pass whole,
    /// as SOACs take them).
    pub fn row_types(&self, arrs: &[VName]) -> Vec<Type> {
        arrs.iter()
            .map(|&a| {
                let t = self.type_of(a);
                if t.is_acc() {
                    t
                } else {
                    t.row()
                        .unwrap_or_else(|| panic!("builder: {a} is not an array"))
                }
            })
            .collect()
    }

    /// `map f arrs`; `f` receives one row of each array.
    pub fn map(
        &mut self,
        arrs: &[VName],
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_map(arrs, |b, p| Ok(f(b, p))))
    }

    pub fn try_map<E>(
        &mut self,
        arrs: &[VName],
        f: impl FnOnce(&mut Builder, &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let w = self.width(arrs[0]);
        self.try_map_w(w, arrs, f)
    }

    /// [`Self::map`] of width `w` (the arrays' outer size, which their
    /// types may not tell).
    pub fn map_w(
        &mut self,
        w: impl Into<Operand>,
        arrs: &[VName],
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_map_w(w, arrs, |b, p| Ok(f(b, p))))
    }

    pub fn try_map_w<E>(
        &mut self,
        w: impl Into<Operand>,
        arrs: &[VName],
        f: impl FnOnce(&mut Builder, &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let tys = self.row_types(arrs);
        let lam = self.try_lambda(tys, f)?;
        Ok(self.map_lambda(w.into(), lam, arrs.to_vec()))
    }

    pub fn map_lambda(&mut self, w: Operand, lam: Lambda, arrs: Vec<VName>) -> Vec<VName> {
        self.emit_as("map", Map { w, lam, arrs })
    }

    /// `reduce ⊙ neutral arrs` with `⊙` built by `f` (see [`Self::op_lambda`]).
    pub fn reduce(
        &mut self,
        comm: bool,
        arrs: &[VName],
        neutral: Vec<Operand>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_reduce(comm, arrs, neutral, |b, x, y| Ok(f(b, x, y))))
    }

    pub fn try_reduce<E>(
        &mut self,
        comm: bool,
        arrs: &[VName],
        neutral: Vec<Operand>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let w = self.width(arrs[0]);
        let op = self.try_acc_op(neutral, f)?;
        Ok(self.emit_as(
            "red",
            Reduce {
                w,
                comm,
                op,
                arrs: arrs.to_vec(),
            },
        ))
    }

    /// The operator built by `f` (see [`Self::op_lambda`]) with its
    /// neutral elements.
    fn try_acc_op<E>(
        &mut self,
        neutral: Vec<Operand>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<AccOp, E> {
        let tys = neutral.iter().map(|&o| self.type_of(o)).collect();
        let lam = self.try_op_lambda(tys, f)?;
        Ok(AccOp { lam, neutral })
    }

    /// `reduce` with a componentwise built-in operator such as `+`.
    pub fn reduce_op(&mut self, op: BinOp, arrs: &[VName], neutral: Vec<Operand>) -> Vec<VName> {
        self.reduce(true, arrs, neutral, |b, xs, ys| {
            xs.iter()
                .zip(ys)
                .map(|(&x, &y)| b.binop(op, x, y).into())
                .collect()
        })
    }

    /// Inclusive `scan`.
    pub fn scan(
        &mut self,
        arrs: &[VName],
        neutral: Vec<Operand>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_scan(arrs, neutral, |b, x, y| Ok(f(b, x, y))))
    }

    pub fn try_scan<E>(
        &mut self,
        arrs: &[VName],
        neutral: Vec<Operand>,
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let w = self.width(arrs[0]);
        let op = self.try_acc_op(neutral, f)?;
        Ok(self.emit_as(
            "scan",
            Scan {
                w,
                op,
                arrs: arrs.to_vec(),
            },
        ))
    }

    /// `reduce_by_index dests ⊙ neutral inds vals` with one index array.
    pub fn hist(
        &mut self,
        dests: &[VName],
        neutral: Vec<Operand>,
        inds: VName,
        vals: &[VName],
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_hist(dests, neutral, inds, vals, |b, x, y| Ok(f(b, x, y))))
    }

    pub fn try_hist<E>(
        &mut self,
        dests: &[VName],
        neutral: Vec<Operand>,
        inds: VName,
        vals: &[VName],
        f: impl FnOnce(&mut Builder, &[VName], &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let w = self.width(inds);
        let op = self.try_acc_op(neutral, f)?;
        Ok(self.emit_as(
            "hist",
            Hist {
                w,
                dests: dests.to_vec(),
                op,
                inds: vec![inds],
                vals: vals.to_vec(),
            },
        ))
    }

    /// `scatter dest inds vals` for one destination (1-d indices).
    pub fn scatter(&mut self, dest: VName, inds: VName, vals: VName) -> VName {
        let w = self.width(inds);
        let d = ScatterDest {
            arr: dest,
            inds: vec![inds],
            vals,
        };
        self.emit1_as("scatter", Scatter { w, dests: vec![d] })
    }

    /// `withacc`: `f` receives one accumulator per input and returns the
    /// updated accumulators followed by extra results.
    pub fn withacc(
        &mut self,
        inputs: Vec<AccInput>,
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
    ) -> Vec<VName> {
        ok(self.try_withacc(inputs, |b, accs| Ok(f(b, accs))))
    }

    pub fn try_withacc<E>(
        &mut self,
        inputs: Vec<AccInput>,
        f: impl FnOnce(&mut Builder, &[VName]) -> Result<Vec<Operand>, E>,
    ) -> Result<Vec<VName>, E> {
        let tys = inputs
            .iter()
            .map(|i| {
                let k = i.ispace.len();
                let elems = i
                    .arrs
                    .iter()
                    .map(|&a| {
                        self.type_of(a)
                            .drop_dims(k)
                            .unwrap_or_else(|| panic!("builder: withacc array {a} has rank < {k}"))
                    })
                    .collect();
                Type::Acc(AccType {
                    ispace: i.ispace.iter().map(Dim::from_operand).collect(),
                    elems,
                })
            })
            .collect();
        let lam = self.try_lambda(tys, f)?;
        Ok(self.emit_as("withacc", WithAcc { inputs, lam }))
    }

    pub fn upd(&mut self, acc: VName, inds: Vec<Operand>, vals: Vec<Operand>) -> VName {
        self.emit1_as("acc", BasicOp::Upd { acc, inds, vals })
    }

    pub fn size(&mut self, arr: VName, dim: usize) -> VName {
        self.bind_as("n", BasicOp::Size { arr, dim }, I64)
    }
}

/// Builds a whole program.
#[derive(Default)]
pub struct ProgramBuilder {
    pub ctx: Ctx,
    funs: Vec<FunDef>,
    entries: Vec<EntryPoint>,
}

impl ProgramBuilder {
    pub fn new() -> ProgramBuilder {
        ProgramBuilder::default()
    }

    pub fn fresh(&mut self, base: &str) -> VName {
        self.ctx.names.fresh(base)
    }

    /// A fresh function parameter; its name may appear in later
    /// parameters' dimensions.
    pub fn param(&mut self, base: &str, ty: Type) -> Param {
        let name = self.fresh(base);
        self.ctx.types.insert(name, ty.clone());
        Param { name, ty }
    }

    /// Declares a function's return types before its body exists, so that
    /// earlier functions (or itself, for tests) can call it.
    pub fn declare(&mut self, name: &str, ret: Vec<Type>) {
        self.ctx.fun_rets.insert(Symbol::intern(name), ret);
    }

    /// Adds a function whose body `f` builds, returning its results.
    pub fn function(
        &mut self,
        name: &str,
        params: Vec<Param>,
        ret: Vec<Type>,
        f: impl FnOnce(&mut Builder) -> Vec<Operand>,
    ) -> Symbol {
        let sym = Symbol::intern(name);
        self.ctx.fun_rets.insert(sym, ret.clone());
        for p in &params {
            self.ctx.types.insert(p.name, p.ty.clone());
        }
        let mut b = Builder::new(&mut self.ctx);
        let result = f(&mut b);
        let body = b.into_body(result);
        self.funs.push(FunDef {
            name: sym,
            params,
            ret,
            body,
            span: Span::default(),
        });
        sym
    }

    /// Makes `fun` an entry point called `name`, deriving the external
    /// signature from its parameter and return types.
    pub fn entry(&mut self, name: &str, fun: Symbol) {
        let f = self
            .funs
            .iter()
            .find(|f| f.name == fun)
            .expect("builder: unknown entry function");
        let conv = |t: &Type| EntryType::of_type(t, false).expect("builder: accumulator in entry");
        let params = f.params.iter().map(|p| conv(&p.ty)).collect();
        let results = f.ret.iter().map(conv).collect();
        self.entries.push(EntryPoint {
            name: name.to_string(),
            fun,
            params,
            results,
        });
    }

    /// Adds a function built elsewhere.
    pub fn add_fun(&mut self, f: FunDef) {
        self.ctx.fun_rets.insert(f.name, f.ret.clone());
        self.funs.push(f);
    }

    pub fn finish(self) -> Program {
        Program {
            funs: self.funs,
            entries: self.entries,
            names: self.ctx.names,
            frames: self.ctx.frames,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(ctx: &mut Ctx, base: &str, ty: Type) -> VName {
        let v = ctx.names.fresh(base);
        ctx.types.insert(v, ty);
        v
    }

    #[test]
    fn return_types_name_only_outer_variables() {
        let mut ctx = Ctx::default();
        let m = var(&mut ctx, "m", I64);
        let mut b = Builder::new(&mut ctx);
        // \n -> (iota n, iota k, iota m) with k = m bound inside
        let lam = b.lambda(vec![I64], |b, p| {
            let k = b.bind_as("k", Exp::atom(m), I64);
            vec![b.iota(p[0]).into(), b.iota(k).into(), b.iota(m).into()]
        });
        let arr = |d: Dim| Type::array(PrimType::Int(IntType::I64), vec![d]);
        assert_eq!(lam.ret, [arr(Dim::Ext), arr(Dim::Var(m)), arr(Dim::Var(m))]);
        let r = b.if_(
            Operand::bool(true),
            |b| {
                let n = b.bind_as("n", Exp::atom(Operand::i64(3)), I64);
                vec![b.iota(n).into()]
            },
            |b| vec![b.iota(Operand::i64(3)).into()],
        );
        assert_eq!(b.type_of(r[0]), arr(Dim::Const(3)));
    }

    #[test]
    fn a_failing_closure_ends_the_construction() {
        let mut ctx = Ctx::default();
        let n = var(&mut ctx, "n", I64);
        let xs = var(&mut ctx, "xs", Type::array(PrimType::Bool, vec![n.into()]));
        let mut b = Builder::new(&mut ctx);
        let r = b.try_map(&[xs], |b, x| {
            let y = b.unop(UnOp::Not, x[0]);
            b.try_if(y, |_| Err("then"), |_| Ok(vec![]))
                .map(|r| r.into_iter().map(Operand::Var).collect())
        });
        assert_eq!(r, Err("then"));
        assert_eq!(b.try_body(|_| Err::<Vec<Operand>, _>(1)), Err(1));
        assert!(b.finish().is_empty());
    }
}
