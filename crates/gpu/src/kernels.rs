//! Kernel extraction: the imperative IR of the multicore backend turned
//! into host code plus kernels.
//!
//! An entry point goes to the device as a whole or not at all. On the
//! device, every block lives in device memory; host code keeps the
//! control flow and the scalars, and touches memory only through
//! [`DeviceOp`]s (allocation, copies, one-element reads and writes, the
//! transfer of arguments and results). Each parallel loop becomes a
//! kernel run by one device thread per iteration, with its nested
//! parallelism sequential in the thread (the lowering's code for one
//! thread, as on the CPU). Loops, branches and blocks of host code that
//! work on device memory and launch nothing become kernels of one thread
//! (rather than a transfer per element).
//!
//! Kernels never allocate. A loop whose body needs memory gets an arena
//! from the host ([`parad_imp::ir::Arena`]): a share per thread, sized
//! before the launch from the body's allocations, whose sizes must then
//! be known outside the loop (variables from outside it, or `let`s of the
//! body computed from them). Functions with what no kernel does yet stay
//! on the host: allocations of sizes computed in the loop,
//! matrix-multiply calls, critical sections, calls of recursive
//! functions, atomics in host code, reads of the thread count or of
//! tuning parameters in a kernel, and `f16`. [`Offloaded::host`] says
//! why, per entry point.

use parad_base::{FloatType, PrimType};
use parad_core::VName;
use parad_imp::ir::{Code, DeviceOp, ErrorArg, Exp, Function, Kernel, Program};
use rustc_hash::{FxHashMap, FxHashSet};

/// A program after kernel extraction.
#[derive(Clone, Debug)]
pub struct Offloaded {
    /// The program: entry points on the device have host code with
    /// [`DeviceOp`]s and the kernels in [`Program::kernels`]; the others
    /// are as they were.
    pub program: Program,
    /// Per entry point: `None` when it runs on the device, else why it
    /// stays on the host.
    pub host: Vec<Option<String>>,
}

/// Extracts the kernels of every entry point that can run on the device.
pub fn offload(p: &Program) -> Offloaded {
    let mut program = p.clone();
    program.kernels.clear();
    let mut names = p.names.clone();
    let mut host = vec![];
    let internal_calls = !p.internal.is_empty();
    for f in &mut program.funs {
        let mut x = Extract {
            kernels: vec![],
            first: program.kernels.len(),
            types: parad_cgen::emit::scalar_types(&f.body),
            names: &mut names,
        };
        let done = if internal_calls && calls(&f.body) {
            Err("it calls a recursive function".to_string())
        } else {
            x.host(&f.body)
        };
        match done {
            Ok(body) => {
                *f = Function { body, ..f.clone() };
                program.kernels.append(&mut x.kernels);
                host.push(None);
            }
            Err(why) => host.push(Some(why)),
        }
    }
    program.names = names;
    Offloaded { program, host }
}

/// The bytes of the arena of one launch, beyond which fewer threads run
/// (each more iterations).
pub const ARENA_BYTES: i64 = 1 << 28;

/// The element type and size of every allocation in `code`.
fn collect_allocs<'a>(code: &'a [Code], out: &mut Vec<(PrimType, &'a Exp)>) {
    for c in code {
        if let Code::Alloc { elem, elems, .. } = c {
            out.push((*elem, elems));
        }
        for b in children(c) {
            collect_allocs(b, out);
        }
    }
}

/// The variables that `code` declares, at any depth.
fn declared_vars(code: &[Code], out: &mut FxHashSet<VName>) {
    for c in code {
        match c {
            Code::Decl { var, .. } | Code::Let { var, .. } => {
                out.insert(*var);
            }
            Code::For { i, .. } => {
                out.insert(*i);
            }
            Code::Cas { old, .. } => {
                out.insert(*old);
            }
            _ => {}
        }
        for b in children(c) {
            declared_vars(b, out);
        }
    }
}

