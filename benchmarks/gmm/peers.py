"""JAX and PyTorch versions of gmm.fut (float64): the ADBench GMM
objective and its gradient w.r.t. alphas, means and icf.

The input values are those of gmm.fut's entry points: alphas [K],
means [K][d], icf [K][d(d+1)/2], x [n][d], gamma, wm. `objective` returns
the scalar; `gradient` the three adjoints (alphas, means, icf), which
flatten to the entry point's results.
"""

import math


def log_wishart_const(d, gamma, wm):
    """log of the Wishart normalising constant C for dimension d."""
    n2 = d + wm + 1
    lmgamma = 0.25 * d * (d - 1) * math.log(math.pi) + sum(
        math.lgamma(0.5 * n2 + 0.5 * (1 - j)) for j in range(1, d + 1))
    return n2 * d * (math.log(gamma) - 0.5 * math.log(2)) - lmgamma


def lower_positions(d):
    """(r, c, i) for each strictly lower entry Q[r][c]: i is its index in a
    row of icf (after the d log-diagonal entries, column by column)."""
    return [(r, c, d + c * d - c * (c + 1) // 2 + r - c - 1)
            for c in range(d) for r in range(c + 1, d)]


# ---------------------------------------------------------------- JAX

def jax_objective(d, k, n, gamma, wm):
    import jax
    import jax.numpy as jnp
    from jax.scipy.special import logsumexp

    idx = [[0] * d for _ in range(d)]
    mask = [[0.0] * d for _ in range(d)]
    for r, c, i in lower_positions(d):
        idx[r][c] = i
        mask[r][c] = 1.0
    idx, mask = jnp.array(idx), jnp.array(mask)

    def unpack_q(row):
        return row[idx] * mask + jnp.diag(jnp.exp(row[:d]))

    const = log_wishart_const(d, gamma, wm)

    def objective(alphas, means, icf, x):
        qs = jax.vmap(unpack_q)(icf)                                # [K][d][d]
        sum_qs = jnp.sum(icf[:, :d], axis=1)                        # [K]
        diff = x[:, None, :] - means[None, :, :]                    # [n][K][d]
        qdiff = jnp.einsum("krc,nkc->nkr", qs, diff)
        terms = alphas[None, :] + sum_qs[None, :] - 0.5 * jnp.sum(qdiff ** 2, axis=2)
        frob = jnp.sum(jnp.exp(icf[:, :d]) ** 2) + jnp.sum(icf[:, d:] ** 2)
        prior = 0.5 * gamma * gamma * frob - wm * jnp.sum(sum_qs) - k * const
        return (-n * d * 0.5 * math.log(2 * math.pi) + jnp.sum(logsumexp(terms, axis=1))
                - n * logsumexp(alphas) + prior)
    return objective


def make_jax(values):
    import jax
    import jax.numpy as jnp
    alphas, means, icf, x, gamma, wm = values
    k, d = means.shape
    f = jax_objective(d, k, x.shape[0], float(gamma), int(wm))
    args = [jnp.asarray(alphas), jnp.asarray(means), jnp.asarray(icf), jnp.asarray(x)]
    return {"objective": (f, args),
            "gradient": (jax.grad(f, argnums=(0, 1, 2)), args)}


# ---------------------------------------------------------------- PyTorch

def torch_objective(d, k, n, gamma, wm):
    import torch

    pos = lower_positions(d)
    rows = torch.tensor([r for r, _, _ in pos], dtype=torch.long)
    cols = torch.tensor([c for _, c, _ in pos], dtype=torch.long)
    src = torch.tensor([i for _, _, i in pos], dtype=torch.long)
    comp = torch.arange(k)[:, None]
    const = log_wishart_const(d, gamma, wm)

    def objective(alphas, means, icf, x):
        logdiag = icf[:, :d]
        # Q_k: exp of the log-diagonal on the diagonal, the rest below it
        qs = torch.diag_embed(torch.exp(logdiag)).index_put((comp, rows, cols), icf[:, src])
        sum_qs = logdiag.sum(1)                                        # [K]
        # Q_k (x_i - mu_k) = Q_k x_i - Q_k mu_k
        qdiff = torch.einsum("krc,nc->nkr", qs, x) - torch.einsum("krc,kc->kr", qs, means)
        terms = alphas + sum_qs - 0.5 * torch.einsum("nkr,nkr->nk", qdiff, qdiff)
        frob = torch.exp(logdiag).square().sum() + icf[:, d:].square().sum()
        prior = 0.5 * gamma * gamma * frob - wm * sum_qs.sum() - k * const
        return (-n * d * 0.5 * math.log(2 * math.pi) + torch.logsumexp(terms, 1).sum()
                - n * torch.logsumexp(alphas, 0) + prior)
    return objective


def make_torch(values):
    import torch
    alphas, means, icf, x, gamma, wm = values
    k, d = means.shape
    f = torch_objective(d, k, x.shape[0], float(gamma), int(wm))
    args = [torch.as_tensor(a, dtype=torch.float64) for a in (alphas, means, icf, x)]
    return {"objective": (f, args),
            "gradient": (torch.func.grad(f, argnums=(0, 1, 2)), args)}


JAX = {"gmm": make_jax}
TORCH = {"gmm": make_torch}
