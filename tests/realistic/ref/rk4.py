"""Reference for tests/realistic/rk4.fut: RK4 on the Lotka–Volterra system,
written out directly, with derivatives by the complex-step method."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import dot, grad, jvp, plain_refs, real_part  # noqa: E402

FILE = "rk4.fut"


def lv(p, s):
    alpha, beta, delta, gamma = p
    x, y = s
    return (alpha * x - beta * x * y, delta * x * y - gamma * y)


def rk4_step(p, h, s):
    k1 = lv(p, s)
    k2 = lv(p, (s[0] + h / 2 * k1[0], s[1] + h / 2 * k1[1]))
    k3 = lv(p, (s[0] + h / 2 * k2[0], s[1] + h / 2 * k2[1]))
    k4 = lv(p, (s[0] + h * k3[0], s[1] + h * k3[1]))
    return tuple(s[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(2))


def flow(z, h, steps):
    s = (z[0], z[1])
    for _ in range(steps):
        s = rk4_step(z[2:6], h, s)
    return list(s)


def unit(n, i):
    return [float(i == j) for j in range(n)]


def final(z, h, steps):
    return [(real_part(flow(z, h, steps)), "f64")]


def jacobian_jvp(z, h, steps):
    cols = [jvp(lambda z: flow(z, h, steps), [z], [unit(6, i)]) for i in range(6)]
    return [(cols, "f64")]


def jacobian_vjp(z, h, steps):
    cols = jacobian_jvp(z, h, steps)[0][0]
    return [([[cols[i][j] for i in range(6)] for j in range(2)], "f64")]


def fit_loss(z, h, obs):
    s, total = (z[0], z[1]), 0
    for o in obs:
        s = rk4_step(z[2:6], h, s)
        total += (s[0] - o[0]) ** 2 + (s[1] - o[1]) ** 2
    return total


def fit_grad(z, h, obs):
    g = grad(lambda z: fit_loss(z, h, obs), [z])[0]
    return [(real_part(fit_loss(z, h, obs)), "f64"), (g, "f64")]


def fit_jvp(z, h, obs, v):
    return [(jvp(lambda z: fit_loss(z, h, obs), [z], [v]), "f64")]


def dot_check(z, h, steps, xdot, ybar):
    jx = jvp(lambda z: flow(z, h, steps), [z], [xdot])
    cols = jacobian_jvp(z, h, steps)[0][0]
    jty = [dot(ybar, c) for c in cols]
    lhs, rhs = dot(ybar, jx), dot(jty, xdot)
    return [(abs(lhs - rhs) <= 1e-12 * max(1, abs(lhs)), "bool")]


REF = {"final": final, "jacobian_vjp": jacobian_vjp, "jacobian_jvp": jacobian_jvp,
       "fit_grad": fit_grad, "fit_jvp": fit_jvp, "dot_check": dot_check}
REFS = plain_refs(FILE, REF)

# x0, y0, alpha, beta, delta, gamma
Z = [1.0, 0.5, 1.5, 1.0, 0.75, 1.0]
Z2 = [2.0, 1.25, 0.5, 0.25, 0.125, 0.75]
# noisy observations of the trajectory from Z2 (3 decimals)
OBS = [[round(v + 0.01 * ((7 * i + 3 * j) % 5 - 2), 3) for j, v in enumerate(flow(Z2, 0.1, i + 1))]
       for i in range(20)]

CASES = [
    (["final"], [(Z, "f64"), (0.05, "f64"), (100, "i64")], None),
    (["jacobian_vjp"], [(Z, "f64"), (0.05, "f64"), (100, "i64")], None),
    (["jacobian_jvp"], [(Z, "f64"), (0.05, "f64"), (100, "i64")], None),
    (["jacobian_vjp"], [(Z2, "f64"), (0.1, "f64"), (0, "i64")], "no steps"),
    (["fit_grad"], [([2.125, 1.0, 0.625, 0.25, 0.25, 0.5], "f64"), (0.1, "f64"),
                    (OBS, "f64")], "fit to 20 observations"),
    (["fit_jvp"], [([2.125, 1.0, 0.625, 0.25, 0.25, 0.5], "f64"), (0.1, "f64"),
                   (OBS, "f64"), ([0.5, -1.0, 0.25, 2.0, -0.75, 1.5], "f64")], None),
    (["dot_check"], [(Z, "f64"), (0.05, "f64"), (100, "i64"),
                     ([0.5, -1.0, 0.25, 2.0, -0.75, 1.5], "f64"), ([1.0, -2.0], "f64")], None),
]
