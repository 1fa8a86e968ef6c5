//! The device table ([`crate::device::ParadDevice`]) over OpenCL.
//!
//! The generated C host code of the OpenCL backend calls the table that
//! [`OpenClDevice::table`] returns; parad builds the program's OpenCL C
//! text with [`OpenClDevice::build_cached`] first, with the kernel names
//! in the order the host code numbers them.
//!
//! - The OpenCL library is opened at run time (`libOpenCL.so.1`, the ICD
//!   loader's name without the development package; `OPENCL_DYLIB_PATH`,
//!   a `;`-separated list of paths, is tried first). Without it parad
//!   works as before and only [`OpenClDevice::new`] fails, saying so.
//! - Device choice: the first device whose `"<platform>: <device>"`
//!   contains the selection (ignoring case), the selection being the
//!   argument of [`OpenClDevice::new`] or else `PARAD_OPENCL_DEVICE`;
//!   without one, the first GPU, else the first device of any type.
//! - Programs are built with `-cl-fp32-correctly-rounded-divide-sqrt`
//!   where the device supports it and never with fast-math options. Their
//!   binaries are cached as `<dir>/<hash>.bin` (SHA-256 of the source,
//!   the device's description, the options and parad's version) when a
//!   cache folder is given, and written to a temporary file renamed into
//!   place, so concurrent builds never see a partial binary. A cached
//!   binary that the driver rejects is rebuilt from source. The caller
//!   chooses the folder (e.g. `opencl/` under the C backend's cache root,
//!   `parad_cgen::build::cache_root()`); [`OpenClDevice::build`] caches
//!   nothing.
//! - Everything runs on one in-order queue. `launch` runs a 1-D range
//!   of `n` rounded up to a multiple of the kernel's work-group size (its
//!   maximum for the device, at most 256, rounded down to the preferred
//!   multiple).
//! - Calls are serialised by a lock, so one device may be used from
//!   several threads. Opening and dropping devices take a process-wide
//!   lock (pocl crashes when one thread lists devices while another
//!   drops the last context).
//! - Handles are the `cl_mem`s themselves; the device keeps the set of
//!   live ones (with sizes) to reject unknown handles and out-of-bounds
//!   transfers with a message instead of a driver error, and to count
//!   the bytes in use and their peak ([`OpenClDevice::peak_memory`]).

pub use crate::device::GpuError;
use crate::device::{self, DeviceRuntime, KernelArg, ParadDevice};
use opencl3::command_queue::{
    enqueue_copy_buffer, enqueue_nd_range_kernel, enqueue_read_buffer, enqueue_write_buffer,
    CommandQueue, CL_BLOCKING,
};
use opencl3::context::Context;
use opencl3::device::{
    Device, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_GPU, CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT,
};
use opencl3::error_codes::{
    error_text, ClError, CL_BUILD_PROGRAM_FAILURE, CL_PLATFORM_NOT_FOUND_KHR,
    DLOPEN_FUNCTION_NOT_AVAILABLE, DLOPEN_RUNTIME_LOAD_FAILED,
};
use opencl3::event::release_event;
use opencl3::kernel::{set_kernel_arg, Kernel};
use opencl3::memory::{create_buffer, release_mem_object, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_event, cl_int, cl_long, cl_mem};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};
use std::fmt::Write as _;
use std::mem::{size_of, ManuallyDrop};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The environment variable that selects a device when
/// [`OpenClDevice::new`] is given none.
pub const DEVICE_VAR: &str = "PARAD_OPENCL_DEVICE";

/// The largest work-group size a launch uses.
const MAX_LOCAL_SIZE: usize = 256;

/// Held while devices are listed, opened and closed. Some drivers set
/// their devices up when first asked and tear them down when the last
/// context goes (pocl does), and crash when that meets another thread
/// listing devices; so this process does those one at a time.
static SETUP: Mutex<()> = Mutex::new(());

fn setup_lock() -> MutexGuard<'static, ()> {
    SETUP.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An OpenCL device with its context, queue and built program: the
/// implementation of the device table.
pub struct OpenClDevice {
    state: Mutex<State>,
    /// Released in `drop`, under the setup lock (then the context).
    queue: ManuallyDrop<CommandQueue>,
    context: ManuallyDrop<Context>,
    device: Device,
    platform_name: String,
    device_name: String,
    description: String,
    options: String,
    fp64: bool,
    fp16: bool,
    compute_units: u32,
    max_alloc: u64,
}

