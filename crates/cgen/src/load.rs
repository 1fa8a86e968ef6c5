//! Loading a generated library and calling its entry points with
//! [`Value`]s.
//!
//! Every generated library exports this ABI (C):
//!
//! ```c
//! struct parad_value { void *data; int64_t *shape; };
//! int64_t parad_abi_version(void);                      /* 1 */
//! struct parad_ctx *parad_ctx_new(int32_t nthreads);     /* NULL when out of memory */
//! void parad_ctx_free(struct parad_ctx *);
//! void parad_ctx_reset(struct parad_ctx *);             /* before each call */
//! int32_t parad_call(struct parad_ctx *, int64_t entry,
//!                    const struct parad_value *args, struct parad_value *results);
//! const char *parad_ctx_error(struct parad_ctx *);
//! int64_t parad_ctx_error_span(struct parad_ctx *);     /* index into spans, or -1 */
//! void parad_free(void *);
//! ```
//!
//! `data` holds the elements contiguously in row-major order: integers
//! as C integers, `f16` as IEEE binary16 bits, `f32`/`f64`, `bool` as one
//! byte 0 or 1. `shape` holds rank entries (NULL for scalars, whose `data`
//! points to one element). Arguments stay owned by the caller (the library
//! copies what it keeps); on success the results' `data` and `shape` are
//! allocated by the library and freed here with `parad_free`; on failure
//! there is nothing to free.
//!
//! All `unsafe` code of the crate's loading is in this file.

use crate::build::Built;
use crate::emit::CProgram;
use half::f16;
use parad_base::{FloatType, IntType, PrimType, Span};
use parad_core::{EntryPoint, EntryType};
use parad_values::{with_array_data, ArrayData, ArrayValue, Value};
use std::ffi::{c_char, c_void, CStr};
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

/// The version of the ABI above that this loader speaks.
pub const ABI_VERSION: i64 = 1;

/// `struct parad_value`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawValue {
    data: *mut c_void,
    shape: *mut i64,
}

impl RawValue {
    const NULL: RawValue = RawValue {
        data: std::ptr::null_mut(),
        shape: std::ptr::null_mut(),
    };
}

type AbiVersionFn = unsafe extern "C" fn() -> i64;
type CtxNewFn = unsafe extern "C" fn(i32) -> *mut c_void;
type CtxFn = unsafe extern "C" fn(*mut c_void);
type CallFn = unsafe extern "C" fn(*mut c_void, i64, *const RawValue, *mut RawValue) -> i32;
type CtxErrorFn = unsafe extern "C" fn(*mut c_void) -> *const c_char;
type CtxErrorSpanFn = unsafe extern "C" fn(*mut c_void) -> i64;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type MemPeakFn = unsafe extern "C" fn() -> i64;
type MemResetFn = unsafe extern "C" fn();

/// The library's functions, copied out of their symbols: valid as long as
/// the `libloading::Library` they came from is loaded.
#[derive(Clone, Copy)]
struct Functions {
    ctx_free: CtxFn,
    ctx_reset: CtxFn,
    call: CallFn,
    ctx_error: CtxErrorFn,
    ctx_error_span: CtxErrorSpanFn,
    free: FreeFn,
    /// Memory statistics, which libraries built by older runtimes lack.
    mem_peak: Option<(MemPeakFn, MemResetFn)>,
}

/// A loaded generated program with its context.
pub struct Library {
    /// From `parad_ctx_new`; freed in `Drop`.
    ctx: NonNull<c_void>,
    functions: Functions,
    entries: Vec<EntryPoint>,
    spans: Vec<Span>,
    path: PathBuf,
    /// Keeps the code of `functions` loaded; dropped after `ctx` is freed
    /// (`Drop::drop` runs before the fields are dropped).
    _library: libloading::Library,
}

impl fmt::Debug for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Library")
            .field("path", &self.path)
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

/// Why a library could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot load {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for LoadError {}

/// A failed call: the message, and where in the source (`None`: no
/// location, e.g. wrong arguments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    pub message: String,
    pub span: Option<Span>,
}

impl CallError {
    fn nowhere(message: impl Into<String>) -> CallError {
        CallError {
            message: message.into(),
            span: None,
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CallError {}

/// Loads the library `built` made of `program` (see [`Library::open`]).
pub fn load(program: &CProgram, built: &Built, threads: usize) -> Result<Library, LoadError> {
    Library::open(
        &built.library,
        program.entries.clone(),
        program.spans.clone(),
        threads,
    )
}

/// Keeps freed arrays of up to 32 MiB in the process's heap for the next
/// call. By default glibc maps every block over 128 KiB afresh and gives it
/// back to the kernel when it is freed, so each call of an entry point
/// pays a page fault per 4 KiB of every array it makes and of every result
/// copied out, which on entry points that mostly move arrays can cost more
/// than their arithmetic (a 4M-element scan took 25 ms without this and
/// 5.5 ms with it in one measurement). Set once for the whole process, when
/// the first library is loaded.
fn keep_freed_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: mallopt only changes the thresholds of glibc's allocator;
        // it is called once, before this process runs generated code.
        ONCE.call_once(|| unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        });
    }
}

