//! The last line of defence against running out of memory.
//!
//! Large arrays are allocated fallibly (`try_reserve`) where they are
//! made, and a failure there is a located error. Any other allocation that
//! fails makes Rust abort the process (status 134, "memory allocation of N
//! bytes failed"), which reads as a crash. Here the global allocator
//! notes a failed allocation, and a handler of the abort signal turns an
//! abort that follows one into an `error:` line and exit status 1. An
//! abort without a failed allocation before it goes on as an abort.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Size of the last allocation that failed (0: none has).
static FAILED: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, noting failures in [`FAILED`].
pub struct NoteFailures;

fn note(p: *mut u8, size: usize) -> *mut u8 {
    if p.is_null() {
        FAILED.store(size.max(1), Ordering::Relaxed);
    }
    p
}

// SAFETY: every call is passed on to `System` unchanged.
unsafe impl GlobalAlloc for NoteFailures {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[cfg(unix)]
mod signal {
    use super::FAILED;
    use std::os::raw::{c_int, c_void};
    use std::sync::atomic::Ordering;

    const SIGABRT: c_int = 6;
    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: c_int, handler: usize) -> usize;
        fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
        fn _exit(status: c_int) -> !;
    }

    /// Only async-signal-safe calls: `write`, `_exit`, `signal`.
    extern "C" fn on_abort(_: c_int) {
        let size = FAILED.load(Ordering::Relaxed);
        if size == 0 {
            // Not out of memory: let the abort happen.
            // SAFETY: restoring the default action is always allowed.
            unsafe { signal(SIGABRT, SIG_DFL) };
            return;
        }
        let mut buf = [0u8; 160];
        let mut len = 0;
        let mut put = |bytes: &[u8]| {
            let n = bytes.len().min(buf.len() - len);
            buf[len..len + n].copy_from_slice(&bytes[..n]);
            len += n;
        };
        put(b"error: out of memory: an allocation of ");
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut n = size;
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        put(&digits[i..]);
        put(b" bytes failed\n");
        // SAFETY: `buf` holds `len` initialised bytes; exiting without
        // running destructors is what a handler may do.
        unsafe {
            write(2, buf.as_ptr().cast(), len);
            _exit(1);
        }
    }

    pub fn install() {
        let handler: extern "C" fn(c_int) = on_abort;
        // SAFETY: the handler only makes async-signal-safe calls.
        unsafe { signal(SIGABRT, handler as usize) };
    }
}

/// Turns aborts after a failed allocation into an error and exit status 1.
pub fn install() {
    #[cfg(unix)]
    signal::install();
}
