//! The IR type checker: every variable is bound once and before use,
//! operands have the types their operators expect, SOAC operators fit
//! their arrays and neutral elements, and bodies return what their
//! context declares. Dimensions are compared by rank only (sizes are
//! checked at run time), but every dimension variable must be an `i64`
//! in scope. Once a program is well typed, no array may be used after the
//! statement that consumed it (the rules are in [`crate::consume`]).

use crate::consume;
use crate::ir::*;
use crate::names::{Symbol, VName};
use crate::types::{AccType, Dim, Type, BOOL, I64};
use crate::typing::{self, TypeEnv};
use parad_base::{PrimType, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// An ill-formed IR fragment, located at the statement that contains it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckError {
    pub message: String,
    pub span: Option<Span>,
    /// The function being checked.
    pub fun: Option<Symbol>,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.fun {
            Some(fun) => write!(f, "in {fun}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CheckError {}

type R<T> = Result<T, CheckError>;

struct Checker<'p> {
    stage: Stage,
    funs: FxHashMap<Symbol, &'p FunDef>,
    env: FxHashMap<VName, Type>,
    /// Names bound in the current scopes, innermost last, for removal.
    scopes: Vec<Vec<VName>>,
    /// Every name bound anywhere so far (names must be unique).
    seen: FxHashSet<VName>,
    span: Option<Span>,
    fun: Option<Symbol>,
}

impl TypeEnv for Checker<'_> {
    fn var_type(&self, v: VName) -> Option<Type> {
        self.env.get(&v).cloned()
    }
    fn fun_ret(&self, f: Symbol) -> Option<Vec<Type>> {
        self.funs.get(&f).map(|d| d.ret.clone())
    }
}

/// Where in the pipeline a program is checked: AD operators (`jvp`,
/// `vjp`, `with_vjp`) are only allowed before the AD stage expands them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    BeforeAd,
    AfterAd,
}

/// Checks every function and entry point of `p` (AD operators allowed).
pub fn check_program(p: &Program) -> Result<(), CheckError> {
    check_program_at(p, Stage::BeforeAd)
}

/// Checks every function and entry point of `p` as it should be at `stage`.
pub fn check_program_at(p: &Program, stage: Stage) -> Result<(), CheckError> {
    let mut c = Checker {
        stage,
        funs: FxHashMap::default(),
        env: FxHashMap::default(),
        scopes: vec![],
        seen: FxHashSet::default(),
        span: None,
        fun: None,
    };
    for f in &p.funs {
        if c.funs.insert(f.name, f).is_some() {
            return Err(c.err(format!("function {} is defined twice", f.name)));
        }
    }
    for f in &p.funs {
        c.fun = Some(f.name);
        c.span = Some(f.span);
        c.check_fun(f)?;
    }
    c.fun = None;
    c.span = None;
    for e in &p.entries {
        let f = *c.funs.get(&e.fun).ok_or_else(|| {
            c.err(format!(
                "entry point {} names unknown function {}",
                e.name, e.fun
            ))
        })?;
        let ptys: Vec<Type> = f.params.iter().map(|p| p.ty.clone()).collect();
        for (what, ext, tys) in [
            ("parameters", &e.params, &ptys),
            ("results", &e.results, &f.ret),
        ] {
            let ok = ext.len() == tys.len()
                && ext
                    .iter()
                    .zip(tys)
                    .all(|(x, t)| t.elem() == Some(x.elem) && t.rank() == x.rank);
            if !ok {
                return Err(c.err(format!(
                    "entry point {}: external {what} do not match those of {}",
                    e.name, e.fun
                )));
            }
        }
    }
    consume::check_program(p).map_err(|(fun, e)| CheckError {
        message: e.message,
        span: Some(e.span),
        fun: Some(fun),
    })
}

fn types_str(ts: &[Type]) -> String {
    let v: Vec<String> = ts.iter().map(|t| t.to_string()).collect();
    format!("({})", v.join(", "))
}

fn same(a: &[Type], b: &[Type]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_shape_class(y))
}

impl<'p> Checker<'p> {
    fn err(&self, message: String) -> CheckError {
        CheckError {
            message,
            span: self.span,
            fun: self.fun,
        }
    }

