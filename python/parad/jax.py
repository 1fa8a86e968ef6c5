"""Entry points of a parad program as JAX functions.

    import jax, parad, parad.jax
    jax.config.update("jax_enable_x64", True)   # for f64 programs
    m = parad.load("model.fut")
    loss = parad.jax.function(m, "loss")
    g = jax.grad(loss)(w, x)                     # parad's vjp of `loss`
    jax.jit(loss)(w, x); jax.vmap(loss, (None, 0))(w, xs)

The function is a ``jax.custom_vjp`` whose primal and backward passes are
host callbacks (``jax.pure_callback``) into the compiled program: the
backward pass is parad's reverse-mode derivative (``vjp``) of the entry
point. It works under ``jax.grad``, ``jax.jit`` and ``jax.vmap`` (mapped
calls run one after the other). Floating-point scalar and array
parameters are differentiable; the others (integers, booleans) get no
cotangent. Forward mode (``jax.jvp``) is not available for a
``custom_vjp`` function: call ``module.jvp`` instead.

The result shapes of a call under tracing are found by running the entry
point once on zeros of the arguments' shapes (once per shape), as
``jax.pure_callback`` needs them in advance; an entry point whose result
sizes depend on the values (not only the sizes) of its arguments must be
given ``result_shapes`` (a list of ``jax.ShapeDtypeStruct``, or a function
of the arguments giving one).
"""

import numpy as np
import jax

__all__ = ["function"]


def _dtype(a):
    return np.dtype(a.dtype) if hasattr(a, "dtype") else np.asarray(a).dtype


def function(module, entry, result_shapes=None):
    """The entry point ``entry`` of ``module`` (from ``parad.load``) as a
    JAX function, differentiable by ``jax.grad`` through parad's vjp."""
    program = module.derivatives(entry)
    e = module._entry(entry)
    diff = module.differentiable(entry)
    results = e["results"]
    single = len(results) == 1
    probed = {}

    def structs(args):
        if result_shapes is not None:
            rs = result_shapes(*args) if callable(result_shapes) else result_shapes
            return tuple(rs)
        key = tuple((np.shape(a), _dtype(a).str) for a in args)
        if key not in probed:
            zeros = [np.zeros(s, dtype=d) for s, d in key]
            outs = program.call(entry, zeros)
            probed[key] = tuple(
                jax.ShapeDtypeStruct(np.shape(o), np.dtype(t["elem"])) for o, t in zip(outs, results)
            )
        return probed[key]

    def host_call(*args):
        outs = program.call(entry, [np.asarray(a) for a in args])
        return tuple(np.asarray(o, dtype=t["elem"]) for o, t in zip(outs, results))

    def primal(*args):
        outs = jax.pure_callback(host_call, structs(args), *args, vmap_method="sequential")
        return outs[0] if single else tuple(outs)

    @jax.custom_vjp
    def f(*args):
        return primal(*args)

    def fwd(*args):
        return primal(*args), args

    def bwd(args, ybar):
        seeds = (ybar,) if single else tuple(ybar)
        n = len(args)
        wanted = [k for k, d in enumerate(diff) if d]
        adj_structs = tuple(
            jax.ShapeDtypeStruct(np.shape(args[k]), np.dtype(e["params"][k]["type"]["elem"])) for k in wanted
        )

        def host_vjp(*xs):
            adj = program.vjp(entry, [np.asarray(x) for x in xs[:n]], [np.asarray(s) for s in xs[n:]])
            return tuple(np.asarray(a, dtype=s.dtype).reshape(s.shape) for a, s in zip(adj, adj_structs))

        adj = jax.pure_callback(host_vjp, adj_structs, *args, *seeds, vmap_method="sequential")
        it = iter(adj)
        return tuple(next(it) if d else None for d in diff)

    f.defvjp(fwd, bwd)
    f.__name__ = entry
    f.__doc__ = "JAX function (parad): " + e["signature"]
    return f
