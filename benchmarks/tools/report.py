#!/usr/bin/env python3
"""Write benchmarks/RESULTS.md (to stdout) from the measurements of
benchmarks/run.sh: parad's `bench --json` file, the optional JAX JSON file,
the `parad test` log and the cross-checks table."""

import datetime
import json
import os
import platform
import re
import subprocess
import sys


def arg(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def median(ts):
    ts = sorted(ts)
    n = len(ts)
    return ts[n // 2] if n % 2 else 0.5 * (ts[n // 2 - 1] + ts[n // 2])


def fmt_us(us):
    if us is None:
        return "—"
    if us >= 1e6:
        return "%.3f s" % (us / 1e6)
    if us >= 1e3:
        return "%.2f ms" % (us / 1e3)
    return "%.1f µs" % us


def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "—"


def cmd(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def parad_medians(path):
    """{(entry, set name): median µs} from parad's bench JSON."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    for key, v in data.items():
        entry = key.rsplit(":", 1)[1]
        for ds, m in v["datasets"].items():
            name = re.search(r"gmm_(.*)\.in", ds)
            if name:
                out[(entry, name.group(1))] = median(m["runtimes"])
    return out


def main(argv):
    runs = arg(argv, "--runs")
    sets = arg(argv, "--sets").split()
    parad = parad_medians(arg(argv, "--parad"))
    jax_path = arg(argv, "--jax", "none")
    jax = None
    if jax_path != "none" and os.path.exists(jax_path):
        with open(jax_path) as f:
            jax = json.load(f)
    with open(arg(argv, "--test-log")) as f:
        test_summary = (f.read().strip().splitlines() or ["?"])[-1]
    checks = {}
    with open(arg(argv, "--checks")) as f:
        for line in f:
            s, obj, vs_jax = line.rstrip("\n").split("\t")
            checks[s] = (obj, vs_jax)

    p = print
    p("# Benchmark results")
    p()
    p("Written by `benchmarks/run.sh` (see benchmarks/README.md); do not edit by hand.")
    p()
    p("- date: %s" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    p("- machine: %s, `nproc` = %s, %s" % (cpu_model(), os.cpu_count(), platform.platform()))
    load = arg(argv, "--load")
    if load and os.path.exists(load):
        with open(load) as f:
            p("- load average (1, 5, 15 min) when the timing started: %s (other jobs share the "
              "machine; times vary by tens of percent between runs)" % f.read().strip())
    p("- parad: commit %s, %s, backend: reference interpreter (single-threaded)"
      % (cmd(["git", "rev-parse", "--short", "HEAD"]), cmd(["rustc", "--version"])))
    if jax:
        p("- JAX %s (Python %s, jit, float64), devices: %s"
          % (jax["jax"], jax["python"], ", ".join(jax["devices"])))
    else:
        p("- JAX / PyTorch: not measured (JAX could not be imported by the Python "
          "run.sh used; set PYTHON to one that has it)")
    p("- timings: median of %s runs after one warm-up run; parad times one call of the "
      "entry point on the interpreter (as `parad bench`), JAX one call of the jitted "
      "function" % runs)
    p()
    p("## GMM (ADBench objective, gradient w.r.t. alpha, mu, icf)")
    p()
    head = "| dataset | parad objective | parad gradient (vjp) | **parad ratio** | parad gradient (jvp per parameter) | fwd ratio |"
    sep = "|---|---|---|---|---|---|"
    if jax:
        head += " JAX objective | JAX gradient | **JAX ratio** |"
        sep += "---|---|---|"
    p(head)
    p(sep)
    for s in sets:
        o = parad.get(("objective", s))
        g = parad.get(("gradient", s))
        fw = parad.get(("gradient_fwd", s))
        row = "| %s | %s | %s | %s | %s | %s |" % (s, fmt_us(o), fmt_us(g), ratio(g, o),
                                                  fmt_us(fw), ratio(fw, o))
        if jax:
            js = jax["sets"].get(s)
            jo = median(js["objective"]) if js else None
            jg = median(js["gradient"]) if js else None
            row += " %s | %s | %s |" % (fmt_us(jo), fmt_us(jg), ratio(jg, jo))
        p(row)
    p()
    p("The ratio is gradient time ÷ objective time. The forward-mode gradient runs one "
      "jvp per parameter (K(1 + d + d(d+1)/2) of them) and is timed only where that is "
      "at most 100.")
    p()
    p("## Correctness")
    p()
    p("- `parad test benchmarks/gmm/gmm.fut` (ADBench test instance and `1k/gmm_d2_K10` "
      "against the reference `.F`/`.J`, finite-difference checks): %s" % test_summary)
    p()
    p("| dataset | parad objective | JAX objective | parad gradient = JAX gradient (1e-10) |")
    p("|---|---|---|---|")
    for s in sets:
        obj, vs_jax = checks.get(s, ("?", "-"))
        jo = "%r" % jax["sets"][s]["objective_value"] if jax and s in jax["sets"] else "—"
        p("| %s | %s | %s | %s |" % (s, obj, jo, {"true": "yes", "false": "**no**"}.get(vs_jax, "—")))
    if jax:
        diffs = ["%s: %.1e" % (s, v["gradient_max_abs_diff"]) for s, v in jax["sets"].items()
                 if "gradient_max_abs_diff" in v]
        if diffs:
            p()
            p("JAX gradient vs the futhark-ad reference `.J`, largest absolute difference: "
              + ", ".join(diffs) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
