"""Our JAX versions of the benchmark programs (float64), next to the
Futhark ones: each make_* takes the Futhark input values of the
benchmark's dataset and returns {entry point name: (function, args)}, the
functions to be jitted, with the same results (flattened) as the entry
points of gmm/gmm.fut, lstm/lstm.fut, kmeans/kmeans.fut and
matmul/matmul.fut."""

import jax
import jax.numpy as jnp

import gmm_jax

jax.config.update("jax_enable_x64", True)


def make_gmm(values):
    alphas, means, icf, x, gamma, wm = values
    k, d = means.shape
    f = gmm_jax.make_objective(d, k, x.shape[0], float(gamma), int(wm))
    args = [jnp.asarray(alphas), jnp.asarray(means), jnp.asarray(icf), jnp.asarray(x)]
    return {"objective": (f, args),
            "gradient": (jax.grad(f, argnums=(0, 1, 2)), args)}


def lstm_loss(main, extra, state0, seq):
    l2, w = main.shape
    b = w // 4
    sigmoid = jax.nn.sigmoid

    def step(state, t):
        x = seq[t] * extra[0]
        rows = []
        for i in range(l2 // 2):
            wts, bias = main[2 * i], main[2 * i + 1]
            h, cell = state[2 * i], state[2 * i + 1]

            def gate(j, v):
                return v * wts[j * b:(j + 1) * b] + bias[j * b:(j + 1) * b]
            forget = sigmoid(gate(0, x))
            ingate = sigmoid(gate(1, h))
            outgate = sigmoid(gate(2, x))
            change = jnp.tanh(gate(3, h))
            cell = cell * forget + ingate * change
            h = outgate * jnp.tanh(cell)
            rows += [h, cell]
            x = h
        y = x * extra[1] + extra[2]
        lse = jnp.log(jnp.sum(jnp.exp(y)) + 2)
        return jnp.stack(rows), jnp.sum(seq[t + 1] * (y - lse))

    c = seq.shape[0]
    _, terms = jax.lax.scan(step, state0, jnp.arange(c - 1))
    return -jnp.sum(terms) / ((c - 1) * b)


def make_lstm(values):
    args = [jnp.asarray(v) for v in values]
    main, extra, state, seq = args
    grad = jax.grad(lambda m, e: lstm_loss(m, e, state, seq), argnums=(0, 1))
    return {"objective": (lstm_loss, args),
            "gradient": (grad, [main, extra])}


def kmeans_cost(points, centres):
    dists = jnp.sum((points[:, None, :] - centres[None, :, :]) ** 2, axis=2)
    return jnp.sum(jnp.min(dists, axis=1))


def make_kmeans(values):
    points, centres = (jnp.asarray(v) for v in values)
    grad = jax.grad(kmeans_cost, argnums=1)

    def newton_step(points, centres):
        g, h = jax.jvp(lambda c: grad(points, c), (centres,), (jnp.ones_like(centres),))
        return jnp.where(h == 0, centres, centres - g / jnp.where(h == 0, 1, h))
    return {"cost": (kmeans_cost, [points, centres]),
            "gradient": (grad, [points, centres]),
            "newton_step": (newton_step, [points, centres])}


def make_matmul(values):
    a, b, c = (jnp.asarray(v) for v in values)

    def primal(a, b):
        return a @ b

    def gradient(a, b, c):
        _, pullback = jax.vjp(primal, a, b)
        return pullback(c)

    return {"primal": (primal, [a, b]), "gradient": (gradient, [a, b, c])}


MAKERS = {"gmm": make_gmm, "lstm": make_lstm, "kmeans": make_kmeans, "matmul": make_matmul}
