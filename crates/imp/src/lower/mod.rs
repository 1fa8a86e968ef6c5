//! Lowering core IR (after AD and optimisation) to the imperative IR.
//!
//! Every core array becomes an [`Arr`]: a memory variable and an index
//! function. Scalars become C variables of the same name. Statements are
//! lowered in order; a SOAC at the top level of a function becomes a
//! parallel loop (`soac`), and every SOAC inside one becomes a
//! sequential loop in the thread (seed 004's efficient sequentialisation
//! on a CPU).
//!
//! Memory: each array value has a memory variable of its own, declared
//! in the enclosing scope. A fresh array allocates; a view refers to its
//! array's block (counted, or borrowed inside a thread for blocks owned
//! outside it, so that threads never touch a shared count); an in-place
//! update takes over its array's block and copies only if the block is
//! still shared. Views are released at their last use so that updates
//! find their block unique; fresh blocks inside loops are kept until the
//! next iteration, which reuses them.

mod array;
mod basic;
mod control;
mod iota;
mod soac;
mod tile;

pub use array::Arr;

use crate::ir::{self, Code, ErrorArg, Exp};
use parad_base::{PrimType, Span};
use parad_core::consume::{last_uses, LastUse};
use parad_core::{
    AccOp, Body, Dim, Lambda, NameSource, Operand, Param, Program, Stm, Symbol, Type, VName,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Why a program cannot be compiled (yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError(pub String);

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

type Result<T> = std::result::Result<T, LowerError>;

fn unsupported<T>(what: impl Into<String>) -> Result<T> {
    Err(LowerError(what.into()))
}

/// An accumulator of `withacc`: the arrays it updates and how.
#[derive(Clone, Debug)]
pub(crate) struct Acc {
    pub arrs: Vec<Arr>,
    pub op: Option<AccOp>,
    /// Inside a parallel loop: per-thread copies (the first dimension is
    /// the chunk) or atomic updates.
    pub mode: AccMode,
}

#[derive(Clone, Debug)]
pub(crate) enum AccMode {
    Direct,
    Private {
        privs: Vec<Arr>,
        chunk: Exp,
    },
    Atomic,
    /// Updates are dropped (a map's function run ahead for its sizes).
    Discard,
}

/// The value of a core variable.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    Scalar(Exp, PrimType),
    Array(Arr),
    Acc(usize),
}

impl Val {
    fn exp(&self) -> Exp {
        match self {
            Val::Scalar(e, _) => e.clone(),
            _ => panic!("not a scalar: {self:?}"),
        }
    }
}

pub(crate) struct Lower {
    names: NameSource,
    spans: Vec<Span>,
    env: FxHashMap<VName, Val>,
    accs: Vec<Acc>,
    code: Vec<Code>,
    /// Memory variables declared in the current scope (function or
    /// thread), in a stack of scopes.
    scopes: Vec<FxHashSet<VName>>,
    /// Whether SOACs run in parallel here (outside any parallel loop).
    pub(crate) par: bool,
    /// Nesting depth of loops and lambdas in the current scope: fresh
    /// blocks bound there are kept for reuse instead of being freed at
    /// their last use.
    repeat: u32,
    /// Names whose last use is the statement being lowered (by its own
    /// operands, not inside its nested bodies), so that it may take over
    /// their blocks.
    pub(crate) dying: FxHashSet<VName>,
    /// Names whose last use is the statement being lowered, nested uses
    /// included.
    ending: FxHashSet<VName>,
    /// Names free in the next body lowered that die with it: set for the
    /// branches of an `if` (each runs at most once) to the names that
    /// die at the `if`; empty for bodies that may repeat.
    inherit: FxHashSet<VName>,
    /// Nesting depth of sequential versions of parallel SOACs.
    pub(crate) versions: u32,
    /// The index of each internal function ([`ir::Program::internal`]).
    internal: FxHashMap<Symbol, usize>,
    /// [`ir::Program::tuning`].
    tuning: Vec<String>,
    /// The iotas in scope that are not stored (see [`iota`]).
    iotas: FxHashMap<VName, iota::Iota>,
    pub(crate) target: Target,
}

/// What the lowering's parallel code is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Target {
    /// CPU threads: a top-level SOAC runs in parallel only when its work
    /// covers the cost of starting them (a sequential version otherwise).
    #[default]
    Multicore,
    /// A GPU (kernel extraction follows): every top-level SOAC is a
    /// parallel loop, whatever its width, since the sequential version
    /// would run on the host against device memory.
    Gpu,
}

