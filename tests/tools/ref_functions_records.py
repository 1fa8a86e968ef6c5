"""Reference implementations for tests/functions and tests/records."""
import math
from fut import wrap, f32, Empty


def apply_n(n, x):
    for _ in range(n):
        x = x * 3
    return wrap(x, "i32")


REFS = {
    "functions/polymorphic.fut": {
        "use_pair": lambda x, y: (y, x, x > 0, x + 1),
        "use_twice": lambda x: (x + 6, x * 1.5 * 1.5, [4 * x, 4 * (x + 1)]),
        "firsts": lambda m, bs: (m[0], bs[0], m[0][0]),
    },
    "functions/size_params.fut": {
        "sizes": lambda a: (len(a), len(a[0]) if a else 4, len(a) * (len(a[0]) if a else 4),
                            [len(a)] * (len(a[0]) if a else 4)),
        "dot": lambda xs, ys: sum(x * y for x, y in zip(xs, ys)),
        "centre": lambda xs: [x - sum(xs) / len(xs) for x in xs],
        "count_kept": lambda xs: (sum(1 for x in xs if x > 0),
                                  [x + sum(1 for x in xs if x > 0) for x in xs if x > 0]),
    },
    "functions/higher_order.fut": {
        "apply_n_": apply_n,
        "adders": lambda xs: ([x + 10 for x in xs], [x + 9 for x in xs]),
        "choose": lambda b, x: x * x + (-x),
        "fun_record": lambda x: (2 * x + 1, 2 * (x + 1)),
    },
    "functions/local_functions.fut": lambda k, xs: (
        [(x + 1) * k - k for x in xs], 5 * k, k - k),
    "functions/partial_application.fut": {
        "partial": lambda xs: ([120 + x for x in xs], [90 + x for x in xs]),
        "partial_prelude": lambda n, xs: ([[x] * n for x in xs], [[y + x for y in xs] for x in xs]),
        "partial_three": lambda lo, hi: [lo + (hi - lo) * t for t in (0.0, 0.25, 1.0)],
    },
    "functions/composition.fut": {
        "compose": lambda xs: ([(x + 1) * 2 for x in xs], [x * 2 + 1 for x in xs],
                               [(x + 1) * 2 + 1 for x in xs]),
        "helpers": lambda a, b: (b - a, a * b, a - b, a, b),
    },
    "functions/let_polymorphism.fut": lambda i, f: (
        [i, i], [f, f], [[i > 2, i > 2], [i > 2, i > 2]], i + 1, max(2.0, f)),
    "functions/record_args.fut": lambda a, b: (
        math.hypot(a, b), 2 * b, 2 * a, math.hypot(2 * a, 2 * b)),
    "records/construct_access.fut": lambda a, b: (a + 2 * a, b + 1.0, a, True, b * 2.0, True),
    "records/with_update.fut": lambda x, y: (x, x + 100, 2 * (x + 100), True, y - 1, y),
    "records/nested.fut": lambda a, b, c, d: ((c - a) ** 2 + (d - b) ** 2, (a + c) / 2, (b + d) / 2),
    "records/records_in_arrays.fut": lambda ms, ids: (
        [f32(2 * m) for m in ms], list(ids), f32(sum(2 * m for m in ms)), len(ms)),
    "records/tuple_projections.fut": lambda a, b: (a + a + 1, b, a > 0, 3 * a, b + 1.0),
}
