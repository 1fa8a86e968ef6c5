"""References for tests/modules_pkg: the package's functions by hand."""
import fut


def _l(v):
    return fut.plain(v)


def _moments(xs):
    xs = _l(xs)
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / len(xs)


REFS = {
    "modules_pkg/use_mini.fut": {
        "dot_product": lambda xs, ys: sum(a * b for a, b in zip(_l(xs), _l(ys))),
        "normalised": lambda xs: [x / sum(_l(xs)) for x in _l(xs)],
        "moments": _moments,
    },
}