impl Library {
    /// Loads the shared library at `path`, checks its ABI version and
    /// makes its context with `threads` threads. `entries` and `spans`
    /// are those of the [`CProgram`] it was compiled from.
    pub fn open(
        path: &Path,
        entries: Vec<EntryPoint>,
        spans: Vec<Span>,
        threads: usize,
    ) -> Result<Library, LoadError> {
        keep_freed_blocks();
        let err = |message: String| LoadError {
            path: path.to_path_buf(),
            message,
        };
        // SAFETY: loading runs the library's initialisers. Generated
        // libraries have none of their own beyond the C runtime's, which
        // are safe to run at any time.
        // The library is never unloaded (RTLD_NODELETE): the code of a
        // generated program must stay mapped as long as anything may
        // still run it (its pool's workers are joined when the context
        // is freed, but libraries built by older runtimes used OpenMP,
        // whose worker threads outlive any one program).
        let library: libloading::Library = unsafe {
            libloading::os::unix::Library::open(
                Some(path),
                libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL | RTLD_NODELETE,
            )
        }
        .map_err(|e| err(e.to_string()))?
        .into();
        // SAFETY (every `symbol` call): the types are those of the ABI in
        // the module's documentation, which every generated library
        // exports; the pointers are used only while `library` is loaded.
        macro_rules! symbol {
            ($name:literal, $ty:ty) => {
                *unsafe { library.get::<$ty>($name) }
                    .map_err(|e| err(format!("no symbol {}: {e}", $name)))?
            };
        }
        let abi_version = symbol!("parad_abi_version", AbiVersionFn);
        // SAFETY: takes nothing, returns a number.
        let version = unsafe { abi_version() };
        if version != ABI_VERSION {
            return Err(err(format!(
                "ABI version {version}, but this parad expects {ABI_VERSION}"
            )));
        }
        let ctx_new = symbol!("parad_ctx_new", CtxNewFn);
        let functions = Functions {
            ctx_free: symbol!("parad_ctx_free", CtxFn),
            ctx_reset: symbol!("parad_ctx_reset", CtxFn),
            call: symbol!("parad_call", CallFn),
            ctx_error: symbol!("parad_ctx_error", CtxErrorFn),
            ctx_error_span: symbol!("parad_ctx_error_span", CtxErrorSpanFn),
            free: symbol!("parad_free", FreeFn),
            // SAFETY: as for `symbol!`.
            mem_peak: unsafe {
                library
                    .get::<MemPeakFn>(b"parad_mem_peak")
                    .and_then(|p| Ok((*p, *library.get::<MemResetFn>(b"parad_mem_reset_peak")?)))
            }
            .ok(),
        };
        let nthreads = i32::try_from(threads.max(1)).unwrap_or(i32::MAX);
        // SAFETY: any positive thread count is allowed; the result is NULL
        // or a context owned by us until `parad_ctx_free`.
        let ctx = NonNull::new(unsafe { ctx_new(nthreads) })
            .ok_or_else(|| err("out of memory making its context".into()))?;
        Ok(Library {
            ctx,
            functions,
            entries,
            spans,
            path: path.to_path_buf(),
            _library: library,
        })
    }

    /// The entry points, in the order of their numbers.
    pub fn entries(&self) -> &[EntryPoint] {
        &self.entries
    }