/// Lowers every entry point of `p` for the multicore backend.
pub fn lower_program(p: &Program) -> Result<ir::Program> {
    lower_program_for(p, Target::Multicore)
}

/// Lowers every entry point of `p` for `target`.
pub fn lower_program_for(p: &Program, target: Target) -> Result<ir::Program> {
    let mut l = Lower {
        target,
        names: p.names.clone(),
        spans: vec![],
        env: FxHashMap::default(),
        accs: vec![],
        code: vec![],
        scopes: vec![],
        par: true,
        repeat: 0,
        dying: FxHashSet::default(),
        ending: FxHashSet::default(),
        inherit: FxHashSet::default(),
        versions: 0,
        internal: FxHashMap::default(),
        tuning: vec![],
        iotas: FxHashMap::default(),
    };
    let defs = called_functions(p);
    for (k, f) in defs.iter().enumerate() {
        l.internal.insert(f.name, k);
    }
    let mut internal = vec![];
    for f in &defs {
        l.env.clear();
        l.accs.clear();
        l.scopes = vec![FxHashSet::default()];
        let mut params = vec![];
        let body = l.nested(|l| l.internal_fun(f, &mut params))?;
        let results = f
            .ret
            .iter()
            .map(|t| match t {
                Type::Prim(p) => Ok((*p, 0)),
                Type::Array { elem, shape } => Ok((*elem, shape.len())),
                Type::Acc(_) => unsupported("a function returning an accumulator"),
            })
            .collect::<Result<_>>()?;
        let span = l.span_id(f.span);
        internal.push(ir::Internal {
            name: f.name.to_string(),
            params,
            results,
            body,
            span,
        });
    }
    let mut funs = vec![];
    for e in &p.entries {
        let f = p
            .fun(e.fun)
            .ok_or_else(|| LowerError(format!("entry {} has no function", e.name)))?;
        l.env.clear();
        l.accs.clear();
        l.scopes = vec![FxHashSet::default()];
        let body = l.nested(|l| l.entry(e, f))?;
        let tuning = reachable(p, [e.fun])
            .user_params
            .iter()
            .map(|n| l.tuning_param(n))
            .collect();
        funs.push(ir::Function {
            entry: e.clone(),
            body,
            tuning,
        });
    }
    Ok(ir::Program {
        funs,
        internal,
        spans: l.spans,
        tuning: l.tuning,
        kernels: vec![],
        names: l.names,
    })
}

/// What the code of some functions reaches, through the functions they
/// call.
#[derive(Default)]
struct Reach {
    /// The functions reached (the roots included), each once, in the
    /// order found.
    funs: Vec<Symbol>,
    /// Calls seen and not yet followed.
    calls: Vec<Symbol>,
    /// The names of the tuning parameters read, each once, in order.
    user_params: Vec<String>,
}

impl parad_core::Visitor for Reach {
    fn visit_exp(&mut self, e: &parad_core::Exp) {
        match e {
            parad_core::Exp::Apply(a) => self.calls.push(a.fun),
            parad_core::Exp::Basic(parad_core::BasicOp::UserParam { name, .. })
                if !self.user_params.contains(name) =>
            {
                self.user_params.push(name.clone())
            }
            _ => {}
        }
        self.super_exp(e)
    }
}

/// The functions reachable from `roots`, and what they read.
fn reachable(p: &Program, roots: impl IntoIterator<Item = Symbol>) -> Reach {
    let mut seen: FxHashSet<Symbol> = FxHashSet::default();
    let mut reach = Reach::default();
    let mut todo: Vec<Symbol> = roots.into_iter().collect();
    while let Some(s) = todo.pop() {
        let Some(f) = p.fun(s) else { continue };
        if !seen.insert(s) {
            continue;
        }
        reach.funs.push(s);
        parad_core::Visitor::visit_body(&mut reach, &f.body);
        todo.append(&mut reach.calls);
    }
    reach
}

