"""JAX and PyTorch versions of matmul.fut (float64): the product a b and
its vjp w.r.t. both factors for the output adjoint c.

The input values are those of matmul.fut's entry points: a [n][m],
b [m][p], c [n][p]. `primal` returns a b; `gradient` the adjoints of a
and b, which flatten to the entry point's two results.
"""


# ---------------------------------------------------------------- JAX

def make_jax(values):
    import jax
    import jax.numpy as jnp
    a, b, c = (jnp.asarray(v) for v in values)

    def primal(a, b):
        return a @ b

    def gradient(a, b, c):
        _, pullback = jax.vjp(primal, a, b)
        return pullback(c)

    return {"primal": (primal, [a, b]), "gradient": (gradient, [a, b, c])}


# ---------------------------------------------------------------- PyTorch

def make_torch(values):
    import torch
    a, b, c = (torch.as_tensor(v, dtype=torch.float64) for v in values)

    def primal(a, b):
        return a @ b

    def gradient(a, b, c):
        _, pullback = torch.func.vjp(primal, a, b)
        return pullback(c)

    return {"primal": (primal, [a, b]), "gradient": (gradient, [a, b, c])}


JAX = {"matmul": make_jax}
TORCH = {"matmul": make_torch}
