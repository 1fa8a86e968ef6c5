//! Printing the imperative IR as C.
//!
//! Each entry point is a function whose memory variables are declared at
//! its top and released at its one exit (`cleanup`), which errors jump
//! to. The body of a parallel loop is outlined into a function of its own
//! that runs a chunk of the iterations, and which the runtime's thread
//! pool calls once per thread (`parad_par_for`). The loop's variables
//! from outside it (its free variables: scalars and memory blocks, which
//! the body only reads, and the context) are passed by value in a
//! structure; each chunk declares the memory variables of the loop body
//! (reused across its iterations and released when it ends). An error in
//! an iteration records the message and skips the remaining iterations,
//! and the function leaves after the loop.

use parad_base::{IntType, PrimType, Scalar, Span};
use parad_core::{EntryPoint, VName};
use parad_imp::ir::{
    CallArg, CallRes, Code, DeviceOp, ErrorArg, Exp, FunParam, Function, Gemm, IOp, Internal,
    Kernel, Program, RetVal, I64,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

/// A complete C translation unit and what its caller needs to know.
#[derive(Clone, Debug)]
pub struct CProgram {
    pub source: String,
    /// The prototypes of the entry functions `entry_i`, with their
    /// attributes.
    pub prototypes: String,
    /// Entry `i` is called with index `i`.
    pub entries: Vec<EntryPoint>,
    /// Error span ids index this.
    pub spans: Vec<Span>,
    /// The tuning parameters' names (indexed as in the program).
    pub tuning: Vec<String>,
    /// The tuning parameters that entry `i` reads.
    pub entry_tuning: Vec<Vec<usize>>,
}

/// Lowers a core program (after AD and optimisation) and prints it.
pub fn emit(p: &parad_core::Program) -> Result<CProgram, String> {
    let imp = parad_imp::lower_program(p).map_err(|e| e.to_string())?;
    Ok(emit_imp(&imp))
}

/// Prints an imperative program as C.
pub fn emit_imp(p: &Program) -> CProgram {
    let mut out = String::new();
    out.push_str(crate::RUNTIME);
    out.push_str(PRELUDE);
    // Every unit sees the internal functions' prototypes.
    for (k, f) in p.internal.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}{};",
            optimisation_attribute(&f.body),
            internal_signature(k, f)
        );
    }
    // One translation unit per function, compiled in parallel.
    let kernels = std::rc::Rc::new(p.kernels.clone());
    let printer = || Printer {
        kernels: kernels.clone(),
        ..Printer::default()
    };
    for (k, f) in p.internal.iter().enumerate() {
        out.push_str(crate::build::UNIT_SEPARATOR);
        printer().internal(&mut out, k, f);
    }
    for (k, f) in p.funs.iter().enumerate() {
        out.push_str(crate::build::UNIT_SEPARATOR);
        printer().function(&mut out, k, f);
    }
    // The entry functions' prototypes, for the API's unit; a function's
    // attributes must be on every declaration (GCC drops the optimisation
    // level of a definition that a later plain prototype declares).
    let mut prototypes = String::new();
    for (k, f) in p.funs.iter().enumerate() {
        let _ = writeln!(
            prototypes,
            "{}PARAD_HIDDEN int32_t entry_{k}(struct parad_ctx *ctx, const struct parad_value *args, struct parad_result *results);",
            optimisation_attribute(&f.body)
        );
    }
    CProgram {
        source: out,
        prototypes,
        entries: p.funs.iter().map(|f| f.entry.clone()).collect(),
        spans: p.spans.clone(),
        tuning: p.tuning.clone(),
        entry_tuning: p.funs.iter().map(|f| f.tuning.clone()).collect(),
    }
}

const PRELUDE: &str = r#"
/* ---- generated code ---- */
struct parad_value { void *data; int64_t *shape; };
static inline int pmem_alloc_n(pmem *m, int64_t n, int64_t size) {
  int64_t b;
  if (n < 0 || __builtin_mul_overflow(n, size, &b)) { pmem_unref(m); return 1; }
  return pmem_alloc(m, b);
}
/* Moves src's reference into dst and hands dst's old block to src (a
 * variable that is dead until it is allocated again, which then reuses the
 * block if it is unique and large enough): loops that build a new array
 * per iteration alternate between two blocks instead of allocating. */
static inline void pmem_swap(pmem *dst, pmem *src) {
  if (dst == src) return;
  if (src->data == dst->data) { pmem_move(dst, src); return; }
  pmem old = *dst;
  *dst = *src;
  *src = old.rc ? old : PMEM_NULL;
}
#ifndef PARAD_HIDDEN
#define PARAD_HIDDEN __attribute__((visibility("hidden")))
#endif
/* A result of an entry point: its elements at `data` (in the block `mem`,
 * which the result holds a reference to; a scalar in `scalar`), and its
 * shape (malloc'd, NULL for a scalar). */
struct parad_result { void *data; int64_t *shape; pmem mem; uint64_t scalar; };
#define PARAD_RESULT_NULL ((struct parad_result){NULL, NULL, PMEM_NULL, 0})
static inline void parad_result_free(struct parad_result *r) {
  pmem_unref(&r->mem);
  free(r->shape);
  *r = PARAD_RESULT_NULL;
}
"#;

/// The C type of a primitive type: the runtime names each after it.
pub fn ctype(t: PrimType) -> &'static str {
    t.name()
}

pub fn name(v: VName) -> String {
    let base = v.base.to_string();
    let mut s = String::with_capacity(base.len() + 8);
    if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.push('v');
    }
    for c in base.chars() {
        s.push(if c.is_ascii_alphanumeric() { c } else { '_' });
    }
    let _ = write!(s, "_{}", v.id);
    s
}

fn float_lit(x: f64, suffix: &str) -> String {
    if x.is_nan() {
        "NAN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "INFINITY".into()
        } else {
            "(-INFINITY)".into()
        }
    } else {
        format!("{x:e}{suffix}")
    }
}

fn scalar(s: &Scalar) -> String {
    match *s {
        Scalar::Bool(b) => (if b { "true" } else { "false" }).into(),
        Scalar::I8(x) => format!("((i8){x})"),
        Scalar::I16(x) => format!("((i16){x})"),
        Scalar::I32(x) => {
            if x == i32::MIN {
                "((i32)(-2147483647-1))".into()
            } else {
                format!("((i32){x})")
            }
        }
        Scalar::I64(x) => {
            if x == i64::MIN {
                "((i64)(-9223372036854775807LL-1))".into()
            } else {
                format!("((i64){x}LL)")
            }
        }
        Scalar::U8(x) => format!("((u8){x}U)"),
        Scalar::U16(x) => format!("((u16){x}U)"),
        Scalar::U32(x) => format!("((u32){x}U)"),
        Scalar::U64(x) => format!("((u64){x}ULL)"),
        Scalar::F16(x) => format!("((f16){})", float_lit(x.to_f64(), "f")),
        Scalar::F32(x) => format!("((f32){})", float_lit(x as f64, "f")),
        Scalar::F64(x) => format!("((f64){})", float_lit(x, "")),
    }
}

/// Where an expression is printed: host C, or the OpenCL C of a kernel,
/// whose memory variables are `__global` byte pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Host,
    Kernel,
}

/// An expression in host C.
pub fn exp(e: &Exp) -> String {
    exp_in(Dialect::Host, e)
}

