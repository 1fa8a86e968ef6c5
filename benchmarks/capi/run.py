#!/usr/bin/env python3
"""Reproduces the figures of benchmarks/capi/README.md: the per-call
overhead of parad's C API on tiny inputs (overhead.c against `parad bench`),
and the GMM gradient called from Python through futhark-ffi against
`parad bench` on the same input, in one run.

    benchmarks/capi/run.py [--data DATA_DIR] [--venv VENV] [--rounds R]
                           [--runs N] [--calls C] [--large] [--only overhead|gmm]

DATA_DIR: the benchmark data folder (with adbench/gmm/); default
../shared/data from the repository root. VENV: a virtual environment
with futhark-ffi, numpy and cffi (default /tmp/capi-venv; see README.md
for making it). $PARAD: the parad binary (default: built with cargo).
Everything generated goes to benchmarks/data/capi/ (git-ignored); the
tables are printed and written to benchmarks/data/capi/results.md, the
measurements to results.json. Standard library only."""

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
bench_dir = os.path.dirname(here)
repo = os.path.dirname(bench_dir)
sys.path.insert(0, os.path.join(bench_dir, "tools"))
import futvalues  # noqa: E402

GMM_SETS = {"gmm_d10_K5_1k": "1k/gmm_d10_K5.txt"}
GMM_LARGE = {"gmm_d32_K200_10k": "10k/gmm_d32_K200.txt"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def sh(cmd, cwd=None, env=None, stdin=None):
    cmd = [str(c) for c in cmd]
    p = subprocess.run(cmd, cwd=cwd, env=env, stdin=stdin, capture_output=True)
    if p.returncode != 0:
        raise SystemExit("failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd),
                                                    p.stdout.decode(errors="replace"),
                                                    p.stderr.decode(errors="replace")))
    return p.stdout


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def to_us(v, unit):
    return float(v) * {"us": 1, "ms": 1e3, "s": 1e6}[unit]


def parad_bin():
    if os.environ.get("PARAD"):
        return os.environ["PARAD"]
    sh(["cargo", "build", "--release", "-q", "-p", "parad"], cwd=repo)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target"))
    return os.path.join(target, "release", "parad")


def load():
    return " ".join("%.2f" % x for x in os.getloadavg())


# ---- per-call overhead ------------------------------------------------------

BENCH_LINE = re.compile(r":(\w+) #\d+ .*: min ([0-9.]+)(us|ms|s), median ([0-9.]+)(us|ms|s)")


def parad_bench_text(parad, args, prog, env):
    """{entry: (median µs, min µs)} from `parad bench`'s text report (0.1 µs
    resolution; its JSON has whole microseconds)."""
    out = sh([parad, "bench"] + args + [prog], env=env).decode()
    res = {}
    for line in out.splitlines():
        m = BENCH_LINE.search(line)
        if m:
            res[m.group(1)] = (to_us(m.group(4), m.group(5)), to_us(m.group(2), m.group(3)))
    return res


def overhead(parad, out, calls, batches, rounds, env):
    prog = os.path.join(here, "overhead.fut")
    rows = []
    for backend in ["c", "multicore"]:
        d = os.path.join(out, "overhead_" + backend)
        os.makedirs(d, exist_ok=True)
        sh([parad, backend, "--library", "-o", os.path.join(d, "overhead"), prog])
        # As a user builds it: the flags of the C API's documentation.
        sh(["cc", "-std=c99", "-O2", "-c", "overhead.c", "-o", "lib.o"], cwd=d)
        sh(["cc", "-std=c99", "-O2", "-I", d, os.path.join(here, "overhead.c"),
            os.path.join(d, "lib.o"), "-lm", "-lpthread", "-o", os.path.join(d, "overhead")])
        lib, bench = {}, {}
        for _ in range(rounds):
            text = sh([os.path.join(d, "overhead"), calls, batches]).decode()
            for line in text.splitlines():
                w = line.split()
                lib.setdefault(w[1], []).append((float(w[3]), float(w[6])))
            r = parad_bench_text(parad, ["--backend", backend, "-r", "2000"], prog, env)
            for k, v in r.items():
                bench.setdefault(k, []).append(v)
        for case in ["scale", "add1", "roundtrip"]:
            row = {"backend": backend, "case": case,
                   "lib_median_us": median([m for m, _ in lib[case]]),
                   "lib_min_us": min(m for _, m in lib[case])}
            entry = "add1" if case == "roundtrip" else case
            if case != "roundtrip" and entry in bench:
                row["bench_median_us"] = median([m for m, _ in bench[entry]])
                row["bench_min_us"] = min(m for _, m in bench[entry])
            rows.append(row)
    return rows


