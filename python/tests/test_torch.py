"""Entry points as PyTorch operations: gradients against PyTorch's own
autodiff of the same function, gradcheck (reverse and forward mode)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (CI installs it)")
import parad.torch  # noqa: E402


def torch_loss(w1, w2, xs, ys):
    pred = torch.tanh(xs @ w1.T) @ w2
    return torch.sum((pred - ys) ** 2) / ys.shape[0]


def inputs(seed=0, n=6, d=3, h=4):
    g = torch.Generator().manual_seed(seed)
    shapes = [(h, d), (h,), (n, d), (n,)]
    return [torch.randn(s, dtype=torch.float64, generator=g, requires_grad=True) for s in shapes]


def test_gradients_match_pytorch(model_on):
    loss = parad.torch.function(model_on, "loss")
    args = inputs()
    l = loss(*args)
    assert l.dtype == torch.float64 and l.shape == ()
    l.backward()
    ours = [a.grad.clone() for a in args]
    theirs = inputs()
    ref = torch_loss(*theirs)
    ref.backward()
    assert l.item() == pytest.approx(ref.item(), rel=1e-12)
    for a, b in zip(ours, theirs):
        torch.testing.assert_close(a, b.grad, rtol=1e-10, atol=1e-12)


def test_gradcheck_reverse_and_forward(model):
    loss = parad.torch.function(model, "loss")
    args = inputs(1, n=3, d=2, h=2)
    assert torch.autograd.gradcheck(loss, args, check_forward_ad=True)


def test_forward_mode_matches_pytorch(model):
    import torch.autograd.forward_ad as fwAD

    loss = parad.torch.function(model, "loss")
    args = [a.detach() for a in inputs(2)]
    tangents = [torch.randn_like(a) for a in args]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(a, t) for a, t in zip(args, tangents)]
        ours = fwAD.unpack_dual(loss(*duals)).tangent
    _, theirs = torch.func.jvp(torch_loss, tuple(args), tuple(tangents))
    torch.testing.assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


def test_tuple_result_and_a_fixed_integer(model):
    poly = parad.torch.function(model, "poly")
    xs = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
    c = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    ys, s = poly(xs, 3, c)
    assert isinstance(ys, torch.Tensor) and ys.shape == (3,)
    (ys.sum() * 2 + s).backward()
    xr = xs.detach().clone().requires_grad_()
    cr = c.detach().clone().requires_grad_()
    yr = cr * xr**3 + torch.sin(xr)
    (yr.sum() * 2 + yr.sum() * cr).backward()
    torch.testing.assert_close(xs.grad, xr.grad)
    torch.testing.assert_close(c.grad, cr.grad)
    assert torch.autograd.gradcheck(lambda x, c: poly(x, 3, c), (xs.detach().requires_grad_(), c.detach().requires_grad_()))


def test_float32(model):
    scale = parad.torch.function(model, "scale32")
    xs = torch.tensor([1.0, -2.0], dtype=torch.float32, requires_grad=True)
    a = torch.tensor(3.0, dtype=torch.float32, requires_grad=True)
    y = scale(xs, a)
    assert y.dtype == torch.float32
    y.sum().backward()
    assert xs.grad.tolist() == [3.0, 3.0] and a.grad.item() == -1.0


def test_training_step_reduces_the_loss(model):
    loss = parad.torch.function(model, "loss")
    w1, w2, xs, ys = inputs(5, n=20)
    xs, ys = xs.detach(), ys.detach()
    opt = torch.optim.SGD([w1, w2], lr=0.05)
    first = None
    for _ in range(30):
        opt.zero_grad()
        l = loss(w1, w2, xs, ys)
        l.backward()
        opt.step()
        first = first if first is not None else l.item()
    assert loss(w1, w2, xs, ys).item() < first


def test_not_differentiable_entry_points(model):
    with pytest.raises(parad.UnsupportedError):
        parad.torch.function(model, "get")