/// What changes while the device is used.
struct State {
    kernels: Vec<LoadedKernel>,
    program: Option<Program>,
    /// Live buffers: the `cl_mem` (the handle) to its size in bytes.
    buffers: HashMap<usize, usize>,
    current: u64,
    peak: u64,
    error: CString,
}

struct LoadedKernel {
    name: String,
    kernel: Kernel,
    /// The work-group size of its launches.
    local: usize,
    /// Its number of parameters (`n` included).
    params: u32,
}

/// How [`OpenClDevice::build_cached`] got its program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOutcome {
    /// The binary came from the cache (nothing was compiled).
    pub from_cache: bool,
    /// The cache file of the program (written when it was compiled), if a
    /// cache folder was given.
    pub binary: Option<PathBuf>,
}

/// One device found on the machine.
struct Found {
    label: String,
    platform_name: String,
    device: Device,
    is_gpu: bool,
}

fn cl_text(code: cl_int) -> String {
    format!("{} ({code})", error_text(code))
}

/// A failed OpenCL call as a [`GpuError`].
fn cl_error(what: impl std::fmt::Display) -> impl FnOnce(ClError) -> GpuError {
    move |e| GpuError(format!("{what} failed: {}", cl_text(e.0)))
}

/// A failed raw OpenCL call as a [`GpuError`].
fn cl_code(what: impl std::fmt::Display) -> impl FnOnce(cl_int) -> GpuError {
    move |code| GpuError(format!("{what} failed: {}", cl_text(code)))
}

/// Releases the event of an enqueued command (none is waited on).
fn done(event: cl_event) {
    if !event.is_null() {
        // SAFETY: a valid event that nothing else refers to.
        let _ = unsafe { release_event(event) };
    }
}

/// Every device of every platform, in order.
fn find_devices() -> Result<Vec<Found>, GpuError> {
    let platforms = match get_platforms() {
        Ok(p) => p,
        Err(ClError(DLOPEN_RUNTIME_LOAD_FAILED | DLOPEN_FUNCTION_NOT_AVAILABLE)) => {
            return Err(GpuError::new(
                "no OpenCL library: libOpenCL.so.1 could not be loaded (install an OpenCL \
                 ICD loader and a driver, e.g. Debian's ocl-icd-libopencl1 and \
                 pocl-opencl-icd, or set OPENCL_DYLIB_PATH to the library's path)",
            ))
        }
        Err(ClError(CL_PLATFORM_NOT_FOUND_KHR)) => Vec::new(),
        Err(e) => return Err(cl_error("listing the OpenCL platforms")(e)),
    };
    if platforms.is_empty() {
        return Err(GpuError::new(
            "no OpenCL platform: the OpenCL library is there but no driver (ICD) is \
             installed (e.g. Debian's pocl-opencl-icd, or a GPU vendor's)",
        ));
    }
    let mut found = Vec::new();
    for platform in platforms {
        let platform_name = platform
            .name()
            .map_err(cl_error("reading an OpenCL platform's name"))?;
        // A platform without devices answers CL_DEVICE_NOT_FOUND: skip it.
        let Ok(ids) = platform.get_devices(CL_DEVICE_TYPE_ALL) else {
            continue;
        };
        for id in ids {
            let device = Device::new(id);
            let name = device
                .name()
                .map_err(cl_error("reading an OpenCL device's name"))?;
            let is_gpu = device.dev_type().is_ok_and(|t| t & CL_DEVICE_TYPE_GPU != 0);
            found.push(Found {
                label: format!("{}: {}", platform_name.trim(), name.trim()),
                platform_name: platform_name.trim().to_string(),
                device,
                is_gpu,
            });
        }
    }
    if found.is_empty() {
        return Err(GpuError::new(
            "no OpenCL device: the OpenCL platforms have no devices",
        ));
    }
    Ok(found)
}

/// The `"<platform>: <device>"` names of the machine's OpenCL devices, in
/// the order selection searches them.
pub fn list_devices() -> Result<Vec<String>, GpuError> {
    let _setup = setup_lock();
    Ok(find_devices()?.into_iter().map(|f| f.label).collect())
}

