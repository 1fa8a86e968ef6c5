"""Reference gradients for tests/ad, derived by hand (not by AD)."""
import math


def sumsq_sin(xs):
    return [2 * x * math.sin(x) + x * x * math.cos(x) for x in xs]


def product(xs):
    out = []
    for i in range(len(xs)):
        p = 1.0
        for j, x in enumerate(xs):
            if j != i:
                p *= x
        out.append(p)
    return out


def maximum(xs):
    m = max(xs)
    k = xs.index(m)
    return [1.0 if i == k else 0.0 for i in range(len(xs))]


def matvec(a, x, ybar):
    abar = [[yb * xj for xj in x] for yb in ybar]
    xbar = [sum(ybar[i] * a[i][j] for i in range(len(a))) for j in range(len(x))]
    return (abar, xbar)


def loop_poly(x):
    y, d = x, 1.0
    for i in range(3):
        y, d = y * y + i, 2 * y * d
    return d


def prefix_sums(xs, ybar):
    return [sum(ybar[i:]) for i in range(len(xs))]


def histogram(inds, vs, ybar):
    return [ybar[i] if 0 <= i < len(ybar) else 0.0 for i in inds]


def branch(x):
    return 3 * x * x if x > 0 else math.exp(x)


def with_primal(x, y):
    return (math.log(x * y) + x / y, 1 / x + 1 / y, 1 / y - x / (y * y))


REFS = {
    "ad/vjp_rules.fut": {
        "sumsq_sin": sumsq_sin,
        "product": product,
        "maximum": maximum,
        "matvec": matvec,
        "loop_poly": loop_poly,
        "histogram": histogram,
        "branch": branch,
        "with_primal": with_primal,
    },
    "ad/vjp_scan.fut": {"prefix_sums": prefix_sums},
}
