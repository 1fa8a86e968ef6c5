#!/usr/bin/env python3
"""Converts ADBench hand-tracking data (a model folder and an instance
file, data README §3.3) into Futhark binary values for hand.fut (stdlib
only).

    prepare.py DATA_DIR OUT_DIR          the benchmark inputs and references
    prepare.py --tests DATA_DIR TEST_DIR the small committed test files

Input values, in entry-parameter order:

  simple:       parents [B]i64, base_relatives [B][4][4]f64,
                inverse_base_absolutes [B][4][4]f64, weights [M][B]f64,
                base_positions [M][3]f64, correspondences [N]i64,
                points [N][3]f64, theta [26]f64
  complicated:  the same, with triangles [T][3]i64 after base_positions
                and us [N][2]f64 after theta

(B = 22 bones, M vertices, N correspondences.) The bone matrices are
row-major as in bones.txt; weights[v][b] is vertex v's skinning weight for
bone b (0 where vertices.txt lists none).

Outputs in OUT_DIR:

  hand_simple_c100.in        simple_small/hand1_t26_c100 (N = 100)
  hand_simple_c100.J         its futhark-ad Jacobian [26][300] (copied)
  hand_simple_c100.F         its futhark-ad residuals [100][3] (6 decimals)
  hand_simple_c12800.in      simple_small/hand9_t26_c12800
  hand_complicated_c100.in   complicated_small/hand1_t26_c100
  hand_complicated_c100.J/.F its futhark-ad references (6 decimals)
  hand_complicated_c12800.in complicated_small/hand9_t26_c12800
  hand_simple_check.in       hand/test.txt with hand/model (N = 2)
  hand_complicated_check.in  hand/hand_complicated.txt with hand/model

With --tests, TEST_DIR gets the two ADBench unit-test instances with the
model cut down to the vertices (and triangles) they use, renumbered, which
gives the same residuals and Jacobian, so the files stay small:
simple.in, complicated.in, and their expected values simple.F, simple.J,
complicated.F, complicated.J (Futhark text; J transposed to
[parameters][residuals]) from ADBench's test.{F,J}.txt and
hand_complicated.{F,J}.txt.
"""

import gzip
import os
import shutil
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tools"))
import futvalues  # noqa: E402


def open_text(path):
    """path or path.gz, as text."""
    if os.path.exists(path):
        return open(path)
    return gzip.open(path + ".gz", "rt")


def source(path):
    return path if os.path.exists(path) else path + ".gz"


def read_model(model_dir):
    parents, rel, inv = [], [], []
    with open(os.path.join(model_dir, "bones.txt")) as f:
        for line in f:
            if not line.strip():
                continue
            fs = line.strip().split(":")
            parents.append(int(fs[1]))
            rel.extend(float(x) for x in fs[2:18])
            inv.extend(float(x) for x in fs[18:34])
    nb = len(parents)
    pos, weights = [], []
    with open(os.path.join(model_dir, "vertices.txt")) as f:
        for line in f:
            if not line.strip():
                continue
            fs = line.strip().split(":")
            pos.append([float(x) for x in fs[0:3]])
            n = int(fs[8])
            w = [0.0] * nb
            for k in range(n):
                w[int(fs[9 + 2 * k])] = float(fs[10 + 2 * k])
            weights.append(w)
    tris = []
    with open(os.path.join(model_dir, "triangles.txt")) as f:
        for line in f:
            if line.strip():
                tris.append([int(x) for x in line.strip().split(":")])
    return {"parents": parents, "rel": rel, "inv": inv,
            "pos": pos, "weights": weights, "tris": tris}


def read_instance(path, complicated):
    with open_text(path) as f:
        toks = f.read().split()
    n, nt = int(toks[0]), int(toks[1])
    k = 2
    corr, pts = [], []
    for _ in range(n):
        corr.append(int(toks[k]))
        pts.append([float(x) for x in toks[k + 1:k + 4]])
        k += 4
    us = []
    if complicated:
        for _ in range(n):
            us.append([float(toks[k]), float(toks[k + 1])])
            k += 2
    theta = [float(x) for x in toks[k:k + nt]]
    if len(theta) != nt:
        raise ValueError("%s: file ends early" % path)
    return corr, pts, us, theta


