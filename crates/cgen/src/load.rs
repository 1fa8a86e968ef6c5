//! Loading a generated program and calling its entry points with
//! [`Value`]s, through the same C API that users of `parad c --library`
//! get (one code path: what the tests check is what ships).
//!
//! The shared library holds the program, the runtime and the generated C
//! API (`crate::api`), and exports, besides Futhark's `futhark_*`
//! functions, three of parad's own:
//!
//! ```c
//! const struct p_entry *parad_api_entries(int *n);   /* the entry table */
//! const char *parad_api_error(struct futhark_context *, int64_t *span);
//! int64_t parad_mem_peak(void); void parad_mem_reset_peak(void);
//! ```
//!
//! An entry point is called through its table entry (which calls
//! `futhark_entry_NAME`). Arguments come as the flat values of the entry
//! point's leaves: a primitive is passed as itself, an array of primitives
//! as a view of the caller's elements (`new_raw`: no copy), and any other
//! value is restored from the bytes of its leaves (the opaque byte format
//! of `runtime/api.h`). The result is read back the same ways: `values`,
//! or `store` and the leaves parsed from the bytes.
//!
//! All `unsafe` code of the crate's loading is in this file.

use crate::build::Built;
use crate::emit::CProgram;
use parad_base::{PrimType, Span};
use parad_types::api::{ApiEntry, ApiType};
use parad_values::{with_array_data, ArrayData, ArrayValue, Value};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

type Ctx = *mut c_void;

/// `struct p_type` of `runtime/api.h` (the fields the loader uses, in
/// order, up to the last one it reads).
#[repr(C)]
struct PType {
    name: *const c_char,
    kind: c_int,
    prim: c_int,
    rank: c_int,
    free: Option<unsafe extern "C" fn(Ctx, *mut c_void) -> c_int>,
    store: Option<unsafe extern "C" fn(Ctx, *const c_void, *mut *mut c_void, *mut usize) -> c_int>,
    restore: Option<unsafe extern "C" fn(Ctx, *const c_void) -> *mut c_void>,
    shape: Option<unsafe extern "C" fn(Ctx, *mut c_void) -> *const i64>,
    new_array: Option<unsafe extern "C" fn(Ctx, *const c_void, *const i64) -> *mut c_void>,
    values: Option<unsafe extern "C" fn(Ctx, *mut c_void, *mut c_void) -> c_int>,
    nfields: c_int,
    fields: *const c_void,
    new_record: *const c_void,
    nvariants: c_int,
    variants: *const c_void,
    variant: *const c_void,
    elem: *const PType,
    index: *const c_void,
    set: *const c_void,
    zip: *const c_void,
    new_raw: Option<unsafe extern "C" fn(Ctx, *const c_void, *const i64) -> *mut c_void>,
}

/// `struct p_entry` of `runtime/api.h` (every field: the table is an
/// array of them).
#[repr(C)]
struct PEntry {
    name: *const c_char,
    call: unsafe extern "C" fn(Ctx, *mut c_void, *const *const c_void) -> c_int,
    nin: c_int,
    in_types: *const *const PType,
    in_unique: *const c_int,
    out_type: *const PType,
    out_unique: c_int,
    nattrs: c_int,
    attrs: *const *const c_char,
    ntuning: c_int,
    tuning: *const *const c_char,
}

type EntriesFn = unsafe extern "C" fn(*mut c_int) -> *const PEntry;
type ErrorFn = unsafe extern "C" fn(Ctx, *mut i64) -> *const c_char;
type CfgNewFn = unsafe extern "C" fn() -> *mut c_void;
type CfgFreeFn = unsafe extern "C" fn(*mut c_void);
type CfgThreadsFn = unsafe extern "C" fn(*mut c_void, c_int);
type CfgTuningFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> c_int;
type TuningCountFn = unsafe extern "C" fn() -> c_int;
type TuningNameFn = unsafe extern "C" fn(c_int) -> *const c_char;
type CtxNewFn = unsafe extern "C" fn(*mut c_void) -> Ctx;
type CtxFreeFn = unsafe extern "C" fn(Ctx);
type GetErrorFn = unsafe extern "C" fn(Ctx) -> *mut c_char;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type MemPeakFn = unsafe extern "C" fn() -> i64;
type MemResetFn = unsafe extern "C" fn();

