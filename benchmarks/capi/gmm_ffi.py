#!/usr/bin/env python3
"""Times the GMM gradient (benchmarks/gmm/gmm.fut, entry `gradient`)
called from Python through futhark-ffi, on a Futhark input file.

    gmm_ffi.py MODULE_DIR INPUT.in RUNS OUT.json

MODULE_DIR holds `_gmm*.so`, built by futhark-ffi's `build_futhark_ffi gmm`
from `parad multicore --library -o gmm gmm.fut`. Needs numpy, cffi and
futhark-ffi (run it with the Python of a virtual environment that has
them; see README.md). Writes OUT.json:

    {"runtimes": [µs of each timed call, inputs already Futhark arrays],
     "numpy_runtimes": [µs of each call given numpy arrays (copied in)],
     "result": the gradient flattened (alphas, means, icf), "shapes": [...]}

One warm-up call first. As in `parad bench`, a call's results are freed
outside the timed region."""

import json
import os
import sys
import time

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tools"))
import futvalues  # noqa: E402


def main(argv):
    module_dir, inp, runs, out = argv[0], argv[1], int(argv[2]), argv[3]
    import numpy as np
    from futhark_ffi import Futhark

    sys.path.insert(0, os.path.abspath(module_dir))
    import _gmm

    vals = futvalues.read_file(inp)
    alphas, means, icf, x = [np.array(v, dtype=np.float64).reshape(s) for v, s in vals[:4]]
    gamma = float(vals[4][0])
    wm = int(vals[5][0])
    g = Futhark(_gmm)

    def fut(a):
        return g.to_futhark(g.types[g.ffi.typeof("struct futhark_f64_%dd *" % a.ndim)], a)

    args = (fut(alphas), fut(means), fut(icf), fut(x), gamma, wm)
    nargs = (alphas, means, icf, x, gamma, wm)

    def timed(a, n):
        ts = []
        for _ in range(n):
            t0 = time.perf_counter()
            r = g.gradient(*a)
            t1 = time.perf_counter()
            del r  # frees the result (ffi.gc), outside the timed region
            ts.append((t1 - t0) * 1e6)
        return ts

    res = g.gradient(*args)  # warm-up, and the result to check
    runtimes = timed(args, runs)
    numpy_runtimes = timed(nargs, max(1, runs // 2))

    tup = g.ffi.typeof(res).item.cname.split()[1][len("futhark_opaque_"):]
    parts = []
    for i in range(3):
        ty = "struct futhark_f64_%dd *" % (1 if i == 0 else 2)
        p = g.ffi.new(ty + "*")
        proj = getattr(g.lib, "futhark_project_opaque_%s_%d" % (tup, i))
        if proj(g.ctx, p, res) != 0:
            raise SystemExit("projection %d failed" % i)
        parts.append(g.from_futhark(p[0]))
        getattr(g.lib, "futhark_free_f64_%dd" % (1 if i == 0 else 2))(g.ctx, p[0])
    with open(out, "w") as f:
        json.dump({"runtimes": runtimes, "numpy_runtimes": numpy_runtimes,
                   "result": [float(v) for p in parts for v in p.ravel()],
                   "shapes": [list(p.shape) for p in parts]}, f)


if __name__ == "__main__":
    main(sys.argv[1:])