    /// The number of the entry point called `name`.
    pub fn entry_index(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.name == name)
    }

    /// The most bytes of arrays the library held at once since
    /// [`Library::reset_peak_memory`] (or loading), if it counts them.
    pub fn peak_memory(&self) -> Option<u64> {
        // SAFETY: takes nothing, reads a counter.
        let (peak, _) = self.functions.mem_peak?;
        Some(unsafe { peak() }.max(0) as u64)
    }

    /// Starts [`Library::peak_memory`] again from what is held now.
    pub fn reset_peak_memory(&self) {
        if let Some((_, reset)) = self.functions.mem_peak {
            // SAFETY: takes nothing, writes a counter.
            unsafe { reset() }
        }
    }

    /// The file loaded.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Calls entry point number `entry` after checking the arguments
    /// against its parameters (with the interpreter's messages); the
    /// results are in the order of the entry's results.
    pub fn call(&mut self, entry: usize, args: &[Value]) -> Result<Vec<Value>, CallError> {
        let e = self
            .entries
            .get(entry)
            .ok_or_else(|| CallError::nowhere(format!("no entry point number {entry}")))?;
        check_args(e, args)?;

        // Storage the raw arguments point into, alive until the call
        // returns: shapes, and one-element buffers for scalars (a Vec's
        // buffer does not move when the Vec holding it grows).
        let mut shapes: Vec<Vec<i64>> = Vec::with_capacity(args.len());
        let mut scalars: Vec<ArrayData> = vec![];
        let mut raw_args = Vec::with_capacity(args.len());
        for a in args {
            let data = match a {
                Value::Scalar(s) => {
                    let mut d = ArrayData::empty(s.prim_type());
                    d.push(*s);
                    scalars.push(d);
                    data_ptr(scalars.last().expect("just pushed"))
                }
                Value::Array(a) => data_ptr(&a.data),
            };
            let shape = if a.rank() == 0 {
                std::ptr::null_mut()
            } else {
                shapes.push(a.shape().iter().map(|&d| d as i64).collect());
                shapes.last_mut().expect("just pushed").as_mut_ptr()
            };
            raw_args.push(RawValue { data, shape });
        }
        let mut raw_results = vec![RawValue::NULL; e.results.len()];

        let f = self.functions;
        let ctx = self.ctx.as_ptr();
        // SAFETY: `ctx` is our live context; `raw_args` has one value per
        // parameter, checked above to have the parameter's element type
        // and rank, each pointing to `shape`'s product of elements (an
        // ArrayValue's invariant) encoded as the ABI says (`bool` is one
        // byte 0/1, `f16` is its bits); the library only reads them.
        // `raw_results` has room for one value per result.
        let status = unsafe {
            (f.ctx_reset)(ctx);
            (f.call)(
                ctx,
                entry as i64,
                raw_args.as_ptr(),
                raw_results.as_mut_ptr(),
            )
        };
        drop((shapes, scalars));
        if status != 0 {
            // SAFETY: after a failure the context holds a message (a C
            // string it owns, or NULL) and a span id.
            let (message, span_id) = unsafe {
                let m = (f.ctx_error)(ctx);
                let m = if m.is_null() {
                    "the program failed".to_string()
                } else {
                    CStr::from_ptr(m).to_string_lossy().into_owned()
                };
                (m, (f.ctx_error_span)(ctx))
            };
            let span = usize::try_from(span_id)
                .ok()
                .and_then(|i| self.spans.get(i).copied());
            return Err(CallError { message, span });
        }
        let results = e
            .results
            .iter()
            .zip(&raw_results)
            .enumerate()
            // SAFETY: after a success each result holds what the ABI says
            // for the declared type: `shape` with rank entries and `data`
            // with their product of elements.
            .map(|(i, (t, r))| unsafe { read_result(i, t, r) })
            .collect();
        for r in &raw_results {
            // SAFETY: allocated by the library for us after a success,
            // freed once; NULL is allowed by parad_free as by free.
            unsafe {
                (f.free)(r.data);
                (f.free)(r.shape.cast());
            }
        }
        results
    }
}

/// glibc's flag that keeps a library mapped after `dlclose`.
const RTLD_NODELETE: std::os::raw::c_int = 0x1000;

impl Drop for Library {
    fn drop(&mut self) {
        // SAFETY: the context came from parad_ctx_new of this library,
        // which is still loaded, and is freed once.
        unsafe { (self.functions.ctx_free)(self.ctx.as_ptr()) }
    }
}

fn entry_type_str(t: &EntryType) -> String {
    format!("{}{}", "[]".repeat(t.rank), t.elem)
}

/// The interpreter's checks of an entry point's arguments, with its
/// messages.
fn check_args(e: &EntryPoint, args: &[Value]) -> Result<(), CallError> {
    let entry = &e.name;
    if args.len() != e.params.len() {
        return Err(CallError::nowhere(format!(
            "entry point {entry} expects {} arguments but got {}",
            e.params.len(),
            args.len()
        )));
    }
    for (i, (a, t)) in args.iter().zip(&e.params).enumerate() {
        if a.elem_type() != t.elem || a.rank() != t.rank {
            return Err(CallError::nowhere(format!(
                "argument {} of entry point {entry} has type {} but {} was expected",
                i + 1,
                a.type_name(),
                entry_type_str(t)
            )));
        }
    }
    Ok(())
}

