#!/usr/bin/env python3
"""Draws the gradient time of every benchmark row for parad, JAX and
PyTorch (the row's first derivative entry; log scale) from the harness's
results.json.

    plot.py results.json results.png
"""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SYSTEMS = [("parad", "parad (C backend)", "#1b6ca8"), ("jax", "JAX (jit)", "#e07b24"),
           ("torch", "PyTorch", "#3a9e4f")]


def main(argv):
    with open(argv[0]) as f:
        res = json.load(f)
    labels, times = [], []
    for row in res["rows"]:
        entries = list(row["entries"].items())
        if len(entries) < 2:
            continue
        e, r = entries[1]
        labels.append("%s, %s\n`%s`" % (row["name"], row["dataset"].split(" (")[0], e))
        times.append([r.get(s) for s, _, _ in SYSTEMS])
    n = len(labels)
    fig, ax = plt.subplots(figsize=(9, 0.55 * n + 1.8))
    h = 0.27
    for k, (s, name, colour) in enumerate(SYSTEMS):
        ys = [i + (k - 1) * h for i in range(n)]
        ws = [(t[k] or 0) / 1e3 for t in times]
        ax.barh(ys, ws, height=h, label=name, color=colour)
        for y, t in zip(ys, times):
            if t[k] is None:
                ax.text(1e-3, y, " n/a", va="center", fontsize=7)
    ax.set_yticks(range(n))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("gradient time, ms (log scale; lower is better)")
    meta = res["meta"]
    ax.set_title("parad vs JAX vs PyTorch, %d threads, %s (%s)" % (meta["threads"], meta["cpu"], meta["date"]),
                 fontsize=9)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
