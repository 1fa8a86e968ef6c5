//! The C backend (DESIGN §5): [`emit`] prints the imperative IR as C on
//! top of the runtime in `runtime/`, whose thread pool runs the parallel
//! loops (POSIX threads only); [`build`] compiles it into a cached shared
//! library; [`load`] calls its entry points.

pub mod build;
pub mod emit;
pub mod load;

/// The C runtime every generated program starts with: scalar operators
/// with Futhark's semantics, the thread pool of parallel loops,
/// reference-counted memory blocks, errors, the matrix-multiply kernel.
pub const RUNTIME: &str = concat!(
    include_str!("runtime/prims.h"),
    include_str!("runtime/pool.h"),
    include_str!("runtime/mem.h"),
    include_str!("runtime/gemm.h"),
);

pub use emit::CProgram;
