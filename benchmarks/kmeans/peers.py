"""JAX and PyTorch versions of kmeans.fut (float64): the k-means cost
f(C) = sum_p min_j |p - C_j|^2, its gradient w.r.t. the centres, and one
Newton step whose Hessian diagonal is the jvp of the gradient along ones.

The input values are those of kmeans.fut's entry points: points [n][d],
centres [k][d]. `cost` returns the scalar, `gradient` and `newton_step`
[k][d] arrays.
"""


# ---------------------------------------------------------------- JAX

def jax_cost(points, centres):
    import jax.numpy as jnp
    dists = jnp.sum((points[:, None, :] - centres[None, :, :]) ** 2, axis=2)
    return jnp.sum(jnp.min(dists, axis=1))


def make_jax(values):
    import jax
    import jax.numpy as jnp
    points, centres = (jnp.asarray(v) for v in values)
    grad = jax.grad(jax_cost, argnums=1)

    def newton_step(points, centres):
        g, h = jax.jvp(lambda c: grad(points, c), (centres,), (jnp.ones_like(centres),))
        # a centre with no points has a zero Hessian: it stays where it is
        return jnp.where(h == 0, centres, centres - g / jnp.where(h == 0, 1, h))
    return {"cost": (jax_cost, [points, centres]),
            "gradient": (grad, [points, centres]),
            "newton_step": (newton_step, [points, centres])}


# ---------------------------------------------------------------- PyTorch

def torch_cost(points, centres):
    # |p - c|^2 = |p|^2 - 2 p.c + |c|^2: one matrix product, no [n][k][d]
    # array (the rounding differs from the direct form by about eps |p|^2)
    dists = points.square().sum(1, keepdim=True) - 2 * points @ centres.T \
        + centres.square().sum(1)                                       # [n][k]
    return dists.amin(1).sum()


def make_torch(values):
    import torch
    from torch.func import grad, jvp
    points, centres = (torch.as_tensor(v, dtype=torch.float64) for v in values)
    gradient = grad(torch_cost, argnums=1)

    def newton_step(points, centres):
        g, h = jvp(lambda c: gradient(points, c), (centres,), (torch.ones_like(centres),))
        # a centre with no points has a zero Hessian: it stays where it is
        return torch.where(h == 0, centres, centres - g / torch.where(h == 0, 1, h))
    return {"cost": (torch_cost, [points, centres]),
            "gradient": (gradient, [points, centres]),
            "newton_step": (newton_step, [points, centres])}


JAX = {"kmeans": make_jax}
TORCH = {"kmeans": make_torch}
