//! The C backend (DESIGN §5): [`emit`] prints the imperative IR as C on
//! top of the runtime in `runtime/`, whose thread pool runs the parallel
//! loops (POSIX threads only); [`build`] compiles it into a cached shared
//! library; [`load`] calls its entry points.

pub mod api;
pub mod build;
pub mod emit;
pub mod load;

/// The C runtime every generated program starts with: scalar operators
/// with Futhark's semantics, the thread pool of parallel loops,
/// reference-counted memory blocks, errors, the matrix-multiply kernel.
pub const RUNTIME: &str = concat!(
    include_str!("runtime/prims.h"),
    include_str!("runtime/pool.h"),
    include_str!("runtime/device_abi.h"),
    include_str!("runtime/mem.h"),
    include_str!("runtime/device.h"),
    include_str!("runtime/gemm.h"),
);

pub use emit::CProgram;

/// The C declarations of the device table that the GPU backends' host
/// code calls (`struct parad_karg`, `struct parad_device`).
pub const DEVICE_ABI_H: &str = include_str!("runtime/device_abi.h");

/// Reading and writing values in Futhark's text and binary formats (for
/// executables, servers and store/restore).
pub const VALUES_H: &str = include_str!("runtime/values.h");

/// The fixed part of Futhark's C API (contexts, errors, objects).
pub const API_H: &str = include_str!("runtime/api.h");

/// What the `main` of an executable and of a server share: the command
/// line, the configuration and the context, failures.
pub const OPTIONS_H: &str = include_str!("runtime/options.h");

/// The `main` of a compiled executable.
pub const MAIN_H: &str = include_str!("runtime/main.h");

/// The `main` of a server.
pub const SERVER_H: &str = include_str!("runtime/server.h");