/// The value of every scalar that `code` declares with `let` and never
/// assigns again (sizes start as a `let` and may change in a branch).
fn let_defs<'a>(code: &'a [Code], out: &mut FxHashMap<VName, &'a Exp>) {
    fn walk<'a>(
        code: &'a [Code],
        lets: &mut FxHashMap<VName, &'a Exp>,
        assigned: &mut FxHashSet<VName>,
    ) {
        for c in code {
            match c {
                Code::Let { var, exp, .. } => {
                    lets.insert(*var, exp);
                }
                Code::Assign { var, .. } => {
                    assigned.insert(*var);
                }
                _ => {}
            }
            for b in children(c) {
                walk(b, lets, assigned);
            }
        }
    }
    let mut assigned = FxHashSet::default();
    walk(code, out, &mut assigned);
    out.retain(|v, _| !assigned.contains(v));
}

/// `e` in terms of variables from outside a loop body: variables that
/// the body declares with `let` replaced by their values (operators are
/// total and reads are not allowed, so computing them before the loop
/// is safe); `None` when it depends on anything else the body computes.
fn invariant(
    e: &Exp,
    lets: &FxHashMap<VName, &Exp>,
    declared: &FxHashSet<VName>,
    depth: u32,
) -> Option<Exp> {
    if depth > 64 {
        return None;
    }
    let go = |x: &Exp| invariant(x, lets, declared, depth + 1).map(Box::new);
    Some(match e {
        Exp::Var(v) if declared.contains(v) => invariant(lets.get(v)?, lets, declared, depth + 1)?,
        Exp::Var(_) | Exp::Const(_) | Exp::NumThreads => e.clone(),
        Exp::Read { .. } | Exp::DeviceRead { .. } | Exp::Unique(_) => return None,
        Exp::UserParam { index, default } => Exp::UserParam {
            index: *index,
            default: go(default)?,
        },
        Exp::I(op, x, y) => Exp::I(*op, go(x)?, go(y)?),
        Exp::Un(op, t, x) => Exp::Un(*op, *t, go(x)?),
        Exp::Bin(op, t, x, y) => Exp::Bin(*op, *t, go(x)?, go(y)?),
        Exp::Tern(op, t, x, y, z) => Exp::Tern(*op, *t, go(x)?, go(y)?, go(z)?),
        Exp::Cmp(op, t, x, y) => Exp::Cmp(*op, *t, go(x)?, go(y)?),
        Exp::Conv(op, f, t, x) => Exp::Conv(*op, *f, *t, go(x)?),
        Exp::Select(c, x, y) => Exp::Select(go(c)?, go(x)?, go(y)?),
        Exp::And(x, y) => Exp::And(go(x)?, go(y)?),
    })
}

/// Whether code reads or writes memory.
fn touches_memory(code: &[Code]) -> bool {
    fn exp(e: &Exp) -> bool {
        match e {
            Exp::Read { .. } | Exp::DeviceRead { .. } => true,
            Exp::Var(_) | Exp::Const(_) | Exp::NumThreads | Exp::Unique(_) => false,
            Exp::UserParam { default, .. } => exp(default),
            Exp::Un(_, _, x) | Exp::Conv(_, _, _, x) => exp(x),
            Exp::I(_, x, y) | Exp::Bin(_, _, x, y) | Exp::Cmp(_, _, x, y) | Exp::And(x, y) => {
                exp(x) || exp(y)
            }
            Exp::Tern(_, _, x, y, z) | Exp::Select(x, y, z) => exp(x) || exp(y) || exp(z),
        }
    }
    code.iter().any(|c| {
        let here = match c {
            Code::Write { .. }
            | Code::Memcpy { .. }
            | Code::AtomicAdd { .. }
            | Code::Cas { .. } => true,
            Code::Let { exp: e, .. } | Code::Assign { exp: e, .. } => exp(e),
            Code::If { cond, .. } => exp(cond),
            Code::For { bound, .. } => exp(bound),
            _ => false,
        };
        here || children(c).iter().any(|b| touches_memory(b))
    })
}

fn calls(code: &[Code]) -> bool {
    code.iter().any(|c| match c {
        Code::Call { .. } => true,
        _ => children(c).iter().any(|b| calls(b)),
    })
}

/// The nested code of an instruction.
fn children(c: &Code) -> Vec<&[Code]> {
    match c {
        Code::Block(b)
        | Code::For { body: b, .. }
        | Code::While { body: b, .. }
        | Code::ParFor { body: b, .. }
        | Code::Cas { body: b, .. }
        | Code::Critical(b) => vec![b],
        Code::If {
            then_br, else_br, ..
        } => vec![then_br, else_br],
        _ => vec![],
    }
}

type Result<T> = std::result::Result<T, String>;

