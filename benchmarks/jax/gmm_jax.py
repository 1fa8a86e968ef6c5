#!/usr/bin/env python3
"""The ADBench GMM objective in JAX (float64, jit-compiled, CPU), timed on
the same datasets as benchmarks/gmm/gmm.fut, for the AD overhead ratio
gradient time / objective time.

    gmm_jax.py [--runs N] [--out FILE.json] DATA_DIR NAME...

NAME as in benchmarks/tools/adbench.py (d2_K10_1k, ...). Exits with status
3 and a message when JAX cannot be imported. Writes, per dataset, the run
times in microseconds of the jitted objective and gradient (after a
warm-up run that compiles), the objective value, and the largest
difference from the reference gradient where one exists; with --out, also
each gradient as a Futhark binary file gmm_NAME.jax.J beside FILE.json.
"""

import json
import math
import os
import platform
import struct
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import adbench  # noqa: E402

try:
    import jax
    import jax.numpy as jnp
    from jax.scipy.special import gammaln, logsumexp
except ImportError as ex:
    print("JAX is not available: %s" % ex, file=sys.stderr)
    sys.exit(3)

jax.config.update("jax_enable_x64", True)


def unpack_q(d, row):
    # Q[r][c] for r > c sits at d + c*d - c(c+1)/2 + r - c - 1 (column-major)
    idx = [[0] * d for _ in range(d)]
    mask = [[0.0] * d for _ in range(d)]
    for c in range(d):
        for r in range(c + 1, d):
            idx[r][c] = d + c * d - c * (c + 1) // 2 + r - c - 1
            mask[r][c] = 1.0
    lower = row[jnp.array(idx)] * jnp.array(mask)
    return lower + jnp.diag(jnp.exp(row[:d]))


def make_objective(d, k, n, gamma, wm):
    n2 = d + wm + 1
    const = n2 * d * (math.log(gamma) - 0.5 * math.log(2)) - (
        0.25 * d * (d - 1) * math.log(math.pi)
        + sum(math.lgamma(0.5 * n2 + 0.5 * (1 - j)) for j in range(1, d + 1)))

    def objective(alphas, means, icf, x):
        qs = jax.vmap(lambda row: unpack_q(d, row))(icf)            # [K][d][d]
        sum_qs = jnp.sum(icf[:, :d], axis=1)                        # [K]
        diff = x[:, None, :] - means[None, :, :]                    # [n][K][d]
        qdiff = jnp.einsum("krc,nkc->nkr", qs, diff)
        terms = alphas[None, :] + sum_qs[None, :] - 0.5 * jnp.sum(qdiff ** 2, axis=2)
        frob = jnp.sum(jnp.exp(icf[:, :d]) ** 2) + jnp.sum(icf[:, d:] ** 2)
        prior = 0.5 * gamma * gamma * frob - wm * jnp.sum(sum_qs) - k * const
        return (-n * d * 0.5 * math.log(2 * math.pi) + jnp.sum(logsumexp(terms, axis=1))
                - n * logsumexp(alphas) + prior)
    return objective


def read_binary_f64s(path):
    """The f64 arrays of a Futhark binary value file, flattened, in order."""
    with open(path, "rb") as f:
        buf = f.read()
    out, pos = [], 0
    while pos < len(buf):
        if buf[pos:pos + 1].isspace():
            pos += 1
            continue
        rank = buf[pos + 2]
        dims = struct.unpack_from("<%dQ" % rank, buf, pos + 7)
        count = math.prod(dims)
        pos += 7 + 8 * rank
        out.extend(struct.unpack_from("<%dd" % count, buf, pos))
        pos += 8 * count
    return out


def timed(f, args, runs):
    jax.block_until_ready(f(*args))  # compile
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        times.append((time.perf_counter() - t0) * 1e6)
    return times


def main(argv):
    runs, out = 5, None
    args = list(argv)
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i:i + 2]
    data, names = args[0], args[1:]
    result = {"jax": jax.__version__, "python": platform.python_version(),
              "devices": [str(dv) for dv in jax.devices()], "sets": {}}
    for name in names:
        dk, size = name.rsplit("_", 1)
        base = os.path.join(data, "adbench", "gmm", size, "gmm_%s" % dk)
        d, k, alphas, means, icf, x, gamma, wm = adbench.read_gmm(base + ".txt")
        f = make_objective(d, k, len(x), gamma, wm)
        params = [jnp.array(alphas), jnp.array(means), jnp.array(icf), jnp.array(x)]
        obj = jax.jit(f)
        grad = jax.jit(jax.grad(f, argnums=(0, 1, 2)))
        entry = {"objective": timed(obj, params, runs), "gradient": timed(grad, params, runs),
                 "objective_value": float(obj(*params))}
        if os.path.exists(base + ".J"):
            want = read_binary_f64s(base + ".J")
            got = [float(v) for g in grad(*params) for v in jnp.ravel(g)]
            entry["gradient_max_abs_diff"] = max(abs(a - b) for a, b in zip(got, want))
        if out:
            # the gradient as a Futhark binary value file, for parad to compare with
            with open(os.path.join(os.path.dirname(out), "gmm_%s.jax.J" % name), "wb") as fh:
                for g in grad(*params):
                    fh.write(adbench.bin_value(jnp.asarray(g).tolist(), "f64"))
        result["sets"][name] = entry
        med = lambda ts: sorted(ts)[len(ts) // 2]  # noqa: E731
        print("jax %s: objective %.1f us, gradient %.1f us" % (name, med(entry["objective"]),
                                                               med(entry["gradient"])))
    if out:
        with open(out, "w") as fh:
            json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
