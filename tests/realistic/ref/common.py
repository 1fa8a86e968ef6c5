"""Shared helpers of the reference implementations (Python stdlib only).

Values are plain Python: floats, ints, bools and nested lists. A typed
value is a pair (value, type) with type one of "f64", "i64", "i32", "bool"
(the element type of an array).

Derivatives are taken by the complex-step method: for a function f that is
analytic in its input, f'(x) v = Im f(x + i h v) / h with h = 1e-30 is exact
to rounding (no cancellation), so the references are as accurate as the
values themselves and independent of parad's AD.
"""

import cmath

H = 1e-30


def fmt(v, ty):
    """Futhark value syntax with explicit type suffixes."""
    if isinstance(v, list):
        if not v:
            return "empty([0]%s)" % ty
        return "[" + ", ".join(fmt(e, ty) for e in v) + "]"
    if ty == "bool":
        return "true" if v else "false"
    if ty in ("f64", "f32"):
        return repr(float(v)) + ty
    return "%d%s" % (v, ty)


def fmt_all(vals):
    return " ".join(fmt(v, ty) for v, ty in vals)


def block(cases, ref):
    """The `-- ==` test block for cases [(entries, args, comment)]; ref maps
    an entry name to a function on the plain argument values returning a
    list of typed results."""
    lines = ["-- =="]
    for entries, args, comment in cases:
        outs = [ref[e](*[v for v, _ in args]) for e in entries]
        if any(o != outs[0] for o in outs):
            raise ValueError("entries %s give different results" % entries)
        lines.append("-- entry: " + " ".join(entries))
        name = '"%s" ' % comment if comment else ""
        lines.append("-- %sinput { %s }" % (name, fmt_all(args)))
        lines.append("-- output { %s }" % fmt_all(outs[0]))
    return "\n".join(lines)


# ------------------------------------------------------------ differentiation

def zeros_like(x):
    if isinstance(x, list):
        return [zeros_like(e) for e in x]
    return 0.0


def flatten(x):
    if isinstance(x, list):
        out = []
        for e in x:
            out.extend(flatten(e))
        return out
    return [x]


def unflatten_like(flat, like):
    """Rebuild the nested shape of `like` from a flat list."""
    pos = [0]

    def go(x):
        if isinstance(x, list):
            return [go(e) for e in x]
        v = flat[pos[0]]
        pos[0] += 1
        return v
    return go(like)


def add_scaled(x, t, v):
    if isinstance(x, list):
        return [add_scaled(a, t, b) for a, b in zip(x, v)]
    return x + t * v


def jvp(f, xs, vs):
    """Directional derivative of the scalar or list-valued f at the tuple of
    arguments xs along vs (complex step). Returns f's derivative values."""
    args = [add_scaled(x, H * 1j, v) for x, v in zip(xs, vs)]
    out = f(*args)
    return imag_part(out)


def imag_part(y):
    if isinstance(y, list):
        return [imag_part(e) for e in y]
    if isinstance(y, tuple):
        return tuple(imag_part(e) for e in y)
    return complex(y).imag / H


def real_part(y):
    if isinstance(y, list):
        return [real_part(e) for e in y]
    if isinstance(y, tuple):
        return tuple(real_part(e) for e in y)
    return complex(y).real


def grad(f, xs, which=None):
    """Gradient of the scalar f w.r.t. the arguments whose indices are in
    `which` (default: all), one complex-step evaluation per coordinate.
    Returns one nested list per differentiated argument."""
    which = range(len(xs)) if which is None else which
    result = []
    for a in which:
        flat = flatten(xs[a])
        g = []
        for i in range(len(flat)):
            e = [0.0] * len(flat)
            e[i] = 1.0
            vs = [zeros_like(x) for x in xs]
            vs[a] = unflatten_like(e, xs[a])
            g.append(jvp(f, xs, vs))
        result.append(unflatten_like(g, xs[a]))
    return result


def dot(a, b):
    return sum(x * y for x, y in zip(flatten(a), flatten(b)))


# --------------------------------------------------- complex-safe functions

def exp(z):
    return cmath.exp(z) if isinstance(z, complex) else cmath.exp(z).real


def log(z):
    return cmath.log(z)


def tanh(z):
    return cmath.tanh(z)


def sigmoid(z):
    return 1 / (1 + cmath.exp(-z))


def re(z):
    return complex(z).real


def lcg(seed):
    """A tiny deterministic generator of floats in [-1, 1) with 3 decimals
    (exactly printable), so that inputs do not depend on Python's random."""
    state = [seed]

    def nxt():
        state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        return ((state[0] >> 33) % 2000 - 1000) / 1000.0
    return nxt


def plain_refs(file, ref):
    """REFS in the convention of tests/tools/check_expected.py: entry name ->
    function returning the plain result values as a tuple."""
    def wrap(f):
        return lambda *args: tuple(v for v, _ in f(*args))
    return {"realistic/" + file: {e: wrap(f) for e, f in ref.items()}}
