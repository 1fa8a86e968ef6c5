#!/usr/bin/env python3
"""Converter from the ADBench LSTM files of the data folder to Futhark
values for benchmarks/lstm/lstm.fut (stdlib only).

    prepare.py DATA_DIR OUT_DIR [NAME...]     NAME = l{l}_c{c}

writes OUT_DIR/lstm_NAME.in (binary: main [2l][4b], extra [3][b],
state [2l][b], seq [c][b], all f64) from adbench/lstm/lstm_NAME.txt
(default: l2_c1024 and l4_c4096), lstm_l4_c4096_c256.in (its first 256
characters, the input on which the harness compares the C backend with
the interpreter), and copies the futhark-ad references
lstm_l2_c1024_d14.{F,J} as lstm_l2_c1024.{F,J}. A file newer than its
source is left alone.
"""

import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import futvalues  # noqa: E402
from futvalues import f64_value as f64_array  # noqa: E402


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


DEFAULT_SETS = ["l2_c1024", "l4_c4096"]


def prepare(data, out, names=DEFAULT_SETS):
    src_dir = os.path.join(data, "adbench", "lstm")
    for name in names:
        src = os.path.join(src_dir, "lstm_%s.txt" % name)
        dst = os.path.join(out, "lstm_%s.in" % name)
        small = os.path.join(out, "lstm_l4_c4096_c256.in") if name == "l4_c4096" else None
        if futvalues.fresh(dst, src) and (small is None or futvalues.fresh(small, src)):
            continue
        l, c, b, (main, extra, state, seq) = read_lstm(src)
        params = f64_array([2 * l, 4 * b], main) + f64_array([3, b], extra) + f64_array([2 * l, b], state)
        with open(dst, "wb") as f:
            f.write(params + f64_array([c, b], seq))
        if small:
            with open(small, "wb") as f:
                f.write(params + f64_array([256, b], seq[:256 * b]))
    for ext in ("F", "J"):
        ref = os.path.join(src_dir, "lstm_l2_c1024_d14.%s" % ext)
        if os.path.exists(ref):
            shutil.copyfile(ref, os.path.join(out, "lstm_l2_c1024.%s" % ext))


def main(argv):
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    os.makedirs(argv[1], exist_ok=True)
    prepare(argv[0], argv[1], argv[2:] or DEFAULT_SETS)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
