#!/usr/bin/env python3
"""Runs `prepare(DATA_DIR, OUT_DIR)` of every benchmark folder's
prepare.py (the folders with a bench.json), which convert the data folder's
files, or generate inputs from a fixed seed, into OUT_DIR.

    prepare_all.py DATA_DIR OUT_DIR [FOLDER...]
"""

import importlib.util
import os
import sys
import time

sys.dont_write_bytecode = True
bench_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    data, out, only = argv[0], argv[1], argv[2:]
    os.makedirs(out, exist_ok=True)
    for d in sorted(os.listdir(bench_dir)):
        path = os.path.join(bench_dir, d, "prepare.py")
        if not os.path.exists(os.path.join(bench_dir, d, "bench.json")) or (only and d not in only):
            continue
        t0 = time.time()
        spec = importlib.util.spec_from_file_location("prepare_" + d, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.prepare(data, out)
        print("prepared %s (%.1f s)" % (d, time.time() - t0), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
