"""JAX and PyTorch versions of lorenz96.fut (primal, gradient,
gradient_stripmined).

JAX integrates with lax.scan and differentiates with jax.grad; the
strip-mined gradient scans over blocks of about sqrt(T) steps, each block
under jax.checkpoint (only the block boundaries are kept; a block's steps
are recomputed in the backward pass). PyTorch runs the steps in a Python
loop under autograd; its strip-mined gradient runs each block through
torch.utils.checkpoint. Both compute the same numbers as the plain loop.
"""

import math


def blocks(t):
    """(block length, number of blocks, remaining steps) of T steps."""
    b = max(1, math.isqrt(max(t, 1)))
    return b, t // b, t - b * (t // b)


def jax_lorenz96(values):
    import jax
    import jax.numpy as jnp
    from jax import lax

    x0, f, dt, t = values
    b, nb, rem = blocks(t)

    def l96(x):
        return (jnp.roll(x, -1) - jnp.roll(x, 2)) * jnp.roll(x, 1) - x + f

    def step(x, _):
        k1 = l96(x)
        k2 = l96(x + dt / 2 * k1)
        k3 = l96(x + dt / 2 * k2)
        k4 = l96(x + dt * k3)
        return x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4), None

    def run(x, n):
        return lax.scan(step, x, None, length=n)[0] if n > 0 else x

    def loss(x0):
        return 0.5 * jnp.sum(run(x0, t) ** 2)

    block = jax.checkpoint(lambda x, _: (run(x, b), None))

    def loss_strip(x0):
        x = lax.scan(block, x0, None, length=nb)[0]
        return 0.5 * jnp.sum(run(x, rem) ** 2)

    args = (jnp.asarray(x0),)
    return {"primal": (loss, args), "gradient": (jax.grad(loss), args),
            "gradient_stripmined": (jax.grad(loss_strip), args)}


def torch_lorenz96(values):
    import torch
    from torch.utils.checkpoint import checkpoint

    x0, f, dt, t = values
    b, nb, rem = blocks(t)

    def l96(x):
        return (torch.roll(x, -1) - torch.roll(x, 2)) * torch.roll(x, 1) - x + f

    def run(x, n):
        for _ in range(n):
            k1 = l96(x)
            k2 = l96(x + dt / 2 * k1)
            k3 = l96(x + dt / 2 * k2)
            k4 = l96(x + dt * k3)
            x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return x

    def primal(x0):
        with torch.no_grad():
            return 0.5 * (run(x0, t) ** 2).sum()

    def gradient(x0):
        x0 = x0.detach().requires_grad_()
        return torch.autograd.grad(0.5 * (run(x0, t) ** 2).sum(), x0)[0]

    def gradient_stripmined(x0):
        x0 = x0.detach().requires_grad_()
        x = x0
        for _ in range(nb):
            x = checkpoint(run, x, b, use_reentrant=False)
        return torch.autograd.grad(0.5 * (run(x, rem) ** 2).sum(), x0)[0]

    args = (torch.from_numpy(x0),)
    return {"primal": (primal, args), "gradient": (gradient, args),
            "gradient_stripmined": (gradient_stripmined, args)}


JAX = {"lorenz96": jax_lorenz96}
TORCH = {"lorenz96": torch_lorenz96}