struct Extract<'a> {
    kernels: Vec<Kernel>,
    names: &'a mut parad_core::NameSource,
    /// The number of the first kernel of this function.
    first: usize,
    /// The type of every scalar variable of the function.
    types: FxHashMap<VName, PrimType>,
}

impl Extract<'_> {
    /// Host code: memory operations become device operations, parallel
    /// loops launches.
    fn host(&mut self, code: &[Code]) -> Result<Vec<Code>> {
        let mut out = vec![];
        for c in code {
            match self.single_thread(c) {
                Some(k) => out.extend(k),
                None => out.push(self.host_code(c)?),
            }
        }
        Ok(out)
    }

    /// A loop, branch or block of host code that works on device memory
    /// and runs no parallel loop, as a kernel of one thread (instead of a
    /// transfer per element): the scalars it assigns come back through a
    /// block of 8-byte slots. `None` when it does not qualify.
    fn single_thread(&mut self, c: &Code) -> Option<Vec<Code>> {
        if !matches!(
            c,
            Code::For { .. } | Code::While { .. } | Code::If { .. } | Code::Block(_)
        ) || !touches_memory(std::slice::from_ref(c))
            || kernel_code(std::slice::from_ref(c)).is_err()
            || self.share(std::slice::from_ref(c)).ok()?.is_some()
        {
            return None;
        }
        let i = self.names.fresh("thread");
        let body = vec![c.clone()];
        let (_, written) = parad_cgen::emit::free_vars(i, &body);
        let mut outs = vec![];
        for v in written {
            // Blocks assigned inside stay with the host.
            let t = *self.types.get(&v)?;
            outs.push((v, t));
        }
        let slots = self.names.fresh("scalars");
        let slot = |j: usize, t: PrimType| Exp::i64((j * (8 / t.size())) as i64);
        let mut kbody = body;
        for (j, (v, t)) in outs.iter().enumerate() {
            kbody.push(Code::Write {
                mem: slots,
                elem: *t,
                index: slot(j, *t),
                value: Exp::Var(*v),
            });
        }
        let kernel = self.kernel(i, &kbody).ok()?;
        let dev = |op: DeviceOp| Code::Device(Box::new(op));
        let mut host = vec![];
        if !outs.is_empty() {
            host.push(Code::DeclMem(slots));
            host.push(dev(DeviceOp::Alloc {
                mem: slots,
                elem: PrimType::Int(parad_base::IntType::I64),
                elems: Exp::i64(outs.len() as i64),
                span: None,
            }));
        }
        host.push(dev(DeviceOp::Launch {
            kernel,
            bound: Exp::i64(1),
        }));
        for (j, (v, t)) in outs.iter().enumerate() {
            host.push(Code::Assign {
                var: *v,
                exp: Exp::DeviceRead {
                    mem: slots,
                    elem: *t,
                    index: Box::new(slot(j, *t)),
                },
            });
        }
        if !outs.is_empty() {
            host.push(Code::Unref(slots));
        }
        Some(host)
    }

    fn host_code(&mut self, c: &Code) -> Result<Code> {
        let dev = |op: DeviceOp| Code::Device(Box::new(op));
        Ok(match c {
            Code::Block(b) => Code::Block(self.host(b)?),
            Code::Decl { .. }
            | Code::DeclMem(_)
            | Code::SetMem { .. }
            | Code::Borrow { .. }
            | Code::MoveMem { .. }
            | Code::Unref(_) => c.clone(),
            Code::Let { var, ty, exp } => Code::Let {
                var: *var,
                ty: *ty,
                exp: host_exp(exp),
            },
            Code::Assign { var, exp } => Code::Assign {
                var: *var,
                exp: host_exp(exp),
            },
            Code::Alloc {
                mem,
                elem,
                elems,
                span,
            } => dev(DeviceOp::Alloc {
                mem: *mem,
                elem: *elem,
                elems: host_exp(elems),
                span: Some(*span),
            }),
            Code::Write {
                mem,
                elem,
                index,
                value,
            } => dev(DeviceOp::Write {
                mem: *mem,
                elem: *elem,
                index: host_exp(index),
                value: host_exp(value),
            }),
            Code::Memcpy {
                dst,
                dst_off,
                src,
                src_off,
                elem,
                elems,
            } => dev(DeviceOp::Copy {
                dst: *dst,
                dst_off: host_exp(dst_off),
                src: *src,
                src_off: host_exp(src_off),
                elem: *elem,
                elems: host_exp(elems),
            }),
            Code::For { i, it, bound, body } => Code::For {
                i: *i,
                it: *it,
                bound: host_exp(bound),
                body: self.host(body)?,
            },
            Code::While { cond, body } => Code::While {
                cond: *cond,
                body: self.host(body)?,
            },
            Code::If {
                cond,
                then_br,
                else_br,
            } => Code::If {
                cond: host_exp(cond),
                then_br: self.host(then_br)?,
                else_br: self.host(else_br)?,
            },
            Code::ParFor { i, bound, body } => {
                let share = self.share(body)?;
                let kernel = self.kernel(*i, body)?;
                match share {
                    None => dev(DeviceOp::Launch {
                        kernel,
                        bound: host_exp(bound),
                    }),
                    Some(share) => Code::Block(self.arena_launch(kernel, host_exp(bound), share)),
                }
            }
            Code::Error {
                span,
                message,
                args,
            } => Code::Error {
                span: *span,
                message: message.clone(),
                args: args
                    .iter()
                    .map(|a| ErrorArg {
                        exp: host_exp(&a.exp),
                        ty: a.ty,
                    })
                    .collect(),
            },
            Code::Input {
                k,
                elem,
                var,
                mem,
                shape,
            } => match (var, mem) {
                (_, Some(m)) => dev(DeviceOp::Input {
                    k: *k,
                    elem: *elem,
                    mem: *m,
                    shape: shape.clone(),
                }),
                _ => c.clone(),
            },
            Code::Output {
                k,
                elem,
                value,
                mem,
                offset,
                shape,
            } => match (value, mem) {
                (Some(v), _) => Code::Output {
                    k: *k,
                    elem: *elem,
                    value: Some(host_exp(v)),
                    mem: None,
                    offset: offset.clone(),
                    shape: shape.clone(),
                },
                (None, Some(m)) => dev(DeviceOp::Output {
                    k: *k,
                    elem: *elem,
                    mem: *m,
                    offset: host_exp(offset),
                    shape: shape.iter().map(host_exp).collect(),
                }),
                (None, None) => c.clone(),
            },
            Code::AtomicAdd { .. } | Code::Cas { .. } => {
                return Err("it has an atomic update outside parallel loops".into())
            }
            Code::Gemm(_) => return Err("it multiplies matrices (no kernel yet)".into()),
            Code::Critical(_) => return Err("it has a critical section".into()),
            Code::Call { .. } | Code::Return(_) => {
                return Err("it calls a recursive function".into())
            }
            Code::Device(_) => return Err("it is device code already".into()),
        })
    }

    /// The bytes of memory a thread of a parallel loop's body needs, when
    /// it allocates: twice each allocation (a block may be kept for
    /// reuse while a new one is made, as loops that build an array per
    /// iteration do), each rounded to 8 bytes, with its 3-word header.
    /// Sizes must be known before the loop starts.
    fn share(&self, body: &[Code]) -> Result<Option<Exp>> {
        let mut allocs = vec![];
        collect_allocs(body, &mut allocs);
        if allocs.is_empty() {
            return Ok(None);
        }
        let mut declared = FxHashSet::default();
        declared_vars(body, &mut declared);
        let mut lets = FxHashMap::default();
        let_defs(body, &mut lets);
        let mut total = Exp::i64(0);
        for (elem, elems) in allocs {
            let Some(elems) = invariant(elems, &lets, &declared, 0) else {
                return Err("a parallel loop allocates memory of a size it computes".into());
            };
            let bytes = Exp::times(host_exp(&elems), Exp::i64(elem.size() as i64));
            let rounded = Exp::plus(
                Exp::times(
                    Exp::over(Exp::plus(bytes, Exp::i64(7)), Exp::i64(8)),
                    Exp::i64(8),
                ),
                Exp::i64(24),
            );
            total = Exp::plus(total, Exp::times(rounded, Exp::i64(2)));
        }
        Ok(Some(total))
    }

    /// The launch of `kernel`, whose threads share an arena: at most as
    /// many threads as [`ARENA_BYTES`] has shares (at least one).
    fn arena_launch(&mut self, kernel: usize, bound: Exp, share: Exp) -> Vec<Code> {
        let i64t = PrimType::Int(parad_base::IntType::I64);
        let per = self.names.fresh("share");
        let total = self.names.fresh("bound");
        let threads = self.names.fresh("threads");
        let mem = self.names.fresh("arena");
        let k = &mut self.kernels[kernel - self.first];
        k.scalars.push((total, i64t));
        k.scalars.push((per, i64t));
        k.mems.push(mem);
        k.arena = Some(parad_imp::ir::Arena {
            mem,
            per_thread: per,
            bound: total,
        });
        let max = |a: Exp, b: Exp| Exp::iop(parad_imp::ir::IOp::Max, a, b);
        vec![
            Code::Let {
                var: per,
                ty: i64t,
                exp: max(share, Exp::i64(8)),
            },
            Code::Let {
                var: total,
                ty: i64t,
                exp: bound,
            },
            Code::Let {
                var: threads,
                ty: i64t,
                exp: Exp::min(
                    Exp::Var(total),
                    max(Exp::i64(1), Exp::over(Exp::i64(ARENA_BYTES), Exp::Var(per))),
                ),
            },
            Code::DeclMem(mem),
            Code::Device(Box::new(DeviceOp::Alloc {
                mem,
                elem: PrimType::Int(parad_base::IntType::U8),
                elems: Exp::times(Exp::Var(threads), Exp::Var(per)),
                span: None,
            })),
            Code::Device(Box::new(DeviceOp::Launch {
                kernel,
                bound: Exp::Var(threads),
            })),
            Code::Unref(mem),
        ]
    }

    /// The kernel of a parallel loop's body; its number.
    fn kernel(&mut self, i: VName, body: &[Code]) -> Result<usize> {
        kernel_code(body)?;
        let (free, written) = parad_cgen::emit::free_vars(i, body);
        if let Some(v) = written.first() {
            return Err(format!("a parallel loop assigns {v}, declared outside it"));
        }
        self.new_kernel(i, body, free)
    }

    fn new_kernel(&mut self, i: VName, body: &[Code], free: Vec<VName>) -> Result<usize> {
        // The types of the free scalars are those of their declarations
        // in the function; the other free variables are blocks.
        let types = &self.types;
        let mut scalars = vec![];
        let mut mems = vec![];
        for v in free {
            match types.get(&v) {
                Some(t) => scalars.push((v, *t)),
                None => mems.push(v),
            }
        }
        if scalars.iter().any(|(_, t)| is_f16(*t)) {
            return Err("a kernel would use f16".into());
        }
        let k = self.first + self.kernels.len();
        self.kernels.push(Kernel {
            name: format!("parad_k{k}"),
            i,
            scalars,
            mems,
            body: body.to_vec(),
            arena: None,
        });
        Ok(k)
    }
}