    fn check_fun(&mut self, f: &FunDef) -> R<()> {
        self.env.clear();
        self.scopes = vec![vec![]];
        for p in &f.params {
            self.bind(p)?;
        }
        for t in &f.ret {
            self.check_type(t)?;
        }
        let res = self.body(&f.body)?;
        if !same(&res, &f.ret) {
            return Err(self.err(format!(
                "function {} returns {} but declares {}",
                f.name,
                types_str(&res),
                types_str(&f.ret)
            )));
        }
        Ok(())
    }

    fn bind(&mut self, p: &Param) -> R<()> {
        self.check_type(&p.ty)?;
        if !self.seen.insert(p.name) {
            return Err(self.err(format!("{} is bound twice", p.name)));
        }
        self.env.insert(p.name, p.ty.clone());
        if let Some(s) = self.scopes.last_mut() {
            s.push(p.name)
        }
        Ok(())
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.scopes.push(vec![]);
        let r = f(self);
        for v in self.scopes.pop().unwrap_or_default() {
            self.env.remove(&v);
        }
        r
    }

    fn check_type(&self, t: &Type) -> R<()> {
        let mut vs = vec![];
        t.dim_vars(&mut vs);
        for v in vs {
            match self.env.get(&v) {
                Some(t) if *t == I64 => {}
                Some(t) => {
                    return Err(self.err(format!("dimension {v} has type {t}, expected i64")))
                }
                None => return Err(self.err(format!("dimension {v} is not in scope"))),
            }
        }
        Ok(())
    }

    fn var(&self, v: VName) -> R<Type> {
        self.env
            .get(&v)
            .cloned()
            .ok_or_else(|| self.err(format!("{v} is not in scope")))
    }

    fn operand(&self, o: &Operand) -> R<Type> {
        match o {
            Operand::Var(v) => self.var(*v),
            Operand::Const(s) => Ok(Type::Prim(s.prim_type())),
        }
    }

    fn expect(&self, o: &Operand, t: &Type, what: &str) -> R<()> {
        let ot = self.operand(o)?;
        if !ot.same_shape_class(t) {
            return Err(self.err(format!("{what} {o} has type {ot}, expected {t}")));
        }
        Ok(())
    }

    fn expect_prim(&self, o: &Operand, t: PrimType, what: &str) -> R<()> {
        self.expect(o, &Type::Prim(t), what)
    }

    fn array(&self, v: VName, what: &str) -> R<Type> {
        let t = self.var(v)?;
        if t.rank() == 0 {
            return Err(self.err(format!("{what} {v} has type {t}, expected an array")));
        }
        Ok(t)
    }

    fn index_array(&self, i: VName) -> R<()> {
        let it = self.var(i)?;
        if it.rank() != 1 || it.elem() != I64.elem() {
            return Err(self.err(format!("index array {i} has type {it}, expected []i64")));
        }
        Ok(())
    }

    fn body(&mut self, b: &Body) -> R<Vec<Type>> {
        self.scoped(|c| {
            for s in &b.stms {
                c.stm(s)?;
            }
            b.result.iter().map(|o| c.operand(o)).collect()
        })
    }

    fn stm(&mut self, s: &Stm) -> R<()> {
        self.span = Some(s.span);
        let tys = self.exp(&s.exp)?;
        self.span = Some(s.span);
        let pat: Vec<Type> = s.pat.iter().map(|p| p.ty.clone()).collect();
        if !same(&pat, &tys) {
            return Err(self.err(format!(
                "pattern of type {} bound to expression of type {}",
                types_str(&pat),
                types_str(&tys)
            )));
        }
        for p in &s.pat {
            self.bind(p)?;
        }
        Ok(())
    }

    /// Checks `l` applied to arguments of types `args`; returns its result types.
    fn lambda(&mut self, l: &Lambda, args: &[Type], what: &str) -> R<Vec<Type>> {
        let ptys: Vec<Type> = l.params.iter().map(|p| p.ty.clone()).collect();
        if !same(&ptys, args) {
            return Err(self.err(format!(
                "{what} takes {} but is applied to {}",
                types_str(&ptys),
                types_str(args)
            )));
        }
        let span = self.span;
        let res = self.scoped(|c| {
            for p in &l.params {
                c.bind(p)?;
            }
            for t in &l.ret {
                c.check_type(t)?;
            }
            c.body(&l.body)
        })?;
        self.span = span;
        if !same(&res, &l.ret) {
            return Err(self.err(format!(
                "{what} returns {} but declares {}",
                types_str(&res),
                types_str(&l.ret)
            )));
        }
        Ok(l.ret.clone())
    }

