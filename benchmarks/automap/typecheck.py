#!/usr/bin/env python3
"""Type-checking time with AUTOMAP against without it, and the sizes of the
rank problems (ILPs), over every `.fut` file under the folders given.

    python3 benchmarks/automap/typecheck.py PARAD DIR... [--runs N]

For each file that type checks, `parad check --automap-stats` runs with
`PARAD_AUTOMAP=off` (no AUTOMAP), unset (AUTOMAP on definitions that do not
check as written: the default) and `always` (AUTOMAP generates and solves
the rank problem of every definition, as the thesis' implementation does),
each `--runs` times (the least time counts). The time compared is the one
parad reports for checking the file's own definitions (the prelude and
process start-up excluded). Files that fail to check are left out.
"""

import os
import statistics
import subprocess
import sys
from pathlib import Path

MODES = {"off": "off", "default": "fallback", "always": "always"}


def check(parad, path, mode):
    env = dict(os.environ, PARAD_AUTOMAP=mode)
    try:
        p = subprocess.run(
            [parad, "check", "--automap-stats", str(path)],
            env=env,
            capture_output=True,
            text=True,
            cwd=path.parent,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0:
        return None
    constraints = []
    micros = None
    unmodelled = 0
    for line in p.stdout.splitlines():
        if line.startswith("time: definitions "):
            micros = int(line.split()[2])
        elif ": not modelled (" in line:
            unmodelled += 1
        elif " constraints " in line:
            words = line.split()
            constraints.append(int(words[words.index("constraints") + 1]))
    return micros, constraints, unmodelled


def main():
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i : i + 2]
    parad, dirs = os.path.abspath(args[0]), args[1:]
    files = sorted(f for d in dirs for f in Path(d).rglob("*.fut"))
    times = {m: [] for m in MODES}
    names = []
    sizes = []
    per_file = []
    unmodelled = 0
    for f in files:
        row = {}
        for m, v in MODES.items():
            best = None
            for _ in range(runs):
                r = check(parad, f.resolve(), v)
                if r is None:
                    break
                best = r if best is None or r[0] < best[0] else best
            if best is None:
                break
            row[m] = best
        if len(row) < len(MODES) or row["off"][0] == 0:
            continue
        for m in MODES:
            times[m].append(row[m][0])
        names.append(f)
        sizes.extend(row["always"][1])
        per_file.append(sum(row["always"][1]))
        unmodelled += row["always"][2]
    n = len(times["off"])
    print(f"files that type check: {n} of {len(files)}")
    total_off = sum(times["off"])
    for m in ("default", "always"):
        ratios = [a / b for a, b in zip(times[m], times["off"])]
        print(
            f"{m:8}: total {sum(times[m]) / 1000:.1f} ms against {total_off / 1000:.1f} ms off "
            f"({sum(times[m]) / total_off:.2f}x); per file mean {statistics.mean(ratios):.2f}x, "
            f"median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x"
        )
    ratios = sorted(
        ((a / b, f) for a, b, f in zip(times["always"], times["off"], names)), reverse=True
    )
    for r, f in ratios[:3]:
        print(f"  slowest with always: {r:.2f}x {f}")
    if sizes:
        print(
            f"ILPs (always): {len(sizes)} definitions modelled, {unmodelled} not; constraints "
            f"median {statistics.median(sizes)}, mean {statistics.mean(sizes):.1f}, largest {max(sizes)}"
        )
        print(
            f"ILPs per program (always): constraints median {statistics.median(per_file)}, "
            f"mean {statistics.mean(per_file):.1f}, largest {max(per_file)}"
        )


if __name__ == "__main__":
    main()
