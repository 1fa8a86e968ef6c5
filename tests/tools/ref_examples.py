"""Reference implementations for tests/examples."""
import math
from fut import f32


def dist2(a, b):
    return sum((x - y) * (x - y) for x, y in zip(a, b))


def closest(cs, p):
    ds = [dist2(p, c) for c in cs]
    return ds.index(min(ds))


def kmeans_step(points, centres):
    assign = [closest(centres, p) for p in points]
    new = []
    for j, c in enumerate(centres):
        mine = [p for p, a in zip(points, assign) if a == j]
        if not mine:
            new.append(list(c))
        else:
            new.append([sum(col) / len(mine) for col in zip(*mine)])
    return new, assign


def kmeans_cost(points, centres):
    return sum(min(dist2(p, c) for c in centres) for p in points)


def lse(xs):
    m = max(xs)
    return m + math.log(sum(math.exp(x - m) for x in xs))


def softmax_f32(xs):
    m = max(xs)
    es = [f32(math.exp(x - m)) for x in xs]
    s = f32(sum(es))
    return [f32(e / s) for e in es]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def rk4_step(f, h, s):
    x, v = s
    k1 = f((x, v))
    k2 = f((x + h / 2.0 * k1[0], v + h / 2.0 * k1[1]))
    k3 = f((x + h / 2.0 * k2[0], v + h / 2.0 * k2[1]))
    k4 = f((x + h * k3[0], v + h * k3[1]))
    return (x + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            v + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]))


def oscillator(x0, v0, k, c, h, steps):
    s = (x0, v0)
    for _ in range(steps):
        s = rk4_step(lambda xv: (xv[1], -k * xv[0] - c * xv[1]), h, s)
    return s


def decay(ys, a, h, steps):
    out = []
    for y in ys:
        s = (y, 0.0)
        for _ in range(steps):
            s = rk4_step(lambda yt: (-a * yt[0], 1.0), h, s)
        out.append(s[0])
    return out


def segment_sums(flags, xs):
    out = []
    for f, x in zip(flags, xs):
        if f or not out:
            out.append(x)
        else:
            out[-1] += x
    return out


def max_drawdown(xs):
    peak, best = -math.inf, -math.inf
    for x in xs:
        peak = max(peak, x)
        best = max(best, peak - x)
    return best


def bins(k, lo, hi, xs):
    out = []
    for x in xs:
        out.append(-1 if x < lo or x >= hi else int((x - lo) / (hi - lo) * k))
    return out


def bin_counts(k, lo, hi, xs):
    h = [0] * k
    for b in bins(k, lo, hi, xs):
        if 0 <= b < k:
            h[b] += 1
    return h


def bin_sums(k, lo, hi, xs):
    h = [0.0] * k
    for b, x in zip(bins(k, lo, hi, xs), xs):
        if 0 <= b < k:
            h[b] += x
    return h


def density(k, lo, hi, xs):
    c = bin_counts(k, lo, hi, xs)
    total, width = sum(c), (hi - lo) / k
    return [x / (total * width) for x in c]


def log_normal(mu, ls, x):
    z = [(v - m) / math.exp(l) for m, l, v in zip(mu, ls, x)]
    return -0.5 * sum(t * t for t in z) - sum(ls) - 0.5 * len(mu) * math.log(2.0 * math.pi)


def nll(alphas, means, lsig, xs):
    la = lse(alphas)
    tot = sum(lse([a + log_normal(mu, ls, x) for a, mu, ls in zip(alphas, means, lsig)])
              for x in xs)
    return -(tot - len(xs) * la)


REFS = {
    "examples/kmeans.fut": {"step": kmeans_step, "cost": kmeans_cost},
    "examples/softmax.fut": {
        "softmax": lambda xs: [math.exp(x - lse(xs)) for x in xs],
        "lse": lse,
        "log_softmax_rows": lambda m: [[x - lse(r) for x in r] for r in m],
        "softmax_f32": softmax_f32,
    },
    "examples/linalg.fut": {
        "matvec": lambda a, x: [dot(x, r) for r in a],
        "vecmat": lambda a, y: [dot(y, c) for c in zip(*a)],
        "outer": lambda x, y: [[b * a for b in y] for a in x],
        "quadform": lambda a, x: dot(x, [dot(x, r) for r in a]),
        "gram": lambda a: [[dot(r, c) for c in zip(*a)] for r in zip(*a)],
    },
    "examples/rk4.fut": {"oscillator": oscillator, "decay": decay},
    "examples/prefix_sums.fut": {
        "inclusive_exclusive": lambda xs: ([sum(xs[:i + 1]) for i in range(len(xs))],
                                           [sum(xs[:i]) for i in range(len(xs))]),
        "running_mean": lambda xs: [sum(xs[:i + 1]) / (i + 1) for i in range(len(xs))],
        "segment_sums": segment_sums,
        "max_drawdown": max_drawdown,
    },
    "examples/histogram.fut": {"bin_counts": bin_counts, "bin_sums": bin_sums,
                               "density": density},
    "examples/gmm.fut": {
        "nll": nll,
        "log_density": lambda means, lsig, x: [log_normal(m, l, x) for m, l in zip(means, lsig)],
    },
}