/// The functions that entry points call, directly or not.
fn called_functions(p: &Program) -> Vec<&parad_core::FunDef> {
    reachable(p, p.entries.iter().map(|e| e.fun))
        .funs
        .into_iter()
        .filter(|s| !p.entries.iter().any(|e| e.fun == *s))
        .filter_map(|s| p.fun(s))
        .collect()
}

impl Lower {
    /// The index of tuning parameter `name` ([`ir::Program::tuning`]).
    pub(crate) fn tuning_param(&mut self, name: &str) -> usize {
        match self.tuning.iter().position(|n| n == name) {
            Some(k) => k,
            None => {
                self.tuning.push(name.to_string());
                self.tuning.len() - 1
            }
        }
    }

    fn entry(&mut self, e: &parad_core::EntryPoint, f: &parad_core::FunDef) -> Result<()> {
        for (k, p) in f.params.iter().enumerate() {
            match &p.ty {
                Type::Prim(t) => {
                    self.emit(Code::Input {
                        k,
                        elem: *t,
                        var: Some(p.name),
                        mem: None,
                        shape: vec![],
                    });
                    self.env.insert(p.name, Val::Scalar(Exp::Var(p.name), *t));
                }
                Type::Array { elem, shape } => {
                    let mem = self.new_mem(p.name);
                    let dims: Vec<VName> = (0..shape.len())
                        .map(|_| self.names.fresh(&format!("{}_dim", p.name.base)))
                        .collect();
                    self.emit(Code::Input {
                        k,
                        elem: *elem,
                        var: None,
                        mem: Some(mem),
                        shape: dims.clone(),
                    });
                    let shape: Vec<Exp> = dims.iter().map(|d| Exp::Var(*d)).collect();
                    // Size parameters read off argument shapes are
                    // variables of the parameters' types.
                    for (d, dim) in p.ty.shape().iter().zip(&shape) {
                        if let Dim::Var(v) = d {
                            if !self.env.contains_key(v) {
                                self.env.insert(*v, Val::Scalar(dim.clone(), ir::I64));
                            }
                        }
                    }
                    self.env
                        .insert(p.name, Val::Array(Arr::fresh(mem, *elem, shape)));
                }
                Type::Acc(_) => return unsupported("an entry point taking an accumulator"),
            }
        }
        let _ = e;
        let res = self.body(&f.body, &param_names(&f.params))?;
        for (k, v) in res.into_iter().enumerate() {
            match v {
                Val::Scalar(exp, t) => self.emit(Code::Output {
                    k,
                    elem: t,
                    value: Some(exp),
                    mem: None,
                    offset: Exp::i64(0),
                    shape: vec![],
                }),
                Val::Array(a) => {
                    let a = self.contiguous(&a, f.span)?;
                    self.emit(Code::Output {
                        k,
                        elem: a.elem,
                        value: None,
                        mem: Some(a.mem),
                        offset: a.offset.clone(),
                        shape: a.shape.clone(),
                    })
                }
                Val::Acc(_) => return unsupported("an entry point returning an accumulator"),
            }
        }
        Ok(())
    }

