//! The imperative IR: scalar variables, reference-counted memory blocks
//! read and written at element offsets, structured sequential and
//! parallel loops, and errors that leave the enclosing scope.
//!
//! Arrays are gone: the lowering turns every array into a memory block
//! and an index function (offset and strides, in elements), so that
//! slices, transposes and reversals are arithmetic on offsets. Memory
//! variables are declared at the top of their *scope* (a function, or
//! one thread of a parallel loop) and released when the scope ends, on
//! success and on error alike, which is what makes the C code leak-free.

use parad_base::{IntType, PrimType, Scalar, Span};
use parad_core::{BinOp, CmpOp, ConvOp, EntryPoint, TernOp, UnOp, VName};

/// Integer arithmetic on sizes, offsets and indices (`i64`), printed as
/// plain C: sizes of real arrays do not overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IOp {
    Add,
    Sub,
    Mul,
    /// Division of non-negative operands.
    Div,
    Min,
    Max,
}

/// A scalar expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    Var(VName),
    Const(Scalar),
    /// `i64` index arithmetic.
    I(IOp, Box<Exp>, Box<Exp>),
    Un(UnOp, PrimType, Box<Exp>),
    Bin(BinOp, PrimType, Box<Exp>, Box<Exp>),
    Tern(TernOp, PrimType, Box<Exp>, Box<Exp>, Box<Exp>),
    Cmp(CmpOp, PrimType, Box<Exp>, Box<Exp>),
    Conv(ConvOp, PrimType, PrimType, Box<Exp>),
    /// `c ? a : b`.
    Select(Box<Exp>, Box<Exp>, Box<Exp>),
    /// Short-circuit conjunction of booleans.
    And(Box<Exp>, Box<Exp>),
    /// Element `index` of a memory block holding `elem`s.
    Read {
        mem: VName,
        elem: PrimType,
        index: Box<Exp>,
    },
    /// The number of threads of the context (`i64`).
    NumThreads,
    /// Tuning parameter `index` of [`Program::tuning`] when the user set
    /// it, else `default` (`i64`).
    UserParam {
        index: usize,
        default: Box<Exp>,
    },
    /// Whether the memory variable holds the only reference to an owned
    /// block (so that it may be updated in place).
    Unique(VName),
    /// Element `index` of a block in device memory, read by host code (a
    /// transfer of one element; see [`DeviceOp`]).
    DeviceRead {
        mem: VName,
        elem: PrimType,
        index: Box<Exp>,
    },
}

impl Exp {
    pub fn i64(n: i64) -> Exp {
        Exp::Const(Scalar::I64(n))
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Exp::Const(Scalar::I64(n)) => Some(*n),
            _ => None,
        }
    }

    /// `op(a, b)` on `i64`, folded when both are constants or one is a
    /// neutral element.
    pub fn iop(op: IOp, a: Exp, b: Exp) -> Exp {
        use IOp::*;
        match (op, a.as_i64(), b.as_i64()) {
            (Add, Some(x), Some(y)) => Exp::i64(x.wrapping_add(y)),
            (Sub, Some(x), Some(y)) => Exp::i64(x.wrapping_sub(y)),
            (Mul, Some(x), Some(y)) => Exp::i64(x.wrapping_mul(y)),
            (Div, Some(x), Some(y)) if y > 0 => Exp::i64(x / y),
            (Min, Some(x), Some(y)) => Exp::i64(x.min(y)),
            (Max, Some(x), Some(y)) => Exp::i64(x.max(y)),
            (Add, Some(0), _) | (Mul, Some(1), _) => b,
            (Add | Sub, _, Some(0)) | (Mul | Div, _, Some(1)) => a,
            (Mul, Some(0), _) | (Mul, _, Some(0)) => Exp::i64(0),
            _ => Exp::I(op, Box::new(a), Box::new(b)),
        }
    }

    pub fn plus(a: Exp, b: Exp) -> Exp {
        Exp::iop(IOp::Add, a, b)
    }
    pub fn minus(a: Exp, b: Exp) -> Exp {
        Exp::iop(IOp::Sub, a, b)
    }
    pub fn times(a: Exp, b: Exp) -> Exp {
        Exp::iop(IOp::Mul, a, b)
    }
    pub fn over(a: Exp, b: Exp) -> Exp {
        Exp::iop(IOp::Div, a, b)
    }
    pub fn min(a: Exp, b: Exp) -> Exp {
        Exp::iop(IOp::Min, a, b)
    }

    pub fn cmp(op: CmpOp, t: PrimType, a: Exp, b: Exp) -> Exp {
        Exp::Cmp(op, t, Box::new(a), Box::new(b))
    }

    /// `a < b` on `i64`.
    pub fn lt(a: Exp, b: Exp) -> Exp {
        Exp::cmp(CmpOp::Lt, I64, a, b)
    }

    pub fn and(a: Exp, b: Exp) -> Exp {
        match (&a, &b) {
            (Exp::Const(Scalar::Bool(true)), _) => b,
            (_, Exp::Const(Scalar::Bool(true))) => a,
            _ => Exp::And(Box::new(a), Box::new(b)),
        }
    }

    pub fn negate(a: Exp) -> Exp {
        Exp::Un(UnOp::Not, PrimType::Bool, Box::new(a))
    }

    pub fn read(mem: VName, elem: PrimType, index: Exp) -> Exp {
        Exp::Read {
            mem,
            elem,
            index: Box::new(index),
        }
    }

    /// Whether evaluating the expression twice costs nothing worth naming.
    pub fn is_atom(&self) -> bool {
        matches!(self, Exp::Var(_) | Exp::Const(_) | Exp::NumThreads)
    }
}

