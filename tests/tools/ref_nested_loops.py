"""Reference implementations for tests/nested and tests/loops."""
from fut import wrap, f32, Empty


def i32(x):
    return wrap(x, "i32")


def prefix(xs, op=lambda a, b: a + b):
    out = []
    for x in xs:
        out.append(x if not out else op(out[-1], x))
    return out


def argmin(r):
    return r.index(min(r))


def collatz(x):
    s = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        s += 1
    return s


def smooth(iters, xs):
    v = list(xs)
    n = len(v)
    for _ in range(iters):
        v = [v[i] if i in (0, n - 1) else (v[i - 1] + 2.0 * v[i] + v[i + 1]) / 4.0
             for i in range(n)]
    return v


def matvec(m, v):
    return [sum(a * b for a, b in zip(r, v)) for r in m]


def mat_power(k, m, v):
    for _ in range(k):
        v = matvec(m, v)
    return v


def hist_row(k, is_):
    h = [0] * k
    for i in is_:
        if 0 <= i < k:
            h[i] += 1
    return h


def scatter(d, is_, vs):
    d = list(d)
    for i, v in zip(is_, vs):
        if 0 <= i < len(d):
            d[i] = v
    return d


def matmul(a, b):
    return [[sum(x * y for x, y in zip(r, c)) for c in zip(*b)] for r in a]


def alternating(xs):
    acc = 0
    for x in xs:
        acc = x - acc
    return acc


def pairs(xs, ys):
    acc = 0.0
    for x, y in zip(xs, ys):
        acc = acc * 0.5 + x * y
    return acc


def rows(xss):
    acc = [0] * len(xss[0])
    for r in xss:
        acc = [a + b for a, b in zip(acc[::-1], r)]
    return acc


def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


def isqrt(n):
    lo, hi = 0, n + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid * mid <= n:
            lo = mid
        else:
            hi = mid
    return lo


def halvings(x, limit):
    k = 0
    while x >= limit:
        x, k = x / 2.0, k + 1
    return x, k


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def factorial(n):
    acc = 1
    for i in range(n):
        acc = i32(acc * (i + 1))
    return acc


def update_2d(m):
    m = [list(r) for r in m]
    m[0][1] = 20
    m[1] = [10 * x for x in m[1]]
    m[1][0] = m[0][0] + m[1][1]
    return m


def slice_update(xs):
    xs = list(xs)
    xs[1:3] = [7, 8]
    xs[3:5] = [9, 10]
    return xs


def sieve(n):
    return [i for i in range(2, n) if all(i % d for d in range(2, i))]


def floyd(d):
    d = [list(r) for r in d]
    n = len(d)
    for k in range(n):
        d = [[min(d[i][j], d[i][k] + d[k][j]) for j in range(n)] for i in range(n)]
    return d


REFS = {
    "nested/map_reduce.fut": {
        "row_sums": lambda m: [sum(r) for r in m],
        "row_max_f64": lambda m: [max(r) for r in m],
        "row_argmin": lambda m: [argmin(r) for r in m],
        "positives_per_row": lambda m: [sum(1 for x in r if x > 0) for r in m],
    },
    "nested/map_scan.fut": {
        "row_prefix": lambda m: [prefix(r) for r in m],
        "col_prefix": lambda m: [list(c) for c in zip(*[prefix(c) for c in zip(*m)])],
        "running_max": lambda m: ([prefix(r, max) for r in m],
                                  [list(range(1, len(r) + 1)) for r in m]),
    },
    "nested/map_loop.fut": {
        "collatz": lambda xs: [collatz(x) for x in xs],
        "powers": lambda bs, es: [b ** e for b, e in zip(bs, es)],
    },
    "nested/matmul.fut": {
        "matmul_i32": matmul,
        "matmul_f64": matmul,
        "matvec": lambda a, v: [f32(x) for x in matvec(a, v)],
    },
    "nested/deep_maps.fut": {
        "add_indices": lambda x: [[[v + 100 * i + 10 * j + k for k, v in enumerate(r)]
                                   for j, r in enumerate(p)] for i, p in enumerate(x)],
        "outer3": lambda xs, ys, zs: [[[x + y + z for z in zs] for y in ys] for x in xs],
        "sum_inner": lambda x: [[sum(r) for r in p] for p in x],
    },
    "nested/loop_map.fut": {"smooth": smooth, "mat_power": mat_power},
    "nested/hist_in_map.fut": {
        "row_hists": lambda k, iss: [hist_row(k, is_) for is_ in iss],
        "row_scatter": lambda d, iss, vss: [scatter(r, i, v) for r, i, v in zip(d, iss, vss)],
    },
    "loops/for_loop.fut": {
        "sum_to": lambda n: sum(range(n)),
        "factorial": factorial,
        "fib": fib,
        "small_counter": lambda n: (sum(i * i for i in range(n)), 0.5 ** n),
    },
    "loops/for_in.fut": {"alternating": alternating, "pairs": pairs, "rows": rows},
    "loops/while_loop.fut": {"gcd": gcd, "isqrt": isqrt, "halvings": halvings},
    "loops/inplace.fut": {
        "squares_inplace": lambda n: [i * i for i in range(n)],
        "with_update": lambda xs, i, v: xs[:i] + [v] + xs[i + 1:],
        "update_2d": update_2d,
        "slice_update": slice_update,
        "bubble_sort": lambda xs: sorted(xs),
        "sieve": sieve,
    },
    "loops/nested_loops.fut": {
        "triangle": lambda n: sum(10 * i + j for i in range(n) for j in range(i + 1)),
        "floyd": floyd,
    },
}
