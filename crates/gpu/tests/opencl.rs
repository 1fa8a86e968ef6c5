//! The OpenCL device table, driven through its C ABI (the function
//! pointers called as generated C code calls them), on whatever OpenCL
//! device the machine has (pocl on CI).
//!
//! Without any OpenCL device the tests say so on stderr and pass, unless
//! `PARAD_REQUIRE_OPENCL=1` is set, when they fail instead.

use parad_gpu::device::{KernelArg, ParadDevice, C_DECLARATIONS};
use parad_gpu::opencl::{list_devices, OpenClDevice};
use std::ffi::{c_int, c_void, CStr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::ptr;

const SOURCE: &str = r#"
__kernel void scale(long n, __global unsigned char *out, __global unsigned char *in, float a) {
  long i = get_global_id(0);
  if (i >= n) return;
  ((__global float *)out)[i] = a * ((__global float *)in)[i];
}
__kernel void add_index(long n, __global int *xs, int k) {
  long i = get_global_id(0);
  if (i >= n) return;
  xs[i] += k + (int)i;
}
"#;

/// The same kernel names, other results: `scale` adds 1.
const OTHER_SOURCE: &str = r#"
__kernel void scale(long n, __global unsigned char *out, __global unsigned char *in, float a) {
  long i = get_global_id(0);
  if (i >= n) return;
  ((__global float *)out)[i] = a * ((__global float *)in)[i] + 1.0f;
}
__kernel void add_index(long n, __global int *xs, int k) {
  long i = get_global_id(0);
  if (i >= n) return;
  xs[i] -= k;
}
"#;

fn names() -> Vec<String> {
    vec!["scale".to_string(), "add_index".to_string()]
}

/// A device, or `None` (with a note) where the machine has no OpenCL.
fn open() -> Option<Box<OpenClDevice>> {
    match OpenClDevice::new(None) {
        Ok(d) => Some(Box::new(d)),
        Err(e) => {
            if std::env::var_os("PARAD_REQUIRE_OPENCL").is_some_and(|v| v == "1") {
                panic!("no OpenCL device: {e}");
            }
            eprintln!("skipped: no OpenCL device ({e})");
            None
        }
    }
}

fn built() -> Option<Box<OpenClDevice>> {
    let mut d = open()?;
    d.build(SOURCE, &names()).expect("build");
    Some(d)
}

/// The table, called as C calls it.
struct C(ParadDevice);

impl C {
    fn error(&self) -> String {
        let text = unsafe { CStr::from_ptr((self.0.error)(self.0.self_)) };
        text.to_string_lossy().into_owned()
    }

    fn check(&self, rc: c_int) -> Result<(), String> {
        if rc == 0 {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    fn alloc(&self, bytes: i64) -> Result<*mut c_void, String> {
        let mut buf = ptr::null_mut();
        self.check(unsafe { (self.0.alloc)(self.0.self_, bytes, &mut buf) })?;
        assert!(!buf.is_null());
        Ok(buf)
    }

    fn release(&self, buf: *mut c_void) {
        unsafe { (self.0.release)(self.0.self_, buf) }
    }

    fn write<T>(&self, dst: *mut c_void, off: i64, src: &[T]) -> Result<(), String> {
        let bytes = std::mem::size_of_val(src) as i64;
        self.check(unsafe { (self.0.write)(self.0.self_, dst, off, src.as_ptr().cast(), bytes) })
    }

    fn read<T: Copy + Default>(
        &self,
        src: *mut c_void,
        off: i64,
        len: usize,
    ) -> Result<Vec<T>, String> {
        let mut out = vec![T::default(); len];
        let bytes = std::mem::size_of_val(out.as_slice()) as i64;
        self.check(unsafe {
            (self.0.read)(self.0.self_, out.as_mut_ptr().cast(), src, off, bytes)
        })?;
        Ok(out)
    }

    fn copy(
        &self,
        dst: *mut c_void,
        dst_off: i64,
        src: *mut c_void,
        src_off: i64,
        bytes: i64,
    ) -> Result<(), String> {
        self.check(unsafe { (self.0.copy)(self.0.self_, dst, dst_off, src, src_off, bytes) })
    }

    fn launch(&self, kernel: i32, n: i64, args: &[KernelArg]) -> Result<(), String> {
        let p = if args.is_empty() {
            ptr::null()
        } else {
            args.as_ptr()
        };
        self.check(unsafe { (self.0.launch)(self.0.self_, kernel, n, args.len() as i32, p) })
    }
}

fn buffer_arg(handle: &*mut c_void) -> KernelArg {
    KernelArg {
        is_buffer: 1,
        size: 0,
        value: (handle as *const *mut c_void).cast(),
    }
}

fn scalar_arg<T>(value: &T) -> KernelArg {
    KernelArg {
        is_buffer: 0,
        size: std::mem::size_of::<T>() as i32,
        value: (value as *const T).cast(),
    }
}

#[test]
fn describes_the_device() {
    let Some(d) = open() else { return };
    let description = d.description();
    assert!(description.contains(": "), "{description}");
    assert!(description.contains("OpenCL"), "{description}");
    assert!(d.compute_units() >= 1);
    let listed = list_devices().unwrap();
    assert!(
        listed.iter().any(|l| description.starts_with(l.as_str())),
        "{listed:?}"
    );
    // pocl (on CI) has doubles; other devices may not.
    if description
        .to_lowercase()
        .contains("portable computing language")
    {
        assert!(d.has_fp64());
    }
    let _ = d.has_fp16();
}

#[test]
fn alloc_write_launch_copy_read() {
    let Some(mut d) = built() else { return };
    let c = C(d.table());
    // Odd, so not a multiple of any work-group size above 1.
    let n: usize = 1001;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 100.0).collect();
    let in_buf = c.alloc(4 * n as i64).unwrap();
    // 16 bytes of slack after the results, to see that nothing past n is written.
    let out_buf = c.alloc(4 * n as i64 + 16).unwrap();
    assert_eq!(d.memory_in_use(), (8 * n + 16) as u64);

    // The input in two writes, the second at an offset.
    c.write(in_buf, 0, &input[..400]).unwrap();
    c.write(in_buf, 400 * 4, &input[400..]).unwrap();
    c.write(out_buf, 0, &vec![-7.0f32; n + 4]).unwrap();

    let a = 3.0f32;
    let args = [buffer_arg(&out_buf), buffer_arg(&in_buf), scalar_arg(&a)];
    c.launch(0, n as i64, &args).unwrap();

    let out: Vec<f32> = c.read(out_buf, 0, n + 4).unwrap();
    for i in 0..n {
        assert_eq!(out[i], 3.0 * input[i], "element {i}");
    }
    assert_eq!(&out[n..], &[-7.0; 4], "written past n");

    // A read at an offset.
    let tail: Vec<f32> = c.read(out_buf, 4 * 990, 11).unwrap();
    assert_eq!(tail, out[990..1001].to_vec());

    // Device to device with offsets, in order with a launch that follows.
    let third = c.alloc(4 * 120).unwrap();
    c.write(third, 0, &vec![0i32; 120]).unwrap();
    c.copy(third, 4 * 10, out_buf, 4 * 500, 4 * 100).unwrap();
    let k = 5i32;
    c.launch(1, 120, &[buffer_arg(&third), scalar_arg(&k)])
        .unwrap();
    let got: Vec<i32> = c.read(third, 0, 120).unwrap();
    for (i, &g) in got.iter().enumerate() {
        let copied = if (10..110).contains(&i) {
            out[500 + i - 10].to_bits() as i32
        } else {
            0
        };
        let want = copied.wrapping_add(k + i as i32);
        assert_eq!(g, want, "element {i}");
    }

    // A copy within one buffer, to disjoint bytes.
    c.copy(out_buf, 0, out_buf, 4 * 900, 4 * 50).unwrap();
    let moved: Vec<f32> = c.read(out_buf, 0, 50).unwrap();
    assert_eq!(moved, out[900..950].to_vec());

    assert_eq!(d.peak_memory(), (8 * n + 16 + 480) as u64);
    c.release(third);
    assert_eq!(d.memory_in_use(), (8 * n + 16) as u64);
    assert_eq!(d.peak_memory(), (8 * n + 16 + 480) as u64);
    d.reset_peak_memory();
    assert_eq!(d.peak_memory(), (8 * n + 16) as u64);
    c.release(in_buf);
    c.release(out_buf);
    assert_eq!(d.memory_in_use(), 0);
}

#[test]
fn zero_sizes_do_nothing() {
    let Some(mut d) = built() else { return };
    let c = C(d.table());
    let empty = c.alloc(0).unwrap();
    assert_eq!(d.memory_in_use(), 1);
    let other = c.alloc(0).unwrap();
    assert_ne!(empty, other);
    // Zero-byte transfers look at no pointer.
    c.check(unsafe { (c.0.write)(c.0.self_, empty, 0, ptr::null(), 0) })
        .unwrap();
    c.check(unsafe { (c.0.read)(c.0.self_, ptr::null_mut(), empty, 0, 0) })
        .unwrap();
    c.copy(other, 0, empty, 0, 0).unwrap();
    c.check(unsafe { (c.0.write)(c.0.self_, ptr::null_mut(), 0, ptr::null(), 0) })
        .unwrap();

    // n == 0 launches nothing.
    let xs = c.alloc(16).unwrap();
    c.write(xs, 0, &[1i32, 2, 3, 4]).unwrap();
    let k = 100i32;
    c.launch(1, 0, &[buffer_arg(&xs), scalar_arg(&k)]).unwrap();
    assert_eq!(c.read::<i32>(xs, 0, 4).unwrap(), vec![1, 2, 3, 4]);
    c.launch(1, 1, &[buffer_arg(&xs), scalar_arg(&k)]).unwrap();
    assert_eq!(c.read::<i32>(xs, 0, 4).unwrap(), vec![101, 2, 3, 4]);

    c.release(ptr::null_mut());
    c.release(empty);
    c.release(other);
    c.release(xs);
    assert_eq!(d.memory_in_use(), 0);
}

#[test]
fn failures_are_errors_not_panics() {
    let Some(mut d) = built() else { return };
    let c = C(d.table());
    let xs = c.alloc(16).unwrap();
    let k = 1i32;
    let args = [buffer_arg(&xs), scalar_arg(&k)];

    let e = c.launch(2, 4, &args).unwrap_err();
    assert!(e.contains("kernel 2 does not exist"), "{e}");
    let e = c.launch(-1, 4, &args).unwrap_err();
    assert!(e.contains("kernel -1 does not exist"), "{e}");
    // Out of range even when nothing would run.
    assert!(c.launch(7, 0, &args).is_err());
    let e = c.launch(1, -3, &args).unwrap_err();
    assert!(e.contains("negative"), "{e}");
    let e = c.launch(1, 4, &args[..1]).unwrap_err();
    assert!(e.contains("takes 2 arguments after n, not 1"), "{e}");
    let e = c
        .check(unsafe { (c.0.launch)(c.0.self_, 1, 4, 2, ptr::null()) })
        .unwrap_err();
    assert!(e.contains("NULL"), "{e}");

    let bogus: *mut c_void = 0x1234usize as *mut c_void;
    let e = c
        .launch(1, 4, &[buffer_arg(&bogus), scalar_arg(&k)])
        .unwrap_err();
    assert!(e.contains("not a live buffer"), "{e}");
    let e = c.write(bogus, 0, &[1u8]).unwrap_err();
    assert!(e.contains("not a live buffer"), "{e}");

    let e = c.write(xs, 8, &[0i32; 3]).unwrap_err();
    assert!(e.contains("outside the destination (16 bytes)"), "{e}");
    let e = c.read::<u8>(xs, 16, 1).unwrap_err();
    assert!(e.contains("outside the source"), "{e}");
    let e = c.copy(xs, 0, xs, 4, 8).unwrap_err();
    assert!(e.contains("overlap"), "{e}");
    let e = c.write(xs, -1, &[0u8]).unwrap_err();
    assert!(e.contains("negative"), "{e}");
    let e = c.alloc(-5).unwrap_err();
    assert!(e.contains("negative"), "{e}");
    let e = c.alloc(i64::MAX).unwrap_err();
    assert!(e.contains("largest allocation"), "{e}");
    let short = 1i8;
    let e = c
        .launch(1, 4, &[buffer_arg(&xs), scalar_arg(&short)])
        .unwrap_err();
    assert!(e.contains("argument 1 of kernel `add_index`"), "{e}");

    // The device still works.
    c.write(xs, 0, &[0i32; 4]).unwrap();
    c.launch(1, 4, &args).unwrap();
    assert_eq!(c.read::<i32>(xs, 0, 4).unwrap(), vec![1, 2, 3, 4]);
    c.release(xs);
    assert_eq!(d.memory_in_use(), 0);
}

#[test]
fn a_build_error_holds_the_log() {
    let Some(mut d) = open() else { return };
    let bad = "__kernel void k(long n, __global int *xs) { xs[0] = parad_undeclared_thing; }";
    let e = d.build(bad, &["k".to_string()]).unwrap_err().to_string();
    assert!(e.contains("OpenCL program build failed"), "{e}");
    assert!(e.contains("parad_undeclared_thing"), "{e}");
    assert!(e.contains("undeclared"), "{e}");

    let e = d
        .build(SOURCE, &["scale".to_string(), "missing".to_string()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("kernel `missing`"), "{e}");
    let e = d
        .build(SOURCE, &["sc\0ale".to_string()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("invalid kernel name"), "{e}");

    // After failures the device builds and runs.
    d.build(SOURCE, &names()).unwrap();
    let c = C(d.table());
    let xs = c.alloc(4).unwrap();
    c.write(xs, 0, &[10i32]).unwrap();
    let k = 2i32;
    c.launch(1, 1, &[buffer_arg(&xs), scalar_arg(&k)]).unwrap();
    assert_eq!(c.read::<i32>(xs, 0, 1).unwrap(), vec![12]);
    c.release(xs);
}

#[test]
fn selection_that_matches_nothing() {
    let Some(_) = open() else { return };
    let e = OpenClDevice::new(Some("no such device, parad"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no OpenCL device matches \"no such device, parad\""),
        "{e}"
    );
    assert!(e.contains("the devices are: "), "{e}");
    // Case does not matter, and a part of the name is enough.
    let first = list_devices().unwrap().remove(0);
    let part = first[first.len() / 2..].to_uppercase();
    let d = OpenClDevice::new(Some(&part)).unwrap();
    assert!(d.description().starts_with(&first), "{}", d.description());
}

/// Runs `probe` in a child process with `vars` set and returns its output.
fn probe_with(vars: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "probe", "--nocapture", "--test-threads=1"])
        .env("PARAD_GPU_PROBE", "1")
        .env_remove("PARAD_OPENCL_DEVICE");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Not a test on its own: what `probe_with` runs.
#[test]
fn probe() {
    if std::env::var_os("PARAD_GPU_PROBE").is_none() {
        return;
    }
    match OpenClDevice::new(None) {
        Ok(d) => println!("PROBE OK {}", d.description()),
        Err(e) => println!("PROBE ERROR {e}"),
    }
}

#[test]
fn the_environment_selects_the_device() {
    let Some(d) = open() else { return };
    let out = probe_with(&[("PARAD_OPENCL_DEVICE", "nothing-like-this")]);
    assert!(
        out.contains("PROBE ERROR no OpenCL device matches \"nothing-like-this\""),
        "{out}"
    );
    let name = d.device_name().to_lowercase();
    let out = probe_with(&[("PARAD_OPENCL_DEVICE", &name)]);
    assert!(
        out.contains(&format!("PROBE OK {}", d.description())),
        "{out}"
    );
}

#[test]
fn no_platform_is_a_clear_error() {
    let Some(_) = open() else { return };
    // The ICD loader (ocl-icd) finds its drivers where OCL_ICD_VENDORS
    // says: an empty folder means none.
    let empty = tempfile::tempdir().unwrap();
    let out = probe_with(&[("OCL_ICD_VENDORS", empty.path().to_str().unwrap())]);
    assert!(out.contains("PROBE ERROR no OpenCL platform: "), "{out}");
}

fn bins(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// Runs `scale` with a = 2 on [1, 2, 3].
fn run_scale(d: &mut OpenClDevice) -> Vec<f32> {
    let c = C(d.table());
    let input = c.alloc(12).unwrap();
    let out = c.alloc(12).unwrap();
    c.write(input, 0, &[1.0f32, 2.0, 3.0]).unwrap();
    let a = 2.0f32;
    c.launch(
        0,
        3,
        &[buffer_arg(&out), buffer_arg(&input), scalar_arg(&a)],
    )
    .unwrap();
    let got = c.read(out, 0, 3).unwrap();
    c.release(input);
    c.release(out);
    got
}

#[test]
fn binaries_are_cached() {
    let Some(mut d) = open() else { return };
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().join("opencl");

    let first = d.build_cached(SOURCE, &names(), Some(&dir)).unwrap();
    assert!(!first.from_cache);
    let binary = first.binary.clone().unwrap();
    assert_eq!(
        bins(&dir),
        vec![binary.clone()],
        "one binary, no temporary files"
    );
    assert!(binary.extension().is_some_and(|e| e == "bin"));
    assert_eq!(run_scale(&mut d), vec![2.0, 4.0, 6.0]);

    // Again, on a fresh device: from the cache.
    let mut d = open().unwrap();
    let second = d.build_cached(SOURCE, &names(), Some(&dir)).unwrap();
    assert!(second.from_cache);
    assert_eq!(second.binary, first.binary);
    assert_eq!(run_scale(&mut d), vec![2.0, 4.0, 6.0]);

    // The cache is what runs: put the other program's binary in SOURCE's
    // place and SOURCE's build runs the other program.
    let other = d.build_cached(OTHER_SOURCE, &names(), Some(&dir)).unwrap();
    assert!(!other.from_cache);
    let other_binary = other.binary.unwrap();
    assert_ne!(other_binary, binary);
    assert_eq!(run_scale(&mut d), vec![3.0, 5.0, 7.0]);
    std::fs::copy(&other_binary, &binary).unwrap();
    let swapped = d.build_cached(SOURCE, &names(), Some(&dir)).unwrap();
    assert!(swapped.from_cache);
    assert_eq!(run_scale(&mut d), vec![3.0, 5.0, 7.0]);

    // A binary the driver rejects is rebuilt from source and replaced.
    std::fs::write(&binary, b"not a program binary").unwrap();
    let rebuilt = d.build_cached(SOURCE, &names(), Some(&dir)).unwrap();
    assert!(!rebuilt.from_cache);
    assert_eq!(run_scale(&mut d), vec![2.0, 4.0, 6.0]);
    assert_ne!(std::fs::read(&binary).unwrap(), b"not a program binary");
    assert_eq!(bins(&dir).len(), 2);

    // Without a cache folder nothing is cached.
    let plain = d.build_cached(SOURCE, &names(), None).unwrap();
    assert_eq!(
        plain,
        parad_gpu::opencl::BuildOutcome {
            from_cache: false,
            binary: None
        }
    );
}

/// The table passed to real C code compiled from `C_DECLARATIONS`.
#[test]
fn c_code_calls_the_table() {
    let Some(mut d) = built() else { return };
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("skipped: no C compiler");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let c_file = dir.path().join("host.c");
    let so_file = dir.path().join("libhost.so");
    let text = format!(
        r#"#include <stdint.h>
#include <string.h>
{C_DECLARATIONS}
/* scale a = 0.5 over 37 floats, then add_index k = 1 over 5 ints: 0 or -1 with the message in msg. */
int run(struct parad_device *d, float *out, int32_t *ints, char *msg, int msg_len) {{
  float in[37];
  for (int i = 0; i < 37; i++) in[i] = (float)(4 * i);
  void *a = 0, *b = 0, *c = 0;
  if (d->alloc(d->self, sizeof in, &a) || d->alloc(d->self, sizeof in, &b) || d->alloc(d->self, 20, &c)) goto fail;
  if (d->write(d->self, a, 0, in, sizeof in)) goto fail;
  float half = 0.5f;
  struct parad_karg args[3] = {{{{1, 0, &b}}, {{1, 0, &a}}, {{0, sizeof half, &half}}}};
  if (d->launch(d->self, 0, 37, 3, args)) goto fail;
  if (d->read(d->self, out, b, 0, sizeof in)) goto fail;
  int32_t zero[5] = {{0, 0, 0, 0, 0}};
  if (d->write(d->self, c, 0, zero, sizeof zero)) goto fail;
  int32_t one = 1;
  struct parad_karg args2[2] = {{{{1, 0, &c}}, {{0, sizeof one, &one}}}};
  if (d->launch(d->self, 1, 5, 2, args2)) goto fail;
  if (d->read(d->self, ints, c, 0, sizeof zero)) goto fail;
  if (d->launch(d->self, 9, 5, 2, args2) == 0) return -2;
  strncpy(msg, d->error(d->self), msg_len - 1);
  d->release(d->self, a); d->release(d->self, b); d->release(d->self, c);
  return 0;
fail:
  strncpy(msg, d->error(d->self), msg_len - 1);
  return -1;
}}
"#
    );
    std::fs::write(&c_file, text).unwrap();
    let status = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-shared", "-fPIC", "-o"])
        .arg(&so_file)
        .arg(&c_file)
        .status()
        .unwrap();
    assert!(status.success(), "cc failed");
    type Run = unsafe extern "C" fn(*mut ParadDevice, *mut f32, *mut i32, *mut u8, c_int) -> c_int;
    let mut table = d.table();
    let mut out = [0f32; 37];
    let mut ints = [0i32; 5];
    let mut msg = [0u8; 256];
    let rc = unsafe {
        let lib = libloading::Library::new(&so_file).unwrap();
        let run: libloading::Symbol<Run> = lib.get(b"run").unwrap();
        run(
            &mut table,
            out.as_mut_ptr(),
            ints.as_mut_ptr(),
            msg.as_mut_ptr(),
            256,
        )
    };
    let msg = CStr::from_bytes_until_nul(&msg)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(rc, 0, "{msg}");
    for (i, &o) in out.iter().enumerate() {
        assert_eq!(o, 2.0 * i as f32);
    }
    assert_eq!(ints, [1, 2, 3, 4, 5]);
    assert!(msg.contains("kernel 9 does not exist"), "{msg}");
    assert_eq!(d.memory_in_use(), 0);
}
