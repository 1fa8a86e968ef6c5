"""References for tests/sizes: reshapes by hand, size errors raised where
the declared sizes cannot hold."""
import fut


def _l(v):
    return fut.plain(v)


def _rows(xs, m):
    return [xs[i:i + m] for i in range(0, len(xs), m)] if m else []


def _need(ok):
    if not ok:
        raise ValueError("size mismatch")


def unflat_jvp(r, c, xs, dxs):
    return _rows(_l(dxs), c)


def squares_vjp(r, c, xs, seed):
    flat = [s for row in _l(seed) for s in row]
    return [2 * x * s for x, s in zip(_l(xs), flat)]


def rows_jvp(xss, dxss):
    return [[2 * x * d for x, d in zip(xr, dr)] for xr, dr in zip(_l(xss), _l(dxss))]


def doubled(r, xs):
    return [list(_l(xs)) for _ in range(r)]


def branch(b, n):
    xs = list(range(n * n))
    return _rows(xs if b else xs[::-1], n)


def pattern(k, xs):
    xs = _l(xs)
    return (sum(xs[:k]), sum(xs[k:]))


def declared_result(k, xs):
    return (_l(xs)[:k], _l(xs)[k:])


def wrong_total(k, xs):
    xs = _l(xs)
    _need(len(xs) == 2 * k)
    return (xs[:k], xs[k:])


def later(n, m, xs):
    xs = _l(xs)
    _need(n * m == len(xs))
    return [sum(r) for r in _rows(xs, m)]


def declared(n, m, xs):
    rows = _rows(_l(xs), m)
    return [[rows[i][j] for i in range(n)] for j in range(m)]


def by_coercion(r, c, xs):
    xs = _l(xs)
    _need(r * c == len(xs))
    return _rows(xs, c)


def _dot(x, y):
    _need(len(_l(x)) == len(_l(y)))
    return sum(a * b for a, b in zip(_l(x), _l(y))) + len(_l(x))


def _reshape(r, c, xs):
    _need(r * c == len(_l(xs)))
    return _rows(_l(xs), c)


def _consts(xs, a, b):
    _need(len(_l(xs)) == a * b)
    return _rows(_l(xs), b)


REFS = {
    "sizes/ad.fut": {
        "unflat_jvp": unflat_jvp,
        "unflat_vjp": lambda r, c, xs: _l(xs),
        "squares_vjp": squares_vjp,
        "rows_jvp": rows_jvp,
    },
    "sizes/loops_ifs.fut": {
        "kept": lambda n, m: [[3] * m for _ in range(n)],
        "doubled": doubled,
        "branch": branch,
    },
    "sizes/split.fut": {
        "parts": lambda a, b: (_l(a), _l(b)),
        "pattern": pattern,
        "declared_result": declared_result,
        "wrong_total": wrong_total,
    },
    "sizes/unflatten.fut": {
        "rows4": lambda xs: xs,
        "inner": lambda xs: [[[2 * v for v in r] for r in m] for m in _l(xs)],
        "tab": lambda n, m: _rows(list(range(n * m)), m) if n else fut.Empty([0, m], "i64"),
        "later": later,
        "declared": declared,
        "cube": lambda xs: xs,
        "cube3": lambda xs: xs,
        "by_coercion": by_coercion,
        "local_fun": lambda xs: [[v + 1 for v in r] for r in _l(xs)],
    },
    "sizes/abbrev.fut": {
        "model": lambda p, v: (len(_l(p)), len(_l(v)), sum(x for r in _l(v) for x in r)),
        "rows": lambda x: (len(_l(x)), len(_l(x)[0])),
        "dot": _dot,
        "reshape": _reshape,
        "bound_in_let": lambda x: len(_l(x)) + 3 * len(_l(x)),
    },
    "sizes/constants.fut": {
        "from_param": lambda xs: _consts(xs, 3, 4),
        "from_coercion": lambda xs: _consts(xs, 3, 4),
        "from_result": lambda xs: _consts(xs, 3, 4),
        "derived": lambda xs: _consts(xs, 3, 2),
        "filled": lambda x: [[x] * 4 for _ in range(3)],
        "table": lambda: _rows(list(range(12)), 4),
    },
}