    /// The body of an internal function: parameters bound, results
    /// returned.
    fn internal_fun(&mut self, f: &parad_core::FunDef, out: &mut Vec<ir::FunParam>) -> Result<()> {
        for p in &f.params {
            match &p.ty {
                Type::Prim(t) => {
                    out.push(ir::FunParam::Scalar {
                        var: p.name,
                        ty: *t,
                    });
                    self.env.insert(p.name, Val::Scalar(Exp::Var(p.name), *t));
                }
                Type::Array { elem, shape } => {
                    let arg = self.fresh(&format!("{}_arg", p.name.base));
                    let offset = self.fresh(&format!("{}_off", p.name.base));
                    let dims: Vec<VName> = (0..shape.len())
                        .map(|_| self.fresh(&format!("{}_dim", p.name.base)))
                        .collect();
                    let mem = self.new_mem(p.name);
                    // The caller's block is borrowed: an update copies it.
                    self.emit(Code::Borrow { dst: mem, src: arg });
                    out.push(ir::FunParam::Array {
                        arg,
                        mem,
                        offset,
                        shape: dims.clone(),
                    });
                    let shape: Vec<Exp> = dims.iter().map(|d| Exp::Var(*d)).collect();
                    let mut a = Arr::fresh(mem, *elem, shape);
                    a.offset = Exp::Var(offset);
                    self.env.insert(p.name, Val::Array(a));
                }
                Type::Acc(_) => return unsupported("a function taking an accumulator"),
            }
        }
        let res = self.body(&f.body, &param_names(&f.params))?;
        let mut vals = vec![];
        for v in res {
            vals.push(match v {
                Val::Scalar(e, _) => ir::RetVal::Scalar(e),
                Val::Array(a) => {
                    let a = self.contiguous(&a, f.span)?;
                    ir::RetVal::Array {
                        mem: a.mem,
                        elem: a.elem,
                        offset: a.offset,
                        shape: a.shape,
                    }
                }
                Val::Acc(_) => return unsupported("a function returning an accumulator"),
            });
        }
        self.emit(Code::Return(vals));
        Ok(())
    }

    /// A call of an internal function.
    fn call(&mut self, a: &parad_core::Apply, pat: &[Param], span: Span) -> Result<Vec<Val>> {
        let Some(&fun) = self.internal.get(&a.fun) else {
            return unsupported(format!("a call of {}, which is not a function here", a.fun));
        };
        let mut args = vec![];
        for o in &a.args {
            args.push(match self.val_of(o)? {
                Val::Scalar(e, _) => ir::CallArg::Scalar(e),
                Val::Array(arr) => {
                    let arr = self.contiguous(&arr, span)?;
                    ir::CallArg::Array {
                        mem: arr.mem,
                        offset: arr.offset,
                        shape: arr.shape,
                    }
                }
                Val::Acc(_) => return unsupported("passing an accumulator to a function"),
            });
        }
        let mut results = vec![];
        let mut vals = vec![];
        for p in pat {
            match &p.ty {
                Type::Prim(t) => {
                    let var = self.fresh(&p.name.base.to_string());
                    results.push(ir::CallRes::Scalar { var, ty: *t });
                    vals.push(Val::Scalar(Exp::Var(var), *t));
                }
                Type::Array { elem, shape } => {
                    let mem = self.new_mem(p.name);
                    let offset = self.fresh(&format!("{}_off", p.name.base));
                    let dims: Vec<VName> = (0..shape.len())
                        .map(|_| self.fresh(&format!("{}_dim", p.name.base)))
                        .collect();
                    results.push(ir::CallRes::Array {
                        mem,
                        offset,
                        shape: dims.clone(),
                    });
                    let mut arr =
                        Arr::fresh(mem, *elem, dims.iter().map(|d| Exp::Var(*d)).collect());
                    arr.offset = Exp::Var(offset);
                    // Dimensions the type names are the ones returned.
                    for (d, v) in shape.iter().zip(&dims) {
                        if let Dim::Var(x) = d {
                            if !self.env.contains_key(x) {
                                self.env.insert(*x, Val::Scalar(Exp::Var(*v), ir::I64));
                            }
                        }
                    }
                    vals.push(Val::Array(arr));
                }
                Type::Acc(_) => return unsupported("a function returning an accumulator"),
            }
        }
        self.emit(Code::Call { fun, args, results });
        Ok(vals)
    }

    // ---- code buffers, names, scopes -------------------------------------

    pub(crate) fn emit(&mut self, c: Code) {
        self.code.push(c);
    }

    /// Runs `f` with an empty code buffer and returns what it emitted.
    pub(crate) fn nested(&mut self, f: impl FnOnce(&mut Lower) -> Result<()>) -> Result<Vec<Code>> {
        let saved = std::mem::take(&mut self.code);
        let r = f(self);
        let code = std::mem::replace(&mut self.code, saved);
        r.map(|()| code)
    }