    /// Checks a `2k`-parameter operator with neutral elements; returns their types.
    fn operator(&mut self, op: &AccOp, what: &str) -> R<Vec<Type>> {
        let nts: Vec<Type> = op
            .neutral
            .iter()
            .map(|o| self.operand(o))
            .collect::<R<_>>()?;
        let args: Vec<Type> = nts.iter().chain(&nts).cloned().collect();
        let ret = self.lambda(&op.lam, &args, what)?;
        if !same(&ret, &nts) {
            return Err(self.err(format!(
                "{what} returns {} but its neutral elements have types {}",
                types_str(&ret),
                types_str(&nts)
            )));
        }
        Ok(nts)
    }

    fn slice(&self, slice: &[DimIndex]) -> R<()> {
        for d in slice {
            match d {
                DimIndex::Fix(i) => self.expect(i, &I64, "index")?,
                DimIndex::Slice { start, len, stride } => {
                    self.expect(start, &I64, "slice start")?;
                    self.expect(len, &I64, "slice length")?;
                    self.expect(stride, &I64, "slice stride")?;
                }
            }
        }
        Ok(())
    }

    /// Row types of SOAC input arrays (accumulators pass through whole).
    fn rows(&self, arrs: &[VName], what: &str) -> R<Vec<Type>> {
        arrs.iter()
            .map(|&a| {
                let t = self.var(a)?;
                match t {
                    Type::Acc(_) => Ok(t),
                    _ => t.row().ok_or_else(|| {
                        self.err(format!("{what} input {a} has type {t}, expected an array"))
                    }),
                }
            })
            .collect()
    }

    fn exp(&mut self, e: &Exp) -> R<Vec<Type>> {
        self.validate(e)?;
        typing::result_types(self, e).map_err(|m| self.err(m))
    }

