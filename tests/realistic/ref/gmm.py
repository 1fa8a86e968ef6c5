"""Reference for tests/realistic/gmm.fut, whose code is that of
benchmarks/gmm/gmm.fut (update.py copies it): the ADBench GMM objective
written out from its definition (data README, section 3.1), with the
gradient by the complex-step method. On ADBench's unit-test instance both
are also checked against ADBench's published values (transcribed below)."""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import exp, flatten, grad, jvp, lcg, log, plain_refs, re, real_part  # noqa: E402

FILE = "gmm.fut"
CODE_FROM = "../../benchmarks/gmm/gmm.fut"


def logsumexp(xs):
    mx = max(re(x) for x in xs)
    return mx + log(sum(exp(x - mx) for x in xs))


def qmat(d, row):
    q = [[0.0] * d for _ in range(d)]
    pos = d
    for c in range(d):
        q[c][c] = exp(row[c])
        for r in range(c + 1, d):
            q[r][c] = row[pos]
            pos += 1
    return q


def objective_value(alphas, means, icf, x, gamma, wm):
    k, d, n = len(alphas), len(means[0]), len(x)
    wm = int(re(wm))  # the prior's parameters are constants
    qs = [qmat(d, row) for row in icf]
    sum_qs = [sum(row[:d]) for row in icf]
    total = -n * d * 0.5 * math.log(2 * math.pi)
    for xi in x:
        terms = []
        for j in range(k):
            diff = [a - b for a, b in zip(xi, means[j])]
            qd = [sum(qs[j][r][c] * diff[c] for c in range(d)) for r in range(d)]
            terms.append(alphas[j] + sum_qs[j] - 0.5 * sum(v * v for v in qd))
        total += logsumexp(terms)
    total -= n * logsumexp(alphas)
    n2 = d + wm + 1
    const = n2 * d * (math.log(re(gamma)) - 0.5 * math.log(2)) - (
        0.25 * d * (d - 1) * math.log(math.pi)
        + sum(math.lgamma(0.5 * n2 + 0.5 * (1 - j)) for j in range(1, d + 1)))
    for j in range(k):
        frob = sum(exp(v) ** 2 for v in icf[j][:d]) + sum(v * v for v in icf[j][d:])
        total += 0.5 * gamma * gamma * frob - wm * sum_qs[j]
    return total - k * const


def gradient_value(*args):
    return grad(objective_value, list(args), which=[0, 1, 2])


def objective(*args):
    return [(real_part(objective_value(*args)), "f64")]


def gradient(*args):
    return [(g, "f64") for g in gradient_value(*args)]


def directional(*args):
    """The derivative along fd_check's pseudo-random direction."""
    k, d = len(args[0]), len(args[1][0])
    m = d * (d + 1) // 2

    def dirv(i):
        h = (i * 2654435761 + 40503) % 1000003
        return h / 500001.5 - 1
    da = [dirv(i) for i in range(k)]
    dmu = [[dirv(k + i * d + j) for j in range(d)] for i in range(k)]
    dq = [[dirv(k + k * d + i * m + j) for j in range(m)] for i in range(k)]
    zx = [[0.0] * d for _ in args[3]]
    return jvp(objective_value, list(args), [da, dmu, dq, zx, 0.0, 0])


def fd_check(*args):
    directional(*args)
    return [(True, "bool")]


def gradient_close(alphas, means, icf, x, gamma, wm, ea, emu, eq, rtol):
    g = flatten(gradient_value(alphas, means, icf, x, gamma, wm))
    want = flatten([ea, emu, eq])
    scale = max([1.0] + [abs(v) for v in want])
    return [(max(abs(a - b) for a, b in zip(g, want)) <= rtol * scale, "bool")]


REF = {"objective": objective, "gradient": gradient, "gradient_fwd": gradient,
       "fd_check": fd_check, "gradient_close": gradient_close}
REFS = plain_refs(FILE, REF)

# ADBench's unit-test instance (data/gmm/test.txt) and the values its C++
# tests expect (test.F.txt, test.J.txt)
TEST = [[-0.649014, 1.181166, -0.758453],
        [[0.092339, 0.186260], [0.345561, 0.396767], [0.538817, 0.419195]],
        [[0.586443, -0.851887, 0.800321], [-1.509405, 0.875874, -0.242790],
         [0.166813, -1.965419, -1.270071]],
        [[1.175171, 2.029160]], 1.0, 0]
TEST_F = 8.073804080049758
TEST_J = [0.10866285550865246, -0.7412700395238985, 0.6326071840152461,
          1.1169257653278701, 0.16333301355145527, -0.021998982407119314,
          0.2277782922542361, 1.2096302561283219, -0.060637592073395634,
          2.5852999405116224, 0.11263269452421379, 0.3857443098496118,
          0.07351805731823055, 5.418363627155952, -0.32149440967744647,
          1.7189230977500494, 0.8600910907908669, -0.9946409304663228]
assert abs(real_part(objective_value(*TEST)) - TEST_F) < 1e-12
assert max(abs(a - b) for a, b in zip(flatten(gradient_value(*TEST)), TEST_J)) < 1e-12
TEST_JA = [TEST_J[0:3], [TEST_J[3:5], TEST_J[5:7], TEST_J[7:9]],
           [TEST_J[9:12], TEST_J[12:15], TEST_J[15:18]]]


def instance(seed, d, k, n, gamma, wm):
    r = lcg(seed)
    m = d * (d + 1) // 2
    alphas = [r() for _ in range(k)]
    means = [[2 * r() for _ in range(d)] for _ in range(k)]
    icf = [[0.5 * r() for _ in range(m)] for _ in range(k)]
    x = [[2 * r() for _ in range(d)] for _ in range(n)]
    return [alphas, means, icf, x, gamma, wm]


SECOND = instance(5, 3, 2, 6, 0.75, 2)
TYPES = ["f64", "f64", "f64", "f64", "f64", "i64"]


def typed(args):
    return list(zip(args, TYPES))


CASES = [
    (["objective"], typed(TEST), "ADBench test"),
    (["objective"], typed(SECOND), "d=3 K=2 n=6 gamma=0.75 m=2"),
    (["gradient", "gradient_fwd"], typed(TEST), "ADBench test"),
    (["gradient", "gradient_fwd"], typed(SECOND), "d=3 K=2 n=6 gamma=0.75 m=2"),
    (["gradient_close"], typed(TEST) + [(v, "f64") for v in TEST_JA] + [(1e-13, "f64")],
     "ADBench test, to 1e-13"),
    (["fd_check"], typed(TEST), "ADBench test"),
    (["fd_check"], typed(SECOND), "d=3 K=2 n=6 gamma=0.75 m=2"),
]
