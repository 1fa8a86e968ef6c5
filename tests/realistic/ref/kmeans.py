"""Reference for tests/realistic/kmeans.fut.

The cost is sum_p min_j |p - C_j|^2. Its gradient w.r.t. C_j is
2 * sum over the points nearest to C_j of (C_j - p), its Hessian is
diagonal with 2 * count_j on centre j's coordinates (written out by hand
here), and the Newton step gives the mean of the points nearest to each
centre (Lloyd's update). The gradient is also checked against complex-step
derivatives of the cost.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import grad, lcg, plain_refs, re  # noqa: E402

FILE = "kmeans.fut"


def nearest(p, centres):
    ds = [sum((re(a) - re(b)) ** 2 for a, b in zip(p, c)) for c in centres]
    return ds.index(min(ds))


def cost(points, centres):
    total = 0
    for p in points:
        j = nearest(p, centres)
        total += sum((a - b) ** 2 for a, b in zip(p, centres[j]))
    return total


def grad_hess(points, centres):
    k, d = len(centres), len(centres[0])
    g = [[0.0] * d for _ in range(k)]
    h = [[0.0] * d for _ in range(k)]
    for p in points:
        j = nearest(p, centres)
        for t in range(d):
            g[j][t] += 2 * (centres[j][t] - p[t])
            h[j][t] += 2.0
    cs = grad(lambda c: cost(points, c), [centres])[0]
    for a, b in zip(sum(g, []), sum(cs, [])):
        assert abs(a - b) <= 1e-12 * max(1, abs(a)), (a, b)
    return g, h


def lloyd(points, centres):
    k, d = len(centres), len(centres[0])
    sums = [[0.0] * d for _ in range(k)]
    counts = [0] * k
    for p in points:
        j = nearest(p, centres)
        counts[j] += 1
        for t in range(d):
            sums[j][t] += p[t]
    return [[s / counts[j] for s in sums[j]] if counts[j] else list(centres[j])
            for j in range(k)]


def cost_grad_hess(points, centres):
    g, h = grad_hess(points, centres)
    return [(cost(points, centres), "f64"), (g, "f64"), (h, "f64")]


def newton_step(points, centres):
    return [(lloyd(points, centres), "f64")]


def kmeans(points, centres, tol, max_iter):
    c, i = centres, 0
    while i < max_iter:
        c2 = lloyd(points, c)
        moved = sum(sum((a - b) ** 2 for a, b in zip(u, v)) for u, v in zip(c, c2))
        c, i = c2, i + 1
        if moved < tol:
            break
    return [(c, "f64"), (i, "i64"), (cost(points, c), "f64")]


REF = {"cost_grad_hess": cost_grad_hess, "newton_step": newton_step, "kmeans": kmeans}
REFS = plain_refs(FILE, REF)


def clusters(seed, n, d, centres):
    """n points in d dimensions around the given centres (3 decimals)."""
    r = lcg(seed)
    return [[round(centres[i % len(centres)][t] + r(), 3) for t in range(d)] for i in range(n)]


P1 = [[0.125, 0.5], [1.0, -0.25], [3.0, 3.5], [2.75, 4.0], [-2.0, 1.0]]
C1 = [[0.0, 0.0], [3.0, 3.0]]
P2 = clusters(7, 24, 3, [[0.0, 0.0, 0.0], [4.0, 1.0, -2.0], [-3.0, 5.0, 1.0]])
C2 = [P2[-1], P2[-2], P2[-3]]
# one centre far from every point: it keeps a zero Hessian and stays put
C3 = [[0.5, 0.5], [100.0, 100.0], [2.5, 3.5]]

CASES = [
    (["cost_grad_hess"], [(P1, "f64"), (C1, "f64")], "5 points, 2 centres in 2-D"),
    (["cost_grad_hess"], [(P2, "f64"), (C2, "f64")], "24 points, 3 centres in 3-D"),
    (["cost_grad_hess"], [(P1, "f64"), (C3, "f64")], "an empty cluster"),
    (["newton_step"], [(P1, "f64"), (C1, "f64")], None),
    (["newton_step"], [(P1, "f64"), (C3, "f64")], None),
    (["kmeans"], [(P2, "f64"), (C2, "f64"), (1e-12, "f64"), (50, "i64")],
     "Newton iterations to convergence"),
    (["kmeans"], [(P2, "f64"), (C2, "f64"), (1e-12, "f64"), (1, "i64")], None),
]