impl OpenClDevice {
    /// Opens a device: the first whose `"<platform>: <device>"` contains
    /// `select` (ignoring case), or `PARAD_OPENCL_DEVICE` when `select` is
    /// `None`; without either, the first GPU, else the first device.
    pub fn new(select: Option<&str>) -> Result<OpenClDevice, GpuError> {
        let from_env = std::env::var(DEVICE_VAR).ok().filter(|s| !s.is_empty());
        let select = select.map(str::to_string).or(from_env);
        let _setup = setup_lock();
        let mut found = find_devices()?;
        let index = match &select {
            Some(want) => {
                let want_lower = want.to_lowercase();
                found
                    .iter()
                    .position(|f| f.label.to_lowercase().contains(&want_lower))
                    .ok_or_else(|| {
                        let names: Vec<&str> = found.iter().map(|f| f.label.as_str()).collect();
                        GpuError(format!(
                            "no OpenCL device matches \"{want}\"; the devices are: {}",
                            names.join("; ")
                        ))
                    })?
            }
            None => found.iter().position(|f| f.is_gpu).unwrap_or(0),
        };
        let chosen = found.swap_remove(index);
        Self::open(chosen)
    }

    fn open(found: Found) -> Result<OpenClDevice, GpuError> {
        let device = found.device;
        let name = found.label.clone();
        let info = |what: &str| cl_error(format!("reading {what} of {name}"));
        let device_name = device.name().map_err(info("the name"))?.trim().to_string();
        let version = device.version().map_err(info("the version"))?;
        let driver = device
            .driver_version()
            .map_err(info("the driver version"))?;
        let extensions = device.extensions().map_err(info("the extensions"))?;
        let has_ext = |ext: &str| extensions.split_whitespace().any(|e| e == ext);
        let fp64 = has_ext("cl_khr_fp64") || device.double_fp_config().is_ok_and(|c| c != 0);
        let fp16 = has_ext("cl_khr_fp16");
        let compute_units = device
            .max_compute_units()
            .map_err(info("the compute units"))?;
        let max_alloc = device
            .max_mem_alloc_size()
            .map_err(info("the largest allocation"))?;
        let correct_div = device
            .single_fp_config()
            .is_ok_and(|c| c & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT != 0);
        let options = if correct_div {
            "-cl-fp32-correctly-rounded-divide-sqrt".to_string()
        } else {
            String::new()
        };
        let context = Context::from_device(&device)
            .map_err(cl_error(format!("creating a context on {name}")))?;
        let queue = CommandQueue::create_default(&context, 0)
            .map_err(cl_error(format!("creating a command queue on {name}")))?;
        Ok(OpenClDevice {
            state: Mutex::new(State {
                kernels: Vec::new(),
                program: None,
                buffers: HashMap::new(),
                current: 0,
                peak: 0,
                error: CString::default(),
            }),
            queue: ManuallyDrop::new(queue),
            context: ManuallyDrop::new(context),
            device,
            description: format!("{name} ({}, driver {})", version.trim(), driver.trim()),
            platform_name: found.platform_name,
            device_name,
            options,
            fp64,
            fp16,
            compute_units,
            max_alloc,
        })
    }

    /// `"<platform>: <device> (<OpenCL version>, driver <version>)"`.
    pub fn description(&self) -> String {
        self.description.clone()
    }

    /// The platform's name.
    pub fn platform_name(&self) -> &str {
        &self.platform_name
    }

    /// The device's name.
    pub fn device_name(&self) -> &str {
        &self.device_name
    }

    /// Whether the device has double precision (`cl_khr_fp64`).
    pub fn has_fp64(&self) -> bool {
        self.fp64
    }

    /// Whether the device has half precision arithmetic (`cl_khr_fp16`).
    pub fn has_fp16(&self) -> bool {
        self.fp16
    }

    /// The device's number of compute units.
    pub fn compute_units(&self) -> u32 {
        self.compute_units
    }

    /// The options programs are built with.
    pub fn build_options(&self) -> &str {
        &self.options
    }

    /// The number of bytes in live buffers (a 0-byte allocation counts 1).
    pub fn memory_in_use(&self) -> u64 {
        self.lock().current
    }

    /// The most bytes in live buffers at once since the device was opened
    /// or [`OpenClDevice::reset_peak_memory`] was last called.
    pub fn peak_memory(&self) -> u64 {
        self.lock().peak
    }

    /// Starts measuring the peak again from the bytes now in use.
    pub fn reset_peak_memory(&self) {
        let mut state = self.lock();
        state.peak = state.current;
    }

    /// The table for generated host code, whose `self` points at this
    /// device. The device must outlive every use of the table and must not
    /// move meanwhile: keep it in a `Box` (or another fixed place) and
    /// drop it only after the program holding the table is done.
    pub fn table(&mut self) -> ParadDevice {
        device::table(&*self)
    }