fn is_f16(t: PrimType) -> bool {
    t == PrimType::Float(FloatType::F16)
}

/// The number of threads that host code of the device sees: how many
/// chunks a reduction or scan is cut into, each a thread that runs its
/// chunk sequentially, before the host combines the chunks' results.
pub const DEVICE_CHUNKS: i64 = 256;

/// An expression of host code: its reads are reads of device memory.
fn host_exp(e: &Exp) -> Exp {
    let b = |x: &Exp| Box::new(host_exp(x));
    match e {
        Exp::NumThreads => Exp::i64(DEVICE_CHUNKS),
        Exp::Var(_) | Exp::Const(_) | Exp::Unique(_) => e.clone(),
        Exp::DeviceRead { .. } => e.clone(),
        Exp::Read { mem, elem, index } => Exp::DeviceRead {
            mem: *mem,
            elem: *elem,
            index: b(index),
        },
        Exp::UserParam { index, default } => Exp::UserParam {
            index: *index,
            default: b(default),
        },
        Exp::I(op, x, y) => Exp::I(*op, b(x), b(y)),
        Exp::Un(op, t, x) => Exp::Un(*op, *t, b(x)),
        Exp::Bin(op, t, x, y) => Exp::Bin(*op, *t, b(x), b(y)),
        Exp::Tern(op, t, x, y, z) => Exp::Tern(*op, *t, b(x), b(y), b(z)),
        Exp::Cmp(op, t, x, y) => Exp::Cmp(*op, *t, b(x), b(y)),
        Exp::Conv(op, f, t, x) => Exp::Conv(*op, *f, *t, b(x)),
        Exp::Select(c, x, y) => Exp::Select(b(c), b(x), b(y)),
        Exp::And(x, y) => Exp::And(b(x), b(y)),
    }
}

