#!/usr/bin/env python3
"""Converter from the k-means data of the data folder to Futhark values
for benchmarks/kmeans/kmeans.fut (stdlib only).

    prepare.py DATA_DIR OUT_DIR [SMALL_N]

writes OUT_DIR/kmeans_kdd_cup.in (points [n][d]f64 converted from
kmeans/kdd_cup.in.gz's f32 points, then the initial centres [k][d]f64:
the last k points in reverse order) and kmeans_small.in (the first
SMALL_N points, default 5000, with the same centres), on which the harness
compares the C backend with the interpreter. A file newer than its source
is left alone.
"""

import array
import gzip
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402
from futvalues import f64_value as f64_array  # noqa: E402


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


def prepare(data, out, small_n=5000, k=5):
    src = os.path.join(data, "kmeans", "kdd_cup.in.gz")
    dst = os.path.join(out, "kmeans_kdd_cup.in")
    small = os.path.join(out, "kmeans_small.in")
    if futvalues.fresh(dst, src) and futvalues.fresh(small, src):
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
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    os.makedirs(argv[1], exist_ok=True)
    prepare(argv[0], argv[1], *(int(a) for a in argv[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
