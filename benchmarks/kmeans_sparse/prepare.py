#!/usr/bin/env python3
"""Generated inputs of the sparse k-means benchmark (stdlib only).

    python3 prepare.py DATA_DIR OUT_DIR     (DATA_DIR is not read)
    python3 prepare.py --tests              (rewrites tests/small.in)

The points are the rows of a sparse matrix shaped like a bag-of-words
corpus: k topics, each with a vocabulary of d/10 columns; row i belongs
to topic i mod k and has a random number of distinct columns, 80% of
them drawn from its topic's vocabulary and the rest from all d columns,
with positive values. The initial centres are the first k rows
densified (one per topic). A row whose two nearest centres are at
distances closer than 1e-6 relative is drawn again, so that the
minimum in the cost has no ties (its derivative is then unambiguous).

Each input file holds, in order: values [nnz]f64, column indices
[nnz]i64 (sorted within a row), row offsets [n+1]i64, centres [k][d]f64.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

# stem: (seed, n, d, k, fewest and most nonzeros of a row)
INPUTS = {
    "kmeans_sparse_100k": (20261, 100000, 10000, 10, 25, 75),
    "kmeans_sparse_small": (20262, 1000, 1000, 5, 5, 25),
}
TEST_INPUT = (20263, 200, 100, 4, 2, 12)


def generate(seed, n, d, k, lo, hi):
    """(values, columns, offsets, centres as a flat k*d list)."""
    rng = random.Random(seed)
    vocab = [rng.sample(range(d), d // 10) for _ in range(k)]

    def draw(i):
        voc = vocab[i % k]
        m = rng.randint(lo, hi)
        cs = set()
        while len(cs) < m:
            cs.add(rng.choice(voc) if rng.random() < 0.8 else rng.randrange(d))
        cs = sorted(cs)
        return cs, [rng.uniform(0.1, 2.0) for _ in cs]

    rows = [draw(i) for i in range(k)]
    centres = [0.0] * (k * d)
    # for each column, the centres that have it: [(j, value)]
    bycol = {}
    cn = [0.0] * k
    for j, (cs, vs) in enumerate(rows):
        for c, v in zip(cs, vs):
            centres[j * d + c] = v
            bycol.setdefault(c, []).append((j, v))
            cn[j] += v * v
    for i in range(k, n):
        while True:
            cs, vs = draw(i)
            xn = sum(v * v for v in vs)
            dots = [0.0] * k
            for c, v in zip(cs, vs):
                for j, cv in bycol.get(c, ()):
                    dots[j] += v * cv
            dist = sorted(xn - 2 * dots[j] + cn[j] for j in range(k))
            if dist[1] - dist[0] > 1e-6 * (xn + max(cn)):
                break
        rows.append((cs, vs))
    vals, cols, offs = [], [], [0]
    for cs, vs in rows:
        cols.extend(cs)
        vals.extend(vs)
        offs.append(len(cols))
    return vals, cols, offs, centres


def write_input(path, params):
    seed, n, d, k, lo, hi = params
    vals, cols, offs, centres = generate(seed, n, d, k, lo, hi)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(futvalues.value("f64", [len(vals)], vals))
        f.write(futvalues.value("i64", [len(cols)], cols))
        f.write(futvalues.value("i64", [len(offs)], offs))
        f.write(futvalues.value("f64", [k, d], centres))
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