    /// Builds `source` and makes `kernels` (by name, in order) the kernels
    /// `launch` numbers, without a cache. Buffers stay valid.
    pub fn build(&mut self, source: &str, kernels: &[String]) -> Result<(), GpuError> {
        self.build_cached(source, kernels, None).map(|_| ())
    }

    /// [`OpenClDevice::build`] through a cache of program binaries in
    /// `cache_dir` (created if needed), e.g. the `opencl/` folder of
    /// parad's cache root. Failing to write the cache is not an error.
    pub fn build_cached(
        &mut self,
        source: &str,
        kernels: &[String],
        cache_dir: Option<&Path>,
    ) -> Result<BuildOutcome, GpuError> {
        if let Some(bad) = kernels.iter().find(|k| k.is_empty() || k.contains('\0')) {
            return Err(GpuError(format!("invalid kernel name {bad:?}")));
        }
        let binary = cache_dir.map(|dir| dir.join(format!("{}.bin", self.cache_key(source))));
        let cached = binary.as_deref().and_then(|path| {
            let bytes = std::fs::read(path).ok()?;
            let program = self.program_from_binary(&bytes).ok()?;
            let loaded = self.create_kernels(&program, kernels).ok()?;
            Some((program, loaded))
        });
        let from_cache = cached.is_some();
        let (program, loaded) = match cached {
            Some(built) => built,
            None => {
                let program = self.program_from_source(source)?;
                let loaded = self.create_kernels(&program, kernels)?;
                if let Some(path) = &binary {
                    let _ = store_binary(&program, path);
                }
                (program, loaded)
            }
        };
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        state.kernels = loaded;
        state.program = Some(program);
        Ok(BuildOutcome { from_cache, binary })
    }

