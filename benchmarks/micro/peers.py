"""JAX and PyTorch versions of the reverse-AD micro-benchmarks.

Keys are the program stems (reduce_add.fut, ...); each maker gets the
input values of benchmarks/data/micro_STEM.in (numpy arrays, scalars as
numbers) and returns {"primal": (f, args), "vjp": (f, args)} whose
results, flattened, are those of the entry points of the same names. The
vjp entries take the output adjoint from the input, as parad's do.

JAX versions use jax.vjp; PyTorch versions torch.autograd.grad (float64,
eager). Where a library has no direct form of an operation, the natural
vectorised formulation is used, as said at each one:
- reduce with the affine-map composition: a pairwise tree reduction
  (log2 n vectorised levels);
- scan with it: jax.lax.associative_scan; in PyTorch the same
  work-efficient odd/even recursion written with tensor operations;
- the generic histogram: sort the values by bin (stable), a segmented
  scan with the operator (flags mark the first value of each bin), the
  last value of each bin's segment combined with the destination.
The histogram bins, scatter positions and map indices are in range (as in
the timed inputs); out-of-range ones, which parad ignores, are not
handled here (JAX would wrap negative ones, PyTorch would raise).
"""


# ---------------------------------------------------------------- JAX

def _jax():
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    return jax, jnp


def _jax_compose(p, q):
    (a, b), (c, d) = p, q
    return (a * c, b * c + d)


def _jax_tree_reduce(op, neutral, xs):
    """Reduce the tuple of equal-length arrays xs with the associative op
    (not necessarily commutative) by combining neighbours level by level."""
    import jax.numpy as jnp
    while xs[0].shape[0] > 1:
        if xs[0].shape[0] % 2:
            xs = tuple(jnp.concatenate([x, jnp.full((1,), e, x.dtype)]) for x, e in zip(xs, neutral))
        xs = op(tuple(x[0::2] for x in xs), tuple(x[1::2] for x in xs))
    return tuple(x[0] for x in xs)


def _jax_row(f, args, nin):
    """primal = f on the first nin arguments; vjp = jax.vjp of f w.r.t.
    them with the remaining argument(s) as the output adjoint."""
    jax, _ = _jax()

    def primal(*a):
        return f(*a[:nin])

    def vjp(*a):
        _, back = jax.vjp(f, *a[:nin])
        adj = a[nin:]
        return back(adj[0] if len(adj) == 1 else tuple(adj))
    return {"primal": (primal, args), "vjp": (vjp, args)}


def _jax_arrays(values):
    _, jnp = _jax()
    return [jnp.asarray(v) for v in values]


def jax_reduce_add(values):
    _, jnp = _jax()
    return _jax_row(jnp.sum, _jax_arrays(values), 1)


def jax_reduce_mul(values):
    _, jnp = _jax()
    return _jax_row(jnp.prod, _jax_arrays(values), 1)


def jax_reduce_min(values):
    _, jnp = _jax()
    return _jax_row(jnp.min, _jax_arrays(values), 1)


def jax_reduce_affine(values):
    # No built-in reduction with a user operator that JAX differentiates:
    # a tree reduction.
    def f(a, b):
        return _jax_tree_reduce(_jax_compose, (1.0, 0.0), (a, b))
    return _jax_row(f, _jax_arrays(values), 2)


def jax_scan_add(values):
    _, jnp = _jax()
    return _jax_row(jnp.cumsum, _jax_arrays(values), 1)


def jax_scan_mul(values):
    _, jnp = _jax()
    return _jax_row(jnp.cumprod, _jax_arrays(values), 1)


def jax_scan_affine(values):
    jax, _ = _jax()

    def f(a, b):
        return jax.lax.associative_scan(_jax_compose, (a, b))
    return _jax_row(f, _jax_arrays(values), 2)


def _jax_hist_row(f, values):
    """Rows of the histograms and scatter: the inputs are (dest, is, vs,
    rbar); f(dest, vs) closes over is."""
    jax, _ = _jax()
    dest, bins, vs, rbar = _jax_arrays(values)

    def primal(dest, bins, vs, rbar):
        return f(dest, bins, vs)

    def vjp(dest, bins, vs, rbar):
        _, back = jax.vjp(lambda d, v: f(d, bins, v), dest, vs)
        return back(rbar)
    args = [dest, bins, vs, rbar]
    return {"primal": (primal, args), "vjp": (vjp, args)}


