"""Reference implementations for tests/soacs."""
import math
from fut import wrap, fdiv, fmod, f32, Empty


def i32(x):
    return wrap(x, "i32")


def scan(op, xs):
    out, acc = [], None
    for x in xs:
        acc = x if acc is None else op(acc, x)
        out.append(acc)
    return out


def hist(op, ne, k, idx, vs, dest=None):
    h = list(dest) if dest is not None else [ne] * k
    for i, v in zip(idx, vs):
        if 0 <= i < len(h):
            h[i] = op(h[i], v)
    return h


def scatter(dest, idx, vs):
    d = list(dest)
    for i, v in zip(idx, vs):
        if 0 <= i < len(d):
            d[i] = v
    return d


def argmax(xs):
    best = (-math.inf, -1)
    for i, x in enumerate(xs):
        if x > best[0]:
            best = (x, i)
    return best


def argmin_op(a, b):
    if a[0] < b[0]:
        return a
    if b[0] < a[0]:
        return b
    return (a[0], min(a[1], b[1]))


def rotate(r, xs):
    n = len(xs)
    return [xs[(i + r) % n] for i in range(n)]


def foldl(f, acc, xs):
    for x in xs:
        acc = f(acc, x)
    return acc


def foldr(f, acc, xs):
    for x in reversed(xs):
        acc = f(x, acc)
    return acc


def scatter2(dest, is_, js, vs):
    d = [list(r) for r in dest]
    for i, j, v in zip(is_, js, vs):
        if 0 <= i < len(d) and 0 <= j < len(d[0]):
            d[i][j] = v
    return d


def count_max(xs):
    m = max(xs, default=-math.inf)
    return m, sum(1 for x in xs if x == m)


def unzip(ps, k):
    return tuple([p[j] for p in ps] for j in range(k))


