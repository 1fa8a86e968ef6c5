#!/usr/bin/env python3
"""Reproduces benchmarks/python/README.md: the per-call overhead of parad
programs called from Python (numpy, PyTorch and JAX paths) against plain
numpy, PyTorch and JAX calls, and the GMM gradient from Python against
`parad bench` on the same input, alternating in one run.

    bench.py [--data DATA_DIR] [--rounds R] [--calls C] [--runs N] [--only overhead|gmm]

Run it with the Python of a virtual environment that has the package
(`pip install ./python`), numpy, torch and jax (see README.md). $PARAD:
the parad binary (default target/release/parad). Generated files go to
benchmarks/data/python/ (git-ignored); the tables are printed and written
there as results.md and results.json."""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
bench_dir = os.path.dirname(here)
repo = os.path.dirname(bench_dir)
sys.path.insert(0, os.path.join(bench_dir, "tools"))
sys.path.insert(0, os.path.join(bench_dir, "capi"))
import futvalues  # noqa: E402

import numpy as np  # noqa: E402

import parad  # noqa: E402


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def per_call(f, calls):
    """µs per call of f() over `calls` calls."""
    t0 = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - t0) / calls * 1e6


def overhead(out, rounds, calls):
    import torch
    import jax
    import jax.numpy as jnp

    import parad.jax
    import parad.torch

    jax.config.update("jax_enable_x64", True)
    prog = os.path.join(bench_dir, "capi", "overhead.fut")
    m = parad.load(prog, backend="c", cache_dir=os.path.join(out, "cache"))
    x = np.arange(16, dtype=np.float32)
    t = torch.arange(16, dtype=torch.float32)
    tg = t.clone().requires_grad_()
    j = jnp.arange(16, dtype=jnp.float32)
    add1_t = parad.torch.function(m, "add1")
    add1_j = jax.jit(parad.jax.function(m, "add1"))
    plus_j = jax.jit(lambda v: v + 1)
    grad_j = jax.jit(jax.grad(lambda v: jnp.sum(parad.jax.function(m, "add1")(v))))

    def torch_backward():
        add1_t(tg).sum().backward()

    def torch_backward_plain():
        (tg + 1).sum().backward()

    cases = [
        ("numpy", "add1: parad (m.add1(x))", lambda: m.add1(x)),
        ("numpy", "add1: numpy (x + 1)", lambda: x + 1),
        ("numpy", "scale: parad (m.scale(a, b))", lambda: m.scale(1.5, 2.0)),
        ("numpy", "scale: Python (a * b)", lambda: 1.5 * 2.0),
        ("torch", "add1: parad forward", lambda: add1_t(t)),
        ("torch", "add1: torch forward (t + 1)", lambda: t + 1),
        ("torch", "add1: parad forward + backward", torch_backward),
        ("torch", "add1: torch forward + backward", torch_backward_plain),
        ("jax", "add1: parad, jitted", lambda: add1_j(j).block_until_ready()),
        ("jax", "add1: jax, jitted (x + 1)", lambda: plus_j(j).block_until_ready()),
        ("jax", "add1: parad grad of sum, jitted", lambda: grad_j(j).block_until_ready()),
    ]
    for _, _, f in cases:  # warm-up: compilation, jit tracing
        for _ in range(10):
            f()
    res = {name: [] for _, name, _ in cases}
    for r in range(rounds):
        for _, name, f in cases:
            res[name].append(per_call(f, calls))
        log("  overhead round %d done" % (r + 1))
    return [{"path": path, "case": name, "median_us": median(res[name]), "min_us": min(res[name])}
            for path, name, _ in cases]