/// Whether code can run in a kernel: `Ok`, or why not.
fn kernel_code(code: &[Code]) -> Result<()> {
    for c in code {
        match c {
            Code::Block(_)
            | Code::DeclMem(_)
            | Code::SetMem { .. }
            | Code::Borrow { .. }
            | Code::MoveMem { .. }
            | Code::Unref(_)
            | Code::While { .. } => {}
            Code::Decl { ty, .. } => prim(*ty)?,
            Code::Let { ty, exp, .. } => {
                prim(*ty)?;
                kernel_exp(exp)?
            }
            Code::Assign { exp, .. } => kernel_exp(exp)?,
            Code::Write {
                elem, index, value, ..
            }
            | Code::AtomicAdd {
                elem, index, value, ..
            } => {
                prim(*elem)?;
                kernel_exp(index)?;
                kernel_exp(value)?;
            }
            Code::Memcpy {
                dst_off,
                src_off,
                elem,
                elems,
                ..
            } => {
                prim(*elem)?;
                for e in [dst_off, src_off, elems] {
                    kernel_exp(e)?;
                }
            }
            Code::For { bound, .. } => kernel_exp(bound)?,
            Code::If { cond, .. } => kernel_exp(cond)?,
            Code::Cas { elem, index, .. } => {
                prim(*elem)?;
                kernel_exp(index)?;
            }
            Code::Error { args, .. } => {
                if args.len() + 1 > KERNEL_ERROR_WORDS {
                    return Err("an error message in a kernel has too many arguments".into());
                }
                for a in args {
                    kernel_exp(&a.exp)?;
                }
            }
            Code::Alloc { elem, elems, .. } => {
                prim(*elem)?;
                kernel_exp(elems)?
            }
            Code::ParFor { .. } => return Err("a parallel loop is nested in another".into()),
            Code::Gemm(_) => return Err("a parallel loop multiplies matrices".into()),
            Code::Critical(_) => return Err("a parallel loop has a critical section".into()),
            Code::Call { .. } | Code::Return(_) => {
                return Err("a parallel loop calls a recursive function".into())
            }
            Code::Input { .. } | Code::Output { .. } | Code::Device(_) => {
                return Err("a parallel loop does input or output".into())
            }
        }
        for b in children(c) {
            kernel_code(b)?;
        }
    }
    Ok(())
}

