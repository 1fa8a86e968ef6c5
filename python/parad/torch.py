"""Entry points of a parad program as differentiable PyTorch operations.

    import parad, parad.torch
    m = parad.load("model.fut")
    loss = parad.torch.function(m, "loss")
    l = loss(w, x)            # tensors in, tensors out
    l.backward()              # w.grad: parad's vjp of `loss`

The backward pass is parad's reverse-mode derivative (``vjp``) of the
entry point, compiled by parad; forward-mode AD
(``torch.autograd.forward_ad``) uses its ``jvp``. Parameters that are
floating-point scalars or arrays are differentiable; the others (integers,
booleans, records) are held fixed and get no gradient. Results must be
floating-point scalars or arrays, or a tuple of them.

Tensors on another device are copied to the CPU for the call and the
results copied back to the first tensor argument's device.
"""

import numpy as np
import torch

__all__ = ["function"]


def _to_numpy(x):
    if isinstance(x, torch.Tensor):
        x = x.detach()
        if x.device.type != "cpu":
            x = x.cpu()
        if x.is_conj():
            x = x.resolve_conj()
        return x.numpy()
    return x


def _device(args):
    for a in args:
        if isinstance(a, torch.Tensor):
            return a.device
    return torch.device("cpu")


def _to_torch(y, t, device):
    if isinstance(y, np.ndarray):
        out = torch.from_numpy(y)
    else:
        out = torch.tensor(y, dtype=getattr(torch, t["elem"]))
    return out.to(device) if device.type != "cpu" else out


def function(module, entry):
    """The entry point ``entry`` of ``module`` (from ``parad.load``) as a
    function on tensors whose gradients parad derives: a
    ``torch.autograd.Function`` with ``backward`` (parad's vjp) and
    ``jvp`` (parad's jvp). Passes ``torch.autograd.gradcheck``."""
    program = module.derivatives(entry)
    e = module._entry(entry)
    diff = module.differentiable(entry)
    results = e["results"]
    single = len(results) == 1

    def outputs(values, device):
        out = tuple(_to_torch(v, t, device) for v, t in zip(values, results))
        return out[0] if single else out

    class Op(torch.autograd.Function):
        @staticmethod
        def forward(*args):
            return outputs(program.call(entry, [_to_numpy(a) for a in args]), _device(args))

        @staticmethod
        def setup_context(ctx, inputs, output):
            tensors = [a for a in inputs if isinstance(a, torch.Tensor)]
            ctx.save_for_backward(*tensors)
            ctx.save_for_forward(*tensors)
            ctx.is_tensor = [isinstance(a, torch.Tensor) for a in inputs]
            ctx.others = [None if isinstance(a, torch.Tensor) else a for a in inputs]
            outs = (output,) if single else output
            ctx.result_shapes = [(o.shape, o.dtype) for o in outs]

        @staticmethod
        def _inputs(ctx):
            saved = iter(ctx.saved_tensors)
            return [next(saved) if t else o for t, o in zip(ctx.is_tensor, ctx.others)]

        @staticmethod
        def backward(ctx, *grads):
            args = Op._inputs(ctx)
            seeds = [
                _to_numpy(g) if g is not None else np.zeros(tuple(s), dtype=str(d).replace("torch.", ""))
                for g, (s, d) in zip(grads, ctx.result_shapes)
            ]
            adjoints = iter(program.vjp(entry, [_to_numpy(a) for a in args], seeds))
            device = _device(args)
            out = []
            for k, d in enumerate(diff):
                if not d:
                    out.append(None)
                    continue
                a = next(adjoints)
                if ctx.needs_input_grad[k]:
                    like = args[k]
                    dtype = like.dtype if isinstance(like, torch.Tensor) else torch.float64
                    out.append(torch.as_tensor(a, dtype=dtype).to(device))
                else:
                    out.append(None)
            return tuple(out)

        @staticmethod
        def jvp(ctx, *tangents):
            args = Op._inputs(ctx)
            ts = []
            for a, t, d in zip(args, tangents, diff):
                if not d:
                    continue
                if t is None:
                    t = torch.zeros_like(a) if isinstance(a, torch.Tensor) else 0.0
                ts.append(_to_numpy(t))
            return outputs(program.jvp(entry, [_to_numpy(a) for a in args], ts), _device(args))

    def f(*args):
        return Op.apply(*args)

    f.__name__ = entry
    f.__qualname__ = entry
    f.__doc__ = "PyTorch operation (parad): " + e["signature"]
    f.autograd_function = Op
    return f
