//! The table of device operations that generated host code calls.
//!
//! A GPU backend prints its host code as C (the OpenCL backend does); that
//! code moves data and launches kernels only through a
//! [`ParadDevice`], a table of function pointers with an opaque `self`,
//! whose C declaration is [`C_DECLARATIONS`]. Parad fills the table from
//! a Rust device ([`crate::opencl::OpenClDevice`]) with [`table`] and
//! hands it to the loaded program; the C code calls
//! `dev->launch(dev->self, ...)` and so on.
//!
//! Conventions (the same for every implementation; [`table`]'s wrappers
//! enforce those that do not depend on the device):
//! - Every operation but `release` and `error` returns 0 on success and
//!   non-zero on failure; the failure's text is then what `error` returns,
//!   valid until the next call on the same device. A failure never
//!   unwinds into C: a panic inside the runtime is caught and reported as
//!   a failure.
//! - A buffer is an opaque non-NULL handle (`void *`) returned by `alloc`;
//!   `alloc` of 0 bytes succeeds (the device allocates at least 1 byte).
//!   `release` of NULL does nothing. Using a handle after its `release`
//!   is an error the device may or may not detect.
//! - Offsets and sizes are in bytes and must not be negative, and an
//!   access must lie within its buffer; a transfer of 0 bytes does
//!   nothing (its pointers are not looked at).
//! - `write` (host to device) and `read` (device to host) are blocking:
//!   when they return, the host memory may be reused (write) or holds the
//!   data (read); `read` waits for every earlier launch and copy. `copy`
//!   (device to device) and `launch` are queued in order with each other
//!   and with the transfers, so a program sees its operations happen in
//!   the order it made them.
//! - `launch(self, kernel, n, nargs, args)` runs kernel number `kernel`
//!   (an index into the kernel names the program was built with) over the
//!   iteration space `0..n`. The kernel's OpenCL signature is
//!   `__kernel void NAME(long n, <args...>)`: parameter 0 is `n` and
//!   parameter `i + 1` is `args[i]`, a buffer handle when
//!   [`KernelArg::is_buffer`] is non-zero, else `size` bytes of a scalar.
//!   More work-items than `n` may run, so each kernel starts with
//!   `if (get_global_id(0) >= n) return;`. `n == 0` launches nothing
//!   (the kernel index is still checked).
//! - Calls on one device must not overlap unless the implementation says
//!   so ([`crate::opencl::OpenClDevice`] serialises them itself).

use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The C declarations of the table, exactly as generated host code
/// includes them.
pub const C_DECLARATIONS: &str = parad_cgen::DEVICE_ABI_H;

/// One kernel argument (C `struct parad_karg`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct KernelArg {
    /// Non-zero: `value` points to a buffer handle (a `void *`).
    pub is_buffer: i32,
    /// The size in bytes of a scalar argument (ignored for buffers).
    pub size: i32,
    /// Points to the handle or to the scalar's bytes.
    pub value: *const c_void,
}

/// `int (*alloc)(void *self, int64_t bytes, void **buf)`.
pub type AllocFn = unsafe extern "C" fn(*mut c_void, i64, *mut *mut c_void) -> c_int;
/// `void (*release)(void *self, void *buf)`.
pub type ReleaseFn = unsafe extern "C" fn(*mut c_void, *mut c_void);
/// `int (*write)(void *self, void *dst, int64_t dst_off, const void *src, int64_t bytes)`.
pub type WriteFn = unsafe extern "C" fn(*mut c_void, *mut c_void, i64, *const c_void, i64) -> c_int;
/// `int (*read)(void *self, void *dst, const void *src, int64_t src_off, int64_t bytes)`.
pub type ReadFn = unsafe extern "C" fn(*mut c_void, *mut c_void, *const c_void, i64, i64) -> c_int;
/// `int (*copy)(void *self, void *dst, int64_t dst_off, const void *src, int64_t src_off, int64_t bytes)`.
pub type CopyFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, i64, *const c_void, i64, i64) -> c_int;
/// `int (*launch)(void *self, int32_t kernel, int64_t n, int32_t nargs, const struct parad_karg *args)`.
pub type LaunchFn = unsafe extern "C" fn(*mut c_void, i32, i64, i32, *const KernelArg) -> c_int;
/// `const char *(*error)(void *self)`.
pub type ErrorFn = unsafe extern "C" fn(*mut c_void) -> *const c_char;

/// The table of device operations (C `struct parad_device`); see the
/// module documentation for the conventions. Built by [`table`]; every
/// pointer is set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ParadDevice {
    /// The device, passed back as every function's first argument.
    pub self_: *mut c_void,
    pub alloc: AllocFn,
    pub release: ReleaseFn,
    pub write: WriteFn,
    pub read: ReadFn,
    pub copy: CopyFn,
    pub launch: LaunchFn,
    pub error: ErrorFn,
}

