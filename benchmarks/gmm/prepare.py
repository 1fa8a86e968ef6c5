#!/usr/bin/env python3
"""Convert ADBench GMM files into Futhark value files (stdlib only).

The GMM text format (d K n, alphas, means, icf, points, "gamma m") becomes
the six arguments of benchmarks/gmm/gmm.fut's entry points:

    alphas [K]f64, means [K][d]f64, icf [K][d(d+1)/2]f64, x [n][d]f64,
    gamma f64, wm i64

Commands:

    prepare.py gmm IN OUT [--text] [--replicate N]
        Convert one GMM file (IN may be gzipped). Binary output unless
        --text. 2.5M-style files hold a single point: --replicate N
        repeats it N times (without it, one point is used).

    prepare.py gmm-ref D K F_TXT J_TXT OUT_F OUT_J
        Turn ADBench's plain-number references (test.F.txt, test.J.txt:
        the objective and the flattened gradient alpha, mu, icf) into
        Futhark text values: one f64, and three arrays [K], [K][d], [K][m].

    prepare.py prepare DATA_DIR OUT_DIR [NAME...]
        Make the benchmark datasets used by benchmarks/gmm/gmm.fut in
        OUT_DIR. NAME is e.g. d2_K10_1k or d10_K5_10k (default: the
        names listed in DEFAULT_SETS). References (.F, .J) are copied or
        converted where they exist. Also writes gmm_d32_K200_10k_n2.in
        (its first 2 points), the input on which the harness compares
        the C backend with the interpreter.
"""

import gzip
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402

DEFAULT_SETS = ["d2_K10_1k", "d10_K5_1k", "d32_K200_10k"]


def open_maybe_gz(path):
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path = path + ".gz"
    if path.endswith(".gz"):
        return gzip.open(path, "rt")
    return open(path)


def read_gmm(path, replicate=None):
    with open_maybe_gz(path) as f:
        toks = f.read().split()
    d, k, n = int(toks[0]), int(toks[1]), int(toks[2])
    m = d * (d + 1) // 2
    pos = 3

    def take(count):
        nonlocal pos
        vals = [float(t) for t in toks[pos:pos + count]]
        if len(vals) != count:
            raise ValueError("%s: file ends early" % path)
        pos += count
        return vals

    alphas = take(k)
    means = [take(d) for _ in range(k)]
    icf = [take(m) for _ in range(k)]
    rest = len(toks) - pos - 2
    if rest == n * d:
        x = [take(d) for _ in range(n)]
    elif rest == d:
        point = take(d)
        x = [point] * (replicate or 1)
    else:
        raise ValueError("%s: %d point values, expected %d or %d"
                         % (path, rest, n * d, d))
    gamma = float(toks[pos])
    wm = int(toks[pos + 1])
    return d, k, alphas, means, icf, x, gamma, wm


def shape_of(v):
    shape = []
    while isinstance(v, list):
        shape.append(len(v))
        v = v[0] if v else None
    return shape


def flat(v):
    if isinstance(v, list):
        for e in v:
            yield from flat(e)
    else:
        yield v


def bin_value(v, ty):
    """One value in Futhark's binary data format (ty: 'f64' or 'i64')."""
    shape = shape_of(v)
    head = b"b" + bytes([2, len(shape)]) + (" " + ty).encode()
    head += b"".join(struct.pack("<Q", s) for s in shape)
    fmt = "<d" if ty == "f64" else "<q"
    return head + b"".join(struct.pack(fmt, e) for e in flat(v))


def text_value(v, ty):
    if isinstance(v, list):
        if not v:
            return "empty(%s%s)" % ("".join("[%d]" % s for s in shape_of(v)), ty)
        return "[" + ", ".join(text_value(e, ty) for e in v) + "]"
    if ty == "f64":
        return repr(float(v)) + "f64"
    return "%d%s" % (v, ty)


def gmm_values(parsed):
    _, _, alphas, means, icf, x, gamma, wm = parsed
    return [(alphas, "f64"), (means, "f64"), (icf, "f64"), (x, "f64"),
            (gamma, "f64"), (wm, "i64")]


def write_values(path, values, text):
    if text:
        with open(path, "w") as f:
            for v, ty in values:
                f.write(text_value(v, ty) + "\n")
    else:
        with open(path, "wb") as f:
            for v, ty in values:
                f.write(bin_value(v, ty))


def read_numbers(path):
    with open(path) as f:
        return [float(t) for t in f.read().split()]


def gmm_ref(d, k, f_txt, j_txt, out_f, out_j):
    m = d * (d + 1) // 2
    fval = read_numbers(f_txt)
    jac = read_numbers(j_txt)
    if len(fval) != 1 or len(jac) != k * (1 + d + m):
        raise ValueError("reference sizes do not match d=%d K=%d" % (d, k))
    da = jac[:k]
    dmu = [jac[k + i * d:k + (i + 1) * d] for i in range(k)]
    off = k + k * d
    dq = [jac[off + i * m:off + (i + 1) * m] for i in range(k)]
    write_values(out_f, [(fval[0], "f64")], True)
    write_values(out_j, [(da, "f64"), (dmu, "f64"), (dq, "f64")], True)


def prepare(data_dir, out_dir, names=DEFAULT_SETS):
    gmm_dir = os.path.join(data_dir, "adbench", "gmm")
    os.makedirs(out_dir, exist_ok=True)
    # the ADBench unit-test instance
    test_in = os.path.join(gmm_dir, "test.txt")
    parsed = read_gmm(test_in)
    write_values(os.path.join(out_dir, "gmm_test.in"), gmm_values(parsed), True)
    gmm_ref(parsed[0], parsed[1], os.path.join(gmm_dir, "test.F.txt"),
            os.path.join(gmm_dir, "test.J.txt"),
            os.path.join(out_dir, "gmm_test.F"), os.path.join(out_dir, "gmm_test.J"))
    for name in names:
        dk, size = name.rsplit("_", 1)
        src = os.path.join(gmm_dir, size, "gmm_%s.txt" % dk)
        dst = os.path.join(out_dir, "gmm_%s.in" % name)
        # the first 2 points of the 10k set: the input on which the C
        # backend is compared with the interpreter
        small = os.path.join(out_dir, "gmm_%s_n2.in" % name) if name == "d32_K200_10k" else None
        if not (futvalues.fresh(dst, src) and (small is None or futvalues.fresh(small, src))):
            d, k, alphas, means, icf, x, gamma, wm = read_gmm(src)
            write_values(dst, gmm_values((d, k, alphas, means, icf, x, gamma, wm)), False)
            if small:
                write_values(small, gmm_values((d, k, alphas, means, icf, x[:2], gamma, wm)), False)
        for ext in ("F", "J"):
            ref = os.path.join(gmm_dir, size, "gmm_%s.%s" % (dk, ext))
            if os.path.exists(ref):
                shutil.copyfile(ref, os.path.join(out_dir, "gmm_%s.%s" % (name, ext)))
        print("prepared %s" % dst)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    cmd, args = argv[0], argv[1:]
    if cmd == "gmm":
        text = "--text" in args
        rep = None
        if "--replicate" in args:
            i = args.index("--replicate")
            rep = int(args[i + 1])
            del args[i:i + 2]
        args = [a for a in args if a != "--text"]
        write_values(args[1], gmm_values(read_gmm(args[0], rep)), text)
    elif cmd == "gmm-ref":
        gmm_ref(int(args[0]), int(args[1]), *args[2:6])
    elif cmd == "prepare":
        prepare(args[0], args[1], args[2:] or DEFAULT_SETS)
    else:
        print("unknown command %r; see --help" % cmd, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