REFS = {
    "soacs/map_arities.fut": {
        "m1": lambda xs: [2 * x + 1 for x in xs],
        "m2": lambda xs, ys: [x * y for x, y in zip(xs, ys)],
        "m3": lambda xs, ys, zs: [x if z else y for x, y, z in zip(xs, ys, zs)],
        "m4": lambda a, b, c, d: [f32(w * x + y * z) for w, x, y, z in zip(a, b, c, d)],
        "m5": lambda a, b, c, d, e: [p - q + r * s - t for p, q, r, s, t in zip(a, b, c, d, e)],
    },
    "soacs/map_tuples.fut": {
        "stats": lambda xs: ([x * x for x in xs], [-x for x in xs], [x > 0 for x in xs]),
        "rows": lambda n, xs: [[x * j for j in range(n)] for x in xs],
        "pairs": lambda xs, ys: (list(ys), [a + b for a, b in zip(xs, ys)]),
    },
    "soacs/reduce_ops.fut": {
        "sum_i32": lambda xs: i32(sum(xs)),
        "prod_i64": lambda xs: math.prod(xs),
        "min_max_f64": lambda xs: (min(xs, default=math.inf), max(xs, default=-math.inf)),
        "sum_f32": lambda xs: f32(sum(xs)),
        "and_or": lambda xs: (all(xs), any(xs)),
        "colsums": lambda m: [sum(c) for c in zip(*m)],
    },
    "soacs/reduce_tuple.fut": {
        "argmax": argmax,
        "mean": lambda xs: sum(xs) / len(xs),
        "min_max": lambda xs: (min(xs), max(xs)),
    },
    "soacs/reduce_comm.fut": {
        "sum": lambda xs: sum(xs),
        "min_index": lambda xs: (min(xs), xs.index(min(xs))),
        "count_max": count_max,
    },
    "soacs/scan.fut": {
        "scan_add": lambda xs: scan(lambda a, b: i32(a + b), xs),
        "scan_mul_max": lambda xs: (scan(lambda a, b: i32(a * b), xs), scan(max, xs)),
        "linrec": lambda as_, bs: foldl(lambda acc, ab: acc + [ab[0] * (acc[-1] if acc else 0.0) + ab[1]],
                                        [], list(zip(as_, bs))),
        "segscan": lambda fs, xs: foldl(lambda acc, fx: acc + [fx[1] if fx[0] or not acc else acc[-1] + fx[1]],
                                        [], list(zip(fs, xs))),
    },
    "soacs/hist.fut": {
        "hist_add": lambda k, is_, vs: hist(lambda a, b: a + b, 0, k, is_, vs),
        "hist_max": lambda k, is_, vs: hist(max, -math.inf, k, is_, vs),
        "hist_count": lambda k, is_: hist(lambda a, b: a + b, 0, k, is_, [1] * len(is_)),
        "hist_min_pair": lambda k, is_, vs: unzip(hist(
            lambda a, b: (min(a[0], b[0]), a[1] + b[1]), (2 ** 31 - 1, 0), k, is_,
            [(v, 1) for v in vs]), 2),
    },
    "soacs/reduce_by_index.fut": {
        "rbi_add": lambda d, is_, vs: hist(lambda a, b: a + b, 0, 0, is_, vs, d),
        "rbi_mul": lambda d, is_, vs: hist(lambda a, b: a * b, 1.0, 0, is_, vs, d),
        "rbi_min": lambda d, is_, vs: hist(min, 0, 0, is_, vs, d),
        "rbi_argmin": lambda k, is_, vs: unzip(hist(
            argmin_op, (math.inf, -1), k, is_, [(v, i) for i, v in enumerate(vs)]), 2),
    },
    "soacs/scatter.fut": {
        "scatter1": scatter,
        "scatter2": scatter2,
        "fresh": lambda n, is_: scatter([0] * n, is_, [10 * i for i in is_]),
    },
    "soacs/filter_partition.fut": {
        "evens": lambda xs: [x for x in xs if x % 2 == 0],
        "positives": lambda xs: ([x for x in xs if x > 0], sum(1 for x in xs if x > 0)),
        "split_sign": lambda xs: ([x for x in xs if x < 0], [x for x in xs if not x < 0]),
        "partition_pairs": lambda xs, ys: (
            [x for x in xs if x > 2], [y for x, y in zip(xs, ys) if x > 2],
            [x for x in xs if not x > 2], [y for x, y in zip(xs, ys) if not x > 2]),
    },
    "soacs/zip_unzip.fut": {
        "swap": lambda xs, ys: (list(ys), list(xs)),
        "zip3_sum": lambda xs, ys, zs: [a * b + c for a, b, c in zip(xs, ys, zs)],
        "unzip3_test": lambda n: (list(range(n)), [i * i for i in range(n)],
                                  [-i for i in range(n)]),
    },
    "soacs/construct.fut": {
        "iotas": lambda n: (list(range(n)), [2 * i for i in range(n)]),
        "reps": lambda n, x: ([x] * n, [[1, 2]] * n if n else Empty([0, 2], "i32")),
        "tab": lambda n: [i * i - 1 for i in range(n)],
        "tab2": lambda n, m: [[i * 10 + j for j in range(m)] for i in range(n)],
    },
    "soacs/reshape.fut": {
        "flat": lambda m: [x for r in m for x in r],
        "unflat": lambda r, c, xs: [xs[i * c:(i + 1) * c] for i in range(r)],
        "roundtrip": lambda a: [[2 * x for x in r] for r in a],
        "transp": lambda m: [list(c) for c in zip(*m)],
        "flat3": lambda a: ([x for m in a for r in m for x in r],
                            [list(c) for m in a for c in zip(*m)]),
    },
    "soacs/concat_rotate.fut": {
        "cat": lambda xs, ys: (xs + ys, ys + xs + ys),
        "rev": lambda xs: (xs[::-1], list(xs)),
        "rot": rotate,
        "rot2": lambda m: [rotate(1, r) for r in rotate(-1, m)],
        "cat2": lambda a, b: (a + b, [r + r for r in b]),
    },
    "soacs/take_drop_split.fut": {
        "td": lambda n, xs: (xs[:n], xs[n:]),
        "sp": lambda k, xs: (xs[:k], xs[k:]),
        "head_tail": lambda xs: (xs[0], xs[1:], xs[-1], xs[:-1]),
    },
    "soacs/folds.fut": {
        "fl": lambda xs: foldl(lambda a, x: a - x, 100, xs),
        "fr": lambda xs: foldr(lambda x, a: x - a, 100, xs),
        "fl_tuple": lambda xs: foldl(lambda sn, x: (sn[0] * 0.5 + x, sn[1] + 1), (0.0, 0), xs),
        "fr_digits": lambda ds: foldr(lambda d, acc: acc * 10 + d, 0, ds),
    },
    "soacs/all_any.fut": lambda xs: (all(x > 0 for x in xs), any(x > 0 for x in xs),
                                     all(x % 2 == 0 for x in xs), any(x == 7 for x in xs)),
    "soacs/random_props.fut": {
        "len_after_map": lambda xs: len(xs),
        "squares_nonneg": lambda xs: all(f32(x * x) >= 0 for x in xs),
        "sum_reverse": lambda xs: True,
        "filter_partition": lambda xs: True,
    },
}


# ---- soacs/flat_views.fut: flat views and writes

def _flat_view(xs, offset, dims):
    def level(base, dims):
        n, s = dims[0], dims[1]
        if len(dims) == 2:
            return [xs[offset + base + i * s] for i in range(n)]
        return [level(base + i * s, dims[2:]) for i in range(n)]
    return level(0, dims)


def _flat_write2(xs, offset, s1, s2, vss):
    out = list(xs)
    for i, row in enumerate(vss):
        for j, v in enumerate(row):
            k = offset + i * s1 + j * s2
            if not 0 <= k < len(out):
                raise IndexError("out of bounds")
            out[k] = v
    return out


REFS["soacs/flat_views.fut"] = {
    "view2": lambda xs: _flat_view(xs, 1, [2, 1, 3, 3]),
    "view3": lambda xs: _flat_view(xs, 7, [2, -4, 2, -2, 2, -1]),
    "write2": lambda xs: _flat_write2(xs, 0, 3, 2, [[1, 2], [3, 4]]),
}