/// A failure of the device runtime, as text for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuError(pub String);

impl GpuError {
    pub fn new(message: impl Into<String>) -> GpuError {
        GpuError(message.into())
    }

    /// The text of the failure.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GpuError {}

impl From<String> for GpuError {
    fn from(message: String) -> GpuError {
        GpuError(message)
    }
}

/// A device that [`table`] can expose to C. The C-side checks (negative
/// sizes, zero-byte transfers, NULL pointers, the kernel index's range,
/// `n == 0`, panics) are done by the table's wrappers before these are
/// called, so an implementation sees only in-range kernels, non-null host
/// pointers and non-zero transfer sizes. Methods take `&self`: the device
/// synchronises its own state.
pub trait DeviceRuntime: Sync {
    /// A new buffer of `bytes` bytes (at least 1), as a non-NULL handle.
    fn alloc(&self, bytes: usize) -> Result<*mut c_void, GpuError>;

    /// Frees a buffer (never NULL).
    fn release(&self, buf: *mut c_void) -> Result<(), GpuError>;

    /// Copies `bytes` (> 0) bytes from host memory `src` into buffer
    /// `dst` at `dst_off`, returning when `src` may be reused.
    ///
    /// # Safety
    /// `src` must be valid for reading `bytes` bytes.
    unsafe fn write(
        &self,
        dst: *mut c_void,
        dst_off: usize,
        src: *const u8,
        bytes: usize,
    ) -> Result<(), GpuError>;

    /// Copies `bytes` (> 0) bytes of buffer `src` at `src_off` into host
    /// memory `dst`, after every earlier operation.
    ///
    /// # Safety
    /// `dst` must be valid for writing `bytes` bytes.
    unsafe fn read(
        &self,
        dst: *mut u8,
        src: *const c_void,
        src_off: usize,
        bytes: usize,
    ) -> Result<(), GpuError>;

    /// Queues a copy of `bytes` (> 0) bytes between buffers.
    fn copy(
        &self,
        dst: *mut c_void,
        dst_off: usize,
        src: *const c_void,
        src_off: usize,
        bytes: usize,
    ) -> Result<(), GpuError>;

    /// How many kernels the device has (valid `launch` indices are below).
    fn kernel_count(&self) -> usize;

    /// Queues kernel `kernel` (in range) over `0..n` (`n > 0`).
    ///
    /// # Safety
    /// Each argument's `value` must point to a handle (buffers) or to
    /// `size` readable bytes (scalars).
    unsafe fn launch(&self, kernel: usize, n: u64, args: &[KernelArg]) -> Result<(), GpuError>;

    /// Records the text of a failure for [`DeviceRuntime::last_error`].
    fn set_error(&self, message: &str);

