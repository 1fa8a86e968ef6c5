"""Reference implementations for tests/syntax."""
from fut import wrap, conv, fdiv, fmod, f32, f16

S = "héllo, wörld".encode("utf-8")


def i32(x):
    return wrap(x, "i32")


REFS = {
    "syntax/unsuffixed_inputs.fut": {
        "scalars": lambda a, b, c, d: (a, b, c, d),
        "arrays": lambda xs, m, bs: (sum(xs), sum(x for r in m for x in r), sum(bs)),
    },
    "syntax/int_literals.fut": lambda x: (
        wrap(-5 + x, "i8"), wrap(0x7F - x, "i16"), i32(1000000 + x),
        wrap(10 * x, "i64"), wrap(255 - x, "u8"),
        wrap(0xFFFF // wrap(x * x + 1, "u16"), "u16"),
        wrap(4000000000 + wrap(x, "u32"), "u32"),
        wrap(0xDEADBEEF0000 | conv(x, "i32", "u64"), "u64")),
    "syntax/float_literals.fut": lambda x, y: (
        f32(1.5 * x), 2.5e-3 + y, f32(3.0 + x), 1e3 * y,
        f32(f16(1.25) + x), 0.5 + 1000.25 * y),
    "syntax/strings.fut": lambda i: (len(S), S[i]),
    "syntax/precedence.fut": {
        "arith": lambda a, b, c: i32(a + b * c - fmod(a, b + 1) * 2),
        "power": lambda a, b, c: i32((a ** b) ** c),
        "bits": lambda a, b, c: (a & (b + c), i32(a | (b << c)), (a ^ b) == c),
        "neg": lambda a, b, c: (i32((-a) ** 2 + b * -c), (~a) & b),
        "logic": lambda a, b, c: (a < b) or ((b < c) and (c < a)),
    },
    "syntax/sections.fut": {
        "left_right": lambda xs: ([x + 1 for x in xs], [10 - x for x in xs],
                                  [fdiv(x, 2) for x in xs]),
        "projections": lambda xs, ys: (list(ys), list(xs)),
        "index_section": lambda m: ([r[1] for r in m], [r[0] for r in m]),
        "full": lambda xs, ys: ([a * b for a, b in zip(xs, ys)],
                                [a - b for a, b in zip(xs, ys)],
                                [b < a for a, b in zip(xs, ys)]),
    },
    "syntax/ranges.fut": {
        "upto": lambda n: list(range(n)),
        "incl": lambda a, b: list(range(a, b + 1)),
        "stepped": lambda a, b, c: list(range(a, c + 1, b - a)),
        "stepped_excl": lambda a, b, c: list(range(a, c, b - a)),
        "down": lambda a, b: list(range(a, b, -1)),
        "down_step": lambda a, b, c: list(range(a, c, b - a)),
        "small": lambda n: list(range(1, n + 1)),
    },
    "syntax/slicing.fut": {
        "basic": lambda xs, i, j: xs[i:j],
        "strided": lambda xs: (xs[::2], xs[::-1], xs[1::3]),
        "open_ends": lambda xs, i: (xs[i:], xs[:i]),
        "row_col": lambda m, i: (m[i], [r[i] for r in m], m[i][2 - i]),
        "block": lambda m: ([r[1:3] for r in m[0:2]], [r[::-1] for r in m[::2]]),
        "neg_stride": lambda xs: (xs[4:0:-2], xs[3::-1]),
    },
    "syntax/let_patterns.fut": lambda x, y: (
        (x + 1) * 2 - 1, y * 2.0 + 0.5, (x + 1) + (x + 1) * 2, x > 0,
        (y * 2.0 + 0.5) * 4.0),
    "syntax/lambdas.fut": {
        "multi": lambda xs, ys: [x * 10 + y for x, y in zip(xs, ys)],
        "annotated": lambda xs: [x * x + 1.0 for x in xs],
        "tuple_ret": lambda xs: ([fdiv(x, 2) for x in xs], [fmod(x, 2) for x in xs]),
        "capture": lambda k, xs: [(x + 2 * k) * k for x in xs],
        "tuple_param": lambda xs, ys: [a - b for a, b in zip(xs, ys)],
    },
    "syntax/pipelines.fut": {
        "forward": lambda xs: sum(2 * x for x in xs if 2 * x > 4),
        "backward": lambda xs: _prod(x + 1 for x in xs),
        "squares": lambda n: sum(i * i for i in range(n)),
    },
    "syntax/backquote.fut": {
        "bq": lambda x, y: ((x + y) / 2 + 10.0) / 2,
        "user_op": lambda a, b: (a * a + b) ** 2 + 1,
        "op_section": lambda xs: ([x * x + 3 for x in xs], [9 + x for x in xs]),
        "bq_section": lambda xs: ([max(x, 0) for x in xs], [min(5, x) for x in xs]),
        "tuple_op": lambda a, b: (a + b + 1, b * a * 3),
    },
    "syntax/comments_attrs.fut": lambda xs: (sum(x * x for x in xs),
                                             [x + x ** 3 for x in xs]),
    "syntax/if_else.fut": {
        "classify": lambda x: -1 if x < 0 else (0 if x == 0 else 1),
        "in_arith": lambda x: 10 + (x if x > 5 else 0) * 2,
        "tuple_if": lambda b, x: (x, True) if b else (-x, False),
        "array_if": lambda b, xs: [x + 1 for x in xs] if b else xs[::-1],
    },
    "syntax/array_literals.fut": lambda x, y: (
        [x, y, x + y], [[x, 0], [0, y], [y, x]], [[1.0, 2.5], [float(x), -0.5]],
        [x < y, True, x == y], 0),
    "syntax/type_ascription.fut": lambda v, k: (
        sum(abs(2.0 * a) for a in v), k * 2, k > 0, len(v) + 1),
}


def _prod(it):
    r = 1
    for x in it:
        r *= x
    return wrap(r, "i32")
