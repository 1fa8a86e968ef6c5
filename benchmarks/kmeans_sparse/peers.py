"""JAX and PyTorch versions of kmeans_sparse.fut (cost, gradient, newton_step).

Both take the CSR matrix as it comes (values, column indices, row
offsets) and form the n×k dot products x_i·C_j as a sparse-dense matrix
product: JAX through its BCSR sparse format (jax.experimental.sparse),
PyTorch through a sparse CSR tensor. The gradient is reverse mode; the
Hessian diagonal of the Newton step is forward over reverse in JAX
(jvp of grad, as parad does) and a Hessian-vector product by double
backward in PyTorch (the Hessian is symmetric, so H·1 is the same
vector).
"""


def jax_kmeans_sparse(values):
    import jax
    import jax.numpy as jnp
    from jax.experimental import sparse

    vals, cols, offs, centres = values
    n, d = len(offs) - 1, centres.shape[1]

    def cost(vals, cols, offs, c):
        x = sparse.BCSR((vals, cols, offs), shape=(n, d))
        xn = jax.ops.segment_sum(vals * vals, jnp.repeat(jnp.arange(n), jnp.diff(offs),
                                                         total_repeat_length=vals.shape[0]),
                                 num_segments=n)
        dist = xn[:, None] - 2 * (x @ c.T) + jnp.sum(c * c, axis=1)[None, :]
        return jnp.sum(jnp.min(dist, axis=1))

    grad = jax.grad(cost, argnums=3)

    def newton_step(vals, cols, offs, c):
        g, h = jax.jvp(lambda c: grad(vals, cols, offs, c), (c,), (jnp.ones_like(c),))
        return jnp.where(h == 0, c, c - g / jnp.where(h == 0, 1, h))

    args = (jnp.asarray(vals), jnp.asarray(cols), jnp.asarray(offs), jnp.asarray(centres))
    return {"cost": (cost, args), "gradient": (grad, args), "newton_step": (newton_step, args)}


def torch_kmeans_sparse(values):
    import warnings

    import torch

    vals, cols, offs, centres = values
    n, d = len(offs) - 1, centres.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "sparse CSR support is in beta"
        x = torch.sparse_csr_tensor(torch.from_numpy(offs), torch.from_numpy(cols),
                                    torch.from_numpy(vals), size=(n, d), check_invariants=True)
    c0 = torch.from_numpy(centres)

    def cost_of(c):
        xn = torch.segment_reduce(x.values() ** 2, "sum", offsets=x.crow_indices())
        dist = xn[:, None] - 2 * (x @ c.T) + (c * c).sum(dim=1)[None, :]
        return dist.min(dim=1).values.sum()

    def cost(c):
        with torch.no_grad():
            return cost_of(c)

    def gradient(c):
        c = c.detach().requires_grad_()
        return torch.autograd.grad(cost_of(c), c)[0]

    def newton_step(c):
        c = c.detach().requires_grad_()
        g = torch.autograd.grad(cost_of(c), c, create_graph=True)[0]
        h = torch.autograd.grad(g, c, torch.ones_like(c))[0]
        g = g.detach()
        return torch.where(h == 0, c.detach(), c.detach() - g / torch.where(h == 0, 1, h))

    return {"cost": (cost, (c0,)), "gradient": (gradient, (c0,)), "newton_step": (newton_step, (c0,))}


JAX = {"kmeans_sparse": jax_kmeans_sparse}
TORCH = {"kmeans_sparse": torch_kmeans_sparse}