    /// The last failure's text, NUL-terminated, valid until the next call
    /// on the device ("" when there was none).
    fn last_error(&self) -> *const c_char;
}

/// The C table of `device`, whose `self` points at it.
///
/// The device must stay alive and must not move while the table (or a
/// copy of it) may be called: keep it in a `Box` (or another stable place)
/// for as long as the program that holds the table runs.
pub fn table<D: DeviceRuntime>(device: &D) -> ParadDevice {
    ParadDevice {
        self_: device as *const D as *mut c_void,
        alloc: alloc_c::<D>,
        release: release_c::<D>,
        write: write_c::<D>,
        read: read_c::<D>,
        copy: copy_c::<D>,
        launch: launch_c::<D>,
        error: error_c::<D>,
    }
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Runs `f` on the device behind `this`: 0 on success, else 1 with the
/// failure (or the caught panic) recorded on the device.
///
/// # Safety
/// `this` must be NULL or point to a live `D`.
unsafe fn guarded<D: DeviceRuntime>(
    this: *mut c_void,
    what: &str,
    f: impl FnOnce(&D) -> Result<(), GpuError>,
) -> c_int {
    if this.is_null() {
        return 1;
    }
    // SAFETY: the caller's contract; only shared references are made.
    let device = unsafe { &*(this as *const D) };
    let message = match catch_unwind(AssertUnwindSafe(|| f(device))) {
        Ok(Ok(())) => return 0,
        Ok(Err(e)) => format!("{what}: {}", e.0),
        Err(payload) => format!(
            "{what}: internal error in the device runtime: {}",
            panic_text(payload.as_ref())
        ),
    };
    // Recording must not unwind into C either.
    let _ = catch_unwind(AssertUnwindSafe(|| device.set_error(&message)));
    1
}

/// A non-negative `i64` as a `usize`.
fn size(name: &str, value: i64) -> Result<usize, GpuError> {
    usize::try_from(value).map_err(|_| GpuError(format!("{name} is negative ({value})")))
}

unsafe extern "C" fn alloc_c<D: DeviceRuntime>(
    this: *mut c_void,
    bytes: i64,
    buf: *mut *mut c_void,
) -> c_int {
    unsafe {
        guarded::<D>(this, "alloc", |d| {
            if buf.is_null() {
                return Err(GpuError::new("the result pointer is NULL"));
            }
            let bytes = size("the size", bytes)?.max(1);
            let handle = d.alloc(bytes)?;
            *buf = handle;
            Ok(())
        })
    }
}

unsafe extern "C" fn release_c<D: DeviceRuntime>(this: *mut c_void, buf: *mut c_void) {
    unsafe {
        guarded::<D>(this, "release", |d| {
            if buf.is_null() {
                return Ok(());
            }
            d.release(buf)
        });
    }
}

unsafe extern "C" fn write_c<D: DeviceRuntime>(
    this: *mut c_void,
    dst: *mut c_void,
    dst_off: i64,
    src: *const c_void,
    bytes: i64,
) -> c_int {
    unsafe {
        guarded::<D>(this, "write", |d| {
            let dst_off = size("the offset", dst_off)?;
            let bytes = size("the size", bytes)?;
            if bytes == 0 {
                return Ok(());
            }
            if src.is_null() {
                return Err(GpuError::new("the host pointer is NULL"));
            }
            d.write(dst, dst_off, src.cast(), bytes)
        })
    }
}

unsafe extern "C" fn read_c<D: DeviceRuntime>(
    this: *mut c_void,
    dst: *mut c_void,
    src: *const c_void,
    src_off: i64,
    bytes: i64,
) -> c_int {
    unsafe {
        guarded::<D>(this, "read", |d| {
            let src_off = size("the offset", src_off)?;
            let bytes = size("the size", bytes)?;
            if bytes == 0 {
                return Ok(());
            }
            if dst.is_null() {
                return Err(GpuError::new("the host pointer is NULL"));
            }
            d.read(dst.cast(), src, src_off, bytes)
        })
    }
}

unsafe extern "C" fn copy_c<D: DeviceRuntime>(
    this: *mut c_void,
    dst: *mut c_void,
    dst_off: i64,
    src: *const c_void,
    src_off: i64,
    bytes: i64,
) -> c_int {
    unsafe {
        guarded::<D>(this, "copy", |d| {
            let dst_off = size("the destination offset", dst_off)?;
            let src_off = size("the source offset", src_off)?;
            let bytes = size("the size", bytes)?;
            if bytes == 0 {
                return Ok(());
            }
            d.copy(dst, dst_off, src, src_off, bytes)
        })
    }
}

unsafe extern "C" fn launch_c<D: DeviceRuntime>(
    this: *mut c_void,
    kernel: i32,
    n: i64,
    nargs: i32,
    args: *const KernelArg,
) -> c_int {
    unsafe {
        guarded::<D>(this, "launch", |d| {
            let count = d.kernel_count();
            let index = usize::try_from(kernel)
                .ok()
                .filter(|&k| k < count)
                .ok_or_else(|| {
                    GpuError(format!(
                        "kernel {kernel} does not exist (the program has {count})"
                    ))
                })?;
            let n = u64::try_from(n)
                .map_err(|_| GpuError(format!("the iteration count is negative ({n})")))?;
            let nargs = size("the argument count", i64::from(nargs))?;
            let args: &[KernelArg] = if nargs == 0 {
                &[]
            } else if args.is_null() {
                return Err(GpuError::new("the argument array is NULL"));
            } else {
                std::slice::from_raw_parts(args, nargs)
            };
            if n == 0 {
                return Ok(());
            }
            d.launch(index, n, args)
        })
    }
}

unsafe extern "C" fn error_c<D: DeviceRuntime>(this: *mut c_void) -> *const c_char {
    const NO_DEVICE: &CStr = c"no device (the table's self is NULL)";
    const PANICKED: &CStr = c"internal error in the device runtime";
    if this.is_null() {
        return NO_DEVICE.as_ptr();
    }
    // SAFETY: `this` points to a live `D` (the table's contract).
    let device = unsafe { &*(this as *const D) };
    catch_unwind(AssertUnwindSafe(|| device.last_error())).unwrap_or(PANICKED.as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layout_matches_the_c_declarations() {
        assert_eq!(size_of::<KernelArg>(), 16);
        assert_eq!(offset_of!(KernelArg, value), 8);
        assert_eq!(size_of::<ParadDevice>(), size_of::<[usize; 8]>());
        assert_eq!(offset_of!(ParadDevice, alloc), size_of::<usize>());
        assert_eq!(offset_of!(ParadDevice, error), 7 * size_of::<usize>());
        assert!(C_DECLARATIONS.contains("struct parad_device {"));
    }
}
