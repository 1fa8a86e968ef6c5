"""References for tests/accs and tests/flatmap: the accumulator and
flatmap semantics written out with Python lists."""
import fut


def _l(v):
    return fut.plain(v)


# ---- accs

def acc_sums(xs, is_):
    out = list(_l(xs))
    for i in _l(is_):
        if 0 <= i < len(out):
            out[i] += (i + 1) * (2 if i > 0 else 1)
    return out


def acc_argmax(xs):
    best = [(-float("inf"), -1), (-float("inf"), -1)]
    for i, x in enumerate(_l(xs)):
        a, j = best[i % 2]
        if not (a > x or (a == x and j < i)):
            best[i % 2] = (x, i)
    return ([b[0] for b in best], [b[1] for b in best])


def acc_rows(xss, k):
    out = [list(r) for r in _l(xss)]
    for i in range(k):
        out[i % 2] = [v + i for v in out[i % 2]]
    return out


def acc_write(xs, k):
    out = list(_l(xs))
    for i in range(k):
        v = (i + 1) * 10
        for c, x in ((2 * i, v), (2 * i + 1, v + 1)):
            if 0 <= c < len(out):
                out[c] = x
    return out


def acc_nested(n, m):
    rows = []
    for i in range(n):
        row = [0] * m
        if m:
            row[0] = i
        for j in range(2):
            if 0 <= j + 2 < m:
                row[j + 2] = 1
        rows.append(row)
    return rows


def grad_sums(xs, ys):
    n = len(xs)
    return ([1.0] * n, [2 * y for y in ys])


def grad_prods(xs, ys):
    n = len(xs)
    prod = [1.0] * n
    for i, y in enumerate(ys):
        prod[i % n] *= y
    dx = prod
    dy = []
    for i, y in enumerate(ys):
        j = i % n
        others = xs[j]
        for i2, y2 in enumerate(ys):
            if i2 % n == j and i2 != i:
                others *= y2
        dy.append(others)
    return (dx, dy)


def grad_writes(xs, is_, ys):
    n = len(xs)
    written = {i for i in is_ if 0 <= i < n}
    return ([0.0 if j in written else 1.0 for j in range(n)],
            [2.0 if 0 <= i < n else 0.0 for i in is_])


# ---- flatmap: shapes, flags, offsets, data, values

def flatmap(f, xs):
    segs = [f(x) for x in xs]
    shapes = [len(s) for s, _ in segs]
    flags, offsets, data, off = [], [], [], 0
    for s, _ in segs:
        offsets.append(off)
        off += len(s)
        flags.extend([True] + [False] * (len(s) - 1) if s else [])
        data.extend(s)
    return shapes, flags, offsets, data, [v for _, v in segs]


def fm_basic(ks):
    r = flatmap(lambda ik: ([ik[0] * 10 + j for j in range(ik[1])], ik[0] * ik[0]),
                list(enumerate(_l(ks))))
    if not ks:
        return tuple(fut.Empty([0], t) for t in ("i64", "bool", "i64", "i64", "i64"))
    return r


def fm_per_row(kss):
    sums, counts = [], []
    for ks in _l(kss):
        d = flatmap(lambda k: (list(range(k + 1)), ()), ks)[3]
        sums.append(sum(d))
        counts.append(len(ks) + 1)
    return (sums, counts)


def fm_inner(ks):
    def f(k):
        inner = flatmap(lambda j: (list(range(j)), j), [k])
        return (inner[3], inner[4][0])
    s, _, _, d, v = flatmap(f, _l(ks))
    return (s, d, v)


def fm_tuples(ks, xs):
    _, flags, _, d, _ = flatmap(lambda kx: ([(kx[1], j) for j in range(kx[0])], ()),
                                list(zip(_l(ks), _l(xs))))
    return ([a for a, _ in d], [b for _, b in d], flags)


def fm_rows(ks, xss):
    m = len(xss[0]) if xss else 0
    _, _, _, d, v = flatmap(lambda kx: ([[x * (j + 1) for x in kx[1]] for j in range(kx[0])], kx[0] * m),
                            list(zip(_l(ks), _l(xss))))
    return (d, v)


def fm_no_values(ks):
    s, f, o, d, _ = flatmap(lambda k: (list(reversed(range(k))), ()), _l(ks))
    return (s, f, o, d)


def segs(ks, xs):
    return flatmap(lambda kx: ([kx[1] * (j + 1) for j in range(kx[0])], kx[1] * kx[1]),
                   list(zip(ks, xs)))


def fm_total(ks, xs):
    # total = sum_i sum_{j<k_i} (x_i (j+1))^2 + sum_i x_i^2
    tot = sum(y * y for y in segs(ks, xs)[3]) + sum(x * x for x in xs)
    grad = [2 * x * sum((j + 1) ** 2 for j in range(k)) + 2 * x for k, x in zip(ks, xs)]
    return (tot, grad)


def fm_data(ks, xs):
    # column sums of the Jacobian of the data: sum_{j<k_i} (j+1)
    return [float(sum(j + 1 for j in range(k))) for k in ks]


REFS = {
    "accs/hist.fut": {"sums": acc_sums, "argmax": acc_argmax, "rows": acc_rows},
    "accs/scatter.fut": {"write": acc_write},
    "accs/nested.fut": {"main": acc_nested},
    "accs/imports.fut": {"main": lambda xs: ([2 * x for x in _l(xs)], 4)},
    "accs/ad.fut": {
        "sum_rev": grad_sums, "sum_fwd": grad_sums,
        "prod_rev": grad_prods, "prod_fwd": grad_prods,
        "scatter_rev": grad_writes, "scatter_fwd": grad_writes,
    },
    "flatmap/basic.fut": {"main": fm_basic},
    "flatmap/nested.fut": {"per_row": fm_per_row, "inner": fm_inner},
    "flatmap/shapes.fut": {"tuples": fm_tuples, "rows": fm_rows, "no_values": fm_no_values},
    "flatmap/ad.fut": {
        "total_rev": fm_total, "total_fwd": fm_total,
        "data_rev": fm_data, "data_fwd": fm_data,
    },
}
