#!/usr/bin/env python3
"""Inputs of the bundle-adjustment benchmark (stdlib only).

    prepare.py DATA_DIR OUT_DIR     the benchmark inputs and references
    prepare.py --tests DATA_DIR     rewrites the committed tests/ files

An ADBench BA file (adbench/ba/*.txt) holds n m p, then ONE camera (11
values), point (3), weight and feature (2), which are replicated: n
cameras, m points, p weights and features, and the observations
obs[k] = (k mod n, k mod m). Each input file holds, as Futhark binary
values: cams [n][11]f64, xs [m][3]f64, w [p]f64, obs [p][2]i64,
feats [p][2]f64 (the parameters of every entry point of ba.fut).

Written to OUT_DIR:
  ba_ba1.in, ba_ba1.F     ba1_n49_m7776_p31843 and futhark-ad's reference
                          ([p][2]f64 reprojection errors, [p]f64 weight errors)
  ba_ba8.in               ba8_n88_m64298_p383937
  ba_small.in             a generated instance with distinct cameras, points,
                          weights and features (the C vs interpreter check)
tests/ (committed): test.in, test.F, test.J from ADBench's unit test instance
adbench/ba/test.txt and its expected values (test.J: the CSR values of the
30 x 62 Jacobian, which in ADBench's row-major order are the [10][2][15]
dense blocks and the [10] weight-row values), test_ref.in (test.in, test.F
and test.J one after another) and small.in.
"""

import array
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

DATASETS = {"ba1": "ba1_n49_m7776_p31843", "ba8": "ba8_n88_m64298_p383937"}


def f64(dims, flat):
    return futvalues.value("f64", dims, flat)


def i64(dims, flat):
    return futvalues.value("i64", dims, flat)


def read_ba(path):
    with open(path) as f:
        toks = f.read().split()
    n, m, p = int(toks[0]), int(toks[1]), int(toks[2])
    vals = [float(t) for t in toks[3:]]
    if len(vals) != 17:
        raise ValueError("%s: expected 17 numbers after n m p, got %d" % (path, len(vals)))
    return n, m, p, vals[0:11], vals[11:14], vals[14], vals[15:17]


def encode(cams, xs, w, obs, feats):
    """The five input values; cams, xs, obs, feats as flat lists."""
    n, m, p = len(cams) // 11, len(xs) // 3, len(w)
    return (f64([n, 11], cams) + b"\n" + f64([m, 3], xs) + b"\n" + f64([p], w) + b"\n"
            + i64([p, 2], obs) + b"\n" + f64([p, 2], feats) + b"\n")


def replicated(path):
    n, m, p, cam, x, w, feat = read_ba(path)
    obs = array.array("q", [0]) * (2 * p)
    for k in range(p):
        obs[2 * k] = k % n
        obs[2 * k + 1] = k % m
    return encode(cam * n, x * m, [w] * p, obs, feat * p)


def small(data_dir, seed=20261124, n=4, m=12, p=40):
    """Cameras and points scattered around test.txt's, one camera with a
    zero rotation (the other branch of the Rodrigues formula)."""
    rng = random.Random(seed)
    _, _, _, cam, x, w, feat = read_ba(os.path.join(data_dir, "adbench", "ba", "test.txt"))
    cams = []
    for i in range(n):
        c = [v * (1 + 0.2 * (rng.random() - 0.5)) for v in cam]
        if i == n - 1:
            c[0:3] = [0.0, 0.0, 0.0]
        cams.extend(c)
    xs = [v + rng.uniform(-1, 1) for _ in range(m) for v in x]
    ws = [w * (1 + 0.5 * rng.random()) for _ in range(p)]
    obs = [v for k in range(p) for v in (rng.randrange(n), rng.randrange(m))]
    feats = [v + rng.uniform(-20, 20) for _ in range(p) for v in feat]
    return encode(cams, xs, ws, obs, feats)


def test_refs(data_dir):
    d = os.path.join(data_dir, "adbench", "ba")
    with open(os.path.join(d, "test.F.txt")) as f:
        fv = [float(t) for t in f.read().split()]
    with open(os.path.join(d, "test.J.txt")) as f:
        lines = f.read().split("\n")
    nrows, ncols = (int(t) for t in lines[0].split())
    rows = [int(t) for t in lines[2].split()]
    cols = [int(t) for t in lines[4].split()]
    vals = [float(t) for t in lines[5].split()]
    p = nrows // 3
    n, m, _, _, _, _, _ = read_ba(os.path.join(d, "test.txt"))
    # The pattern must be ADBench's: 15 nonzeros per reprojection row, one per weight row.
    for k in range(p):
        for c in range(2):
            r = 2 * k + c
            want = [11 * (k % n) + t for t in range(11)] + \
                   [11 * n + 3 * (k % m) + t for t in range(3)] + [11 * n + 3 * m + k]
            if cols[rows[r]:rows[r + 1]] != want:
                raise ValueError("test.J.txt: unexpected columns in row %d" % r)
        r = 2 * p + k
        if cols[rows[r]:rows[r + 1]] != [11 * n + 3 * m + k]:
            raise ValueError("test.J.txt: unexpected columns in row %d" % r)
    assert ncols == 11 * n + 3 * m + p and len(vals) == 31 * p
    F = f64([p, 2], fv[:2 * p]) + b"\n" + f64([p], fv[2 * p:]) + b"\n"
    J = f64([p, 2, 15], vals[:30 * p]) + b"\n" + f64([p], vals[30 * p:]) + b"\n"
    return F, J


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def prepare(data_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    ba = os.path.join(data_dir, "adbench", "ba")
    for stem, name in DATASETS.items():
        src, out = os.path.join(ba, name + ".txt"), os.path.join(out_dir, "ba_%s.in" % stem)
        if not futvalues.fresh(out, src):
            write(out, replicated(src))
    src, out = os.path.join(ba, DATASETS["ba1"] + ".F"), os.path.join(out_dir, "ba_ba1.F")
    if not futvalues.fresh(out, src):
        shutil.copyfile(src, out)
    src, out = os.path.join(ba, "test.txt"), os.path.join(out_dir, "ba_small.in")
    if not futvalues.fresh(out, src):
        write(out, small(data_dir))


def prepare_tests(data_dir):
    tests = os.path.join(here, "tests")
    os.makedirs(tests, exist_ok=True)
    inp = replicated(os.path.join(data_dir, "adbench", "ba", "test.txt"))
    write(os.path.join(tests, "test.in"), inp)
    F, J = test_refs(data_dir)
    write(os.path.join(tests, "test_ref.in"), inp + F + J)
    write(os.path.join(tests, "test.F"), F)
    write(os.path.join(tests, "test.J"), J)
    write(os.path.join(tests, "small.in"), small(data_dir))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--tests":
        prepare_tests(sys.argv[2])
    elif len(sys.argv) == 3:
        prepare(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