/// The address of the first element (dangling but non-null when empty).
fn data_ptr(d: &ArrayData) -> *mut c_void {
    with_array_data!(d, v => v.as_ptr() as *mut c_void)
}

/// Result number `i` (0-based) converted to a value of type `t`.
///
/// # Safety
/// `r.shape` points to `t.rank` readable `i64`s (or anything when the
/// rank is 0), and `r.data` to their product of elements of `t.elem` as
/// the ABI encodes them.
unsafe fn read_result(i: usize, t: &EntryType, r: &RawValue) -> Result<Value, CallError> {
    let bad = |what: &str| CallError::nowhere(format!("result {} {what}", i + 1));
    let shape: Vec<usize> = if t.rank == 0 {
        vec![]
    } else {
        if r.shape.is_null() {
            return Err(bad("has no shape"));
        }
        // SAFETY: `t.rank` entries, by the contract.
        let dims = unsafe { std::slice::from_raw_parts(r.shape, t.rank) };
        dims.iter()
            .map(|&d| usize::try_from(d).map_err(|_| bad(&format!("has a negative size {d}"))))
            .collect::<Result<_, _>>()?
    };
    let n = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| bad("has too many elements"))?;
    if n > 0 && r.data.is_null() {
        return Err(bad("has no data"));
    }
    // SAFETY: `n` elements of the type, by the contract.
    let data = unsafe { read_data(t.elem, r.data, n) }.ok_or_else(|| {
        CallError::nowhere(format!(
            "Out of memory: cannot return result {} ({n} elements, {} bytes)",
            i + 1,
            n.saturating_mul(t.elem.size())
        ))
    })?;
    if t.rank == 0 {
        let s = data.get(0).ok_or_else(|| bad("is missing"))?;
        Ok(Value::Scalar(s))
    } else {
        Ok(Value::Array(ArrayValue { shape, data }))
    }
}

/// `n` elements of type `t` copied from `data`; `None` when there is not
/// enough memory for them (an error to report, not an abort).
///
/// # Safety
/// `data` points to `n` readable elements of `t` (any alignment), or
/// `n` is 0.
unsafe fn read_data(t: PrimType, data: *const c_void, n: usize) -> Option<ArrayData> {
    use FloatType as F;
    use IntType as I;
    // SAFETY (each arm): by the contract, and every bit pattern is a
    // valid value of the element type read (bool is read as u8).
    unsafe {
        Some(match t {
            PrimType::Int(I::I8) => ArrayData::I8(read_elems(data, n)?),
            PrimType::Int(I::I16) => ArrayData::I16(read_elems(data, n)?),
            PrimType::Int(I::I32) => ArrayData::I32(read_elems(data, n)?),
            PrimType::Int(I::I64) => ArrayData::I64(read_elems(data, n)?),
            PrimType::Int(I::U8) => ArrayData::U8(read_elems(data, n)?),
            PrimType::Int(I::U16) => ArrayData::U16(read_elems(data, n)?),
            PrimType::Int(I::U32) => ArrayData::U32(read_elems(data, n)?),
            PrimType::Int(I::U64) => ArrayData::U64(read_elems(data, n)?),
            PrimType::Float(F::F16) => ArrayData::F16(read_elems::<f16>(data, n)?),
            PrimType::Float(F::F32) => ArrayData::F32(read_elems(data, n)?),
            PrimType::Float(F::F64) => ArrayData::F64(read_elems(data, n)?),
            PrimType::Bool => {
                // Straight into the bools: no second copy as bytes.
                let mut v = Vec::new();
                v.try_reserve_exact(n).ok()?;
                if n > 0 {
                    // SAFETY: `n` readable bytes; u8 needs no alignment.
                    let bytes = std::slice::from_raw_parts(data.cast::<u8>(), n);
                    v.extend(bytes.iter().map(|&b| b != 0));
                }
                ArrayData::Bool(v)
            }
        })
    }
}

/// `None` when there is not enough memory for `n` values of `T`.
///
/// # Safety
/// `data` points to `n` readable values of `T` (any alignment), or `n`
/// is 0; every bit pattern of `T`'s size is a valid `T`.
unsafe fn read_elems<T: Copy>(data: *const c_void, n: usize) -> Option<Vec<T>> {
    let mut v = Vec::<T>::new();
    v.try_reserve_exact(n).ok()?;
    if n > 0 {
        // SAFETY: `v` has room for `n` values; the bytes copied make valid
        // values by the contract; a byte copy needs no alignment.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data.cast::<u8>(),
                v.as_mut_ptr().cast::<u8>(),
                n * std::mem::size_of::<T>(),
            );
            v.set_len(n);
        }
    }
    Some(v)
}
