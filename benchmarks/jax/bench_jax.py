#!/usr/bin/env python3
"""Times our JAX versions (jax/models.py; jit, float64, CPU) of the
benchmark entry points on the same Futhark input files parad reads.

    bench_jax.py --runs N --out OUT_DIR BENCH INPUT.in ENTRY...

Writes OUT_DIR/jax_BENCH_STEM.json: the JAX version, the run times in
microseconds of each entry (median over N runs after a warm-up run that
compiles) and each entry's results flattened, as a Futhark binary f64
array OUT_DIR/jax_BENCH_STEM_ENTRY.out. Exits with status 3 when JAX
cannot be imported.
"""

import json
import os
import platform
import sys
import time

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "tools"))
import futvalues  # noqa: E402

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
except ImportError as ex:
    print("JAX is not installed: %s" % ex, file=sys.stderr)
    sys.exit(3)
import models  # noqa: E402


def main(argv):
    args = list(argv)
    runs, out = 5, "."
    for flag in ("--runs", "--out"):
        if flag in args:
            i = args.index(flag)
            if flag == "--runs":
                runs = int(args[i + 1])
            else:
                out = args[i + 1]
            del args[i:i + 2]
    bench, inp, entries = args[0], args[1], args[2:]
    values = [np.array(v).reshape(shape) if shape else v
              for v, shape in futvalues.read_file(inp)]
    fns = models.MAKERS[bench](values)
    stem = os.path.splitext(os.path.basename(inp))[0]
    result = {"jax": jax.__version__, "python": platform.python_version(),
              "devices": [str(dv) for dv in jax.devices()], "entries": {}}
    for e in entries:
        f, fargs = fns[e]
        jf = jax.jit(f)
        res = jax.block_until_ready(jf(*fargs))  # compiles
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            jax.block_until_ready(jf(*fargs))
            times.append((time.perf_counter() - t0) * 1e6)
        flat = [float(v) for r in jax.tree_util.tree_leaves(res) for v in jnp.ravel(r)]
        path = os.path.join(out, "jax_%s_%s.out" % (stem, e))
        with open(path, "wb") as fh:
            fh.write(futvalues.f64_value([len(flat)], flat))
        result["entries"][e] = {"runtimes": times, "output": path}
        print("jax %s %s: median %.1f us" % (stem, e, sorted(times)[len(times) // 2]))
    with open(os.path.join(out, "jax_%s.json" % stem), "w") as fh:
        json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