    /// Like [`Lower::nested`], inside a repeated region (loop or lambda).
    pub(crate) fn repeated(
        &mut self,
        f: impl FnOnce(&mut Lower) -> Result<()>,
    ) -> Result<Vec<Code>> {
        self.repeat += 1;
        let r = self.nested(f);
        self.repeat -= 1;
        r
    }

    /// Emits a parallel loop `i < bound` whose body `f` lowers as one
    /// thread's scope: sequential SOACs, memory of its own.
    pub(crate) fn par_for(
        &mut self,
        i: VName,
        bound: Exp,
        f: impl FnOnce(&mut Lower) -> Result<()>,
    ) -> Result<()> {
        let (par, repeat) = (self.par, self.repeat);
        self.par = false;
        self.repeat = 1;
        self.scopes.push(FxHashSet::default());
        let r = self.nested(f);
        self.scopes.pop();
        self.par = par;
        self.repeat = repeat;
        self.emit(Code::ParFor { i, bound, body: r? });
        Ok(())
    }

    pub(crate) fn fresh(&mut self, base: &str) -> VName {
        self.names.fresh(base)
    }

    /// A new memory variable of the current scope.
    pub(crate) fn new_mem(&mut self, like: VName) -> VName {
        let m = self.names.fresh(&format!("mem_{}", like.base));
        self.emit(Code::DeclMem(m));
        self.scopes.last_mut().expect("a scope").insert(m);
        m
    }

    pub(crate) fn owned_here(&self, mem: VName) -> bool {
        self.scopes.last().is_some_and(|s| s.contains(&mem))
    }

    /// `dst` refers to `src`'s block: counted when the block belongs to
    /// this scope, borrowed otherwise.
    pub(crate) fn share_mem(&mut self, dst: VName, src: VName) {
        if self.owned_here(src) {
            self.emit(Code::SetMem { dst, src });
        } else {
            self.emit(Code::Borrow { dst, src });
        }
    }

    pub(crate) fn span_id(&mut self, s: Span) -> usize {
        if let Some(i) = self.spans.iter().rposition(|t| *t == s) {
            return i;
        }
        self.spans.push(s);
        self.spans.len() - 1
    }

    /// Fails with `message` at `span` when `cond` holds.
    pub(crate) fn fail_if(&mut self, cond: Exp, span: Span, message: &str, args: Vec<ErrorArg>) {
        if matches!(cond, Exp::Const(parad_base::Scalar::Bool(false))) {
            return;
        }
        let span = Some(self.span_id(span));
        self.emit(Code::If {
            cond,
            then_br: vec![Code::Error {
                span,
                message: message.to_string(),
                args,
            }],
            else_br: vec![],
        });
    }

    /// Binds `e` to a fresh scalar variable unless it is an atom.
    pub(crate) fn name_exp(&mut self, base: &str, t: PrimType, e: Exp) -> Exp {
        if e.is_atom() {
            return e;
        }
        let v = self.fresh(base);
        self.emit(Code::Let {
            var: v,
            ty: t,
            exp: e,
        });
        Exp::Var(v)
    }

    // ---- values ----------------------------------------------------------

    pub(crate) fn lookup(&self, v: VName) -> Result<&Val> {
        self.env
            .get(&v)
            .ok_or_else(|| LowerError(format!("internal error: {v} has no value")))
    }

    pub(crate) fn operand(&self, o: &Operand) -> Result<Exp> {
        match o {
            Operand::Const(s) => Ok(Exp::Const(*s)),
            Operand::Var(v) => match self.lookup(*v)? {
                Val::Scalar(e, _) => Ok(e.clone()),
                _ => unsupported(format!("internal error: {v} is not a scalar")),
            },
        }
    }

    pub(crate) fn val_of(&self, o: &Operand) -> Result<Val> {
        match o {
            Operand::Const(s) => Ok(Val::Scalar(Exp::Const(*s), s.prim_type())),
            Operand::Var(v) => Ok(self.lookup(*v)?.clone()),
        }
    }

    pub(crate) fn arr(&self, v: VName) -> Result<Arr> {
        match self.lookup(v)? {
            Val::Array(a) => Ok(a.clone()),
            _ => unsupported(format!("internal error: {v} is not an array")),
        }
    }

