"""Shared pieces of the client tests: where parad is, compiling the
programs under tests/clients/programs, and building futhark-ffi modules.

The tests drive parad's output with the released Python clients
(futhark-ffi, futhark-server, futhark-data) exactly as their users do;
nothing here changes how those clients work.
"""

import importlib
import os
import pathlib
import shutil
import signal
import subprocess
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAMS = HERE / "programs"

# `parad c` and `parad multicore`.
BACKENDS = ["c", "multicore"]

# Seconds any one compiler or program run may take before the test fails.
TIMEOUT = int(os.environ.get("PARAD_CLIENT_TIMEOUT", "300"))


def parad_path():
    """The parad binary: $PARAD (relative to the current folder or to the
    repository), else target/release/parad of the repository."""
    given = os.environ.get("PARAD")
    candidates = []
    if given:
        candidates = [pathlib.Path(given), REPO / given]
    else:
        target = os.environ.get("CARGO_TARGET_DIR") or str(REPO / "target")
        candidates = [pathlib.Path(target) / "release" / "parad"]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c.resolve()
    pytest.fail(
        "no parad binary at %s: build it with `cargo build --release -p parad` "
        "or set PARAD" % " or ".join(str(c) for c in candidates)
    )


def capture(cmd, cwd=None, env=None, input=None, timeout=TIMEOUT, memory_gib=None):
    """Runs cmd in a session of its own, so that a timeout ends it with
    everything it started (the C compiler that parad or cffi runs), and
    returns its CompletedProcess (exit status 124 after a timeout).
    memory_gib caps the virtual memory of each of those processes."""
    cmd = [str(c) for c in cmd]
    if memory_gib:
        cmd = ["bash", "-c", 'ulimit -v %d && exec "$@"' % (memory_gib << 20), "bash", *cmd]
    p = subprocess.Popen(
        cmd,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = p.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return subprocess.CompletedProcess(cmd, 124, "", "timed out after %ds" % timeout)
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def run(cmd, cwd=None, env=None, input=None, timeout=TIMEOUT):
    """Runs a command, failing the test with its output when it fails."""
    p = capture(cmd, cwd=cwd, env=env, input=input, timeout=timeout)
    if p.returncode != 0:
        pytest.fail(
            "command failed (exit %d): %s\n--- stdout\n%s\n--- stderr\n%s"
            % (p.returncode, " ".join(map(str, cmd)), p.stdout[-4000:], p.stderr[-4000:])
        )
    return p


def compile_program(parad, backend, program, out, kind):
    """`parad BACKEND [--library|--server] PROGRAM -o OUT`; kind is
    "library", "server" or "executable"."""
    flags = {"library": ["--library"], "server": ["--server"], "executable": []}[kind]
    run([parad, backend, *flags, PROGRAMS / program, "-o", out])
    return out


_ffi_cache = {}


def build_ffi(parad, backend, program, tmp_path_factory):
    """Compiles tests/clients/programs/PROGRAM as a library with `parad
    BACKEND --library`, builds it with futhark-ffi's builder as its users
    do (`build_futhark_ffi NAME` in the library's folder) and imports the
    module. Returns (module, manifest path). Built once per session."""
    key = (backend, program)
    if key in _ffi_cache:
        return _ffi_cache[key]
    stem = "%s_%s" % (pathlib.Path(program).stem, backend)
    folder = tmp_path_factory.mktemp("ffi_" + stem)
    compile_program(parad, backend, program, folder / stem, "library")
    builder = pathlib.Path(sys.executable).parent / "build_futhark_ffi"
    if not builder.exists():
        found = shutil.which("build_futhark_ffi")
        if not found:
            pytest.fail("futhark-ffi's build_futhark_ffi is not installed")
        builder = pathlib.Path(found)
    run([builder, stem], cwd=folder)
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("_" + stem)
    finally:
        sys.path.remove(str(folder))
    _ffi_cache[key] = (module, folder / (stem + ".json"))
    return _ffi_cache[key]


def source_line(program, needle):
    """The 1-based line of the first line of PROGRAM containing needle."""
    for i, line in enumerate((PROGRAMS / program).read_text().splitlines(), 1):
        if needle in line and not line.startswith("--"):
            return i
    raise AssertionError("%r not in %s" % (needle, program))


# ---- values of every primitive type -----------------------------------------

DTYPES = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "bool": np.bool_,
}


def bump(t, a):
    """What the programs' bump does: +1 (wrapping), negation for bool."""
    if t == "bool":
        return np.logical_not(a)
    return (a + np.ones((), DTYPES[t])).astype(DTYPES[t])


def sample(t, shape, rng, small=False):
    """An array of type t: the whole range for integers; for floats,
    multiples of 1/8 below 1000, exact in f16 and after adding 1 (small:
    below 8, so that sums of a few dozen are exact in f16 too)."""
    dt = DTYPES[t]
    if t == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if t.startswith("f"):
        top = 64 if small else 8000
        return (rng.integers(-top, top, size=shape) / 8).astype(dt)
    info = np.iinfo(dt)
    a = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    # The extremes, where +1 wraps.
    flat = a.reshape(-1)
    if flat.size >= 2:
        flat[0], flat[-1] = info.max, info.min
    return a
