"""Reference implementations for tests/errors (run-time error cases raise)."""
from fut import wrap, fdiv, fmod, quot, rem
import math


def idx(xs, i):
    if not 0 <= i < len(xs):
        raise IndexError("out of bounds")
    return xs[i]


def slc(xs, i, j):
    if not (0 <= i <= j <= len(xs)):
        raise IndexError("slice out of bounds")
    return xs[i:j]


def check(c, v):
    if not c:
        raise AssertionError("assert")
    return v


def size(n):
    if n < 0:
        raise ValueError("negative size")
    return n


def rng(a, b):
    if b < a:
        raise ValueError("invalid range")
    return list(range(a, b))


def same(n, m):
    if n != m:
        raise ValueError("size mismatch")


REFS = {
    "errors/index_oob.fut": {
        "index1": idx,
        "index2": lambda m, i, j: idx(idx(m, i), j),
        "in_map": lambda is_: [idx([10, 20, 30], i) for i in is_],
    },
    "errors/slice_oob.fut": slc,
    "errors/assert_fail.fut": {
        "main": lambda x: check(x >= 0, math.sqrt(abs(x))),
        "assert_in_map": lambda xs: [check(x > 0, 2 * x) for x in xs],
    },
    "errors/div_zero.fut": {
        "div": fdiv, "modulo": fmod, "quot": quot, "remainder": rem,
        "in_reduce": lambda xs: sum(fdiv(100, x) for x in xs),
    },
    "errors/negative_size.fut": {
        "neg_iota": lambda n: list(range(size(n))),
        "neg_replicate": lambda n: [1.0] * size(n),
        "bad_range": rng,
        "zero_stride": lambda a: (_ for _ in ()).throw(ValueError("zero stride")),
    },
    "errors/size_mismatch.fut": {
        "zip_lengths": lambda xs, ys: (same(len(xs), len(ys)), [x + y for x, y in zip(xs, ys)])[1],
        "map2_lengths": lambda xs, ys: (same(len(xs), len(ys)), [x * y for x, y in zip(xs, ys)])[1],
        "coerce": lambda k, xs: (same(k, len(xs)), xs)[1],
        "bad_unflatten": lambda r, c, xs: (same(r * c, len(xs)), xs)[1],
    },
}
