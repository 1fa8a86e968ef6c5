#!/usr/bin/env python3
"""Inputs of benchmarks/matmul/matmul.fut (stdlib only): three random n×n
f64 matrices a, b and the output adjoint c, uniform in [-1, 1] from a
fixed seed per size, for n = 1024 (timed) and n = 32 (compared with the
interpreter).

    prepare.py DATA_DIR OUT_DIR        (DATA_DIR is not read)
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402


def prepare(data_dir, out_dir):
    # One seed per file, so that a file's contents do not depend on
    # whether the other one was already there.
    for n, seed in ((1024, 1), (32, 2)):
        p = os.path.join(out_dir, "matmul_%d.in" % n)
        if not os.path.exists(p):
            rng = random.Random(seed)
            with open(p, "wb") as f:
                for _ in range(3):
                    f.write(futvalues.f64_value([n, n], [rng.uniform(-1, 1) for _ in range(n * n)]))


if __name__ == "__main__":
    os.makedirs(sys.argv[2], exist_ok=True)
    prepare(sys.argv[1], sys.argv[2])
