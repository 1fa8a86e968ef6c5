"""Reference for tests/realistic/lstm.fut: ADBench's LSTM objective written
out directly from its definition (data README, section 3.4), with the
gradient and directional derivatives by the complex-step method."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import dot, exp, grad, jvp, lcg, log, plain_refs, real_part, sigmoid, tanh  # noqa: E402

FILE = "lstm.fut"


def loss(main, extra, state, seq):
    b = len(seq[0])
    l = len(main) // 2
    hs = [list(state[2 * i]) for i in range(l)]
    cs = [list(state[2 * i + 1]) for i in range(l)]
    in_w, out_w, out_b = extra
    total = 0
    for t in range(len(seq) - 1):
        x = [s * w for s, w in zip(seq[t], in_w)]
        for i in range(l):
            wt, bs = main[2 * i], main[2 * i + 1]
            h, c = hs[i], cs[i]
            new_c, new_h = [], []
            for j in range(b):
                f = sigmoid(x[j] * wt[j] + bs[j])
                ig = sigmoid(h[j] * wt[b + j] + bs[b + j])
                o = sigmoid(x[j] * wt[2 * b + j] + bs[2 * b + j])
                g = tanh(h[j] * wt[3 * b + j] + bs[3 * b + j])
                cj = c[j] * f + ig * g
                new_c.append(cj)
                new_h.append(o * tanh(cj))
            hs[i], cs[i] = new_h, new_c
            x = new_h
        y = [xi * w + bi for xi, w, bi in zip(x, out_w, out_b)]
        lse = log(sum(exp(yi) for yi in y) + 2)
        total += sum(s * (yi - lse) for s, yi in zip(seq[t + 1], y))
    return -total / ((len(seq) - 1) * b)


def objective(main, extra, state, seq):
    return [(real_part(loss(main, extra, state, seq)), "f64")]


def gradient(main, extra, state, seq):
    gm, ge = grad(loss, [main, extra, state, seq], which=[0, 1])
    return [(gm, "f64"), (ge, "f64")]


def directional(main, extra, state, seq, dmain, dextra):
    z = lambda v: [[0.0] * len(v[0]) for _ in v]  # noqa: E731
    return [(jvp(loss, [main, extra, state, seq], [dmain, dextra, z(state), z(seq)]), "f64")]


def dot_check(main, extra, state, seq, dmain, dextra):
    gm, ge = grad(loss, [main, extra, state, seq], which=[0, 1])
    lhs = dot(gm, dmain) + dot(ge, dextra)
    rhs = directional(main, extra, state, seq, dmain, dextra)[0][0]
    return [(abs(lhs - rhs) <= 1e-12 * max(1, abs(rhs)), "bool")]


REF = {"objective": objective, "gradient": gradient, "directional": directional,
       "dot_check": dot_check}
REFS = plain_refs(FILE, REF)


def instance(seed, l, b, c):
    r = lcg(seed)
    main = [[r() for _ in range(4 * b)] for _ in range(2 * l)]
    extra = [[r() for _ in range(b)] for _ in range(3)]
    state = [[r() for _ in range(b)] for _ in range(2 * l)]
    seq = [[float(r() > 0) for _ in range(b)] for _ in range(c)]
    dmain = [[r() for _ in range(4 * b)] for _ in range(2 * l)]
    dextra = [[r() for _ in range(b)] for _ in range(3)]
    return main, extra, state, seq, dmain, dextra


def typed(vals):
    return [(v, "f64") for v in vals]


A = instance(11, 1, 3, 4)   # one layer, 3 bits, 4 characters
B = instance(12, 2, 4, 5)   # two layers, 4 bits, 5 characters

CASES = [
    (["objective"], typed(A[:4]), "l=1 b=3 c=4"),
    (["objective"], typed(B[:4]), "l=2 b=4 c=5"),
    (["gradient"], typed(A[:4]), "l=1 b=3 c=4"),
    (["gradient"], typed(B[:4]), "l=2 b=4 c=5"),
    (["directional"], typed(B), "l=2 b=4 c=5"),
    (["dot_check"], typed(A), "l=1 b=3 c=4"),
    (["dot_check"], typed(B), "l=2 b=4 c=5"),
]