def _jax_generic_hist(op, m, dest, bins, vs):
    """reduce_by_index dest op ne bins vs for an associative, commutative
    op, by sorting the values by bin and a segmented associative scan."""
    jax, jnp = _jax()
    order = jnp.argsort(bins, stable=True)
    sb, sv = bins[order], vs[order]
    first = jnp.concatenate([jnp.ones((1,), bool), sb[1:] != sb[:-1]])

    def seg(p, q):
        (f1, v1), (f2, v2) = p, q
        return (f1 | f2, jnp.where(f2, v2, op(v1, v2)))
    _, scanned = jax.lax.associative_scan(seg, (first, sv))
    ids = jnp.arange(m)
    lo = jnp.searchsorted(sb, ids, side="left")
    hi = jnp.searchsorted(sb, ids, side="right")
    last = scanned[jnp.clip(hi - 1, 0, sb.shape[0] - 1)]
    return jnp.where(hi > lo, op(dest, last), dest)


def _op_generic(a, b):
    return a + b + a * b


JAX = {
    "reduce_add": jax_reduce_add,
    "reduce_mul": jax_reduce_mul,
    "reduce_min": jax_reduce_min,
    "reduce_affine": jax_reduce_affine,
    "scan_add": jax_scan_add,
    "scan_mul": jax_scan_mul,
    "scan_affine": jax_scan_affine,
    "hist_add": lambda values: _jax_hist_row(
        lambda d, i, v: d.at[i].add(v), values),
    "hist_min": lambda values: _jax_hist_row(
        lambda d, i, v: d.at[i].min(v), values),
    # No generic-operator histogram in JAX: sort + segmented scan.
    "hist_generic": lambda values: _jax_hist_row(
        lambda d, i, v: _jax_generic_hist(_op_generic, d.shape[0], d, i, v), values),
    "scatter": lambda values: _jax_hist_row(
        lambda d, i, v: d.at[i].set(v, unique_indices=True), values),
}


def jax_map_free(values):
    jax, _ = _jax()
    table, idx, xs, s, ybar = _jax_arrays(values)

    def f(table, xs, s):
        return table[idx] * xs + s

    def primal(table, xs, s, ybar):
        return f(table, xs, s)

    def vjp(table, xs, s, ybar):
        _, back = jax.vjp(f, table, xs, s)
        return back(ybar)
    args = [table, xs, s, ybar]
    return {"primal": (primal, args), "vjp": (vjp, args)}


JAX["map_free"] = jax_map_free


# ------------------------------------------------------------ PyTorch

def _torch():
    import torch
    return torch


def _tensors(values):
    torch = _torch()
    return [torch.as_tensor(v) for v in values]


def _grad(f, inputs, adj):
    """The vjp of f at inputs (tensors) for the output adjoint adj (a
    tensor, or a tuple matching f's results)."""
    torch = _torch()
    xs = [x.detach().requires_grad_() for x in inputs]
    return torch.autograd.grad(f(*xs), xs, grad_outputs=adj)


def _torch_row(f, values, nin):
    args = _tensors(values)

    def primal(*a):
        return f(*a[:nin])

    def vjp(*a):
        adj = a[nin:]
        return _grad(f, a[:nin], adj[0] if len(adj) == 1 else tuple(adj))
    return {"primal": (primal, args), "vjp": (vjp, args)}


def _torch_compose(p, q):
    (a, b), (c, d) = p, q
    return (a * c, b * c + d)


def _torch_tree_reduce(op, neutral, xs):
    torch = _torch()
    while xs[0].shape[0] > 1:
        if xs[0].shape[0] % 2:
            xs = tuple(torch.cat([x, x.new_full((1,), e)]) for x, e in zip(xs, neutral))
        xs = op(tuple(x[0::2] for x in xs), tuple(x[1::2] for x in xs))
    return tuple(x[0] for x in xs)


