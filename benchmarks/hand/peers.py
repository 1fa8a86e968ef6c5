"""JAX and PyTorch versions of hand.fut's entries (the ADBench hand
tracking residuals and their Jacobians, simple and complicated; see the
module doc of hand.fut for the maths and the layouts).

Inputs (as prepare.py writes them): parents, base_rel, inv_base_abs,
weights [M][B], positions [M][3], (triangles [T][3], complicated only),
corr, points [N][3], theta [26], (us [N][2], complicated only).
The Jacobians are forward mode in both systems: a vmap of jvp over the 26
unit directions of theta (simple), plus two directions that move every
point's u_0 (resp. u_1) at once (complicated), as in hand.fut.
"""

import numpy as np


def _bone_angle_index(nbones, ntheta):
    """For each bone the theta indices of its two angles (ntheta = zero)."""
    idx = np.full((nbones, 2), ntheta, dtype=np.int64)
    for b in range(1, min(nbones, 21)):
        f, j = (b - 1) // 4, (b - 1) % 4
        if j == 1:
            idx[b] = (6 + 4 * f, 7 + 4 * f)
        elif j > 1:
            idx[b, 0] = 6 + 4 * f + j
    return idx


def _model(xp, stack, parents, base_rel, inv_base_abs):
    """pose(theta) -> (T [B][3][4], G [3][3], t [3]) written with the array
    module xp (jax.numpy or torch) and its stack function."""
    nb = len(parents)
    idx = _bone_angle_index(nb, 26)
    plist = [int(q) for q in parents]

    def pose(theta):
        ext = xp.concatenate([theta, xp.zeros_like(theta[:1])])
        e0, e1 = ext[idx[:, 0]], ext[idx[:, 1]]
        cx, sx, cz, sz = xp.cos(e0), xp.sin(e0), xp.cos(e1), xp.sin(e1)
        zero, one = xp.zeros_like(e0), xp.ones_like(e0)
        # Rz(e1) Rx(e0), per bone
        e = stack([stack([cz, -sz * cx, sz * sx], -1),
                   stack([sz, cz * cx, -cz * sx], -1),
                   stack([zero, sx, cx], -1)], -2)
        rot = base_rel[:, :, :3] @ e
        rel = xp.concatenate([rot, base_rel[:, :, 3:]], -1)
        absl = []
        for b in range(nb):
            absl.append(rel[b] if plist[b] < 0 else absl[plist[b]] @ rel[b])
        ts = (stack(absl, 0) @ inv_base_abs)[:, :3, :]
        a = theta[:3]
        n = xp.sqrt(xp.sum(a * a))
        small = n < 1e-4
        safe = xp.where(small, xp.ones_like(n), n)
        x, y, z = a[0] / safe, a[1] / safe, a[2] / safe
        s, c = xp.sin(safe), xp.cos(safe)
        rg = stack([stack([x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s]),
                    stack([x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s]),
                    stack([x * z * (1 - c) - y * s, y * z * (1 - c) + x * s, z * z + (1 - z * z) * c])])
        g = xp.where(small, xp.eye(3, dtype=theta.dtype), rg)
        return ts, g, theta[3:6]

    def skin(ts, g, t, w, x):
        """Posed positions of vertices with weights w [K][B], rest x [K][3]."""
        blend = xp.einsum("kb,brc->krc", w, ts)
        s = (blend[:, :, :3] @ x[:, :, None])[:, :, 0] + blend[:, :, 3]
        return s @ g.T + t

    return pose, skin


def _simple(xp, stack, vals):
    parents, (base_rel, inv_base_abs, weights, positions, corr, points, theta) = vals
    pose, skin = _model(xp, stack, parents, base_rel, inv_base_abs)
    w, x = weights[corr], positions[corr]

    def residuals(th):
        ts, g, t = pose(th)
        return points - skin(ts, g, t, w, x)
    return residuals, theta


def _complicated(xp, stack, vals):
    parents, (base_rel, inv_base_abs, weights, positions, triangles,
              corr, points, theta, us) = vals
    pose, skin = _model(xp, stack, parents, base_rel, inv_base_abs)
    tri = triangles[corr]                       # [N][3]
    n = tri.shape[0]
    w = weights[tri.reshape(-1)]                # [3N][B]
    x = positions[tri.reshape(-1)]              # [3N][3]

    def residuals(th, u):
        ts, g, t = pose(th)
        v = skin(ts, g, t, w, x).reshape(n, 3, 3)  # point, corner, coordinate
        bary = xp.concatenate([u, 1 - u[:, :1] - u[:, 1:]], 1)
        return points - xp.einsum("nk,nkj->nj", bary, v)
    return residuals, theta, us


