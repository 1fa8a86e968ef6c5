"""Entry points as JAX functions: jax.grad against JAX's own autodiff of
the same function, under jit and vmap."""

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed (CI installs it)")
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

import parad.jax  # noqa: E402


def jax_loss(w1, w2, xs, ys):
    pred = jnp.tanh(xs @ w1.T) @ w2
    return jnp.sum((pred - ys) ** 2) / ys.shape[0]


def inputs(seed=0, n=6, d=3, h=4):
    r = np.random.default_rng(seed)
    return [jnp.asarray(r.normal(size=s)) for s in [(h, d), (h,), (n, d), (n,)]]


def test_values_and_gradients_match_jax(model_on):
    loss = parad.jax.function(model_on, "loss")
    args = inputs()
    assert float(loss(*args)) == pytest.approx(float(jax_loss(*args)), rel=1e-12)
    argnums = (0, 1, 2, 3)
    ours = jax.grad(loss, argnums)(*args)
    theirs = jax.grad(jax_loss, argnums)(*args)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_under_jit(model):
    loss = parad.jax.function(model, "loss")
    args = inputs(1)
    step = jax.jit(jax.value_and_grad(loss, (0, 1)))
    (v, (g1, g2)) = step(*args)
    (rv, (r1, r2)) = jax.value_and_grad(jax_loss, (0, 1))(*args)
    assert float(v) == pytest.approx(float(rv), rel=1e-12)
    np.testing.assert_allclose(g1, r1, rtol=1e-10)
    np.testing.assert_allclose(g2, r2, rtol=1e-10)
    # Again with other values of the same shapes: no new compilation.
    args2 = inputs(2)
    np.testing.assert_allclose(step(*args2)[1][0], jax.grad(jax_loss)(*args2), rtol=1e-10)


def test_under_vmap(model):
    loss = parad.jax.function(model, "loss")
    w1, w2, _, _ = inputs(3)
    r = np.random.default_rng(4)
    xss = jnp.asarray(r.normal(size=(5, 6, 3)))
    yss = jnp.asarray(r.normal(size=(5, 6)))
    batched = jax.vmap(loss, (None, None, 0, 0))
    np.testing.assert_allclose(batched(w1, w2, xss, yss), jax.vmap(jax_loss, (None, None, 0, 0))(w1, w2, xss, yss), rtol=1e-12)

    def total(f):
        return lambda w1, w2: jnp.sum(jax.vmap(f, (None, None, 0, 0))(w1, w2, xss, yss))

    np.testing.assert_allclose(
        jax.jit(jax.grad(total(loss)))(w1, w2), jax.grad(total(jax_loss))(w1, w2), rtol=1e-10
    )


def test_tuple_result_and_a_fixed_integer(model):
    poly = parad.jax.function(model, "poly")

    def ours(xs, c):
        ys, s = poly(xs, 3, c)
        return jnp.sum(ys) * 2 + s

    def theirs(xs, c):
        ys = c * xs**3 + jnp.sin(xs)
        return jnp.sum(ys) * 2 + jnp.sum(ys) * c

    xs, c = jnp.array([0.5, 1.0, 2.0]), jnp.asarray(2.0)
    for a, b in zip(jax.grad(ours, (0, 1))(xs, c), jax.grad(theirs, (0, 1))(xs, c)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_float32(model):
    scale = parad.jax.function(model, "scale32")
    xs = jnp.array([1.0, -2.0], dtype=jnp.float32)
    a = jnp.asarray(3.0, dtype=jnp.float32)
    y = scale(xs, a)
    assert y.dtype == jnp.float32
    gx, ga = jax.grad(lambda xs, a: jnp.sum(scale(xs, a)), (0, 1))(xs, a)
    assert gx.tolist() == [3.0, 3.0] and float(ga) == -1.0