# ---- GMM through futhark-ffi -----------------------------------------------

def bench_program(out, stem):
    """A copy of gmm.fut whose test block is the `gradient` of one input."""
    with open(os.path.join(bench_dir, "gmm", "gmm.fut")) as f:
        lines = f.read().split("\n")
    body = lines[lines.index("-- ==") + 1:]
    while body and body[0].startswith("--"):
        body.pop(0)
    path = os.path.join(out, "bench_%s.fut" % stem)
    with open(path, "w") as f:
        f.write("-- generated by benchmarks/capi/run.py from benchmarks/gmm/gmm.fut\n-- ==\n")
        f.write("-- entry: gradient\n-- input @ %s.in\n" % stem)
        f.write("\n".join(body))
    return path


def gmm(parad, out, data, venv, sets, rounds, runs, env):
    py = os.path.join(venv, "bin", "python")
    build = os.path.join(venv, "bin", "build_futhark_ffi")
    if not os.path.exists(build):
        raise SystemExit("no futhark-ffi in %s: python3 -m venv %s && %s/bin/pip install "
                         "futhark-ffi numpy cffi" % (venv, venv, venv))
    ffi_dir = os.path.join(out, "ffi")
    os.makedirs(ffi_dir, exist_ok=True)
    sh([parad, "multicore", "--library", "-o", os.path.join(ffi_dir, "gmm"),
        os.path.join(bench_dir, "gmm", "gmm.fut")])
    # The library with the C flags `parad bench` uses for its own build
    # (-O3 -march=native -fopenmp; cffi adds -std=c99 and Python's -O3):
    # without -fopenmp the multicore library runs sequentially.
    fenv = dict(env, CFLAGS="-march=native -fopenmp", LDFLAGS="-fopenmp")
    sh([build, "gmm"], cwd=ffi_dir, env=fenv)
    threads_all = os.cpu_count() or 1
    rows = []
    for stem, src in sets.items():
        inp = os.path.join(out, stem + ".in")
        if not futvalues.fresh(inp, os.path.join(data, "adbench", "gmm", src)):
            sh([sys.executable, os.path.join(bench_dir, "gmm", "prepare.py"), "gmm",
                os.path.join(data, "adbench", "gmm", src), inp])
        prog = bench_program(out, stem)
        # The result check: parad run against futhark-ffi.
        with open(inp, "rb") as f:
            want = futvalues.flatten(futvalues.read_values(
                sh([parad, "run", "-b", "-e", "gradient", "--backend", "multicore", prog],
                   env=env, stdin=f)))
        for threads in sorted({1, threads_all}):
            bench, ffi, ffi_np = [], [], []
            for r in range(rounds):
                j = os.path.join(out, "bench_%s.json" % stem)
                sh([parad, "bench", "--backend", "multicore", "--threads", threads, "-r", runs,
                    "--json", j, prog], env=env)
                with open(j) as f:
                    for v in json.load(f).values():
                        for ds in v["datasets"].values():
                            bench += ds["runtimes"]
                j = os.path.join(out, "ffi_%s.json" % stem)
                sh([py, os.path.join(here, "gmm_ffi.py"), ffi_dir, inp, runs, j],
                   env=dict(env, OMP_NUM_THREADS=str(threads)))
                with open(j) as f:
                    got = json.load(f)
                ffi += got["runtimes"]
                ffi_np += got["numpy_runtimes"]
                log("  %s threads=%d round %d: parad bench %.0f us, futhark-ffi %.0f us"
                    % (stem, threads, r + 1, median(bench), median(ffi)))
            scale = max(1.0, max(abs(w) for w in want))
            diff = max(abs(a - b) for a, b in zip(got["result"], want)) / scale
            if len(got["result"]) != len(want):
                diff = float("inf")
            rows.append({"input": stem, "threads": threads, "calls": len(bench),
                         "bench_median_us": median(bench), "bench_min_us": min(bench),
                         "ffi_median_us": median(ffi), "ffi_min_us": min(ffi),
                         "ffi_numpy_median_us": median(ffi_np),
                         "ratio_median": median(ffi) / median(bench),
                         "ratio_min": min(ffi) / min(bench), "max_rel_diff": diff})
    return rows