pub const I64: PrimType = PrimType::Int(IntType::I64);

impl From<VName> for Exp {
    fn from(v: VName) -> Exp {
        Exp::Var(v)
    }
}

/// An argument of an error message: a value printed by `%` formats.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorArg {
    pub exp: Exp,
    pub ty: PrimType,
}

/// Imperative code.
#[derive(Clone, Debug, PartialEq)]
pub enum Code {
    /// A nested C block: its scalar declarations are local to it.
    Block(Vec<Code>),
    /// Declares a scalar variable without a value (assigned later, e.g.
    /// in both branches of an `if`).
    Decl { var: VName, ty: PrimType },
    /// Declares a scalar variable with its value.
    Let { var: VName, ty: PrimType, exp: Exp },
    /// Assigns a declared scalar variable.
    Assign { var: VName, exp: Exp },
    /// Declares a memory variable at the top of the enclosing scope (its
    /// value is released when the scope ends).
    DeclMem(VName),
    /// Makes `mem` a uniquely owned block of at least `elems` elements of
    /// `elem` (reusing its block when it is unique and large enough).
    Alloc {
        mem: VName,
        elem: PrimType,
        elems: Exp,
        span: usize,
    },
    /// `dst` refers to `src`'s block too (counted).
    SetMem { dst: VName, src: VName },
    /// `dst` refers to `src`'s block without counting (inside a thread,
    /// for blocks owned outside it).
    Borrow { dst: VName, src: VName },
    /// `dst` takes over `src`'s reference; `src` becomes empty.
    MoveMem { dst: VName, src: VName },
    /// Drops the reference (frees the block when it was the last).
    Unref(VName),
    /// Element `index` of `mem` := `value`.
    Write {
        mem: VName,
        elem: PrimType,
        index: Exp,
        value: Exp,
    },
    /// `elems` elements from `src[src_off..]` to `dst[dst_off..]`.
    Memcpy {
        dst: VName,
        dst_off: Exp,
        src: VName,
        src_off: Exp,
        elem: PrimType,
        elems: Exp,
    },
    /// `for (i = 0; i < bound; i++)`.
    For {
        i: VName,
        it: IntType,
        bound: Exp,
        body: Vec<Code>,
    },
    /// Runs `body` while the boolean variable `cond` is true.
    While { cond: VName, body: Vec<Code> },
    If {
        cond: Exp,
        then_br: Vec<Code>,
        else_br: Vec<Code>,
    },
    /// Iterations `i < bound` run in parallel, in contiguous blocks of
    /// iterations per thread, each thread a scope of its own: memory
    /// declared in `body` is per thread. An error in an iteration stops
    /// the later ones and is reported after the loop.
    ParFor {
        i: VName,
        bound: Exp,
        body: Vec<Code>,
    },
    /// `mem[index] = op(mem[index], value)` atomically; `op` is `add` on
    /// numbers. General operators use [`Code::Cas`].
    AtomicAdd {
        mem: VName,
        elem: PrimType,
        index: Exp,
        value: Exp,
    },
    /// A compare-and-swap loop: `old` is bound to the current element,
    /// `body` computes `new` from it, and the loop repeats until the
    /// element was still `old` when `new` was stored.
    Cas {
        mem: VName,
        elem: PrimType,
        index: Exp,
        old: VName,
        new: VName,
        body: Vec<Code>,
    },
    /// A matrix multiplication (boxed: the largest instruction).
    Gemm(Box<Gemm>),
    /// Runs `body` under one global lock (updates of several arrays at
    /// once).
    Critical(Vec<Code>),
    /// Fails with `message` (`{}` replaced by the arguments in order) at
    /// span `span` (an index into [`Program::spans`]) and leaves the scope.
    Error {
        span: Option<usize>,
        message: String,
        args: Vec<ErrorArg>,
    },
    /// Reads argument `k` of the entry point: scalars into `var`; arrays
    /// into `mem`, which borrows the caller's data (never written: it is
    /// not unique, so an update copies it first), and their shape into
    /// `shape`.
    Input {
        k: usize,
        elem: PrimType,
        var: Option<VName>,
        mem: Option<VName>,
        shape: Vec<VName>,
    },
    /// Calls internal function `fun` ([`Program::internal`]); on failure
    /// leaves the scope. Scalar results are declared here; array results
    /// go to memory variables of this scope, as counted references.
    Call {
        fun: usize,
        args: Vec<CallArg>,
        results: Vec<CallRes>,
    },
    /// The results of an internal function (its last instruction).
    Return(Vec<RetVal>),
    /// An operation of host code on device memory (GPU backends).
    Device(Box<DeviceOp>),
    /// Result `k` of the entry point: a scalar, or `shape`'s elements read
    /// contiguously from `mem` (copied out).
    Output {
        k: usize,
        elem: PrimType,
        value: Option<Exp>,
        mem: Option<VName>,
        /// Of the first element in `mem`.
        offset: Exp,
        shape: Vec<Exp>,
    },
}

