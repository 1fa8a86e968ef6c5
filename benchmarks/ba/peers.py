"""JAX and PyTorch versions of ba.fut's entry points (same inputs, same
result layouts): objective -> (reproj [p][2], werr [p]); jacobian (reverse
mode) and jacobian_fwd (forward mode) -> (J [p][2][15], dwerr [p]), J's
columns being camera (11), point (3), weight (1) of each observation's
residual. Both are per-observation Jacobians vectorised over the
observations (vmap of jacrev / jacfwd)."""


def make_jax(values):
    import jax
    import jax.numpy as jnp

    cams, xs, w, obs, feats = (jnp.asarray(v) for v in values)

    def rotate(r, x):
        t2 = jnp.dot(r, r)
        nz = t2 != 0
        t = jnp.sqrt(jnp.where(nz, t2, 1.0))
        u = r / t
        rot = x * jnp.cos(t) + jnp.cross(u, x) * jnp.sin(t) + u * (jnp.dot(u, x) * (1 - jnp.cos(t)))
        return jnp.where(nz, rot, x + jnp.cross(r, x))

    def reproj(cam, x, wk, feat):
        xc = rotate(cam[0:3], x - cam[3:6])
        pp = xc[0:2] / xc[2]
        rho = jnp.dot(pp, pp)
        lens = 1 + cam[9] * rho + cam[10] * rho * rho
        return wk * (cam[6] * lens * pp + cam[7:9] - feat)

    def werr(wk):
        return 1 - wk * wk

    def objective(cams, xs, w, obs, feats):
        r = jax.vmap(reproj)(cams[obs[:, 0]], xs[obs[:, 1]], w, feats)
        return r, werr(w)

    def jac_with(jac):
        def entry(cams, xs, w, obs, feats):
            jc, jx, jw = jax.vmap(jac(reproj, argnums=(0, 1, 2)))(
                cams[obs[:, 0]], xs[obs[:, 1]], w, feats)
            blocks = jnp.concatenate([jc, jx, jw[:, :, None]], axis=2)
            return blocks, jax.vmap(jax.grad(werr))(w)
        return entry

    args = (cams, xs, w, obs, feats)
    return {"objective": (objective, args),
            "jacobian": (jac_with(jax.jacrev), args),
            "jacobian_fwd": (jac_with(jax.jacfwd), args)}


def make_torch(values):
    import torch
    from torch.func import jacfwd, jacrev, vmap

    cams, xs, w, obs, feats = (torch.as_tensor(v) for v in values)

    def rotate(r, x):
        t2 = torch.dot(r, r)
        nz = t2 != 0
        t = torch.sqrt(torch.where(nz, t2, torch.ones_like(t2)))
        u = r / t
        rot = (x * torch.cos(t) + torch.linalg.cross(u, x) * torch.sin(t)
               + u * (torch.dot(u, x) * (1 - torch.cos(t))))
        return torch.where(nz, rot, x + torch.linalg.cross(r, x))

    def reproj(cam, x, wk, feat):
        xc = rotate(cam[0:3], x - cam[3:6])
        pp = xc[0:2] / xc[2]
        rho = torch.dot(pp, pp)
        lens = 1 + cam[9] * rho + cam[10] * rho * rho
        return wk * (cam[6] * lens * pp + cam[7:9] - feat)

    def werr(wk):
        return 1 - wk * wk

    def objective(cams, xs, w, obs, feats):
        with torch.no_grad():
            r = vmap(reproj)(cams[obs[:, 0]], xs[obs[:, 1]], w, feats)
            return r, werr(w)

    def jac_with(jac):
        def entry(cams, xs, w, obs, feats):
            jc, jx, jw = vmap(jac(reproj, argnums=(0, 1, 2)))(
                cams[obs[:, 0]], xs[obs[:, 1]], w, feats)
            blocks = torch.cat([jc, jx, jw[:, :, None]], dim=2)
            return blocks, vmap(jac(werr))(w)
        return entry

    args = (cams, xs, w, obs, feats)
    return {"objective": (objective, args),
            "jacobian": (jac_with(jacrev), args),
            "jacobian_fwd": (jac_with(jacfwd), args)}


JAX = {"ba": make_jax}
TORCH = {"ba": make_torch}