def encode(model, corr, pts, us, theta, complicated):
    nb = len(model["parents"])
    m = len(model["pos"])
    n = len(corr)
    out = [futvalues.value("i64", [nb], model["parents"]),
           futvalues.f64_value([nb, 4, 4], model["rel"]),
           futvalues.f64_value([nb, 4, 4], model["inv"]),
           futvalues.f64_value([m, nb], [w for row in model["weights"] for w in row]),
           futvalues.f64_value([m, 3], [x for p in model["pos"] for x in p])]
    if complicated:
        tris = model["tris"]
        out.append(futvalues.value("i64", [len(tris), 3], [v for t in tris for v in t]))
    out.append(futvalues.value("i64", [n], corr))
    out.append(futvalues.f64_value([n, 3], [x for p in pts for x in p]))
    out.append(futvalues.f64_value([len(theta)], theta))
    if complicated:
        out.append(futvalues.f64_value([n, 2], [u for p in us for u in p]))
    return b"\n".join(out) + b"\n"


def convert(model_dir, inst, out, complicated):
    srcs = [source(inst)] + [os.path.join(model_dir, f)
                             for f in ("bones.txt", "vertices.txt", "triangles.txt")]
    if futvalues.fresh(out, *srcs):
        return
    model = read_model(model_dir)
    corr, pts, us, theta = read_instance(inst, complicated)
    with open(out + ".tmp", "wb") as f:
        f.write(encode(model, corr, pts, us, theta, complicated))
    os.replace(out + ".tmp", out)


def copy(src, out):
    if not futvalues.fresh(out, src):
        shutil.copyfile(src, out)


def prepare(data_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    hand = os.path.join(data_dir, "adbench", "hand")
    for kind, complicated in (("simple", False), ("complicated", True)):
        d = os.path.join(hand, kind + "_small")
        model = os.path.join(d, "model")
        convert(model, os.path.join(d, "hand1_t26_c100.txt"),
                os.path.join(out_dir, "hand_%s_c100.in" % kind), complicated)
        for ext in ("F", "J"):
            copy(os.path.join(d, "hand1_t26_c100." + ext),
                 os.path.join(out_dir, "hand_%s_c100.%s" % (kind, ext)))
        convert(model, os.path.join(d, "hand9_t26_c12800.txt"),
                os.path.join(out_dir, "hand_%s_c12800.in" % kind), complicated)
        inst = "test.txt" if kind == "simple" else "hand_complicated.txt"
        convert(os.path.join(hand, "model"), os.path.join(hand, inst),
                os.path.join(out_dir, "hand_%s_check.in" % kind), complicated)


def text_array(rows):
    return "[" + ",\n ".join("[" + ", ".join(repr(float(x)) + "f64" for x in r) + "]"
                             for r in rows) + "]\n"


def prepare_tests(data_dir, test_dir):
    """Small test inputs: the unit-test instances on the vertices they use."""
    os.makedirs(test_dir, exist_ok=True)
    hand = os.path.join(data_dir, "adbench", "hand")
    model = read_model(os.path.join(hand, "model"))
    for kind, inst, complicated in (("simple", "test", False),
                                    ("complicated", "hand_complicated", True)):
        corr, pts, us, theta = read_instance(os.path.join(hand, inst + ".txt"), complicated)
        if complicated:
            used_tris = sorted(set(corr))
            used = sorted({v for t in used_tris for v in model["tris"][t]})
        else:
            used = sorted(set(corr))
        vnew = {v: i for i, v in enumerate(used)}
        small = dict(model)
        small["pos"] = [model["pos"][v] for v in used]
        small["weights"] = [model["weights"][v] for v in used]
        if complicated:
            tnew = {t: i for i, t in enumerate(used_tris)}
            small["tris"] = [[vnew[v] for v in model["tris"][t]] for t in used_tris]
            corr = [tnew[c] for c in corr]
        else:
            corr = [vnew[c] for c in corr]
        with open(os.path.join(test_dir, kind + ".in"), "wb") as f:
            f.write(encode(small, corr, pts, us, theta, complicated))
        with open(os.path.join(hand, inst + ".F.txt")) as f:
            fv = [float(x) for x in f.read().split()]
        with open(os.path.join(test_dir, kind + ".F"), "w") as f:
            f.write(text_array([fv[3 * i:3 * i + 3] for i in range(len(fv) // 3)]))
        with open(os.path.join(hand, inst + ".J.txt")) as f:
            toks = f.read().split()
        nr, nc = int(toks[0]), int(toks[1])
        jv = [float(x) for x in toks[2:]]
        with open(os.path.join(test_dir, kind + ".J"), "w") as f:
            f.write(text_array([[jv[r * nc + c] for r in range(nr)] for c in range(nc)]))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--tests":
        prepare_tests(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3:
        prepare(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