/// What host code does with device memory, in the programs of the GPU
/// backends (`parad_gpu`): every block of such a function lives on the
/// device, and host code touches it only through these operations.
#[derive(Clone, Debug, PartialEq)]
pub enum DeviceOp {
    /// [`Code::Alloc`] on the device (failing at `span` when out of
    /// memory).
    Alloc {
        mem: VName,
        elem: PrimType,
        elems: Exp,
        span: Option<usize>,
    },
    /// [`Code::Write`] of one element from the host.
    Write {
        mem: VName,
        elem: PrimType,
        index: Exp,
        value: Exp,
    },
    /// [`Code::Memcpy`] between device blocks.
    Copy {
        dst: VName,
        dst_off: Exp,
        src: VName,
        src_off: Exp,
        elem: PrimType,
        elems: Exp,
    },
    /// [`Code::Input`] of an array: its elements copied to a new device
    /// block `mem`.
    Input {
        k: usize,
        elem: PrimType,
        mem: VName,
        shape: Vec<VName>,
    },
    /// [`Code::Output`] of an array: its elements copied from the device.
    Output {
        k: usize,
        elem: PrimType,
        mem: VName,
        offset: Exp,
        shape: Vec<Exp>,
    },
    /// Runs kernel `kernel` ([`Program::kernels`]) over the iterations
    /// `i < bound`, with the host's values of its parameters.
    Launch { kernel: usize, bound: Exp },
}

/// A kernel: the body of a parallel loop, run by one device thread per
/// iteration. Its parameters are the scalars and device blocks free in
/// it, passed by the [`DeviceOp::Launch`].
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    /// The iteration variable (`i64`).
    pub i: VName,
    pub scalars: Vec<(VName, PrimType)>,
    pub mems: Vec<VName>,
    pub body: Vec<Code>,
    /// Where the body's allocations come from, when it has any.
    pub arena: Option<Arena>,
}

/// The memory of a kernel whose body allocates. The kernel never
/// allocates itself: the host gives it one block, `mem`, cut into a
/// share of `per_thread` bytes per thread, and launches at most as many
/// threads as the block has shares; each thread runs the iterations `i`,
/// `i + threads`, … below `bound`, and takes the body's allocations from
/// its share (all three are parameters of the kernel among
/// [`Kernel::scalars`] and [`Kernel::mems`]). A body that needs more
/// than its share fails with the kernel's last error site.
#[derive(Clone, Debug, PartialEq)]
pub struct Arena {
    pub mem: VName,
    pub per_thread: VName,
    pub bound: VName,
}

/// The message of the error of a kernel whose thread outgrows its share
/// of the arena (its argument: the share, in bytes).
pub const ARENA_EXHAUSTED: &str =
    "Out of memory on the GPU: a thread of a parallel loop needs more than its share ({} bytes)";

/// An error site of a kernel: where it fails, its message and the types
/// of its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorSite {
    pub span: Option<usize>,
    pub message: String,
    pub args: Vec<PrimType>,
}

