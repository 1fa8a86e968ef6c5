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


# ---- ad/int_bool.fut: integers wrap around, booleans in (||, &&)

def wrap_int(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def cube(x):
    return wrap_int(3 * x * x, 32)


def wrap(x, y):
    return wrap_int(2 * y, 64)


def wrap32(x, y):
    return wrap_int(2 * y, 32)


def div_x(x, y):
    # 1 quot y, truncating towards zero
    return int(1 / y) if y != 0 else 0


def argmax_grad(xs):
    k = xs.index(max(xs))
    return [1 if i == k else 0 for i in range(len(xs))]


def bools(x, y):
    # d(!x) = x·ẋ; && and || short-circuit: the tangent of the branch taken
    return (x, x, not x)


def scatter_dup(xs):
    # writes at [0, 1, 0, 2] of xs·[1, 2, 3, 4]; the last write to 0 wins
    return [0.0, 2.0, 3.0, 4.0]


# ---- ad/custom_vjp.fut: the custom adjoints, not the true derivatives

def custom_rev(x):
    return 3 * 10 + math.sqrt(2 * x)


def pairs(as_, bs):
    return ([1.0] * len(as_), [2.0] * len(bs))


def tape(x):
    return math.copysign(1.0, x) * 2 if x != 0 else 0.0


# ---- ad/sparse_minmax.fut: nearest centres, first minimum on ties

def nearest(p, cs):
    ds = [sum((a - b) ** 2 for a, b in zip(p, c)) for c in cs]
    return ds.index(min(ds))


def kmeans_grad(ps, cs):
    g = [[0.0] * len(c) for c in cs]
    for p in ps:
        if cs:
            j = nearest(p, cs)
            g[j] = [gi + 2 * (c - a) for gi, c, a in zip(g[j], cs[j], p)]
    return g


def kmeans_grad_points(ps, cs):
    return [[2 * (a - c) for a, c in zip(p, cs[nearest(p, cs)])] for p in ps]


def max_square(xs):
    sq = [x * x for x in xs]
    k = sq.index(max(sq))
    return [2 * x if i == k else 0.0 for i, x in enumerate(xs)]


def max_plus_sum(xs):
    k = xs.index(max(xs))
    return [2.0 if i == k else 1.0 for i in range(len(xs))]



# ---- ad/acc_writes.fut: writes keep the adjoint of their cell

def acc_writes(xs, is_, ys, scale=2.0):
    n = len(xs)
    written = {i for i in is_ if 0 <= i < n}
    xbar = [0.0 if j in written else 1.0 for j in range(n)]
    ybar = [scale if 0 <= i < n else 0.0 for i in is_]
    return (xbar, ybar)


def acc_rows(xs, is_, ys):
    n, k = len(xs), len(xs[0])
    written = {i for i in is_ if 0 <= i < n}
    xbar = [[0.0 if j in written else 1.0] * k for j in range(n)]
    ybar = [[3.0 if 0 <= i < n else 0.0] * k for i in is_]
    return (xbar, ybar)



# ---- ad/stripmine.fut: the same values with and without strip-mining

def power_grad(x, n):
    return (x ** (n + 1), (n + 1) * x ** n)

# ---- ad/minmax_extremes.fut: min/max at the extremes of integer types

INT_RANGE = {
    "u64": (0, 2 ** 64 - 1),
    "i64": (-2 ** 63, 2 ** 63 - 1),
    "i8": (-128, 127),
    "u8": (0, 255),
}


def first_better(xs, start, better):
    """Index of the first element strictly better than everything before
    it and than `start` (None if `start` is never beaten)."""
    best, k = start, None
    for i, x in enumerate(xs):
        if better(x, best):
            best, k = x, i
    return k


def red_minmax(t, seed=5):
    lo, hi = INT_RANGE[t]

    def adjoints(xs):
        out = []
        for start, better in ((hi, lambda a, b: a < b), (lo, lambda a, b: a > b)):
            k = first_better(xs, start, better)
            out.append([seed if i == k else 0 for i in range(len(xs))])
        return tuple(out)
    return adjoints


def hist_minmax(dst, is_, vs):
    m = len(dst)
    seeds = [b + 1 for b in range(m)]
    out = []
    for better in (lambda a, b: a < b, lambda a, b: a > b):
        dbar, vbar = list(seeds), [0] * len(vs)
        for b in range(m):
            mine = [v for i, v in zip(is_, vs) if i == b]
            pos = [j for j, i in enumerate(is_) if i == b]
            k = first_better(mine, dst[b], better)
            if k is not None:
                dbar[b] = 0
                vbar[pos[k]] = seeds[b]
        out += [dbar, vbar]
    return tuple(out)



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
    "ad/int_bool.fut": {
        "cube_jvp": cube,
        "cube_vjp": cube,
        "wrap": wrap,
        "wrap32": wrap32,
        "div_x": div_x,
        "conv": lambda x: 3.0,
        "conv_back": lambda x: 1,
        "argmax_grad": argmax_grad,
        "bools": bools,
        "compare": lambda x: 0,
        "scatter_dup": scatter_dup,
    },
    "ad/custom_vjp.fut": {
        "primal": lambda x: 2 * x,
        "fwd": lambda x: 4.0,
        "rev": custom_rev,
        "pairs": pairs,
        "tape": tape,
        "in_loop": lambda x: 1000.0,
    },
    "ad/stripmine.fut": {
        "plain": power_grad,
        "strip2": power_grad,
        "strip3": power_grad,
        "strip40": power_grad,
        "prefix": lambda xs: [float(len(xs) - i) for i in range(len(xs))],
    },
    "ad/acc_writes.fut": {"writes": acc_writes, "rows": acc_rows},
    "ad/sparse_minmax.fut": {
        "kmeans_grad": kmeans_grad,
        "kmeans_grad_points": kmeans_grad_points,
        "max_square": max_square,
        "max_plus_sum": max_plus_sum,
    },
    "ad/minmax_extremes.fut": {
        **{"red_" + t: red_minmax(t) for t in INT_RANGE},
        **{"hist_" + t: hist_minmax for t in INT_RANGE},
    },
}
