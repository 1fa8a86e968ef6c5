#!/usr/bin/env python3
"""Inputs of the reverse-AD micro-benchmarks (benchmarks/micro/*.fut).

    python3 prepare.py DATA_DIR OUT_DIR

Everything is generated with random.Random (fixed seeds, one generator
per array); DATA_DIR is not read.
For each program STEM (reduce_add, ..., map_free) this writes
OUT_DIR/micro_STEM.in (the timed input, Futhark binary values in the
order of the entry parameters) and OUT_DIR/micro_STEM_check.in (a small
input on which the C backend is compared with the interpreter). A file is
left alone when it exists and is newer than this script.

The large inputs share a few arrays of N values (generating tens of
millions of numbers in pure Python is the slow part):
  U  uniform in [-1, 1): the summed, scanned or written values (and the
     values whose minimum is taken: 53-bit random doubles, so no ties)
  P  1 + 1e-3·u, u uniform in [-1, 1): the factors of products, close to 1
     so that products of millions of them stay finite
  V, W  uniform in [-1, 1): output adjoints
  bins uniform in [0, 100000), and the same mod 1000
Scatter writes K = N/2 values to the distinct positions (A·i + 1) mod N
(A odd and prime to 5, so i ↦ A·i + 1 is a bijection mod N = 4·10^6).
The generic histogram takes the first N_HIST_GENERIC bins and values.
"""

import array
import os
import random
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402

SEED = 20261124
N = 4_000_000           # elements of the reduce, scan, hist and map inputs
K = N // 2              # values written by scatter
N_HIST_GENERIC = 500_000    # values of the generic histogram (its vjp sorts them)
BINS_MANY = 100_000     # bins of hist min / hist generic, table of map_free
BINS_FEW = 1_000        # bins of hist +
STRIDE = 6_700_417      # scatter positions (STRIDE·i + 1) mod N
CHECK_N = 20000         # elements of the small check inputs
CHECK_BINS = 37

STEMS = ["reduce_add", "reduce_mul", "reduce_min", "reduce_affine",
         "scan_add", "scan_mul", "scan_affine",
         "hist_add", "hist_min", "hist_generic", "scatter", "map_free"]


def f64(xs):
    """A Futhark binary f64 array (xs: array('d') or list)."""
    return futvalues.f64_value([len(xs)], xs)


def scalar(x):
    return futvalues.f64_value([], [x])


def i64(xs):
    a = array.array("q", xs)
    if sys.byteorder != "little":
        a.byteswap()
    return b"b" + bytes([2, 1]) + b" i64" + struct.pack("<Q", len(a)) + a.tobytes()