impl Kernel {
    /// The [`Code::Error`]s of the body in the order they are written
    /// (nested code in place, `then` before `else`): a kernel reports a
    /// failure by its site's index in this list.
    pub fn error_sites(&self) -> Vec<ErrorSite> {
        fn walk(code: &[Code], out: &mut Vec<ErrorSite>) {
            for c in code {
                match c {
                    Code::Error {
                        span,
                        message,
                        args,
                    } => out.push(ErrorSite {
                        span: *span,
                        message: message.clone(),
                        args: args.iter().map(|a| a.ty).collect(),
                    }),
                    Code::Block(b)
                    | Code::For { body: b, .. }
                    | Code::While { body: b, .. }
                    | Code::Cas { body: b, .. }
                    | Code::ParFor { body: b, .. }
                    | Code::Critical(b) => walk(b, out),
                    Code::If {
                        then_br, else_br, ..
                    } => {
                        walk(then_br, out);
                        walk(else_br, out);
                    }
                    _ => {}
                }
            }
        }
        let mut out = vec![];
        walk(&self.body, &mut out);
        if self.arena.is_some() {
            out.push(ErrorSite {
                span: None,
                message: ARENA_EXHAUSTED.to_string(),
                args: vec![PrimType::Int(parad_base::IntType::I64)],
            });
        }
        out
    }
}

/// `c[i][j] = Σ_p a[i][p]·b[p][j]` for `i < m`, `j < n`, `p < k` (see
/// `lower::tile`): the runtime's blocked kernel, which regroups the sums
/// and may fuse multiply-adds. `pack` is a memory variable of the scope
/// that the kernel (re)allocates as its packing buffer (failing at
/// `span` when out of memory).
#[derive(Clone, Debug, PartialEq)]
pub struct Gemm {
    pub elem: PrimType,
    pub m: Exp,
    pub n: Exp,
    pub k: Exp,
    pub a: Mat,
    pub b: Mat,
    pub c: Mat,
    pub pack: VName,
    pub span: usize,
}

/// A matrix operand of [`Gemm`]: element `(i, j)` is at
/// `offset + i·rows + j·cols` in `mem`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mat {
    pub mem: VName,
    pub offset: Exp,
    pub rows: Exp,
    pub cols: Exp,
}

/// One entry point: a C function called through the library's ABI.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub entry: EntryPoint,
    pub body: Vec<Code>,
    /// The tuning parameters (indices into [`Program::tuning`]) that the
    /// entry point reads, directly or in the functions it calls.
    pub tuning: Vec<usize>,
}

/// An argument of [`Code::Call`]: a scalar, or a contiguous (row-major)
/// array passed as its block, borrowed by the callee.
#[derive(Clone, Debug, PartialEq)]
pub enum CallArg {
    Scalar(Exp),
    Array {
        mem: VName,
        offset: Exp,
        shape: Vec<Exp>,
    },
}

/// A result of [`Code::Call`]: a scalar variable, or an array's memory
/// variable, offset and shape variables.
#[derive(Clone, Debug, PartialEq)]
pub enum CallRes {
    Scalar {
        var: VName,
        ty: PrimType,
    },
    Array {
        mem: VName,
        offset: VName,
        shape: Vec<VName>,
    },
}

/// A parameter of an internal function: a scalar variable, or an
/// array's block (`arg`, copied into the memory variable `mem` as a
/// borrowed reference), offset and shape.
#[derive(Clone, Debug, PartialEq)]
pub enum FunParam {
    Scalar {
        var: VName,
        ty: PrimType,
    },
    Array {
        arg: VName,
        mem: VName,
        offset: VName,
        shape: Vec<VName>,
    },
}

/// A value of [`Code::Return`]: a scalar, or a contiguous array, handed
/// to the caller as a counted reference (copied when the function does
/// not own its block, as for a parameter returned as it is).
#[derive(Clone, Debug, PartialEq)]
pub enum RetVal {
    Scalar(Exp),
    Array {
        mem: VName,
        elem: PrimType,
        offset: Exp,
        shape: Vec<Exp>,
    },
}

/// A function called by [`Code::Call`] (a recursive source function):
/// errors make it return non-zero.
#[derive(Clone, Debug, PartialEq)]
pub struct Internal {
    /// The core function's name (for comments).
    pub name: String,
    pub params: Vec<FunParam>,
    /// The element type of each result.
    pub results: Vec<(PrimType, usize)>,
    pub body: Vec<Code>,
    /// Where it is defined (an index into [`Program::spans`]), for the
    /// error of a recursion too deep for the stack.
    pub span: usize,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub funs: Vec<Function>,
    /// Functions that entry points (and each other) call, by index.
    pub internal: Vec<Internal>,
    /// Source locations of errors; [`Code::Error`] refers to them by index.
    pub spans: Vec<Span>,
    /// The names of the tuning parameters ([`Exp::UserParam`]), each once.
    pub tuning: Vec<String>,
    /// The kernels that [`DeviceOp::Launch`] runs (GPU backends only).
    pub kernels: Vec<Kernel>,
    /// Names for passes over the program, clashing with none of its own.
    pub names: parad_core::NameSource,
}
