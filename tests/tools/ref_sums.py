"""Reference implementations for tests/sums.

A sum value is modelled as a pair (constructor name, payload tuple);
`match` is a chain of Python conditionals in case order.
"""
import math
from fut import wrap, f32


# ---------------------------------------------------------------- basics

def shape_of(k, a, b):
    if k == 0:
        return ("circle", (a,))
    if k == 1:
        return ("rect", (a, b))
    if k == 2:
        return ("tri", (a, b))
    return ("empty", ())


def area(s):
    c, p = s
    if c == "circle":
        return math.pi * p[0] * p[0]
    if c == "rect":
        return p[0] * p[1]
    if c == "tri":
        return p[0] * p[1] / 2
    return 0.0


def classify(x):
    if x == 0:
        return 100
    if x == -1:
        return 200
    return wrap(x * 2, "i32")


def eq_sums(a, b):
    x = ("empty", ()) if a == 0 else ("rect", (float(a), 1.0))
    y = ("empty", ()) if b == 0 else ("rect", (float(b), 1.0))
    return (x == y, x == ("empty", ()), True, x != y)


def nested(k, v):
    if k == 0:
        o = ("one", (("small", (v,)),))
    elif k == 1:
        o = ("one", (("big", (v,)),))
    else:
        o = ("none", ())
    if o[0] == "one" and o[1][0][0] == "small":
        return o[1][0][1][0]
    if o[0] == "one" and o[1][0] == ("big", (3,)):
        return 1003
    if o[0] == "one":
        return wrap(100 + v, "i32")
    return -1


def floats(x, b):
    if x == -1.0:
        return 1
    if x == 0.5 and b:
        return 2
    if not b:
        return 3 if x < 1 else 4
    return 5


# ---------------------------------------------------------------- arrays

def signs(xs):
    return ([abs(x) for x in xs], [(x > 0) - (x < 0) for x in xs])


def first_positive(xs):
    for x in xs:
        if x > 0:
            return (True, x)
    return (False, 0)


def flip_all(xs):
    cs = [("a", x) for x in xs] + [("b", x) for x in xs]
    cs = [("b", -x) if c == "a" else ("a", 2 * x) for c, x in cs]
    return [x for _, x in cs]


def literal_index(i):
    return [10.0, -2.5, 0.0][i]


def count_kinds(xs, k):
    m = sum(1 for x in xs if x % k == 0)
    return (m, len(xs) - m)


# ---------------------------------------------------------------- ad

METRICS = {0: ("euclid", (1.0, 2.0)), 1: ("manhattan", (-1.0, -5.0)),
           2: ("vertical", 0.5)}


def sgn(v):
    return (v > 0) - (v < 0)


def dist_grad(k, x, y):
    """Gradient of `dist (metric_of k)` at (x, y)."""
    c, p = METRICS.get(k, ("clamped", 1.0))
    if c == "euclid":
        dx, dy = x - p[0], y - p[1] + 4
        r = math.sqrt(dx * dx + dy * dy)
        return (dx / r, dy / r)
    if c == "manhattan":
        return (float(sgn(x - p[0])), float(sgn(y - p[1])))
    if c == "vertical":
        return (0.0, p * 2 * y / 4)
    return (p * 2 * x / 4 if x < 0 else 0.0, 0.0)


def piece_deriv(x):
    if x > 1:
        return 2 * x
    if x < 0:
        return 1.0
    return 0.0


# ---------------------------------------------------------------- records

def opt_get(o, d):
    return o[1] if o[0] == "some" else d


def lookup(keys, vals, k):
    for kk, v in zip(keys, vals):
        if kk == k:
            return ("some", v)
    return ("none", None)


def records_main(k, x):
    ev = {"lo": x - 1, "hi": x + 1}
    if k == 0:
        e = ("range", ev)
    elif k == 1:
        e = ("point", x)
    else:
        e = ("none", None)
    if e[0] == "range":
        w = (e[1]["hi"] - e[1]["lo"], e[1]["lo"])
    elif e[0] == "point":
        w = (0, e[1])
    else:
        w = (-1, 0)
    return (wrap(w[0], "i32"), wrap(w[1], "i32"))


def apply_op(k, x):
    # #scale 3 | #shift (fn + 10) | #neg, chosen statically by k's branch
    if k == 0:
        return wrap(3 * x, "i32")
    if k == 1:
        return wrap(x + 10, "i32")
    return wrap(-x, "i32")


def either_sum(xs, flags):
    out = 0
    for x, f in zip(xs, flags):
        out += x if f else 2 * x
    return wrap(out, "i32")


REFS = {
    "sums/basics.fut": {
        "classify": classify,
        "area_of": lambda k, a, b: area(shape_of(k, a, b)),
        "static_area": lambda r: (math.pi * r * r, r * 2),
        "eq_sums": eq_sums,
        "nested": nested,
        "floats": floats,
    },
    "sums/arrays.fut": {
        "signs": signs,
        "first_positive": first_positive,
        "flip_all": flip_all,
        "literal_index": lambda i: f32(literal_index(i)),
        "count_kinds": count_kinds,
    },
    "sums/ad.fut": {
        "fwd_dist": dist_grad,
        "rev_dist": dist_grad,
        "fwd_inner": piece_deriv,
        "rev_inner": piece_deriv,
    },
    "sums/records.fut": {
        "lookup_or": lambda keys, vals, k, d: opt_get(lookup(keys, vals, k), d),
        "ranges": records_main,
        "ops": apply_op,
        "eithers": either_sum,
        "single": lambda x: wrap(x + 1, "i32"),
    },
}