class Gen:
    """The random arrays of one size n, each made once on first use."""

    def __init__(self, seed, n, k, many, few, n_generic):
        self.seed = seed
        self.n, self.k, self.many, self.few = n, k, many, few
        self.n_generic = n_generic
        self.cache = {}

    def get(self, name):
        """The array `name`, from its own generator random.Random("SEED-name")
        so that it does not depend on which files are (re)made."""
        if name not in self.cache:
            self.rng = random.Random("%d-%s" % (self.seed, name))
            self.cache[name] = getattr(self, "make_" + name)()
        return self.cache[name]

    def uniform(self, m):
        r = self.rng.random
        return array.array("d", [2.0 * r() - 1.0 for _ in range(m)])

    def make_U(self):
        return self.uniform(self.n)

    def make_V(self):
        return self.uniform(self.n)

    def make_W(self):
        return self.uniform(self.n)

    def make_P(self):
        r = self.rng.random
        return array.array("d", [1.0 + 2e-3 * r() - 1e-3 for _ in range(self.n)])

    def make_small(self):
        """Small values for the generic histogram: 1e-3·u."""
        return array.array("d", [1e-3 * u for u in self.get("U")])

    def make_bins(self):
        r, m = self.rng.random, self.many
        return array.array("q", [int(r() * m) for _ in range(self.n)])

    def make_bins_few(self):
        f = self.few
        return array.array("q", [b % f for b in self.get("bins")])

    def make_dest_many(self):
        return self.uniform(self.many)

    def make_dest_few(self):
        return self.uniform(self.few)

    def make_rbar_many(self):
        return self.uniform(self.many)

    def make_rbar_few(self):
        return self.uniform(self.few)

    def make_dest_min(self):
        """Each bin's minimum of its ~n/many values of U lies near
        -1 + 2·many/n; destinations spread around it keep about half the
        bins (no ties: different random doubles)."""
        r, lo, w = self.rng.random, -1.0, 4.0 * self.many / self.n
        return array.array("d", [lo + w * r() for _ in range(self.many)])

    def make_scatter_is(self):
        n = self.n
        return array.array("q", [(STRIDE * i + 1) % n for i in range(self.k)])

    def make_scatter_vs(self):
        return self.uniform(self.k)

    def make_table(self):
        return self.uniform(self.many)

    def make_s(self):
        return self.rng.random() - 0.5

    def make_adj(self):
        return [2.0 * self.rng.random() - 1.0 for _ in range(2)]

    # The inputs of each program, in entry-parameter order.
    def inputs(self, stem):
        g = self.get
        adj = g("adj")
        if stem == "reduce_add":
            return [f64(g("U")), scalar(adj[0])]
        if stem == "reduce_mul":
            return [f64(g("P")), scalar(adj[0])]
        if stem == "reduce_min":
            return [f64(g("U")), scalar(adj[0])]
        if stem == "reduce_affine":
            return [f64(g("P")), f64(g("U")), scalar(adj[0]), scalar(adj[1])]
        if stem == "scan_add":
            return [f64(g("U")), f64(g("V"))]
        if stem == "scan_mul":
            return [f64(g("P")), f64(g("V"))]
        if stem == "scan_affine":
            return [f64(g("P")), f64(g("U")), f64(g("V")), f64(g("W"))]
        if stem == "hist_add":
            return [f64(g("dest_few")), i64(g("bins_few")), f64(g("U")), f64(g("rbar_few"))]
        if stem == "hist_min":
            return [f64(g("dest_min")), i64(g("bins")), f64(g("U")), f64(g("rbar_many"))]
        if stem == "hist_generic":
            ng = self.n_generic
            return [f64(g("dest_many")), i64(g("bins")[:ng]), f64(g("small")[:ng]), f64(g("rbar_many"))]
        if stem == "scatter":
            return [f64(g("U")), i64(g("scatter_is")), f64(g("scatter_vs")), f64(g("V"))]
        if stem == "map_free":
            return [f64(g("table")), i64(g("bins")), f64(g("U")), scalar(g("s")), f64(g("V"))]
        raise KeyError(stem)


class CheckGen(Gen):
    """The small inputs: like the large ones, but with exact zeros in the
    products (one in reduce_mul, two in scan_mul), some out-of-range
    indices in the histograms and scatter, and the scatter positions a
    permutation's prefix of a size that is prime to STRIDE."""

    def make_P(self):
        p = super().make_P()
        p[self.n // 3] = 0.0
        return p

    def make_P2(self):
        p = super().make_P()
        p[self.n // 4] = 0.0
        p[self.n // 2] = 0.0
        return p

    def make_bins(self):
        b = super().make_bins()
        for i in range(0, self.n, 97):
            b[i] = -1 if i % 2 else self.many + i
        return b

    def make_bins_few(self):
        return self.get("bins")

    def make_scatter_is(self):
        n = self.n
        return array.array("q", [(STRIDE * i + 1) % n if i % 50 else n + i for i in range(self.k)])

    def inputs(self, stem):
        if stem == "scan_mul":
            return [f64(self.get("P2")), f64(self.get("V"))]
        if stem == "map_free":
            # Indices of map_free must be in range.
            m = self.many
            idx = array.array("q", [b % m for b in self.get("bins")])
            g = self.get
            return [f64(g("table")), i64(idx), f64(g("U")), scalar(g("s")), f64(g("V"))]
        return super().inputs(stem)


def prepare(data_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for suffix, gen in [("_check", lambda: CheckGen(SEED + 1, CHECK_N, CHECK_N // 2, CHECK_BINS, CHECK_BINS, CHECK_N)),
                        ("", lambda: Gen(SEED, N, K, BINS_MANY, BINS_FEW, N_HIST_GENERIC))]:
        g = None
        for stem in STEMS:
            path = os.path.join(out_dir, "micro_%s%s.in" % (stem, suffix))
            if futvalues.fresh(path, os.path.abspath(__file__)):
                continue
            if g is None:
                g = gen()
            tmp = path + ".tmp"
            with open(tmp, "wb") as f:
                for v in g.inputs(stem):
                    f.write(v)
            os.replace(tmp, path)
            print("wrote", path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: prepare.py DATA_DIR OUT_DIR")
    prepare(sys.argv[1], sys.argv[2])