/// The library's functions, copied out of their symbols: valid as long as
/// the `libloading::Library` they came from is loaded.
#[derive(Clone, Copy)]
struct Functions {
    cfg_free: CfgFreeFn,
    ctx_free: CtxFreeFn,
    get_error: GetErrorFn,
    api_error: ErrorFn,
    free: FreeFn,
    /// Memory statistics.
    mem_peak: Option<(MemPeakFn, MemResetFn)>,
}

/// An entry point: its interface, and its table entry in the library.
struct Entry {
    name: String,
    api: ApiEntry,
    table: *const PEntry,
}

/// A loaded generated program with its context.
pub struct Library {
    cfg: NonNull<c_void>,
    ctx: NonNull<c_void>,
    functions: Functions,
    entries: Vec<Entry>,
    spans: Vec<Span>,
    path: PathBuf,
    /// Keeps the code of `functions` loaded; dropped after `ctx` is freed
    /// (`Drop::drop` runs before the fields are dropped).
    _library: libloading::Library,
}

// SAFETY: the context is used by one thread at a time (`call` takes
// `&mut self`), and the C API allows a context to move between threads;
// the table pointers point to constant data of the loaded library.
unsafe impl Send for Library {}

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

/// Loads the library `built` made of `program`, whose entry points have
/// the interfaces `api` (see [`Library::open`]).
pub fn load(
    program: &CProgram,
    api: &[(String, ApiEntry)],
    built: &Built,
    threads: usize,
    tuning: &[(String, i64)],
) -> Result<Library, LoadError> {
    Library::open(&built.library, api, program.spans.clone(), threads, tuning)
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

/// The text of a C string, if not NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
unsafe fn c_str(p: *const c_char) -> Option<String> {
    // SAFETY: as the caller promises.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// glibc's flag that keeps a library mapped after `dlclose`.
const RTLD_NODELETE: std::os::raw::c_int = 0x1000;

impl Library {
    /// Loads the shared library at `path`, makes its context with
    /// `threads` threads and finds the entry points of `api` in its
    /// table. `spans` are those of the [`CProgram`] it was compiled from.
    pub fn open(
        path: &Path,
        api: &[(String, ApiEntry)],
        spans: Vec<Span>,
        threads: usize,
        tuning: &[(String, i64)],
    ) -> Result<Library, LoadError> {
        keep_freed_blocks();
        let err = |message: String| LoadError {
            path: path.to_path_buf(),
            message,
        };
        // SAFETY: loading runs the library's initialisers; generated
        // libraries have none of their own. The library is never unloaded
        // (RTLD_NODELETE): worker threads of its runtime may outlive any
        // one program, and unloading their code under them crashes the
        // process at exit.
        let library: libloading::Library = unsafe {
            libloading::os::unix::Library::open(
                Some(path),
                libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL | RTLD_NODELETE,
            )
        }
        .map_err(|e| err(e.to_string()))?
        .into();
        // SAFETY (every `symbol` call): the types are those the runtime's
        // `api.h` and the generated API define; the pointers are used only
        // while `library` is loaded.
        macro_rules! symbol {
            ($name:literal, $ty:ty) => {
                *unsafe { library.get::<$ty>($name) }
                    .map_err(|e| err(format!("no symbol {}: {e}", $name)))?
            };
        }
        let cfg_new = symbol!("futhark_context_config_new", CfgNewFn);
        let set_threads = symbol!("futhark_context_config_set_num_threads", CfgThreadsFn);
        let set_tuning = symbol!("futhark_context_config_set_tuning_param", CfgTuningFn);
        let tuning_count = symbol!("futhark_get_tuning_param_count", TuningCountFn);
        let tuning_name = symbol!("futhark_get_tuning_param_name", TuningNameFn);
        let ctx_new = symbol!("futhark_context_new", CtxNewFn);
        let entries_fn = symbol!("parad_api_entries", EntriesFn);
        let functions = Functions {
            cfg_free: symbol!("futhark_context_config_free", CfgFreeFn),
            ctx_free: symbol!("futhark_context_free", CtxFreeFn),
            get_error: symbol!("futhark_context_get_error", GetErrorFn),
            api_error: symbol!("parad_api_error", ErrorFn),
            free: symbol!("parad_free", FreeFn),
            // SAFETY: as for `symbol!`.
            mem_peak: unsafe {
                library
                    .get::<MemPeakFn>(b"parad_mem_peak")
                    .and_then(|p| Ok((*p, *library.get::<MemResetFn>(b"parad_mem_reset_peak")?)))
            }
            .ok(),
        };
        // SAFETY: the API's configuration and context functions, used as
        // Futhark's C API documents them.
        let cfg = NonNull::new(unsafe { cfg_new() })
            .ok_or_else(|| err("out of memory making its configuration".into()))?;
        let nthreads = c_int::try_from(threads.max(1)).unwrap_or(c_int::MAX);
        for (name, value) in tuning {
            let unknown = match (
                std::ffi::CString::new(name.as_str()),
                usize::try_from(*value),
            ) {
                // SAFETY: a NUL-terminated name, read during the call only.
                (Ok(c), Ok(v)) => unsafe { set_tuning(cfg.as_ptr(), c.as_ptr(), v) != 0 },
                _ => true,
            };
            if unknown {
                // SAFETY: the names are static strings of the library.
                let known: Vec<String> = (0..unsafe { tuning_count() })
                    .filter_map(|i| unsafe { c_str(tuning_name(i)) })
                    .collect();
                // SAFETY: made above, freed once.
                unsafe { (functions.cfg_free)(cfg.as_ptr()) };
                return Err(err(format!(
                    "unknown tuning parameter {name} (the program has {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        let ctx = unsafe {
            set_threads(cfg.as_ptr(), nthreads);
            ctx_new(cfg.as_ptr())
        };
        let Some(ctx) = NonNull::new(ctx) else {
            // SAFETY: made above, freed once.
            unsafe { (functions.cfg_free)(cfg.as_ptr()) };
            return Err(err("out of memory making its context".into()));
        };
        let mut lib = Library {
            cfg,
            ctx,
            functions,
            entries: vec![],
            spans,
            path: path.to_path_buf(),
            _library: library,
        };
        // SAFETY: the context was just made: a message means it failed.
        if let Some(m) = unsafe { lib.take_error() } {
            return Err(err(format!("its context failed: {m}")));
        }
        // SAFETY: the table has `n` entries, constant while loaded.
        let table = unsafe {
            let mut n: c_int = 0;
            let t = entries_fn(&mut n);
            std::slice::from_raw_parts(t, usize::try_from(n).unwrap_or(0))
        };
        for e in table {
            // SAFETY: entry names are C strings of the table.
            let name = unsafe { CStr::from_ptr(e.name) }.to_string_lossy();
            if let Some((_, a)) = api.iter().find(|(n, _)| *n == name) {
                lib.entries.push(Entry {
                    name: name.into_owned(),
                    api: a.clone(),
                    table: e,
                });
            }
        }
        Ok(lib)
    }

    /// Gives the context the device its GPU entry points run on.
    ///
    /// # Safety
    /// `device` points to a `struct parad_device` (the runtime's
    /// `mem.h`) whose table and `self` stay valid until the library is
    /// dropped.
    pub unsafe fn set_device(&mut self, device: *const c_void) -> Result<(), LoadError> {
        type SetDeviceFn = unsafe extern "C" fn(*mut c_void, *const c_void);
        // SAFETY: the API's function of that type (api.h), called with
        // the live context and, by the caller's contract, a valid table.
        unsafe {
            let f = self
                ._library
                .get::<SetDeviceFn>(b"parad_context_set_device")
                .map_err(|e| LoadError {
                    path: self.path.clone(),
                    message: format!("no symbol parad_context_set_device: {e}"),
                })?;
            f(self.ctx.as_ptr(), device);
        }
        Ok(())
    }

    /// The entry points' names, in the order of their numbers.
    pub fn entry_names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
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

    /// The context's error message, if any (taken from it).
    ///
    /// # Safety
    /// The context is live.
    unsafe fn take_error(&self) -> Option<String> {
        // SAFETY: a malloc'd string or NULL, which we free.
        unsafe {
            let m = (self.functions.get_error)(self.ctx.as_ptr());
            if m.is_null() {
                return None;
            }
            let s = CStr::from_ptr(m).to_string_lossy().into_owned();
            (self.functions.free)(m.cast());
            Some(s)
        }
    }

    /// The failure after an API call returned non-zero: the program's own
    /// message and location where an entry point failed, else the API's
    /// message.
    fn failure(&self) -> CallError {
        let mut span_id: i64 = -1;
        // SAFETY: the context is live; the raw message is owned by it and
        // copied before the next call.
        let raw = unsafe {
            let m = (self.functions.api_error)(self.ctx.as_ptr(), &mut span_id);
            (!m.is_null()).then(|| CStr::from_ptr(m).to_string_lossy().into_owned())
        };
        // SAFETY: live context.
        let text = unsafe { self.take_error() };
        match raw {
            Some(message) => CallError {
                message,
                span: usize::try_from(span_id)
                    .ok()
                    .and_then(|i| self.spans.get(i).copied()),
            },
            None => CallError::nowhere(text.unwrap_or_else(|| "the program failed".into())),
        }
    }

    /// Calls entry point number `entry` after checking the arguments
    /// (the leaves of its parameters, in order) against its parameters,
    /// with the interpreter's messages; the results are the leaves of its
    /// result.
    pub fn call(&mut self, entry: usize, args: &[Value]) -> Result<Vec<Value>, CallError> {
        let e = self
            .entries
            .get(entry)
            .ok_or_else(|| CallError::nowhere(format!("no entry point number {entry}")))?;
        check_args(&e.name, &e.api, args)?;
        let table = e.table;
        let api = e.api.clone();
        // SAFETY: the table entry of a loaded library.
        let te = unsafe { &*table };
        let mut inputs = Inputs {
            lib: self,
            made: vec![],
        };
        let mut scalars: Vec<u64> = vec![0; api.params.len()];
        let mut shapes: Vec<Vec<i64>> = vec![];
        let mut ptrs: Vec<*const c_void> = Vec::with_capacity(api.params.len());
        let mut at = 0;
        for (i, p) in api.params.iter().enumerate() {
            let n = p.ty.leaves().len();
            let leaves = &args[at..at + n];
            at += n;
            // SAFETY: the parameter's table type, of the loaded library.
            let ty = unsafe { &**te.in_types.add(i) };
            let ptr: *const c_void = match (&p.ty, leaves) {
                (ApiType::Prim(_), [Value::Scalar(s)]) => {
                    scalars[i] = scalar_bits(*s);
                    (&scalars[i] as *const u64).cast()
                }
                (ApiType::Array(..), [Value::Array(a)]) => {
                    shapes.push(a.shape.iter().map(|&d| d as i64).collect());
                    let shape = shapes.last().expect("just pushed").as_ptr();
                    let new_raw = ty.new_raw.expect("arrays have new_raw");
                    // SAFETY: a view of the caller's elements, alive until
                    // the call returns; freed below before `args` may go.
                    let o = unsafe { new_raw(inputs.lib.ctx.as_ptr(), data_ptr(&a.data), shape) };
                    inputs.keep(o, ty)?
                }
                _ => {
                    let bytes = opaque_bytes(&p.ty, leaves);
                    let restore = ty.restore.expect("opaque types have restore");
                    // SAFETY: bytes in the opaque format of this type.
                    let o = unsafe { restore(inputs.lib.ctx.as_ptr(), bytes.as_ptr().cast()) };
                    inputs.keep(o, ty)?
                }
            };
            ptrs.push(ptr);
        }
        let mut out_scalar: u64 = 0;
        let mut out_obj: *mut c_void = std::ptr::null_mut();
        let out: *mut c_void = match api.result {
            ApiType::Prim(_) => (&mut out_scalar as *mut u64).cast(),
            _ => (&mut out_obj as *mut *mut c_void).cast(),
        };
        // SAFETY: the entry's generic function with one input per
        // parameter (a scalar's room or an object of its type) and room
        // for the output.
        let status = unsafe { (te.call)(inputs.lib.ctx.as_ptr(), out, ptrs.as_ptr()) };
        drop(inputs);
        drop((scalars, shapes));
        if status != 0 {
            return Err(self.failure());
        }
        // SAFETY: the output type of the entry's table entry.
        let oty = unsafe { &*te.out_type };
        let results = match &api.result {
            ApiType::Prim(p) => Ok(vec![Value::Scalar(scalar_of(*p, out_scalar))]),
            // SAFETY: `out_obj` is an object of type `oty` we own.
            ApiType::Array(p, r) => {
                unsafe { self.read_array(oty, out_obj, *p, *r) }.map(|v| vec![v])
            }
            t => unsafe { self.read_opaque(oty, out_obj, t) },
        };
        // SAFETY: ours, freed once.
        unsafe {
            if let Some(free) = oty.free {
                free(self.ctx.as_ptr(), out_obj);
            }
        }
        results
    }

    /// An array object's value.
    ///
    /// # Safety
    /// `o` is a live object of the array type `ty`.
    unsafe fn read_array(
        &self,
        ty: &PType,
        o: *mut c_void,
        p: PrimType,
        r: usize,
    ) -> Result<Value, CallError> {
        // SAFETY: by the contract; the shape has `r` entries.
        let shape: Vec<usize> = unsafe {
            let s = (ty.shape.expect("arrays have shape"))(self.ctx.as_ptr(), o);
            std::slice::from_raw_parts(s, r)
                .iter()
                .map(|&d| d.max(0) as usize)
                .collect()
        };
        let n = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .unwrap_or(usize::MAX);
        let mut data = ArrayData::try_with_capacity(p, n).map_err(|_| {
            CallError::nowhere(format!(
                "Out of memory: cannot return the result ({n} elements, {} bytes)",
                n.saturating_mul(p.size())
            ))
        })?;
        with_array_data!(&mut data, v => v.resize(n, Default::default()));
        // SAFETY: room for the `n` elements `values` writes.
        let status = unsafe {
            (ty.values.expect("arrays have values"))(self.ctx.as_ptr(), o, data_ptr(&data))
        };
        if status != 0 {
            return Err(self.failure());
        }
        Ok(Value::Array(ArrayValue { shape, data }))
    }

    /// The leaves of an opaque object, from its stored bytes.
    ///
    /// # Safety
    /// `o` is a live object of the opaque type `ty`.
    unsafe fn read_opaque(
        &self,
        ty: &PType,
        o: *mut c_void,
        t: &ApiType,
    ) -> Result<Vec<Value>, CallError> {
        let mut p: *mut c_void = std::ptr::null_mut();
        let mut n: usize = 0;
        // SAFETY: store allocates the bytes, which we free.
        let bytes = unsafe {
            if (ty.store.expect("opaques have store"))(self.ctx.as_ptr(), o, &mut p, &mut n) != 0 {
                return Err(self.failure());
            }
            let b = std::slice::from_raw_parts(p.cast::<u8>(), n).to_vec();
            (self.functions.free)(p);
            b
        };
        let values = parad_values::read_values(bytes.get(OPAQUE_HEADER..).unwrap_or(&[]))
            .map_err(|e| CallError::nowhere(format!("cannot read the result: {e}")))?;
        if values.len() != t.leaves().len() {
            return Err(CallError::nowhere(
                "the result has the wrong number of parts",
            ));
        }
        Ok(values)
    }
}

/// Inputs made for a call, freed when it ends.
struct Inputs<'a> {
    lib: &'a Library,
    made: Vec<(*mut c_void, &'a PType)>,
}

impl<'a> Inputs<'a> {
    /// Keeps `o` to free it later; a NULL is the API's failure.
    fn keep(&mut self, o: *mut c_void, ty: &'a PType) -> Result<*const c_void, CallError> {
        if o.is_null() {
            return Err(self.lib.failure());
        }
        self.made.push((o, ty));
        Ok(o)
    }
}

impl Drop for Inputs<'_> {
    fn drop(&mut self) {
        for (o, ty) in self.made.drain(..) {
            if let Some(free) = ty.free {
                // SAFETY: made by this call's API functions, freed once.
                unsafe { free(self.lib.ctx.as_ptr(), o) };
            }
        }
    }
}

impl Drop for Library {
    fn drop(&mut self) {
        // SAFETY: made by this library, which is still loaded; freed once,
        // the context before its configuration.
        unsafe {
            (self.functions.ctx_free)(self.ctx.as_ptr());
            (self.functions.cfg_free)(self.cfg.as_ptr());
        }
    }
}

/// The header of the opaque byte format (`runtime/api.h`).
const OPAQUE_HEADER: usize = 32;

/// The FNV-1a hash of a type name that the opaque byte format carries.
fn type_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// A value of the opaque type `t` from its leaves, in the opaque byte format.
fn opaque_bytes(t: &ApiType, leaves: &[Value]) -> Vec<u8> {
    let mut b = vec![0u8; OPAQUE_HEADER];
    for v in leaves {
        parad_values::write_binary(v, &mut b);
    }
    let total = b.len() as u64;
    b[..8].copy_from_slice(b"PARADOPQ");
    b[8..16].copy_from_slice(&total.to_le_bytes());
    b[16..24].copy_from_slice(&type_hash(&t.name()).to_le_bytes());
    b[24..32].copy_from_slice(&(leaves.len() as u64).to_le_bytes());
    b
}

/// A scalar's bits as the C API passes it (little-endian in 8 bytes).
fn scalar_bits(s: parad_base::Scalar) -> u64 {
    let mut v = vec![];
    parad_values::write_binary(&Value::Scalar(s), &mut v);
    let bytes = &v[7..];
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// The scalar of type `p` whose bits (as the C API stores it) are `bits`.
fn scalar_of(p: PrimType, bits: u64) -> parad_base::Scalar {
    let mut v = vec![b'b', 2, 0];
    v.extend_from_slice(parad_values::binary_type_name(p));
    v.extend_from_slice(&bits.to_le_bytes()[..p.size()]);
    match parad_values::read_values(&v)
        .ok()
        .and_then(|mut vs| vs.pop())
    {
        Some(Value::Scalar(s)) => s,
        _ => unreachable!("the binary format reads back any scalar"),
    }
}

fn entry_type_str(t: (PrimType, usize)) -> String {
    format!("{}{}", "[]".repeat(t.1), t.0)
}

/// The interpreter's checks of an entry point's arguments (its leaves),
/// with its messages.
fn check_args(entry: &str, api: &ApiEntry, args: &[Value]) -> Result<(), CallError> {
    let leaves: Vec<(PrimType, usize)> = api.params.iter().flat_map(|p| p.ty.leaves()).collect();
    if args.len() != leaves.len() {
        return Err(CallError::nowhere(format!(
            "entry point {entry} expects {} arguments but got {}",
            leaves.len(),
            args.len()
        )));
    }
    for (i, (a, t)) in args.iter().zip(&leaves).enumerate() {
        if a.elem_type() != t.0 || a.rank() != t.1 {
            return Err(CallError::nowhere(format!(
                "argument {} of entry point {entry} has type {} but {} was expected",
                i + 1,
                a.type_name(),
                entry_type_str(*t)
            )));
        }
    }
    Ok(())
}

/// The address of the first element (dangling but non-null when empty).
fn data_ptr(d: &ArrayData) -> *mut c_void {
    with_array_data!(d, v => v.as_ptr() as *mut c_void)
}