def gmm(parad_bin, out, data, rounds, runs):
    from run import bench_program  # benchmarks/capi/run.py

    stem = "gmm_d10_K5_1k"
    inp = os.path.join(out, stem + ".in")
    src = os.path.join(data, "adbench", "gmm", "1k", "gmm_d10_K5.txt")
    if not futvalues.fresh(inp, src):
        subprocess.run([sys.executable, os.path.join(bench_dir, "gmm", "prepare.py"), "gmm", src, inp], check=True)
    vals = futvalues.read_file(inp)
    alphas, means, icf, x = [np.array(v, dtype=np.float64).reshape(s) for v, s in vals[:4]]
    gamma, wm = float(vals[4][0]), int(vals[5][0])
    args = [alphas, means, icf, x, gamma, wm]
    m = parad.load(os.path.join(bench_dir, "gmm", "gmm.fut"), cache_dir=os.path.join(out, "cache"))
    prog = bench_program(out, stem)

    def timed(f):
        f()  # warm-up
        ts = []
        for _ in range(runs):
            t0 = time.perf_counter()
            f()
            ts.append((time.perf_counter() - t0) * 1e6)
        return ts

    grad = lambda: m.gradient(*args)  # noqa: E731
    auto = lambda: m.vjp("objective", args, [1.0])  # noqa: E731
    want = m.gradient(*args)
    got = auto()
    diff = max(float(np.max(np.abs(a - b))) for a, b in zip(want, got[:3]))
    bench, py_grad, py_vjp = [], [], []
    for r in range(rounds):
        j = os.path.join(out, "bench_%s.json" % stem)
        subprocess.run([parad_bin, "bench", "--backend", "multicore", "-r", str(runs), "--json", j, prog],
                       check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, PARAD_CACHE_DIR=os.path.join(out, "cache")))
        with open(j) as f:
            for v in json.load(f).values():
                for ds in v["datasets"].values():
                    bench += ds["runtimes"]
        py_grad += timed(grad)
        py_vjp += timed(auto)
        log("  gmm round %d: parad bench %.0f us, Python gradient %.0f us, Python vjp of objective %.0f us"
            % (r + 1, median(bench), median(py_grad), median(py_vjp)))
    return {"input": stem, "calls": len(bench), "bench_median_us": median(bench), "bench_min_us": min(bench),
            "python_gradient_median_us": median(py_grad), "python_gradient_min_us": min(py_grad),
            "python_vjp_median_us": median(py_vjp), "python_vjp_min_us": min(py_vjp),
            "vjp_vs_gradient_max_abs_diff": diff}


def report(meta, over, g):
    p = ["# parad from Python", "", "Measured %s on %s (%d cores), Python %s, numpy %s." % (
        meta["date"], meta["machine"], meta["cores"], meta["python"], meta["numpy"]), ""]
    if over:
        p += ["## Per-call overhead (16 f32 elements; `c` backend)", "",
              "| path | case | median µs/call | min µs/call |", "|---|---|---|---|"]
        p += ["| %s | %s | %.2f | %.2f |" % (o["path"], o["case"], o["median_us"], o["min_us"]) for o in over]
        p.append("")
    if g:
        p += ["## GMM gradient (%s, multicore, %d calls each)" % (g["input"], g["calls"]), "",
              "| system | median µs | min µs |", "|---|---|---|",
              "| `parad bench` (entry `gradient`) | %.0f | %.0f |" % (g["bench_median_us"], g["bench_min_us"]),
              "| Python: `m.gradient(...)` | %.0f | %.0f |" % (g["python_gradient_median_us"], g["python_gradient_min_us"]),
              "| Python: `m.vjp(\"objective\", ...)` (derived; also w.r.t. x and gamma) | %.0f | %.0f |" % (
                  g["python_vjp_median_us"], g["python_vjp_min_us"]),
              "", "Largest difference between the two gradients: %.3g." % g["vjp_vs_gradient_max_abs_diff"], ""]
    return "\n".join(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(repo, "..", "shared", "data"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--only", choices=["overhead", "gmm"])
    a = ap.parse_args()
    out = os.path.join(bench_dir, "data", "python")
    os.makedirs(out, exist_ok=True)
    parad_bin = os.environ.get("PARAD") or os.path.join(repo, "target", "release", "parad")
    meta = {"date": time.strftime("%Y-%m-%d"), "machine": platform.processor() or platform.machine(),
            "cores": os.cpu_count() or 1, "python": platform.python_version(), "numpy": np.__version__}
    over = g = None
    if a.only in (None, "overhead"):
        log("== per-call overhead")
        over = overhead(out, a.rounds, a.calls)
    if a.only in (None, "gmm"):
        log("== GMM gradient")
        g = gmm(parad_bin, out, a.data, a.rounds, a.runs)
    text = report(meta, over, g)
    print(text)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"meta": meta, "overhead": over, "gmm": g}, f, indent=1)


if __name__ == "__main__":
    main()
