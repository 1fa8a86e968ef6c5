//! The opencl backend from the command line: which entry points run on
//! the device (`parad dump --stage gpu`), the kernels' OpenCL source, and
//! `parad test --backend opencl` where an OpenCL device exists (CI
//! installs pocl and sets `PARAD_REQUIRE_OPENCL=1`, so that a machine
//! without one fails instead of skipping).

use std::path::PathBuf;
use std::process::{Command, Output};

fn parad(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .current_dir(repo())
        .env_remove("PARAD_BACKEND")
        .output()
        .expect("run parad")
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "parad failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const KERNELS: &str = "tests/gpu/kernels.fut";

#[test]
fn every_entry_point_of_the_kernel_tests_runs_on_the_device() {
    let out = stdout(&parad(&["dump", "--stage", "gpu", KERNELS]));
    let verdicts: Vec<&str> = out.lines().filter(|l| l.starts_with("-- ")).collect();
    assert_eq!(verdicts.len(), 8, "{out}");
    for v in verdicts {
        assert!(v.ends_with(": on the device"), "{v}");
    }
    // Host code reaches device memory only through device operations.
    assert!(out.contains("launch kernel0"), "{out}");
    assert!(out.contains("device input 0"), "{out}");
}

#[test]
fn threads_that_allocate_take_their_memory_from_an_arena() {
    let out = stdout(&parad(&["dump", "--stage", "gpu", "tests/gpu/arena.fut"]));
    assert!(out.contains("-- temp: on the device"), "{out}");
    assert!(out.contains("-- many: on the device"), "{out}");
    // A size that changes from one iteration of a loop in the thread to
    // the next is not known before the launch: the entry point stays on
    // the host, and says why.
    assert!(
        out.contains(
            "-- steps: on the host: a parallel loop allocates memory of a size it computes"
        ),
        "{out}"
    );
    let src = stdout(&parad(&[
        "dump",
        "--stage",
        "opencl",
        "tests/gpu/arena.fut",
    ]));
    assert!(src.contains("top_ += b_"), "{src}");
}

#[test]
fn kernels_are_printed_as_opencl_c_on_the_prelude() {
    let out = stdout(&parad(&["dump", "--stage", "opencl", KERNELS]));
    assert!(out.contains("#pragma OPENCL FP_CONTRACT OFF"), "{out}");
    assert!(out.contains("__kernel void parad_k0(long n_"), "{out}");
    // The failing gather reports through the error words.
    assert!(out.contains("atom_cmpxchg(errors_, 0L, 1L)"), "{out}");
}

/// Whether an OpenCL device can be used here; false only when none is
/// installed and none is required.
fn opencl_here() -> bool {
    let required = std::env::var("PARAD_REQUIRE_OPENCL").is_ok_and(|v| v == "1");
    match parad_gpu::opencl::OpenClDevice::new(None) {
        Ok(_) => true,
        Err(e) if !required => {
            eprintln!("skipped: no OpenCL device ({e})");
            false
        }
        Err(e) => panic!("PARAD_REQUIRE_OPENCL=1 and no OpenCL device: {e}"),
    }
}

#[test]
fn the_kernel_tests_pass_on_an_opencl_device() {
    if !opencl_here() {
        return;
    }
    let o = parad(&["test", "--backend", "opencl", "tests/gpu"]);
    let out = stdout(&o);
    assert!(out.contains("15 passed, 0 failed"), "{out}");
}