/// The words of a kernel's error report (`P_KERNEL_ERROR_WORDS` of the C
/// runtime): the site, then its arguments.
pub const KERNEL_ERROR_WORDS: usize = 8;

fn prim(t: PrimType) -> Result<()> {
    if is_f16(t) {
        Err("a kernel would use f16".into())
    } else {
        Ok(())
    }
}

fn kernel_exp(e: &Exp) -> Result<()> {
    match e {
        Exp::Var(_) | Exp::Const(_) => Ok(()),
        Exp::NumThreads => Err("a kernel reads the number of threads".into()),
        Exp::UserParam { .. } => Err("a kernel reads a tuning parameter".into()),
        Exp::Unique(_) => Ok(()),
        Exp::DeviceRead { .. } => Err("a kernel reads device memory as host code".into()),
        Exp::Read { elem, index, .. } => {
            prim(*elem)?;
            kernel_exp(index)
        }
        Exp::I(_, x, y) | Exp::And(x, y) => {
            kernel_exp(x)?;
            kernel_exp(y)
        }
        Exp::Un(_, t, x) => {
            prim(*t)?;
            kernel_exp(x)
        }
        Exp::Bin(_, t, x, y) | Exp::Cmp(_, t, x, y) => {
            prim(*t)?;
            kernel_exp(x)?;
            kernel_exp(y)
        }
        Exp::Tern(_, t, x, y, z) => {
            prim(*t)?;
            kernel_exp(x)?;
            kernel_exp(y)?;
            kernel_exp(z)
        }
        Exp::Conv(_, f, t, x) => {
            prim(*f)?;
            prim(*t)?;
            kernel_exp(x)
        }
        Exp::Select(c, x, y) => {
            kernel_exp(c)?;
            kernel_exp(x)?;
            kernel_exp(y)
        }
    }
}