def _torch_assoc_scan(op, xs):
    """Inclusive scan of the tuple of equal-length tensors xs with the
    associative op: combine neighbouring pairs, scan the pairs
    recursively, then fill in the even positions (O(n) work)."""
    n = xs[0].shape[0]
    if n < 2:
        return xs
    m = n // 2
    pairs = op(tuple(x[0:2 * m:2] for x in xs), tuple(x[1:2 * m:2] for x in xs))
    odd = _torch_assoc_scan(op, pairs)            # prefixes ending at 2j+1
    even = op(tuple(o[:(n + 1) // 2 - 1] for o in odd), tuple(x[2::2] for x in xs))
    out = []
    for x, o, e in zip(xs, odd, even):
        r = x.new_empty(x.shape)
        r[0:1] = x[0:1]
        r[2::2] = e
        r[1::2] = o
        out.append(r)
    return tuple(out)


def torch_reduce_affine(values):
    # No reduction with a user operator in PyTorch: a tree reduction.
    def f(a, b):
        return _torch_tree_reduce(_torch_compose, (1.0, 0.0), (a, b))
    return _torch_row(f, values, 2)


def torch_scan_affine(values):
    # No scan with a user operator in PyTorch: a log-depth associative scan.
    def f(a, b):
        return _torch_assoc_scan(_torch_compose, (a, b))
    return _torch_row(f, values, 2)


def _torch_hist_row(f, values):
    """Rows of the histograms and scatter: inputs (dest, is, vs, rbar)."""
    args = _tensors(values)

    def primal(dest, bins, vs, rbar):
        return f(dest, bins, vs)

    def vjp(dest, bins, vs, rbar):
        return _grad(lambda d, v: f(d, bins, v), [dest, vs], rbar)
    return {"primal": (primal, args), "vjp": (vjp, args)}


def _torch_generic_hist(op, dest, bins, vs):
    """reduce_by_index dest op ne bins vs for an associative, commutative
    op: sort by bin, segmented scan, combine each bin's last value."""
    torch = _torch()
    sb, order = torch.sort(bins, stable=True)
    sv = vs[order]
    first = torch.ones_like(sb, dtype=torch.bool)
    first[1:] = sb[1:] != sb[:-1]

    def seg(p, q):
        (f1, v1), (f2, v2) = p, q
        return (f1 | f2, torch.where(f2, v2, op(v1, v2)))
    _, scanned = _torch_assoc_scan(seg, (first, sv))
    ids = torch.arange(dest.shape[0], dtype=sb.dtype)
    lo = torch.searchsorted(sb, ids, right=False)
    hi = torch.searchsorted(sb, ids, right=True)
    last = scanned[torch.clamp(hi - 1, 0, sb.shape[0] - 1)]
    return torch.where(hi > lo, op(dest, last), dest)


def torch_map_free(values):
    table, idx, xs, s, ybar = _tensors(values)

    def f(table, xs, s):
        return table[idx] * xs + s

    def primal(table, xs, s, ybar):
        return f(table, xs, s)

    def vjp(table, xs, s, ybar):
        return _grad(f, [table, xs, s], ybar)
    args = [table, xs, s, ybar]
    return {"primal": (primal, args), "vjp": (vjp, args)}


TORCH = {
    "reduce_add": lambda values: _torch_row(lambda x: x.sum(), values, 1),
    "reduce_mul": lambda values: _torch_row(lambda x: x.prod(), values, 1),
    "reduce_min": lambda values: _torch_row(lambda x: x.amin(), values, 1),
    "reduce_affine": torch_reduce_affine,
    "scan_add": lambda values: _torch_row(lambda x: x.cumsum(0), values, 1),
    "scan_mul": lambda values: _torch_row(lambda x: x.cumprod(0), values, 1),
    "scan_affine": torch_scan_affine,
    "hist_add": lambda values: _torch_hist_row(
        lambda d, i, v: d.index_add(0, i, v), values),
    "hist_min": lambda values: _torch_hist_row(
        lambda d, i, v: d.scatter_reduce(0, i, v, reduce="amin", include_self=True), values),
    # No generic-operator histogram in PyTorch: sort + segmented scan.
    "hist_generic": lambda values: _torch_hist_row(
        lambda d, i, v: _torch_generic_hist(_op_generic, d, i, v), values),
    "scatter": lambda values: _torch_hist_row(
        lambda d, i, v: d.scatter(0, i, v), values),
    "map_free": torch_map_free,
}