/// An expression in dialect `d`.
pub fn exp_in(d: Dialect, e: &Exp) -> String {
    let exp = |e: &Exp| exp_in(d, e);
    match e {
        Exp::Var(v) => name(*v),
        Exp::Const(s) => scalar(s),
        Exp::I(op, a, b) => {
            let (a, b) = (exp(a), exp(b));
            match op {
                IOp::Add => format!("({a} + {b})"),
                IOp::Sub => format!("({a} - {b})"),
                IOp::Mul => format!("({a} * {b})"),
                IOp::Div => format!("({a} / {b})"),
                IOp::Min => format!("({a} < {b} ? {a} : {b})"),
                IOp::Max => format!("({a} > {b} ? {a} : {b})"),
            }
        }
        Exp::Un(op, t, x) => format!("p_{}_{}({})", op.name(), ctype(*t), exp(x)),
        Exp::Bin(op, t, x, y) => format!("p_{}_{}({}, {})", op.name(), ctype(*t), exp(x), exp(y)),
        Exp::Tern(op, t, x, y, z) => format!(
            "p_{}_{}({}, {}, {})",
            op.name(),
            ctype(*t),
            exp(x),
            exp(y),
            exp(z)
        ),
        Exp::Cmp(op, t, x, y) => format!("p_{}_{}({}, {})", op.name(), ctype(*t), exp(x), exp(y)),
        Exp::Conv(op, from, to, x) => {
            if from == to && matches!(op, parad_core::ConvOp::Cast) {
                exp(x)
            } else {
                format!(
                    "p_{}_{}_{}({})",
                    op.name(),
                    ctype(*from),
                    ctype(*to),
                    exp(x)
                )
            }
        }
        Exp::Select(c, a, b) => format!("({} ? {} : {})", exp(c), exp(a), exp(b)),
        Exp::And(a, b) => format!("({} && {})", exp(a), exp(b)),
        Exp::Read { mem, elem, index } => match d {
            Dialect::Host => format!("(({} *){}.data)[{}]", ctype(*elem), name(*mem), exp(index)),
            Dialect::Kernel => format!(
                "((__global {} *){})[{}]",
                ctype(*elem),
                name(*mem),
                exp(index)
            ),
        },
        Exp::DeviceRead { mem, elem, index } => format!(
            "p_device_read_{}(ctx, {}, {})",
            ctype(*elem),
            name(*mem),
            exp(index)
        ),
        Exp::NumThreads => "((i64)ctx->nthreads)".into(),
        Exp::UserParam { index, default } => {
            format!("parad_user_param(ctx, {index}, {})", exp(default))
        }
        Exp::Unique(m) => match d {
            Dialect::Host => format!("pmem_unique({})", name(*m)),
            // Kernels count the references to a thread's blocks.
            Dialect::Kernel => format!("({0}_rc != 0 && {0}_rc[0] == 1)", name(*m)),
        },
    }
}

/// `&((t *)mem.data)[index]`.
fn elem_ptr(mem: VName, elem: PrimType, index: &Exp) -> String {
    format!("&(({} *){}.data)[{}]", ctype(elem), name(mem), exp(index))
}

/// The text of a C string literal for use as a printf format (so `%`
/// doubled).
fn escape(s: &str) -> String {
    let mut o = String::new();
    for b in s.bytes() {
        match b {
            b'"' => o.push_str("\\\""),
            b'\\' => o.push_str("\\\\"),
            b'%' => o.push_str("%%"),
            b'\n' => o.push_str("\\n"),
            0x20..=0x7e => o.push(b as char),
            _ => {
                let _ = write!(o, "\\{b:03o}");
            }
        }
    }
    o
}

/// The printf format and argument of one error argument.
fn error_arg(a: &ErrorArg) -> (&'static str, String) {
    let e = exp(&a.exp);
    match a.ty {
        PrimType::Bool => ("%s", format!("({e} ? \"true\" : \"false\")")),
        PrimType::Int(i) if i.signed() => ("%lld", format!("(long long)({e})")),
        PrimType::Int(_) => ("%llu", format!("(unsigned long long)({e})")),
        PrimType::Float(_) => ("%g", format!("(double)({e})")),
    }
}

/// The C declaration of internal function `k`: the context, its
/// parameters (an array as its block, offset and dimensions), then a
/// pointer per result part (an array's block, offset and dimensions).
fn internal_signature(k: usize, f: &Internal) -> String {
    let mut ps = vec![
        "struct parad_ctx *ctx".to_string(),
        "int64_t p_iter".to_string(),
    ];
    for p in &f.params {
        match p {
            FunParam::Scalar { var, ty } => ps.push(format!("{} {}", ctype(*ty), name(*var))),
            FunParam::Array {
                arg, offset, shape, ..
            } => {
                ps.push(format!("pmem {}", name(*arg)));
                ps.push(format!("i64 {}", name(*offset)));
                ps.extend(shape.iter().map(|d| format!("i64 {}", name(*d))));
            }
        }
    }
    for (j, (elem, rank)) in f.results.iter().enumerate() {
        if *rank == 0 {
            ps.push(format!("{} *res{j}", ctype(*elem)));
        } else {
            ps.push(format!("pmem *res{j}_mem"));
            ps.push(format!("i64 *res{j}_off"));
            ps.extend((0..*rank).map(|i| format!("i64 *res{j}_d{i}")));
        }
    }
    format!("PARAD_HIDDEN int32_t pfun_{k}({})", ps.join(", "))
}

#[derive(Default)]
struct Printer {
    /// The C name of the function printed (`entry_K` or `pfun_K`).
    fname: String,
    /// Whether the function is compiled at `-O1` (and its loop bodies).
    o1: bool,
    /// The type of each variable the function declares.
    types: FxHashMap<VName, VarType>,
    /// The outlined parallel loop bodies, printed before the function.
    outlined: String,
    /// Parallel loops printed so far (their functions are numbered).
    loops: usize,
    labels: usize,
    /// The label an error jumps to, per scope.
    exits: Vec<String>,
    /// The iteration variable of the enclosing parallel loop.
    iter: Option<String>,
    /// The element type of each result of the internal function printed.
    results: Vec<(PrimType, usize)>,
    /// Printing an internal function, which gets the iteration of the
    /// caller's parallel loop (or -1) as `p_iter`.
    internal: bool,
    /// The program's kernels ([`DeviceOp::Launch`]).
    kernels: std::rc::Rc<Vec<Kernel>>,
}

fn collect_mems(code: &[Code], out: &mut Vec<VName>) {
    for c in code {
        match c {
            Code::DeclMem(m) => out.push(*m),
            Code::Block(b)
            | Code::For { body: b, .. }
            | Code::While { body: b, .. }
            | Code::Critical(b) => collect_mems(b, out),
            Code::Cas { body, .. } => collect_mems(body, out),
            Code::If {
                then_br, else_br, ..
            } => {
                collect_mems(then_br, out);
                collect_mems(else_br, out);
            }
            // A parallel loop is a scope of its own.
            Code::ParFor { .. } => {}
            _ => {}
        }
    }
}

/// The C type of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarType {
    Prim(PrimType),
    Mem,
}