def _jax_inputs(values, complicated):
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    vals = list(values)
    ints = (0, 5, 6) if complicated else (0, 5)
    return [np.asarray(v) if i == 0 else jnp.asarray(v) if i not in ints else jnp.asarray(np.asarray(v, dtype=np.int64))
            for i, v in enumerate(vals)]


def jax_simple(values):
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    vals = _jax_inputs(values, False)
    parents, vals = vals[0], vals[1:]
    p = vals[6].shape[0]

    def objective(*args):
        res, th = _simple(jnp, jnp.stack, (parents, args))
        return res(th)

    def jacobian(*args):
        res, th = _simple(jnp, jnp.stack, (parents, args))
        tangents = jax.vmap(lambda d: jax.jvp(res, (th,), (d,))[1])(jnp.eye(p))
        return tangents.reshape(p, -1)
    return {"simple_objective": (objective, vals), "simple_jacobian": (jacobian, vals)}


def jax_complicated(values):
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    vals = _jax_inputs(values, True)
    parents, vals = vals[0], vals[1:]
    p = vals[7].shape[0]
    n = vals[8].shape[0]

    def objective(*args):
        res, th, u = _complicated(jnp, jnp.stack, (parents, args))
        return res(th, u)

    def jacobian(*args):
        res, th, u = _complicated(jnp, jnp.stack, (parents, args))
        dth = jnp.concatenate([jnp.zeros((2, p)), jnp.eye(p)])
        du = jnp.concatenate([jnp.broadcast_to(jnp.eye(2)[:, None, :], (2, n, 2)),
                              jnp.zeros((p, n, 2))])
        tangents = jax.vmap(lambda a, b: jax.jvp(res, (th, u), (a, b))[1])(dth, du)
        return tangents.reshape(p + 2, -1)
    return {"complicated_objective": (objective, vals),
            "complicated_jacobian": (jacobian, vals)}


def _torch_inputs(values, complicated):
    import torch
    ints = (0, 5, 6) if complicated else (0, 5)
    return [np.asarray(v) if i == 0 else torch.as_tensor(np.asarray(v, dtype=np.int64)) if i in ints
            else torch.as_tensor(np.asarray(v, dtype=np.float64)) for i, v in enumerate(values)]


def torch_simple(values):
    import torch
    from torch.func import jvp, vmap
    vals = _torch_inputs(values, False)
    parents, vals = vals[0], vals[1:]
    p = vals[6].shape[0]

    def objective(*args):
        res, th = _simple(torch, torch.stack, (parents, args))
        return res(th)

    def jacobian(*args):
        res, th = _simple(torch, torch.stack, (parents, args))
        eye = torch.eye(p, dtype=torch.float64)
        return vmap(lambda d: jvp(res, (th,), (d,))[1])(eye).reshape(p, -1)
    return {"simple_objective": (objective, vals), "simple_jacobian": (jacobian, vals)}


def torch_complicated(values):
    import torch
    from torch.func import jvp, vmap
    vals = _torch_inputs(values, True)
    parents, vals = vals[0], vals[1:]
    p = vals[7].shape[0]
    n = vals[8].shape[0]

    def objective(*args):
        res, th, u = _complicated(torch, torch.stack, (parents, args))
        return res(th, u)

    def jacobian(*args):
        res, th, u = _complicated(torch, torch.stack, (parents, args))
        f64 = torch.float64
        dth = torch.cat([torch.zeros(2, p, dtype=f64), torch.eye(p, dtype=f64)])
        du = torch.cat([torch.eye(2, dtype=f64)[:, None, :].expand(2, n, 2),
                        torch.zeros(p, n, 2, dtype=f64)])
        return vmap(lambda a, b: jvp(res, (th, u), (a, b))[1])(dth, du).reshape(p + 2, -1)
    return {"complicated_objective": (objective, vals),
            "complicated_jacobian": (jacobian, vals)}


JAX = {"hand_simple": jax_simple, "hand_complicated": jax_complicated}
TORCH = {"hand_simple": torch_simple, "hand_complicated": torch_complicated}