    /// The cache key of a program text on this device, in hexadecimal.
    fn cache_key(&self, source: &str) -> String {
        let mut hasher = Sha256::new();
        for part in [
            "parad-gpu opencl binary 1",
            env!("CARGO_PKG_VERSION"),
            &self.description,
            &self.options,
            source,
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        let mut hex = String::with_capacity(64);
        for byte in hasher.finalize() {
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }

    fn program_from_source(&self, source: &str) -> Result<Program, GpuError> {
        let mut program = Program::create_from_source(&self.context, source)
            .map_err(cl_error("creating the OpenCL program"))?;
        if let Err(e) = program.build(self.context.devices(), &self.options) {
            let log = program
                .get_build_log(self.device.id())
                .unwrap_or_else(|_| "(no build log)".to_string());
            let what = if e.0 == CL_BUILD_PROGRAM_FAILURE {
                "OpenCL program build failed"
            } else {
                "building the OpenCL program failed"
            };
            return Err(GpuError(format!(
                "{what} ({}) on {}:\n{}",
                cl_text(e.0),
                self.description,
                log.trim_end()
            )));
        }
        Ok(program)
    }

    fn program_from_binary(&self, bytes: &[u8]) -> Result<Program, GpuError> {
        if bytes.is_empty() {
            return Err(GpuError::new("empty program binary"));
        }
        // SAFETY: the context's own device.
        let mut program =
            unsafe { Program::create_from_binary(&self.context, self.context.devices(), &[bytes]) }
                .map_err(cl_error("loading a program binary"))?;
        program
            .build(self.context.devices(), &self.options)
            .map_err(cl_error("building a program binary"))?;
        Ok(program)
    }

    fn create_kernels(
        &self,
        program: &Program,
        names: &[String],
    ) -> Result<Vec<LoadedKernel>, GpuError> {
        let id = self.device.id();
        names
            .iter()
            .map(|name| {
                let what = || format!("creating kernel `{name}`");
                let kernel = Kernel::create(program, name).map_err(cl_error(what()))?;
                let params = kernel.num_args().map_err(cl_error(what()))?;
                if params == 0 {
                    return Err(GpuError(format!(
                        "kernel `{name}` has no parameters (its first must be `long n`)"
                    )));
                }
                let max = kernel.get_work_group_size(id).map_err(cl_error(what()))?;
                let multiple = kernel.get_work_group_size_multiple(id).unwrap_or(1).max(1);
                let mut local = max.clamp(1, MAX_LOCAL_SIZE);
                if local >= multiple {
                    local -= local % multiple;
                }
                Ok(LoadedKernel {
                    name: name.clone(),
                    kernel,
                    local,
                    params,
                })
            })
            .collect()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Writes a program's binary to `path` through a temporary file.
fn store_binary(program: &Program, path: &Path) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let binaries = program
        .get_binaries()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let Some(bytes) = binaries.into_iter().next().filter(|b| !b.is_empty()) else {
        return Ok(());
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("binary"),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = std::fs::write(&tmp, &bytes).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

impl State {
    /// The size of a live buffer.
    fn buffer(&self, handle: *const c_void, which: &str) -> Result<usize, GpuError> {
        self.buffers
            .get(&(handle as usize))
            .copied()
            .ok_or_else(|| GpuError(format!("the {which} {handle:?} is not a live buffer")))
    }

    /// Checks that `off..off + bytes` lies in a buffer of `size` bytes.
    fn in_bounds(which: &str, off: usize, bytes: usize, size: usize) -> Result<(), GpuError> {
        match off.checked_add(bytes) {
            Some(end) if end <= size => Ok(()),
            _ => Err(GpuError(format!(
                "bytes {off}..{} are outside the {which} ({size} bytes)",
                off as u128 + bytes as u128
            ))),
        }
    }
}

impl DeviceRuntime for OpenClDevice {
    fn alloc(&self, bytes: usize) -> Result<*mut c_void, GpuError> {
        if bytes as u64 > self.max_alloc {
            return Err(GpuError(format!(
                "{bytes} bytes are more than the device's largest allocation ({} bytes)",
                self.max_alloc
            )));
        }
        let mut state = self.lock();
        // SAFETY: no host pointer; the context is live.
        let mem = unsafe {
            create_buffer(
                self.context.get(),
                CL_MEM_READ_WRITE,
                bytes,
                ptr::null_mut(),
            )
        }
        .map_err(cl_code(format!("allocating {bytes} bytes")))?;
        if mem.is_null() {
            return Err(GpuError::new("the driver returned a NULL buffer"));
        }
        state.buffers.insert(mem as usize, bytes);
        state.current += bytes as u64;
        state.peak = state.peak.max(state.current);
        Ok(mem)
    }

    fn release(&self, buf: *mut c_void) -> Result<(), GpuError> {
        let mut state = self.lock();
        let size = state.buffer(buf, "buffer")?;
        state.buffers.remove(&(buf as usize));
        state.current -= size as u64;
        // SAFETY: a live buffer of this device; OpenCL frees it once the
        // queued commands using it are done.
        unsafe { release_mem_object(buf as cl_mem) }.map_err(cl_code("releasing a buffer"))
    }

    unsafe fn write(
        &self,
        dst: *mut c_void,
        dst_off: usize,
        src: *const u8,
        bytes: usize,
    ) -> Result<(), GpuError> {
        let state = self.lock();
        let size = state.buffer(dst, "destination")?;
        State::in_bounds("destination", dst_off, bytes, size)?;
        // SAFETY: a live buffer, an in-bounds range and the caller's host
        // memory; blocking, so `src` is not used after the call.
        let event = unsafe {
            enqueue_write_buffer(
                self.queue.get(),
                dst as cl_mem,
                CL_BLOCKING,
                dst_off,
                bytes,
                src.cast(),
                0,
                ptr::null(),
            )
        }
        .map_err(cl_code(format!("writing {bytes} bytes to the device")))?;
        done(event);
        Ok(())
    }

    unsafe fn read(
        &self,
        dst: *mut u8,
        src: *const c_void,
        src_off: usize,
        bytes: usize,
    ) -> Result<(), GpuError> {
        let state = self.lock();
        let size = state.buffer(src, "source")?;
        State::in_bounds("source", src_off, bytes, size)?;
        // SAFETY: as in `write`; blocking, so `dst` holds the data after.
        let event = unsafe {
            enqueue_read_buffer(
                self.queue.get(),
                src as cl_mem,
                CL_BLOCKING,
                src_off,
                bytes,
                dst.cast(),
                0,
                ptr::null(),
            )
        }
        .map_err(cl_code(format!("reading {bytes} bytes from the device")))?;
        done(event);
        Ok(())
    }

    fn copy(
        &self,
        dst: *mut c_void,
        dst_off: usize,
        src: *const c_void,
        src_off: usize,
        bytes: usize,
    ) -> Result<(), GpuError> {
        let state = self.lock();
        let dst_size = state.buffer(dst, "destination")?;
        let src_size = state.buffer(src, "source")?;
        State::in_bounds("destination", dst_off, bytes, dst_size)?;
        State::in_bounds("source", src_off, bytes, src_size)?;
        if ptr::eq(dst.cast_const(), src) && dst_off < src_off + bytes && src_off < dst_off + bytes
        {
            return Err(GpuError(format!(
                "the source and destination overlap (bytes {src_off} and {dst_off}, {bytes} long, of one buffer)"
            )));
        }
        // SAFETY: live buffers and in-bounds, disjoint ranges.
        let event = unsafe {
            enqueue_copy_buffer(
                self.queue.get(),
                src as cl_mem,
                dst as cl_mem,
                src_off,
                dst_off,
                bytes,
                0,
                ptr::null(),
            )
        }
        .map_err(cl_code(format!("copying {bytes} bytes on the device")))?;
        done(event);
        Ok(())
    }

    fn kernel_count(&self) -> usize {
        self.lock().kernels.len()
    }

    unsafe fn launch(&self, kernel: usize, n: u64, args: &[KernelArg]) -> Result<(), GpuError> {
        let state = self.lock();
        let k = &state.kernels[kernel];
        let name = &k.name;
        if args.len() + 1 != k.params as usize {
            return Err(GpuError(format!(
                "kernel `{name}` takes {} arguments after n, not {}",
                k.params - 1,
                args.len()
            )));
        }
        let n_arg = n as cl_long;
        // SAFETY: parameter 0 is `long n`.
        unsafe {
            set_kernel_arg(
                k.kernel.get(),
                0,
                size_of::<cl_long>(),
                (&raw const n_arg).cast(),
            )
        }
        .map_err(cl_code(format!("setting n of kernel `{name}`")))?;
        for (i, arg) in args.iter().enumerate() {
            let index = i as u32 + 1;
            let what = || format!("setting argument {i} of kernel `{name}`");
            if arg.value.is_null() {
                return Err(GpuError(format!("{}: its value is NULL", what())));
            }
            if arg.is_buffer != 0 {
                // SAFETY: a buffer argument points to its handle.
                let handle = unsafe { *arg.value.cast::<*mut c_void>() };
                state
                    .buffer(handle, "buffer")
                    .map_err(|e| GpuError(format!("{}: {e}", what())))?;
                let mem = handle as cl_mem;
                // SAFETY: a live buffer of this context.
                unsafe {
                    set_kernel_arg(
                        k.kernel.get(),
                        index,
                        size_of::<cl_mem>(),
                        (&raw const mem).cast(),
                    )
                }
                .map_err(cl_code(what()))?;
            } else {
                let size = usize::try_from(arg.size)
                    .ok()
                    .filter(|&s| s > 0)
                    .ok_or_else(|| {
                        GpuError(format!("{}: invalid scalar size {}", what(), arg.size))
                    })?;
                // SAFETY: the caller's `size` readable bytes; OpenCL copies them.
                unsafe { set_kernel_arg(k.kernel.get(), index, size, arg.value) }
                    .map_err(cl_code(what()))?;
            }
        }
        let local = k.local;
        let global = n
            .div_ceil(local as u64)
            .checked_mul(local as u64)
            .and_then(|g| usize::try_from(g).ok())
            .ok_or_else(|| GpuError(format!("{n} iterations are too many for one launch")))?;
        // SAFETY: every argument is set; 1-D sizes.
        let event = unsafe {
            enqueue_nd_range_kernel(
                self.queue.get(),
                k.kernel.get(),
                1,
                ptr::null(),
                &raw const global,
                &raw const local,
                0,
                ptr::null(),
            )
        }
        .map_err(cl_code(format!(
            "launching kernel `{name}` over {n} iterations (work-groups of {local})"
        )))?;
        done(event);
        Ok(())
    }

    fn set_error(&self, message: &str) {
        let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
        self.lock().error = text;
    }

    fn last_error(&self) -> *const c_char {
        self.lock().error.as_ptr()
    }
}

impl Drop for OpenClDevice {
    fn drop(&mut self) {
        let _setup = setup_lock();
        let _ = self.queue.finish();
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        for (&mem, _) in state.buffers.iter() {
            // SAFETY: live buffers of this device, no longer used.
            let _ = unsafe { release_mem_object(mem as cl_mem) };
        }
        state.buffers.clear();
        state.kernels.clear();
        state.program = None;
        // SAFETY: dropped once, here, and not used after.
        unsafe {
            ManuallyDrop::drop(&mut self.queue);
            ManuallyDrop::drop(&mut self.context);
        }
    }
}

impl std::fmt::Debug for OpenClDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenClDevice")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}
