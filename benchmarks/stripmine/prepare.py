#!/usr/bin/env python3
"""Generated inputs of the Lorenz-96 strip-mining benchmark (stdlib only).

    python3 prepare.py DATA_DIR OUT_DIR     (DATA_DIR is not read)
    python3 prepare.py --tests              (rewrites tests/small.in)

Each input holds x0 [d]f64, F f64, dt f64, T i64: the initial state is
the equilibrium x = F plus a uniform perturbation in [-0.5, 0.5), with
F = 4 (where the system is still chaotic, though its derivatives over
the horizons used here, T dt = 2 to 4, grow only a thousandfold, so
rounding differences stay far below the 1e-8 agreement wanted).
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

# stem: (seed, d, F, dt, T)
INPUTS = {
    "lorenz96_d4000_t1000": (9601, 4000, 4.0, 0.004, 1000),
    "lorenz96_small": (9602, 64, 4.0, 0.01, 400),
}
TEST_INPUT = (9603, 40, 4.0, 0.01, 200)


def write_input(path, params):
    seed, d, f, dt, t = params
    rng = random.Random(seed)
    x0 = [f + rng.uniform(-0.5, 0.5) for _ in range(d)]
    tmp = path + ".tmp"
    with open(tmp, "wb") as out:
        out.write(futvalues.value("f64", [d], x0))
        out.write(futvalues.value("f64", [], [f]))
        out.write(futvalues.value("f64", [], [dt]))
        out.write(futvalues.value("i64", [], [t]))
    os.replace(tmp, path)


def prepare(data_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for stem, params in INPUTS.items():
        path = os.path.join(out_dir, stem + ".in")
        if not futvalues.fresh(path, os.path.abspath(__file__)):
            write_input(path, params)


if __name__ == "__main__":
    if sys.argv[1:] == ["--tests"]:
        write_input(os.path.join(here, "tests", "small.in"), TEST_INPUT)
    else:
        prepare(sys.argv[1], sys.argv[2])
