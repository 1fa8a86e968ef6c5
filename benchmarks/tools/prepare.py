#!/usr/bin/env python3
"""Converters from the benchmark data folder to Futhark values for the
LSTM and k-means benchmarks (stdlib only; GMM is in adbench.py).

    prepare.py lstm DATA_DIR OUT_DIR NAME...     NAME = l{l}_c{c}
    prepare.py kmeans DATA_DIR OUT_DIR [SMALL_N]

lstm writes OUT_DIR/lstm_NAME.in (binary: main [2l][4b], extra [3][b],
state [2l][b], seq [c][b], all f64) from adbench/lstm/lstm_NAME.txt, and
copies the futhark-ad references lstm_l2_c1024_d14.{F,J} as
lstm_l2_c1024.{F,J}.

kmeans writes OUT_DIR/kmeans_kdd_cup.in (points [n][d]f64 converted from
kmeans/kdd_cup.in.gz's f32 points, then the initial centres [k][d]f64:
the last k points in reverse order) and kmeans_small.in (the first
SMALL_N points, default 5000, with the same centres), for the test block
and for estimating the interpreter's time. A file newer than its source is
left alone.
"""

import array
import gzip
import os
import shutil
import struct
import sys


def header(rank, ty, dims):
    return b"b" + bytes([2, rank]) + (" " * (4 - len(ty)) + ty).encode() + \
        b"".join(struct.pack("<Q", d) for d in dims)


def f64_array(dims, flat):
    a = array.array("d", flat)
    if sys.byteorder != "little":
        a.byteswap()
    return header(len(dims), "f64", dims) + a.tobytes()


def fresh(out, src):
    return os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src)


def read_lstm(path):
    with open(path) as f:
        toks = f.read().split()
    l, c, b = int(toks[0]), int(toks[1]), int(toks[2])
    vals = [float(t) for t in toks[3:]]
    sizes = [2 * l * 4 * b, 3 * b, 2 * l * b, c * b]
    if len(vals) < sum(sizes):
        raise ValueError("%s: file ends early" % path)
    out, pos = [], 0
    for s in sizes:
        out.append(vals[pos:pos + s])
        pos += s
    return l, c, b, out


def lstm(data, out, names):
    src_dir = os.path.join(data, "adbench", "lstm")
    for name in names:
        src = os.path.join(src_dir, "lstm_%s.txt" % name)
        dst = os.path.join(out, "lstm_%s.in" % name)
        if not fresh(dst, src):
            l, c, b, (main, extra, state, seq) = read_lstm(src)
            with open(dst, "wb") as f:
                f.write(f64_array([2 * l, 4 * b], main) + f64_array([3, b], extra)
                        + f64_array([2 * l, b], state) + f64_array([c, b], seq))
    for ext in ("F", "J"):
        ref = os.path.join(src_dir, "lstm_l2_c1024_d14.%s" % ext)
        if os.path.exists(ref):
            shutil.copyfile(ref, os.path.join(out, "lstm_l2_c1024.%s" % ext))


def read_kmeans_points(path):
    """(n, d, flat f32 array) of the points, the 4th value of a kmeans .in.gz."""
    with gzip.open(path, "rb") as f:
        buf = f.read()
    pos = 0
    for _ in range(4):
        while buf[pos:pos + 1].isspace():
            pos += 1
        rank, ty = buf[pos + 2], buf[pos + 3:pos + 7].decode().strip()
        dims = struct.unpack_from("<%dQ" % rank, buf, pos + 7)
        pos += 7 + 8 * rank
        size = {"i32": 4, "i64": 8, "f32": 4, "f64": 8}[ty]
        count = 1
        for dim in dims:
            count *= dim
        if rank == 2:
            pts = array.array("f")
            pts.frombytes(buf[pos:pos + size * count])
            if sys.byteorder != "little":
                pts.byteswap()
            return dims[0], dims[1], pts
        pos += size * count
    raise ValueError("%s: no points" % path)


def kmeans(data, out, small_n=5000, k=5):
    src = os.path.join(data, "kmeans", "kdd_cup.in.gz")
    dst = os.path.join(out, "kmeans_kdd_cup.in")
    small = os.path.join(out, "kmeans_small.in")
    if fresh(dst, src) and fresh(small, src):
        return
    n, d, pts = read_kmeans_points(src)
    pts64 = array.array("d", pts)
    centres = array.array("d")
    for j in range(k):
        i = n - 1 - j
        centres.extend(pts64[i * d:(i + 1) * d])
    cbytes = f64_array([k, d], centres)
    with open(dst, "wb") as f:
        f.write(f64_array([n, d], pts64) + cbytes)
    with open(small, "wb") as f:
        f.write(f64_array([small_n, d], pts64[:small_n * d]) + cbytes)


def main(argv):
    if len(argv) < 3 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    cmd, data, out, rest = argv[0], argv[1], argv[2], argv[3:]
    os.makedirs(out, exist_ok=True)
    if cmd == "lstm":
        lstm(data, out, rest)
    elif cmd == "kmeans":
        kmeans(data, out, *(int(a) for a in rest))
    else:
        print("unknown command %r; see --help" % cmd, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