/// The type of every variable `code` declares, at any depth.
fn collect_types(code: &[Code], out: &mut FxHashMap<VName, VarType>) {
    for c in code {
        match c {
            Code::Decl { var, ty } | Code::Let { var, ty, .. } => {
                out.insert(*var, VarType::Prim(*ty));
            }
            Code::DeclMem(m) => {
                out.insert(*m, VarType::Mem);
            }
            Code::For { i, it, body, .. } => {
                out.insert(*i, VarType::Prim(PrimType::Int(*it)));
                collect_types(body, out);
            }
            Code::ParFor { i, body, .. } => {
                out.insert(*i, VarType::Prim(I64));
                collect_types(body, out);
            }
            Code::Cas {
                old, elem, body, ..
            } => {
                out.insert(*old, VarType::Prim(*elem));
                collect_types(body, out);
            }
            Code::Block(b) | Code::While { body: b, .. } | Code::Critical(b) => {
                collect_types(b, out)
            }
            Code::If {
                then_br, else_br, ..
            } => {
                collect_types(then_br, out);
                collect_types(else_br, out);
            }
            Code::Input {
                elem,
                var,
                mem,
                shape,
                ..
            } => {
                if let Some(v) = var {
                    out.insert(*v, VarType::Prim(*elem));
                }
                if let Some(m) = mem {
                    out.insert(*m, VarType::Mem);
                }
                for v in shape {
                    out.insert(*v, VarType::Prim(I64));
                }
            }
            Code::Device(op) => {
                if let DeviceOp::Input { mem, shape, .. } = &**op {
                    out.insert(*mem, VarType::Mem);
                    for v in shape {
                        out.insert(*v, VarType::Prim(I64));
                    }
                }
            }
            Code::Call { results, .. } => {
                for r in results {
                    match r {
                        CallRes::Scalar { var, ty } => {
                            out.insert(*var, VarType::Prim(*ty));
                        }
                        CallRes::Array { mem, offset, shape } => {
                            out.insert(*mem, VarType::Mem);
                            for v in std::iter::once(offset).chain(shape) {
                                out.insert(*v, VarType::Prim(I64));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The free variables of a parallel loop's body: those it uses and does
/// not declare (C's scopes: a variable declared in a block is unknown
/// after it), in the order of their first use, and which of them it
/// assigns.
#[derive(Default)]
struct FreeVars {
    vars: Vec<VName>,
    written: Vec<VName>,
    seen: FxHashSet<VName>,
    /// The variables declared in each enclosing scope.
    scopes: Vec<FxHashSet<VName>>,
}

impl FreeVars {
    fn of_par_for(i: VName, body: &[Code]) -> FreeVars {
        let mut f = FreeVars::default();
        f.par_for(i, body);
        f
    }

    fn bound(&self, v: VName) -> bool {
        self.scopes.iter().any(|s| s.contains(&v))
    }

    fn read(&mut self, v: VName) {
        if !self.bound(v) && self.seen.insert(v) {
            self.vars.push(v);
        }
    }

    fn write(&mut self, v: VName) {
        if !self.bound(v) {
            self.read(v);
            if !self.written.contains(&v) {
                self.written.push(v);
            }
        }
    }

    fn declare(&mut self, v: VName) {
        self.scopes.last_mut().expect("a scope").insert(v);
    }

    /// A loop body's scope: its memory variables (declared at the top
    /// of each thread's chunk) and the iteration variable.
    fn par_for(&mut self, i: VName, body: &[Code]) {
        let mut mems = vec![];
        collect_mems(body, &mut mems);
        self.scopes.push(mems.into_iter().chain([i]).collect());
        self.code(body);
        self.scopes.pop();
    }

    fn block(&mut self, code: &[Code]) {
        self.scopes.push(FxHashSet::default());
        self.code(code);
        self.scopes.pop();
    }

    fn exp(&mut self, e: &Exp) {
        match e {
            Exp::Var(v) | Exp::Unique(v) => self.read(*v),
            Exp::Const(_) | Exp::NumThreads => {}
            Exp::UserParam { default, .. } => self.exp(default),
            Exp::Read { mem, index, .. } | Exp::DeviceRead { mem, index, .. } => {
                self.read(*mem);
                self.exp(index);
            }
            Exp::Un(_, _, x) | Exp::Conv(_, _, _, x) => self.exp(x),
            Exp::I(_, x, y) | Exp::Bin(_, _, x, y) | Exp::Cmp(_, _, x, y) | Exp::And(x, y) => {
                self.exp(x);
                self.exp(y);
            }
            Exp::Tern(_, _, x, y, z) | Exp::Select(x, y, z) => {
                self.exp(x);
                self.exp(y);
                self.exp(z);
            }
        }
    }

    fn code(&mut self, code: &[Code]) {
        for c in code {
            match c {
                Code::Block(b) | Code::Critical(b) => self.block(b),
                Code::Decl { var, .. } => self.declare(*var),
                Code::Let { var, exp, .. } => {
                    self.exp(exp);
                    self.declare(*var);
                }
                Code::Assign { var, exp } => {
                    self.exp(exp);
                    self.write(*var);
                }
                Code::DeclMem(m) => self.declare(*m),
                Code::Alloc { mem, elems, .. } => {
                    self.exp(elems);
                    self.write(*mem);
                }
                Code::SetMem { dst, src } | Code::Borrow { dst, src } => {
                    self.read(*src);
                    self.write(*dst);
                }
                Code::MoveMem { dst, src } => {
                    self.write(*dst);
                    self.write(*src);
                }
                Code::Unref(m) => self.write(*m),
                Code::Write {
                    mem, index, value, ..
                }
                | Code::AtomicAdd {
                    mem, index, value, ..
                } => {
                    self.read(*mem);
                    self.exp(index);
                    self.exp(value);
                }
                Code::Memcpy {
                    dst,
                    dst_off,
                    src,
                    src_off,
                    elems,
                    ..
                } => {
                    self.read(*dst);
                    self.exp(dst_off);
                    self.read(*src);
                    self.exp(src_off);
                    self.exp(elems);
                }
                Code::For { i, bound, body, .. } => {
                    self.exp(bound);
                    self.scopes.push(FxHashSet::default());
                    self.declare(*i);
                    self.block(body);
                    self.scopes.pop();
                }
                Code::While { cond, body } => {
                    self.read(*cond);
                    self.block(body);
                }
                Code::If {
                    cond,
                    then_br,
                    else_br,
                } => {
                    self.exp(cond);
                    self.block(then_br);
                    self.block(else_br);
                }
                Code::ParFor { i, bound, body } => {
                    self.exp(bound);
                    self.par_for(*i, body);
                }
                Code::Cas {
                    mem,
                    index,
                    old,
                    new,
                    body,
                    ..
                } => {
                    self.read(*mem);
                    self.exp(index);
                    self.scopes.push(FxHashSet::default());
                    self.declare(*old);
                    // `new` is computed by the body, in the same block.
                    self.code(body);
                    self.read(*new);
                    self.scopes.pop();
                }
                Code::Gemm(g) => {
                    for e in [&g.m, &g.n, &g.k] {
                        self.exp(e);
                    }
                    for m in [&g.a, &g.b, &g.c] {
                        self.read(m.mem);
                        for e in [&m.offset, &m.rows, &m.cols] {
                            self.exp(e);
                        }
                    }
                    self.write(g.pack);
                }
                Code::Error { args, .. } => {
                    for a in args {
                        self.exp(&a.exp);
                    }
                }
                Code::Input {
                    var, mem, shape, ..
                } => {
                    for v in var.iter().chain(shape) {
                        self.declare(*v);
                    }
                    if let Some(m) = mem {
                        self.write(*m);
                    }
                }
                Code::Call { args, results, .. } => {
                    for a in args {
                        match a {
                            CallArg::Scalar(e) => self.exp(e),
                            CallArg::Array { mem, offset, shape } => {
                                self.read(*mem);
                                self.exp(offset);
                                for e in shape {
                                    self.exp(e);
                                }
                            }
                        }
                    }
                    for r in results {
                        match r {
                            CallRes::Scalar { var, .. } => self.declare(*var),
                            CallRes::Array { mem, offset, shape } => {
                                self.write(*mem);
                                for v in std::iter::once(offset).chain(shape) {
                                    self.declare(*v);
                                }
                            }
                        }
                    }
                }
                Code::Return(vals) => {
                    for v in vals {
                        match v {
                            RetVal::Scalar(e) => self.exp(e),
                            RetVal::Array {
                                mem, offset, shape, ..
                            } => {
                                self.read(*mem);
                                self.exp(offset);
                                for e in shape {
                                    self.exp(e);
                                }
                            }
                        }
                    }
                }
                Code::Output {
                    value,
                    mem,
                    offset,
                    shape,
                    ..
                } => {
                    for e in value.iter().chain([offset]).chain(shape) {
                        self.exp(e);
                    }
                    if let Some(m) = mem {
                        self.read(*m);
                    }
                }
                Code::Device(op) => self.device_op(op),
            }
        }
    }

    fn device_op(&mut self, op: &DeviceOp) {
        match op {
            DeviceOp::Alloc { mem, elems, .. } => {
                self.exp(elems);
                self.write(*mem);
            }
            DeviceOp::Write {
                mem, index, value, ..
            } => {
                self.read(*mem);
                self.exp(index);
                self.exp(value);
            }
            DeviceOp::Copy {
                dst,
                dst_off,
                src,
                src_off,
                elems,
                ..
            } => {
                self.read(*dst);
                self.exp(dst_off);
                self.read(*src);
                self.exp(src_off);
                self.exp(elems);
            }
            DeviceOp::Input { mem, shape, .. } => {
                for v in shape {
                    self.declare(*v);
                }
                self.write(*mem);
            }
            DeviceOp::Output {
                mem, offset, shape, ..
            } => {
                self.read(*mem);
                for e in std::iter::once(offset).chain(shape) {
                    self.exp(e);
                }
            }
            // Its parameters are those of the kernel, which run on the
            // device: host code never outlines a launch.
            DeviceOp::Launch { bound, .. } => self.exp(bound),
        }
    }
}

/// The variables that the body of a parallel loop over `i` uses and does
/// not declare, in the order of their first use, and which of them it
/// assigns.
pub fn free_vars(i: VName, body: &[Code]) -> (Vec<VName>, Vec<VName>) {
    let f = FreeVars::of_par_for(i, body);
    (f.vars, f.written)
}

/// The scalar type of every scalar variable `code` declares, at any depth
/// (memory variables are left out).
pub fn scalar_types(code: &[Code]) -> FxHashMap<VName, PrimType> {
    let mut types = FxHashMap::default();
    collect_types(code, &mut types);
    types
        .into_iter()
        .filter_map(|(v, t)| match t {
            VarType::Prim(p) => Some((v, p)),
            VarType::Mem => None,
        })
        .collect()
}

/// Loop nests deeper than this are compiled at `-O1`.
const MAX_OPTIMISED_DEPTH: usize = 12;

/// Whether a function is compiled at -O1: GCC's loop optimisations take
/// time and memory exponential in the depth of a loop nest (a loop
/// strip-mined 40 times).
fn needs_o1(body: &[Code]) -> bool {
    loop_depth(body) > MAX_OPTIMISED_DEPTH
}

/// The attribute that every declaration of a function with this body
/// carries (empty for most).
fn optimisation_attribute(body: &[Code]) -> &'static str {
    if needs_o1(body) {
        "__attribute__((optimize(\"O1\"))) "
    } else {
        ""
    }
}

/// The depth of the deepest loop nest.
fn loop_depth(code: &[Code]) -> usize {
    code.iter()
        .map(|c| match c {
            Code::For { body, .. } | Code::While { body, .. } | Code::ParFor { body, .. } => {
                1 + loop_depth(body)
            }
            Code::Block(b) | Code::Critical(b) | Code::Cas { body: b, .. } => loop_depth(b),
            Code::If {
                then_br, else_br, ..
            } => loop_depth(then_br).max(loop_depth(else_br)),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

impl Printer {
    /// Prints the function that `print` prints into `out`, after the
    /// functions of its parallel loops' bodies.
    fn unit(
        &mut self,
        out: &mut String,
        fname: String,
        body: &[Code],
        params: &[FunParam],
        print: impl FnOnce(&mut Printer, &mut String),
    ) {
        self.fname = fname;
        // The function and the bodies of its parallel loops.
        self.o1 = needs_o1(body);
        self.types = FxHashMap::default();
        for p in params {
            match p {
                FunParam::Scalar { var, ty } => {
                    self.types.insert(*var, VarType::Prim(*ty));
                }
                FunParam::Array {
                    arg,
                    mem,
                    offset,
                    shape,
                } => {
                    self.types.insert(*arg, VarType::Mem);
                    self.types.insert(*mem, VarType::Mem);
                    for v in std::iter::once(offset).chain(shape) {
                        self.types.insert(*v, VarType::Prim(I64));
                    }
                }
            }
        }
        collect_types(body, &mut self.types);
        let mut text = String::new();
        if self.o1 {
            text.push_str("\n__attribute__((optimize(\"O1\")))");
        }
        print(self, &mut text);
        out.push_str(&std::mem::take(&mut self.outlined));
        out.push_str(&text);
    }

    fn function(&mut self, out: &mut String, k: usize, f: &Function) {
        self.unit(out, format!("entry_{k}"), &f.body, &[], |p, out| {
            p.function_text(out, k, f)
        });
    }

    fn function_text(&mut self, out: &mut String, k: usize, f: &Function) {
        let _ = writeln!(
            out,
            "\n/* entry point {} */\nPARAD_HIDDEN int32_t entry_{k}(struct parad_ctx *ctx, const struct parad_value *args, struct parad_result *results) {{",
            f.entry.name
        );
        let nres = f.entry.results.len();
        let _ = writeln!(
            out,
            "  for (int k = 0; k < {nres}; k++) results[k] = PARAD_RESULT_NULL;"
        );
        let mut mems = vec![];
        collect_mems(&f.body, &mut mems);
        for m in &mems {
            let _ = writeln!(out, "  pmem {} = PMEM_NULL;", name(*m));
        }
        self.exits.push("cleanup".into());
        self.block(out, &f.body, 1);
        self.exits.pop();
        out.push_str(" cleanup:\n");
        for m in &mems {
            let _ = writeln!(out, "  pmem_unref(&{});", name(*m));
        }
        let _ = writeln!(
            out,
            "  if (parad_has_failed(ctx)) {{\n    for (int k = 0; k < {nres}; k++) parad_result_free(&results[k]);\n    return 1;\n  }}\n  return 0;\n}}"
        );
    }

    /// An internal function: like an entry point, with its arguments
    /// and results passed as C parameters; non-zero when it failed.
    fn internal(&mut self, out: &mut String, k: usize, f: &Internal) {
        self.unit(out, format!("pfun_{k}"), &f.body, &f.params, |p, out| {
            p.internal_text(out, k, f)
        });
    }

    fn internal_text(&mut self, out: &mut String, k: usize, f: &Internal) {
        let _ = writeln!(
            out,
            "\n/* {} */\n{} {{",
            f.name.replace("*/", "* /"),
            internal_signature(k, f)
        );
        let mut mems = vec![];
        collect_mems(&f.body, &mut mems);
        for m in &mems {
            let _ = writeln!(out, "  pmem {} = PMEM_NULL;", name(*m));
        }
        let _ = writeln!(
            out,
            "  if (p_stack_exhausted()) {{ parad_error_at(ctx, p_iter, {}, \"call stack too deep\"); return 1; }}",
            f.span
        );
        self.results = f.results.clone();
        self.internal = true;
        self.iter = Some("p_iter".into());
        self.exits.push("cleanup".into());
        self.block(out, &f.body, 1);
        self.exits.pop();
        out.push_str(" cleanup:\n");
        for m in &mems {
            let _ = writeln!(out, "  pmem_unref(&{});", name(*m));
        }
        out.push_str("  return parad_has_failed(ctx) ? 1 : 0;\n}\n");
    }

    fn call(
        &mut self,
        out: &mut String,
        d: usize,
        fun: usize,
        args: &[CallArg],
        results: &[CallRes],
    ) {
        let iter = self.iter.clone().unwrap_or_else(|| "-1".into());
        let mut cargs = vec!["ctx".to_string(), iter];
        for a in args {
            match a {
                CallArg::Scalar(e) => cargs.push(exp(e)),
                CallArg::Array { mem, offset, shape } => {
                    cargs.push(name(*mem));
                    cargs.push(exp(offset));
                    cargs.extend(shape.iter().map(exp));
                }
            }
        }
        for r in results {
            indent(out, d);
            match r {
                CallRes::Scalar { var, ty } => {
                    let _ = writeln!(out, "{} {};", ctype(*ty), name(*var));
                    cargs.push(format!("&{}", name(*var)));
                }
                CallRes::Array { mem, offset, shape } => {
                    let _ = write!(out, "i64 {}", name(*offset));
                    for s in shape {
                        let _ = write!(out, ", {}", name(*s));
                    }
                    out.push_str(";\n");
                    cargs.push(format!("&{}", name(*mem)));
                    cargs.push(format!("&{}", name(*offset)));
                    cargs.extend(shape.iter().map(|s| format!("&{}", name(*s))));
                }
            }
        }
        indent(out, d);
        let exit = self.exit();
        let _ = writeln!(out, "if (pfun_{fun}({})) goto {exit};", cargs.join(", "));
    }

    /// The results of an internal function. An array the function does
    /// not own (a parameter, or a view of one) is copied: the caller may
    /// release the argument's block while it keeps the result.
    fn ret(&mut self, out: &mut String, d: usize, vals: &[RetVal]) {
        for (j, v) in vals.iter().enumerate() {
            indent(out, d);
            match v {
                RetVal::Scalar(e) => {
                    let _ = writeln!(out, "*res{j} = {};", exp(e));
                }
                RetVal::Array {
                    mem,
                    elem,
                    offset,
                    shape,
                } => {
                    let t = ctype(*elem);
                    let mut n = String::from("(i64)1");
                    for (i, s) in shape.iter().enumerate() {
                        let _ = write!(out, "*res{j}_d{i} = {}; ", exp(s));
                        n = format!("{n} * *res{j}_d{i}");
                    }
                    out.push('\n');
                    indent(out, d);
                    let m = name(*mem);
                    let _ = writeln!(
                        out,
                        "if ({m}.rc != NULL) {{ pmem_set(res{j}_mem, {m}); *res{j}_off = {}; }} else {{",
                        exp(offset)
                    );
                    indent(out, d + 1);
                    let _ = writeln!(
                        out,
                        "const i64 n_ = {n}; pmem t_ = PMEM_NULL; if (pmem_alloc_n(&t_, n_, sizeof({t}))) {{ parad_error(ctx, -1, \"Out of memory: cannot allocate an array of %lld elements\", (long long)n_); goto cleanup; }}"
                    );
                    indent(out, d + 1);
                    let _ = writeln!(
                        out,
                        "if (n_ > 0) memcpy(t_.data, ({t} *){m}.data + {}, (size_t)n_ * sizeof({t}));",
                        exp(offset)
                    );
                    indent(out, d + 1);
                    let _ = writeln!(
                        out,
                        "pmem_unref(res{j}_mem); *res{j}_mem = t_; *res{j}_off = 0;"
                    );
                    indent(out, d);
                    out.push_str("}\n");
                }
            }
        }
    }

    /// The label an error jumps to here.
    fn exit(&self) -> String {
        self.exits
            .last()
            .cloned()
            .unwrap_or_else(|| "cleanup".into())
    }

    fn block(&mut self, out: &mut String, code: &[Code], d: usize) {
        for c in code {
            self.code(out, c, d);
        }
    }

    fn fail(&self, out: &mut String, d: usize, span: Option<usize>, msg: &str, args: &[ErrorArg]) {
        let args: Vec<(&'static str, String)> = args.iter().map(error_arg).collect();
        self.fail_with(out, d, span, msg, &args)
    }

    /// [`Printer::fail`] with each argument as its printf format and C
    /// expression.
    fn fail_with(
        &self,
        out: &mut String,
        d: usize,
        span: Option<usize>,
        msg: &str,
        args: &[(&'static str, String)],
    ) {
        let mut lit = String::from("\"");
        let mut cargs = vec![];
        let mut parts = msg.split("{}");
        lit.push_str(&escape(parts.next().unwrap_or("")));
        for (part, (f, e)) in parts.zip(args) {
            lit.push_str(f);
            lit.push_str(&escape(part));
            cargs.push(e.clone());
        }
        lit.push('"');
        indent(out, d);
        let span = span.map_or(-1, |s| s as i64);
        let exit = self.exit();
        let mut call = match &self.iter {
            Some(i) if self.internal => format!("parad_error_at(ctx, {i}, {span}, {lit}"),
            Some(i) => format!("parad_error_iter(ctx, {i}, {span}, {lit}"),
            None => format!("parad_error(ctx, {span}, {lit}"),
        };
        for a in cargs {
            call.push_str(", ");
            call.push_str(&a);
        }
        let _ = writeln!(out, "{{ {call}); goto {exit}; }}");
    }

    fn code(&mut self, out: &mut String, c: &Code, d: usize) {
        match c {
            Code::Block(b) => {
                indent(out, d);
                out.push_str("{\n");
                self.block(out, b, d + 1);
                indent(out, d);
                out.push_str("}\n");
            }
            Code::Decl { var, ty } => {
                indent(out, d);
                let _ = writeln!(out, "{} {};", ctype(*ty), name(*var));
            }
            Code::Let { var, ty, exp: e } => {
                indent(out, d);
                let _ = writeln!(out, "{} {} = {};", ctype(*ty), name(*var), exp(e));
            }
            Code::Assign { var, exp: e } => {
                indent(out, d);
                let _ = writeln!(out, "{} = {};", name(*var), exp(e));
            }
            Code::DeclMem(_) => {}
            Code::Alloc {
                mem,
                elem,
                elems,
                span,
            } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "if (pmem_alloc_n(&{}, {}, sizeof({}))) {{",
                    name(*mem),
                    exp(elems),
                    ctype(*elem)
                );
                let msg = format!(
                    "Out of memory: cannot allocate an array of {{}} elements ({} bytes each)",
                    elem.size()
                );
                let arg = ErrorArg {
                    exp: elems.clone(),
                    ty: PrimType::Int(IntType::I64),
                };
                self.fail(out, d + 1, Some(*span), &msg, &[arg]);
                indent(out, d);
                out.push_str("}\n");
            }
            Code::SetMem { dst, src } => {
                indent(out, d);
                let _ = writeln!(out, "pmem_set(&{}, {});", name(*dst), name(*src));
            }
            Code::Borrow { dst, src } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "pmem_unref(&{0}); {0} = pmem_borrow({1});",
                    name(*dst),
                    name(*src)
                );
            }
            Code::MoveMem { dst, src } => {
                indent(out, d);
                let _ = writeln!(out, "pmem_swap(&{}, &{});", name(*dst), name(*src));
            }
            Code::Unref(m) => {
                indent(out, d);
                let _ = writeln!(out, "pmem_unref(&{});", name(*m));
            }
            Code::Write {
                mem,
                elem,
                index,
                value,
            } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "(({} *){}.data)[{}] = {};",
                    ctype(*elem),
                    name(*mem),
                    exp(index),
                    exp(value)
                );
            }
            Code::Memcpy {
                dst,
                dst_off,
                src,
                src_off,
                elem,
                elems,
            } => {
                indent(out, d);
                let t = ctype(*elem);
                let _ = writeln!(
                    out,
                    "{{ i64 n_ = {}; if (n_ > 0) memmove(({t} *){}.data + {}, ({t} *){}.data + {}, (size_t)n_ * sizeof({t})); }}",
                    exp(elems),
                    name(*dst),
                    exp(dst_off),
                    name(*src),
                    exp(src_off)
                );
            }
            Code::For { i, it, bound, body } => {
                indent(out, d);
                let t = ctype(PrimType::Int(*it));
                let b = format!("{}_n", name(*i));
                let _ = writeln!(
                    out,
                    "{{ const {t} {b} = {}; for ({t} {i} = 0; {i} < {b}; {i}++) {{",
                    exp(bound),
                    i = name(*i)
                );
                self.block(out, body, d + 1);
                indent(out, d);
                out.push_str("} }\n");
            }
            Code::While { cond, body } => {
                indent(out, d);
                let _ = writeln!(out, "while ({}) {{", name(*cond));
                self.block(out, body, d + 1);
                indent(out, d);
                out.push_str("}\n");
            }
            Code::If {
                cond,
                then_br,
                else_br,
            } => {
                indent(out, d);
                let _ = writeln!(out, "if ({}) {{", exp(cond));
                self.block(out, then_br, d + 1);
                if !else_br.is_empty() {
                    indent(out, d);
                    out.push_str("} else {\n");
                    self.block(out, else_br, d + 1);
                }
                indent(out, d);
                out.push_str("}\n");
            }
            Code::ParFor { i, bound, body } => self.par_for(out, d, *i, bound, body),
            Code::AtomicAdd {
                mem,
                elem,
                index,
                value,
            } => {
                indent(out, d);
                let p = elem_ptr(*mem, *elem, index);
                let _ = writeln!(out, "p_atomic_add_{}({p}, {});", ctype(*elem), exp(value));
            }
            Code::Cas {
                mem,
                elem,
                index,
                old,
                new,
                body,
            } => {
                indent(out, d);
                let t = ctype(*elem);
                let p = elem_ptr(*mem, *elem, index);
                let _ = writeln!(
                    out,
                    "{{ {t} *p_ = {p}; {t} {old} = p_atomic_load_{t}(p_); for (;;) {{",
                    old = name(*old)
                );
                self.block(out, body, d + 1);
                indent(out, d + 1);
                let _ = writeln!(
                    out,
                    "if (p_cas_{t}(p_, &{}, {})) break;",
                    name(*old),
                    name(*new)
                );
                indent(out, d);
                out.push_str("} }\n");
            }
            Code::Critical(body) => {
                // No jump may leave the critical section: errors go to its
                // end, and on from there.
                self.labels += 1;
                let label = format!("critical_end_{}", self.labels);
                indent(out, d);
                out.push_str("parad_critical_begin(ctx);\n");
                indent(out, d);
                out.push_str("{\n");
                self.exits.push(label.clone());
                self.block(out, body, d + 1);
                self.exits.pop();
                indent(out, d);
                let _ = writeln!(out, " {label}: ;");
                indent(out, d);
                out.push_str("}\n");
                indent(out, d);
                out.push_str("parad_critical_end(ctx);\n");
                indent(out, d);
                let exit = self.exit();
                let _ = writeln!(out, "if (parad_has_failed(ctx)) goto {exit};");
            }
            Code::Gemm(g) => self.gemm(out, d, g),
            Code::Device(op) => self.device_op(out, d, op),
            Code::Call { fun, args, results } => self.call(out, d, *fun, args, results),
            Code::Return(vals) => self.ret(out, d, vals),
            Code::Error {
                span,
                message,
                args,
            } => self.fail(out, d, *span, message, args),
            Code::Input {
                k,
                elem,
                var,
                mem,
                shape,
            } => {
                indent(out, d);
                if let Some(v) = var {
                    let t = ctype(*elem);
                    let _ = writeln!(out, "{t} {} = *(const {t} *)args[{k}].data;", name(*v));
                    return;
                }
                let mem = mem.expect("an array input has memory");
                for (j, s) in shape.iter().enumerate() {
                    let _ = write!(out, "i64 {} = args[{k}].shape[{j}]; ", name(*s));
                }
                out.push('\n');
                indent(out, d);
                // The caller's array is borrowed, not copied: the call
                // never writes to it (an in-place update finds the block
                // not unique and copies it first) and returns copies.
                let _ = writeln!(
                    out,
                    "{} = (pmem){{(unsigned char *)args[{k}].data, NULL}};",
                    name(mem)
                );
            }
            Code::Output {
                k,
                elem,
                value,
                mem,
                offset,
                shape,
            } => {
                let t = ctype(*elem);
                indent(out, d);
                let oom = format!("{{ parad_error(ctx, -1, \"Out of memory: cannot return result {}\"); goto cleanup; }}", k + 1);
                if let Some(v) = value {
                    let _ = writeln!(
                        out,
                        "results[{k}].data = &results[{k}].scalar; *({t} *)results[{k}].data = {};",
                        exp(v)
                    );
                    return;
                }
                let mem = mem.expect("an array result has memory");
                let mut n = String::from("(i64)1");
                let _ = writeln!(
                    out,
                    "results[{k}].shape = malloc({} * sizeof(int64_t)); if (!results[{k}].shape) {oom}",
                    shape.len()
                );
                for (j, s) in shape.iter().enumerate() {
                    indent(out, d);
                    let _ = writeln!(out, "results[{k}].shape[{j}] = {};", exp(s));
                    n = format!("{n} * results[{k}].shape[{j}]");
                }
                // A block of the call's own is handed over with a new
                // reference (no copy); a borrowed one (an argument's) is
                // copied, since the caller may free the argument first.
                indent(out, d);
                let m = name(mem);
                let off = exp(offset);
                let _ = writeln!(
                    out,
                    "if ({m}.rc != NULL) {{ pmem_set(&results[{k}].mem, {m}); results[{k}].data = ({t} *){m}.data + {off}; }} else {{"
                );
                indent(out, d + 1);
                let data_oom = format!(
                    "{{ parad_error(ctx, -1, \"Out of memory: cannot return result {} (%lld elements, %lld bytes)\", (long long)({n}), (long long)({n}) * (long long)sizeof({t})); goto cleanup; }}",
                    k + 1
                );
                let _ = writeln!(
                    out,
                    "if (pmem_alloc_n(&results[{k}].mem, {n} > 0 ? {n} : 1, sizeof({t}))) {data_oom}"
                );
                indent(out, d + 1);
                let _ = writeln!(
                    out,
                    "results[{k}].data = results[{k}].mem.data; if ({n} > 0) memcpy(results[{k}].data, ({t} *){m}.data + {off}, (size_t)({n}) * sizeof({t}));"
                );
                indent(out, d);
                out.push_str("}\n");
            }
        }
    }

    /// An operation on device memory.
    fn device_op(&mut self, out: &mut String, d: usize, op: &DeviceOp) {
        let exit = self.exit();
        indent(out, d);
        match op {
            DeviceOp::Alloc {
                mem,
                elem,
                elems,
                span,
            } => {
                let _ = writeln!(
                    out,
                    "if (pmem_device_alloc_n(ctx, &{}, {}, sizeof({}))) {{",
                    name(*mem),
                    exp(elems),
                    ctype(*elem)
                );
                let msg = format!(
                    "Out of memory on the GPU: cannot allocate an array of {{}} elements ({} bytes each)",
                    elem.size()
                );
                let arg = ErrorArg {
                    exp: elems.clone(),
                    ty: I64,
                };
                self.fail(out, d + 1, *span, &msg, &[arg]);
                indent(out, d);
                out.push_str("}\n");
            }
            DeviceOp::Write {
                mem,
                elem,
                index,
                value,
            } => {
                let _ = writeln!(
                    out,
                    "if (p_device_write_{}(ctx, {}, {}, {})) goto {exit};",
                    ctype(*elem),
                    name(*mem),
                    exp(index),
                    exp(value)
                );
            }
            DeviceOp::Copy {
                dst,
                dst_off,
                src,
                src_off,
                elem,
                elems,
            } => {
                let t = ctype(*elem);
                let _ = writeln!(
                    out,
                    "if (p_device_copy(ctx, {}, ({}) * (i64)sizeof({t}), {}, ({}) * (i64)sizeof({t}), ({}) * (i64)sizeof({t}))) goto {exit};",
                    name(*dst),
                    exp(dst_off),
                    name(*src),
                    exp(src_off),
                    exp(elems),
                );
            }
            DeviceOp::Input {
                k,
                elem,
                mem,
                shape,
            } => {
                let mut n = String::from("(i64)1");
                for (j, s) in shape.iter().enumerate() {
                    let _ = write!(out, "i64 {} = args[{k}].shape[{j}]; ", name(*s));
                    n = format!("{n} * {}", name(*s));
                }
                out.push('\n');
                indent(out, d);
                let t = ctype(*elem);
                let _ = writeln!(
                    out,
                    "if (pmem_device_alloc_n(ctx, &{m}, {n}, sizeof({t}))) {{",
                    m = name(*mem)
                );
                let msg = format!(
                    "Out of memory on the GPU: cannot copy argument {} ({{}} elements)",
                    k + 1
                );
                let arg = ErrorArg {
                    exp: shape
                        .iter()
                        .fold(Exp::i64(1), |n, s| Exp::times(n, Exp::Var(*s))),
                    ty: I64,
                };
                self.fail(out, d + 1, None, &msg, &[arg]);
                indent(out, d);
                out.push_str("}\n");
                indent(out, d);
                let _ = writeln!(
                    out,
                    "if (p_device_write(ctx, {}, 0, args[{k}].data, ({n}) * (i64)sizeof({t}))) goto {exit};",
                    name(*mem)
                );
            }
            DeviceOp::Output {
                k,
                elem,
                mem,
                offset,
                shape,
            } => {
                let t = ctype(*elem);
                let oom = format!("{{ parad_error(ctx, -1, \"Out of memory: cannot return result {}\"); goto {exit}; }}", k + 1);
                let _ = writeln!(
                    out,
                    "results[{k}].shape = malloc({} * sizeof(int64_t)); if (!results[{k}].shape) {oom}",
                    shape.len().max(1)
                );
                let mut n = String::from("(i64)1");
                for (j, s) in shape.iter().enumerate() {
                    indent(out, d);
                    let _ = writeln!(out, "results[{k}].shape[{j}] = {};", exp(s));
                    n = format!("{n} * results[{k}].shape[{j}]");
                }
                indent(out, d);
                let _ = writeln!(
                    out,
                    "if (pmem_alloc_n(&results[{k}].mem, {n} > 0 ? {n} : 1, sizeof({t}))) {oom}"
                );
                indent(out, d);
                let _ = writeln!(
                    out,
                    "results[{k}].data = results[{k}].mem.data; if (p_device_read(ctx, results[{k}].data, {}, ({}) * (i64)sizeof({t}), ({n}) * (i64)sizeof({t}))) goto {exit};",
                    name(*mem),
                    exp(offset)
                );
            }
            DeviceOp::Launch { kernel, bound } => self.launch(out, d, *kernel, bound),
        }
    }

    /// A kernel's launch, then, when it may fail, the check of its error
    /// words and the error of the site that failed.
    fn launch(&mut self, out: &mut String, d: usize, k: usize, bound: &Exp) {
        let exit = self.exit();
        let kernels = self.kernels.clone();
        let kernel = &kernels[k];
        let sites = kernel.error_sites();
        let mut args: Vec<String> = kernel
            .scalars
            .iter()
            .map(|(v, t)| format!("{{0, (int32_t)sizeof({}), &{}}}", ctype(*t), name(*v)))
            .chain(
                kernel
                    .mems
                    .iter()
                    .map(|m| format!("{{1, 0, &{}.data}}", name(*m))),
            )
            .collect();
        out.push_str("{\n");
        if !sites.is_empty() {
            indent(out, d + 1);
            let _ = writeln!(
                out,
                "pmem kerr_; if (p_kernel_errors(ctx, &kerr_)) goto {exit};"
            );
            args.push("{1, 0, &kerr_.data}".into());
        }
        indent(out, d + 1);
        let _ = writeln!(
            out,
            "const struct parad_karg kargs_[] = {{ {}{} }};",
            args.join(", "),
            if args.is_empty() { "{0, 0, NULL}" } else { "" }
        );
        indent(out, d + 1);
        let _ = writeln!(
            out,
            "if (p_device_launch(ctx, {k}, {}, {}, kargs_)) goto {exit};",
            exp(bound),
            args.len()
        );
        if !sites.is_empty() {
            indent(out, d + 1);
            let _ = writeln!(
                out,
                "int64_t kw_[P_KERNEL_ERROR_WORDS]; int kf_ = p_kernel_failed(ctx, kw_); if (kf_ < 0) goto {exit};"
            );
            indent(out, d + 1);
            out.push_str("if (kf_) switch (kw_[0] - 1) {\n");
            for (s, site) in sites.iter().enumerate() {
                indent(out, d + 1);
                let _ = writeln!(out, "case {s}:");
                let args: Vec<(&'static str, String)> = site
                    .args
                    .iter()
                    .enumerate()
                    .map(|(j, t)| {
                        let w = format!("kw_[{}]", j + 1);
                        match t {
                            PrimType::Bool => ("%s", format!("({w} ? \"true\" : \"false\")")),
                            PrimType::Int(i) if i.signed() => ("%lld", format!("(long long)({w})")),
                            PrimType::Int(_) => ("%llu", format!("(unsigned long long)({w})")),
                            PrimType::Float(_) => ("%g", format!("p_bitcast_i64_f64({w})")),
                        }
                    })
                    .collect();
                self.fail_with(out, d + 2, site.span, &site.message, &args);
            }
            indent(out, d + 1);
            let _ = writeln!(
                out,
                "default: parad_error(ctx, -1, \"a GPU kernel failed\"); goto {exit};"
            );
            indent(out, d + 1);
            out.push_str("}\n");
        }
        indent(out, d);
        out.push_str("}\n");
    }

    /// A call of the runtime's matrix-multiply kernel, after allocating
    /// its packing buffer (only when the result has elements).
    fn gemm(&mut self, out: &mut String, d: usize, g: &Gemm) {
        let Gemm {
            elem,
            m,
            n,
            k,
            a,
            b,
            c,
            pack,
            span,
        } = g;
        let (pack, span) = (*pack, *span);
        let t = ctype(*elem);
        indent(out, d);
        let _ = writeln!(
            out,
            "{{ const i64 m_ = {}, n_ = {}, k_ = {}; if (m_ > 0 && n_ > 0) {{",
            exp(m),
            exp(n),
            exp(k)
        );
        indent(out, d + 1);
        let _ = writeln!(
            out,
            "if (pmem_alloc_n(&{p}, parad_gemm_pack_elems_{t}(m_, n_, k_), sizeof({t}))) {{",
            p = name(pack)
        );
        self.fail(
            out,
            d + 2,
            Some(span),
            "Out of memory: cannot allocate the buffer of a matrix multiplication",
            &[],
        );
        indent(out, d + 1);
        out.push_str("}\n");
        let mut args = String::new();
        for (x, cst) in [(a, "const "), (b, "const "), (c, "")] {
            let _ = write!(
                args,
                "({cst}{t} *){}.data, {}, {}, {}, ",
                name(x.mem),
                exp(&x.offset),
                exp(&x.rows),
                exp(&x.cols)
            );
        }
        indent(out, d + 1);
        let _ = writeln!(
            out,
            "parad_gemm_{t}(m_, n_, k_, {args}({t} *){}.data);",
            name(pack)
        );
        indent(out, d);
        out.push_str("} }\n");
    }

    /// A parallel loop: its body becomes the function `<fname>_loopN_`,
    /// which runs the iterations `[start_, end_)` and gets the loop's
    /// free variables in a `struct <fname>_loopN_env`; the loop calls it
    /// through the pool and leaves when an iteration failed.
    fn par_for(&mut self, out: &mut String, d: usize, i: VName, bound: &Exp, body: &[Code]) {
        self.labels += 1;
        self.loops += 1;
        let number = self.loops;
        let label = format!("iter_end_{}", self.labels);
        let fun = format!("{}_loop{number}_", self.fname);
        let env = format!("struct {fun}env");
        let free = FreeVars::of_par_for(i, body);
        if let Some(v) = free.written.first() {
            // The lowering writes the results of a parallel loop to
            // memory, never to the variables of the enclosing scope, which
            // every thread would write at once.
            panic!(
                "internal error: a parallel loop body assigns {}, declared outside it",
                name(*v)
            );
        }
        let mut fields = vec![("struct parad_ctx *".to_string(), "ctx".to_string())];
        if self.internal {
            fields.push(("i64 ".into(), "p_iter".into()));
        }
        for v in &free.vars {
            let t = match self.types.get(v) {
                Some(VarType::Prim(t)) => format!("{} ", ctype(*t)),
                Some(VarType::Mem) => "pmem ".into(),
                None => panic!(
                    "internal error: {} is used in a parallel loop and never declared",
                    name(*v)
                ),
            };
            fields.push((t, name(*v)));
        }

        // The body's function.
        let mut f = String::new();
        let _ = writeln!(f, "\n{env} {{");
        for (t, v) in &fields {
            let _ = writeln!(f, "  {t}{v};");
        }
        f.push_str("};\n");
        if self.o1 {
            f.push_str("__attribute__((optimize(\"O1\")))\n");
        }
        let _ = writeln!(
            f,
            "static void {fun}(void *env_, int64_t start_, int64_t end_, int tid_) {{"
        );
        let _ = writeln!(f, "  const {env} *e_ = env_;\n  (void)tid_;");
        for (t, v) in &fields {
            let _ = writeln!(f, "  {t}{v} = e_->{v};");
        }
        let mut mems = vec![];
        collect_mems(body, &mut mems);
        for m in &mems {
            let _ = writeln!(f, "  pmem {} = PMEM_NULL;", name(*m));
        }
        let _ = writeln!(
            f,
            "  for (i64 {i} = start_; {i} < end_; {i}++) {{",
            i = name(i)
        );
        let iter = if self.internal {
            format!("(p_iter >= 0 ? p_iter : {})", name(i))
        } else {
            name(i)
        };
        let _ = writeln!(f, "    if (parad_skip_iter(ctx, {iter})) continue;");
        let exits = std::mem::replace(&mut self.exits, vec![label.clone()]);
        let outer = self.iter.replace(iter);
        self.block(&mut f, body, 2);
        self.iter = outer;
        self.exits = exits;
        let _ = writeln!(f, "   {label}: ;\n  }}");
        for m in &mems {
            let _ = writeln!(f, "  pmem_unref(&{});", name(*m));
        }
        f.push_str("}\n");
        // After the functions of the loops it contains.
        self.outlined.push_str(&f);

        // The call.
        let b = format!("{}_n", name(i));
        indent(out, d);
        let _ = writeln!(out, "{{ const i64 {b} = {};", exp(bound));
        indent(out, d);
        let vals: Vec<&str> = fields.iter().map(|(_, v)| v.as_str()).collect();
        let e = format!("env{number}_");
        let _ = writeln!(out, "{env} {e} = {{ {} }};", vals.join(", "));
        indent(out, d);
        let _ = writeln!(out, "parad_par_for(ctx, {b}, {fun}, &{e});");
        indent(out, d);
        let exit = self.exit();
        let _ = writeln!(out, "if (parad_has_failed(ctx)) goto {exit}; }}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_core::Symbol;

    fn v(base: &str, id: u32) -> VName {
        VName {
            base: Symbol::intern(base),
            id,
        }
    }

    fn entry(body: Vec<Code>) -> String {
        let p = Program {
            funs: vec![Function {
                entry: EntryPoint {
                    name: "main".into(),
                    fun: Symbol::intern("main"),
                    params: vec![],
                    results: vec![],
                },
                body,
                tuning: vec![],
            }],
            ..Program::default()
        };
        emit_imp(&p).source
    }

    /// `k = 3.0; m = alloc n; parallel for i < n { {t = i} x = m[i] * k;
    /// m[i] = x; }`, with a per-thread block `w`.
    fn scale_loop(assign_outer: bool) -> Vec<Code> {
        let (n, k, m, i, x, t, w) = (
            v("n", 1),
            v("k", 2),
            v("m", 3),
            v("i", 4),
            v("x", 5),
            v("t", 6),
            v("w", 7),
        );
        let f64t = PrimType::Float(parad_base::FloatType::F64);
        let mut body = vec![
            Code::DeclMem(w),
            Code::Alloc {
                mem: w,
                elem: f64t,
                elems: Exp::i64(1),
                span: 0,
            },
            // `t` is declared in a block: the `t` after it is k's.
            Code::Block(vec![Code::Let {
                var: t,
                ty: I64,
                exp: Exp::Var(i),
            }]),
            Code::Let {
                var: x,
                ty: f64t,
                exp: Exp::Bin(
                    parad_core::BinOp::Mul,
                    f64t,
                    Box::new(Exp::read(m, f64t, Exp::Var(i))),
                    Box::new(Exp::Var(k)),
                ),
            },
            Code::Write {
                mem: m,
                elem: f64t,
                index: Exp::Var(i),
                value: Exp::Var(x),
            },
        ];
        if assign_outer {
            body.push(Code::Assign {
                var: k,
                exp: Exp::Var(x),
            });
        }
        vec![
            Code::Let {
                var: n,
                ty: I64,
                exp: Exp::i64(100),
            },
            Code::Let {
                var: k,
                ty: f64t,
                exp: Exp::Const(Scalar::F64(3.0)),
            },
            Code::DeclMem(m),
            Code::Alloc {
                mem: m,
                elem: f64t,
                elems: Exp::Var(n),
                span: 0,
            },
            Code::ParFor {
                i,
                bound: Exp::Var(n),
                body,
            },
        ]
    }

    #[test]
    fn parallel_loop_bodies_are_outlined_with_their_free_variables() {
        let c = entry(scale_loop(false));
        // The free variables in the order of first use, by value.
        let env =
            "struct entry_0_loop1_env {\n  struct parad_ctx *ctx;\n  pmem m_3;\n  f64 k_2;\n};";
        assert!(c.contains(env), "{c}");
        let f = c
            .find("static void entry_0_loop1_(")
            .expect("the body's function");
        let e = c.find("int32_t entry_0(").expect("the entry point");
        assert!(f < e, "the body's function comes first");
        let fun = &c[f..e];
        // Per-chunk memory, iterations of the chunk, errors to the
        // iteration's end.
        assert!(fun.contains("  pmem w_7 = PMEM_NULL;"), "{fun}");
        assert!(fun.contains("for (i64 i_4 = start_; i_4 < end_; i_4++) {"));
        assert!(fun.contains("if (parad_skip_iter(ctx, i_4)) continue;"));
        assert!(fun.contains("goto iter_end_1;"));
        assert!(fun.contains("pmem_unref(&w_7);"));
        let call = &c[e..];
        assert!(call.contains("struct entry_0_loop1_env env1_ = { ctx, m_3, k_2 };"));
        assert!(call.contains("parad_par_for(ctx, i_4_n, entry_0_loop1_, &env1_);"));
        assert!(
            !c.contains("#pragma omp") && !c.contains("omp_"),
            "no OpenMP"
        );
    }

    #[test]
    #[should_panic(expected = "assigns k_2")]
    fn a_body_assigning_an_outer_variable_is_an_internal_error() {
        entry(scale_loop(true));
    }

    #[test]
    fn nested_loops_are_outlined_innermost_first() {
        let (i, j, n) = (v("i", 10), v("j", 11), v("n", 12));
        let inner = Code::ParFor {
            i: j,
            bound: Exp::Var(n),
            body: vec![Code::Let {
                var: v("s", 13),
                ty: I64,
                exp: Exp::plus(Exp::Var(i), Exp::Var(j)),
            }],
        };
        let c = entry(vec![
            Code::Let {
                var: n,
                ty: I64,
                exp: Exp::i64(4),
            },
            Code::ParFor {
                i,
                bound: Exp::Var(n),
                body: vec![inner],
            },
        ]);
        // The inner loop (printed second) needs the outer's i; its bound
        // is computed by the outer body, which needs n.
        let inner_env = "struct entry_0_loop2_env {\n  struct parad_ctx *ctx;\n  i64 i_10;\n};";
        let outer_env = "struct entry_0_loop1_env {\n  struct parad_ctx *ctx;\n  i64 n_12;\n};";
        assert!(c.contains(inner_env) && c.contains(outer_env), "{c}");
        let inner_fn = c.find("static void entry_0_loop2_(").unwrap();
        let outer_fn = c.find("static void entry_0_loop1_(").unwrap();
        assert!(inner_fn < outer_fn);
        assert!(c.contains("struct entry_0_loop2_env env2_ = { ctx, i_10 };"));
        assert!(c.contains("struct entry_0_loop1_env env1_ = { ctx, n_12 };"));
    }
}