    pub(crate) fn dim(&self, d: &Dim) -> Result<Exp> {
        match d {
            Dim::Const(n) => Ok(Exp::i64(*n)),
            Dim::Var(v) => self.operand(&Operand::Var(*v)),
            Dim::Ext => unsupported("an array whose size is known only once it exists (in a place the C backend does not handle yet)"),
        }
    }

    pub(crate) fn shape_of(&self, t: &Type) -> Result<Vec<Exp>> {
        t.shape().iter().map(|d| self.dim(d)).collect()
    }

    /// Binds a name to a value: scalars that are not atoms get a variable.
    pub(crate) fn bind(&mut self, p: &Param, v: Val) {
        let v = match v {
            Val::Scalar(e, t) if !e.is_atom() => {
                self.emit(Code::Let {
                    var: p.name,
                    ty: t,
                    exp: e,
                });
                Val::Scalar(Exp::Var(p.name), t)
            }
            v => v,
        };
        // A body lowered again (a probe, another version) may store an
        // iota it did not store before.
        self.iotas.remove(&p.name);
        self.env.insert(p.name, v);
    }

    // ---- bodies ----------------------------------------------------------

    /// Lowers the statements of `b` and returns the values of its result.
    ///
    /// A name free in `b` dies in it only if it was inherited: its last
    /// use in `b` is not its last use when `b` repeats (a loop's body, a
    /// lambda) or when the enclosing body uses it later.
    pub(crate) fn body(&mut self, b: &Body, params: &[VName]) -> Result<Vec<Val>> {
        let inherited = std::mem::take(&mut self.inherit);
        let lu = last_uses(b, params);
        let virtual_iotas = iota::virtual_iotas(b);
        for (s, dead) in b.stms.iter().zip(&lu.stms) {
            let ends: Vec<&LastUse> = dead
                .iter()
                .filter(|u| u.bound || inherited.contains(&u.name))
                .collect();
            self.dying = ends.iter().filter(|u| !u.nested).map(|u| u.name).collect();
            self.ending = ends.iter().map(|u| u.name).collect();
            match (&s.exp, s.pat.first()) {
                (parad_core::Exp::Basic(op), Some(p)) if virtual_iotas.contains(&p.name) => {
                    self.virtual_iota(p.name, op, s.span)?
                }
                _ => self.stm(s)?,
            }
            self.release(dead);
        }
        b.result.iter().map(|o| self.val_of(o)).collect()
    }

    /// Releases the memory of arrays bound here at their last use: always
    /// for views (so that updates find their block unique), and for fresh
    /// blocks outside loops.
    fn release(&mut self, dead: &[LastUse]) {
        for u in dead.iter().filter(|u| u.bound) {
            if let Some(Val::Array(a)) = self.env.get(&u.name) {
                let mem = a.mem;
                if a.own && self.owned_here(mem) && (self.repeat == 0 || a.view) {
                    self.emit(Code::Unref(mem));
                }
            }
        }
    }

    /// Applies a lambda to argument values, in a C block of its own.
    pub(crate) fn apply(&mut self, lam: &Lambda, args: Vec<Val>) -> Result<Vec<Val>> {
        for (p, a) in lam.params.iter().zip(args) {
            self.bind(p, a);
        }
        self.body(&lam.body, &param_names(&lam.params))
    }

    pub(crate) fn stm(&mut self, s: &Stm) -> Result<()> {
        use parad_core::Exp as E;
        let vals = match &s.exp {
            E::Basic(b) => self.basic(b, &s.pat, s.span)?,
            E::If(i) => self.if_(i, &s.pat, s.span)?,
            E::Loop(l) => self.loop_(l, &s.pat, s.span)?,
            E::Soac(soac) => self.soac(soac, &s.pat, s.span)?,
            E::Apply(a) => self.call(a, &s.pat, s.span)?,
            E::Ad(_) => return unsupported("an AD operator left after the AD pass"),
        };
        for (p, v) in s.pat.iter().zip(vals) {
            self.bind(p, v);
        }
        Ok(())
    }
}

pub(crate) fn param_names(ps: &[Param]) -> Vec<VName> {
    ps.iter().map(|p| p.name).collect()
}