# ---- report -----------------------------------------------------------------

def machine():
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    def first(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "?"
    commit = first(["git", "-C", repo, "log", "--oneline", "-1"])
    # The compiler's sources differ from the commit (uncommitted changes)?
    if subprocess.run(["git", "-C", repo, "diff", "--quiet", "HEAD", "--", "crates"]).returncode:
        commit += " (with uncommitted changes under crates/)"
    return {"cpu": cpu, "cores": os.cpu_count(), "cc": first(["cc", "--version"]),
            "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "commit": commit}


def fmt(us):
    if us is None:
        return "-"
    if us < 100:
        return "%.2f µs" % us
    if us < 1e5:
        return "%.3f ms" % (us / 1e3)
    return "%.3f s" % (us / 1e6)


def report(meta, over, gmm_rows):
    p = []
    p.append("machine: %s, %d cores; %s; %s; commit %s; load average %s before, %s after"
             % (meta["cpu"], meta["cores"], meta["cc"], meta["date"], meta["commit"],
                meta["load_before"], meta["load_after"]))
    if over:
        p.append("")
        p.append("| backend | case | library, median | library, min | `parad bench`, median | `parad bench`, min |")
        p.append("|---|---|---|---|---|---|")
        for r in over:
            p.append("| %s | %s | %s | %s | %s | %s |" % (
                r["backend"], r["case"], fmt(r["lib_median_us"]), fmt(r["lib_min_us"]),
                fmt(r.get("bench_median_us")), fmt(r.get("bench_min_us"))))
    if gmm_rows:
        p.append("")
        p.append("| input | threads | calls each | `parad bench`, median (min) | futhark-ffi, median (min) "
                 "| ratio ffi/bench, medians (mins) | futhark-ffi from numpy, median | results |")
        p.append("|---|---|---|---|---|---|---|---|")
        for r in gmm_rows:
            p.append("| %s | %d | %d | %s (%s) | %s (%s) | %.3f (%.3f) | %s | %s |" % (
                r["input"], r["threads"], r["calls"], fmt(r["bench_median_us"]),
                fmt(r["bench_min_us"]), fmt(r["ffi_median_us"]), fmt(r["ffi_min_us"]),
                r["ratio_median"], r["ratio_min"], fmt(r["ffi_numpy_median_us"]),
                "agree (%.1e)" % r["max_rel_diff"] if r["max_rel_diff"] <= 1e-8
                else "DIFFER (%.1e)" % r["max_rel_diff"]))
    return "\n".join(p) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(repo, "..", "shared", "data"))
    ap.add_argument("--venv", default="/tmp/capi-venv")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--runs", type=int, default=20, help="GMM calls per round and system")
    ap.add_argument("--calls", type=int, default=100000, help="overhead.c calls per batch")
    ap.add_argument("--large", action="store_true", help="also GMM 10k d=32 K=200 (slow)")
    ap.add_argument("--only", choices=["overhead", "gmm"])
    a = ap.parse_args()
    out = os.path.join(bench_dir, "data", "capi")
    os.makedirs(out, exist_ok=True)
    parad = parad_bin()
    env = dict(os.environ, PARAD_CACHE_DIR=os.path.join(out, "cache"))
    meta = machine()
    meta["load_before"] = load()
    over = gmm_rows = []
    if a.only != "gmm":
        log("== per-call overhead")
        over = overhead(parad, out, a.calls, 11, a.rounds, env)
    if a.only != "overhead":
        log("== GMM gradient: futhark-ffi and parad bench")
        sets = dict(GMM_SETS, **(GMM_LARGE if a.large else {}))
        gmm_rows = gmm(parad, out, a.data, a.venv, sets, a.rounds, a.runs, env)
    meta["load_after"] = load()
    text = report(meta, over, gmm_rows)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"machine": meta, "overhead": over, "gmm": gmm_rows}, f, indent=1)
    print(text)


if __name__ == "__main__":
    main()