    fn validate(&mut self, e: &Exp) -> R<()> {
        if e.is_ad() && self.stage == Stage::AfterAd {
            return Err(self.err(format!(
                "AD operator left after the AD stage: {}",
                e.to_string().lines().next().unwrap_or_default()
            )));
        }
        match e {
            Exp::Basic(BasicOp::Atom(o)) => {
                self.operand(o)?;
            }
            Exp::Basic(BasicOp::UnOp(op, t, x)) => {
                if op.result_type(*t).is_none() {
                    return Err(self.err(format!("{op} is not defined on {t}")));
                }
                self.expect_prim(x, *t, "operand")?;
            }
            Exp::Basic(BasicOp::BinOp(op, t, x, y)) => {
                let (a, b) = op
                    .operand_types(*t)
                    .ok_or_else(|| self.err(format!("{op} is not defined on {t}")))?;
                self.expect_prim(x, a, "operand")?;
                self.expect_prim(y, b, "operand")?;
            }
            Exp::Basic(BasicOp::TernOp(op, t, x, y, z)) => {
                if !op.allowed(*t) {
                    return Err(self.err(format!("{op} is not defined on {t}")));
                }
                for o in [x, y, z] {
                    self.expect_prim(o, *t, "operand")?;
                }
            }
            Exp::Basic(BasicOp::Cmp(_, t, x, y)) => {
                self.expect_prim(x, *t, "operand")?;
                self.expect_prim(y, *t, "operand")?;
            }
            Exp::Basic(BasicOp::Conv(op, from, to, x)) => {
                if !op.allowed(*from, *to) {
                    return Err(self.err(format!("cannot {op} from {from} to {to}")));
                }
                self.expect_prim(x, *from, "operand")?;
            }
            Exp::Basic(BasicOp::Index { arr, slice }) => {
                self.array(*arr, "indexed value")?;
                self.slice(slice)?;
                typing::index_type(self, *arr, slice).map_err(|m| self.err(m))?;
            }
            Exp::Basic(BasicOp::Update { arr, slice, value }) => {
                self.array(*arr, "updated value")?;
                self.slice(slice)?;
                let t = typing::index_type(self, *arr, slice).map_err(|m| self.err(m))?;
                self.expect(value, &t, "update value")?;
            }
            Exp::Basic(BasicOp::Reshape { arr, shape }) => {
                self.array(*arr, "reshaped value")?;
                for d in shape {
                    self.expect(d, &I64, "dimension")?;
                }
                if shape.is_empty() {
                    return Err(self.err("reshape to rank 0".into()));
                }
            }
            Exp::Basic(BasicOp::Flatten { arr }) => {
                self.array(*arr, "flattened value")?;
            }
            Exp::Basic(BasicOp::Unflatten { arr, n, m }) => {
                self.array(*arr, "unflattened value")?;
                self.expect(n, &I64, "dimension")?;
                self.expect(m, &I64, "dimension")?;
            }
            Exp::Basic(BasicOp::Rearrange { arr, .. })
            | Exp::Basic(BasicOp::Copy { arr })
            | Exp::Basic(BasicOp::Reverse { arr }) => {
                self.array(*arr, "argument")?;
            }
            Exp::Basic(BasicOp::Iota { n, start, step, it }) => {
                self.expect(n, &I64, "iota size")?;
                self.expect_prim(start, PrimType::Int(*it), "iota start")?;
                self.expect_prim(step, PrimType::Int(*it), "iota step")?;
            }
            Exp::Basic(BasicOp::Replicate { n, value }) => {
                self.expect(n, &I64, "replicate size")?;
                self.operand(value)?;
            }
            Exp::Basic(BasicOp::Scratch { shape, .. }) => {
                for d in shape {
                    self.expect(d, &I64, "dimension")?;
                }
            }
            Exp::Basic(BasicOp::Concat { arrs }) => {
                let first = arrs
                    .first()
                    .ok_or_else(|| self.err("concat of no arrays".into()))?;
                let t = self.array(*first, "concatenated value")?;
                for a in arrs {
                    let u = self.array(*a, "concatenated value")?;
                    if !u.same_shape_class(&t) {
                        return Err(self.err(format!("cannot concat {t} and {u}")));
                    }
                }
            }
            Exp::Basic(BasicOp::Rotate { arr, amount }) => {
                self.array(*arr, "rotated value")?;
                self.expect(amount, &I64, "rotation")?;
            }
            Exp::Basic(BasicOp::Size { arr, dim }) => {
                let t = self.array(*arr, "argument of size")?;
                if *dim >= t.rank() {
                    return Err(self.err(format!("size of dimension {dim} of {arr}: {t}")));
                }
            }
            Exp::Apply(Apply { fun, args }) => {
                let f = *self
                    .funs
                    .get(fun)
                    .ok_or_else(|| self.err(format!("unknown function {fun}")))?;
                let ats: Vec<Type> = args.iter().map(|o| self.operand(o)).collect::<R<_>>()?;
                let pts: Vec<Type> = f.params.iter().map(|p| p.ty.clone()).collect();
                if !same(&ats, &pts) {
                    return Err(self.err(format!(
                        "{fun} takes {} but is applied to {}",
                        types_str(&pts),
                        types_str(&ats)
                    )));
                }
            }
            Exp::If(If {
                cond,
                then_br,
                else_br,
                ret,
            }) => {
                self.expect(cond, &BOOL, "condition")?;
                for t in ret {
                    self.check_type(t)?;
                }
                let span = self.span;
                for (br, what) in [(then_br, "then"), (else_br, "else")] {
                    let ts = self.body(br)?;
                    self.span = span;
                    if !same(&ts, ret) {
                        return Err(self.err(format!(
                            "{what} branch returns {} but the if declares {}",
                            types_str(&ts),
                            types_str(ret)
                        )));
                    }
                }
            }
            Exp::Loop(Loop { params, form, body }) => {
                for (p, init) in params {
                    self.expect(init, &p.ty, "initial value")?;
                }
                if let LoopForm::For { it, bound, .. } = form {
                    self.expect_prim(bound, PrimType::Int(*it), "loop bound")?;
                }
                let span = self.span;
                let ts = self.scoped(|c| {
                    for (p, _) in params {
                        c.bind(p)?;
                    }
                    match form {
                        LoopForm::For { i, it, .. } => {
                            c.bind(&Param::new(*i, Type::Prim(PrimType::Int(*it))))?
                        }
                        LoopForm::While { cond } => {
                            if !params.iter().any(|(p, _)| p.name == *cond && p.ty == BOOL) {
                                return Err(c.err(format!(
                                    "while condition {cond} is not a bool loop parameter"
                                )));
                            }
                        }
                    }
                    c.body(body)
                })?;
                self.span = span;
                let pts: Vec<Type> = params.iter().map(|(p, _)| p.ty.clone()).collect();
                if !same(&ts, &pts) {
                    return Err(self.err(format!(
                        "loop body returns {} but its parameters have types {}",
                        types_str(&ts),
                        types_str(&pts)
                    )));
                }
            }
            Exp::Basic(BasicOp::UserParam { default, .. }) => {
                self.expect(default, &I64, "tuning parameter's default")?;
            }
            Exp::Basic(BasicOp::Assert { cond, args, .. }) => {
                self.expect(cond, &BOOL, "assertion")?;
                for a in args {
                    self.operand(a)?;
                }
            }
            Exp::Soac(Soac::Map(Map { w, lam, arrs })) => {
                self.expect(w, &I64, "width")?;
                let rows = self.rows(arrs, "map")?;
                self.lambda(lam, &rows, "map function")?;
            }
            Exp::Soac(Soac::Reduce(Reduce { w, op, arrs, .. }))
            | Exp::Soac(Soac::Scan(Scan { w, op, arrs })) => {
                self.expect(w, &I64, "width")?;
                let rows = self.rows(arrs, "reduce/scan")?;
                let nts = self.operator(op, "operator")?;
                if !same(&rows, &nts) {
                    return Err(self.err(format!(
                        "operator on {} applied to arrays of {}",
                        types_str(&nts),
                        types_str(&rows)
                    )));
                }
            }
            Exp::Soac(Soac::Screma(sc)) => {
                self.expect(&sc.w, &I64, "width")?;
                let rows = self.rows(&sc.arrs, "screma")?;
                let ret = self.lambda(&sc.lam, &rows, "screma function")?;
                let mut at = 0;
                let ops = sc.scans.iter().map(|op| ("scan operator", op));
                let reds = sc.reds.iter().map(|r| ("reduction operator", &r.op));
                for (what, op) in ops.chain(reds).collect::<Vec<_>>() {
                    let nts = self.operator(op, what)?;
                    let got = ret.get(at..at + nts.len()).unwrap_or(&[]);
                    if !same(got, &nts) {
                        return Err(self.err(format!(
                            "{what} on {} applied to screma results {}",
                            types_str(&nts),
                            types_str(got)
                        )));
                    }
                    at += nts.len();
                }
            }
            Exp::Soac(Soac::Hist(Hist {
                w,
                dests,
                op,
                inds,
                vals,
            })) => {
                self.expect(w, &I64, "width")?;
                let nts = self.operator(op, "histogram operator")?;
                if inds.is_empty() {
                    return Err(self.err("hist without index arrays".into()));
                }
                for i in inds {
                    self.index_array(*i)?;
                }
                let rows = self.rows(vals, "hist")?;
                let mut elems = vec![];
                for d in dests {
                    let t = self.array(*d, "histogram destination")?;
                    elems.push(t.drop_dims(inds.len()).ok_or_else(|| {
                        self.err(format!(
                            "destination {d} has fewer than {} dimensions",
                            inds.len()
                        ))
                    })?);
                }
                if !same(&rows, &nts) || !same(&elems, &nts) {
                    return Err(self.err(format!(
                        "histogram operator on {} with destinations of {} and values of {}",
                        types_str(&nts),
                        types_str(&elems),
                        types_str(&rows)
                    )));
                }
            }
            Exp::Soac(Soac::Scatter(Scatter { w, dests })) => {
                self.expect(w, &I64, "width")?;
                for d in dests {
                    let t = self.array(d.arr, "scatter destination")?;
                    if d.inds.is_empty() {
                        return Err(self.err("scatter without index arrays".into()));
                    }
                    for i in &d.inds {
                        self.index_array(*i)?;
                    }
                    let elem = t.drop_dims(d.inds.len()).ok_or_else(|| {
                        self.err(format!(
                            "scatter destination {} has too few dimensions",
                            d.arr
                        ))
                    })?;
                    let v = self.rows(&[d.vals], "scatter")?.remove(0);
                    if !v.same_shape_class(&elem) {
                        return Err(
                            self.err(format!("scatter of values of {v} into elements of {elem}"))
                        );
                    }
                }
            }
            Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) => {
                let mut accs = vec![];
                for i in inputs {
                    for d in &i.ispace {
                        self.expect(d, &I64, "dimension")?;
                    }
                    let mut elems = vec![];
                    for a in &i.arrs {
                        let t = self.var(*a)?;
                        elems.push(t.drop_dims(i.ispace.len()).filter(|_| t.rank() >= i.ispace.len()).ok_or_else(|| {
                            self.err(format!("accumulator array {a} has fewer dimensions than its index space"))
                        })?);
                    }
                    if let Some(op) = &i.op {
                        let nts = self.operator(op, "accumulator operator")?;
                        if !same(&nts, &elems) {
                            return Err(self.err(format!(
                                "accumulator operator on {} for elements of {}",
                                types_str(&nts),
                                types_str(&elems)
                            )));
                        }
                    }
                    accs.push(Type::Acc(AccType {
                        ispace: i.ispace.iter().map(Dim::from_operand).collect(),
                        elems,
                    }));
                }
                let ret = self.lambda(lam, &accs, "withacc function")?;
                if ret.len() < accs.len() || !same(&ret[..accs.len()], &accs) {
                    return Err(self.err(format!(
                        "withacc function must return its accumulators {} first",
                        types_str(&accs)
                    )));
                }
            }
            Exp::Basic(BasicOp::Upd { acc, inds, vals }) => {
                let t = self.var(*acc)?;
                let Type::Acc(a) = t else {
                    return Err(
                        self.err(format!("upd of {acc} of type {t}, expected an accumulator"))
                    );
                };
                if inds.len() != a.ispace.len() || vals.len() != a.elems.len() {
                    return Err(self.err(format!(
                        "upd of {acc} with {} indices and {} values",
                        inds.len(),
                        vals.len()
                    )));
                }
                for i in inds {
                    self.expect(i, &I64, "index")?;
                }
                for (v, t) in vals.iter().zip(&a.elems) {
                    self.expect(v, t, "update value")?;
                }
            }
            Exp::Ad(AdOp::Jvp(Jvp {
                lam,
                primals,
                tangents,
            })) => {
                let pts: Vec<Type> = primals.iter().map(|o| self.operand(o)).collect::<R<_>>()?;
                let tts: Vec<Type> = tangents.iter().map(|o| self.operand(o)).collect::<R<_>>()?;
                if !same(&pts, &tts) {
                    return Err(self.err("jvp tangents do not match the primal arguments".into()));
                }
                self.lambda(lam, &pts, "jvp function")?;
            }
            Exp::Ad(AdOp::Vjp(Vjp {
                lam,
                primals,
                adjoints,
            })) => {
                let pts: Vec<Type> = primals.iter().map(|o| self.operand(o)).collect::<R<_>>()?;
                let ats: Vec<Type> = adjoints.iter().map(|o| self.operand(o)).collect::<R<_>>()?;
                let ret = self.lambda(lam, &pts, "vjp function")?;
                if !same(&ret, &ats) {
                    return Err(self.err("vjp adjoints do not match the function's results".into()));
                }
            }
            Exp::Ad(AdOp::WithVjp(WithVjp { lam, adj, args })) => {
                let ats: Vec<Type> = args.iter().map(|o| self.operand(o)).collect::<R<_>>()?;
                let ret = self.lambda(lam, &ats, "with_vjp function")?;
                let adj_args: Vec<Type> = ret.iter().chain(&ret).cloned().collect();
                let back = self.lambda(adj, &adj_args, "with_vjp adjoint")?;
                if !same(&back, &ats) {
                    return Err(
                        self.err("with_vjp adjoint does not return the arguments' types".into())
                    );
                }
            }
        }
        Ok(())
    }
}
