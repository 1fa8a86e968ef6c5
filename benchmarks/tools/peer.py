#!/usr/bin/env python3
"""Times a peer system's version of a benchmark (JAX: jit, float64, CPU;
PyTorch: eager with autograd, float64, CPU, threads = cores) on the same
Futhark input file parad reads.

    peer.py --system jax|torch --runs N --out OUT_DIR PEERS_PY KEY INPUT.in ENTRY...

PEERS_PY is a benchmark's `peers.py`; it defines the dicts `JAX` and
`TORCH`, each mapping KEY to a function that takes the input values (numpy
arrays in the order of the input file, scalars as Python numbers) and
returns {entry: (function, args)}. The function's results, flattened in
order, must equal those of parad's entry point.

Writes OUT_DIR/SYSTEM_STEM.json: the system's version, each entry's run
times in microseconds (N runs after one warm-up run, which for JAX also
compiles) and the path of its flattened results, a Futhark binary f64
array OUT_DIR/SYSTEM_STEM_ENTRY.out. Exits with status 3 when the system
cannot be imported.
"""

import importlib.util
import json
import os
import platform
import sys
import time

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import futvalues  # noqa: E402


def load_jax():
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    def call(f):
        jf = jax.jit(f)
        return lambda *a: jax.block_until_ready(jf(*a))

    def flatten(res):
        return [float(v) for r in jax.tree_util.tree_leaves(res) for v in jnp.ravel(r)]
    info = {"version": jax.__version__, "devices": [str(d) for d in jax.devices()]}
    return call, flatten, info


def load_torch():
    import torch
    torch.set_num_threads(os.cpu_count())
    torch.set_default_dtype(torch.float64)

    def call(f):
        return f

    def leaves(r):
        if isinstance(r, (tuple, list)):
            for x in r:
                yield from leaves(x)
        else:
            yield r

    def flatten(res):
        out = []
        for r in leaves(res):
            if isinstance(r, torch.Tensor):
                out.extend(float(v) for v in r.detach().reshape(-1).tolist())
            else:
                out.append(float(r))
        return out
    info = {"version": torch.__version__, "devices": ["cpu (%d threads)" % torch.get_num_threads()]}
    return call, flatten, info


def main(argv):
    args = list(argv)
    opts = {"--system": "jax", "--runs": "5", "--out": "."}
    for flag in list(opts):
        if flag in args:
            i = args.index(flag)
            opts[flag] = args[i + 1]
            del args[i:i + 2]
    system, runs, out = opts["--system"], int(opts["--runs"]), opts["--out"]
    peers_py, key, inp, entries = args[0], args[1], args[2], args[3:]
    try:
        import numpy as np
        call, flatten, info = (load_jax if system == "jax" else load_torch)()
    except ImportError as ex:
        print("%s is not installed: %s" % (system, ex), file=sys.stderr)
        return 3
    if not os.path.exists(peers_py):
        print("no peer versions: %s does not exist" % peers_py, file=sys.stderr)
        return 4
    spec = importlib.util.spec_from_file_location("peers", peers_py)
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    values = [np.array(v).reshape(shape) if shape else v for v, shape in futvalues.read_file(inp)]
    makers = getattr(peers, system.upper(), {})
    if key not in makers:
        print("%s defines no %s version of %r" % (peers_py, system, key), file=sys.stderr)
        return 4
    fns = makers[key](values)
    stem = os.path.splitext(os.path.basename(inp))[0]
    result = dict(info, system=system, python=platform.python_version(), entries={})
    for e in entries:
        f, fargs = fns[e]
        cf = call(f)
        res = cf(*fargs)  # warm-up (JAX compiles here)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            cf(*fargs)
            times.append((time.perf_counter() - t0) * 1e6)
        flat = flatten(res)
        path = os.path.join(out, "%s_%s_%s.out" % (system, stem, e))
        with open(path, "wb") as fh:
            fh.write(futvalues.f64_value([len(flat)], flat))
        result["entries"][e] = {"runtimes": times, "output": path}
        print("%s %s %s: median %.1f us" % (system, stem, e, sorted(times)[len(times) // 2]))
    with open(os.path.join(out, "%s_%s.json" % (system, stem)), "w") as fh:
        json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
