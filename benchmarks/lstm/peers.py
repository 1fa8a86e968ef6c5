"""JAX and PyTorch versions of lstm.fut (float64): the ADBench LSTM loss
and its gradient w.r.t. the main and extra parameters.

The input values are those of lstm.fut's entry points: main [2l][4b],
extra [3][b], state [2l][b], seq [c][b]. `objective` returns the scalar;
`gradient` the adjoints of main and extra, which flatten (main row-major,
then extra) to the entry point's result.
"""


# ---------------------------------------------------------------- JAX

def jax_loss(main, extra, state0, seq):
    import jax
    import jax.numpy as jnp
    l2, w = main.shape
    b = w // 4
    sigmoid = jax.nn.sigmoid

    def step(state, t):
        x = seq[t] * extra[0]
        rows = []
        for i in range(l2 // 2):
            wts, bias = main[2 * i], main[2 * i + 1]
            h, cell = state[2 * i], state[2 * i + 1]

            def gate(j, v):
                return v * wts[j * b:(j + 1) * b] + bias[j * b:(j + 1) * b]
            forget = sigmoid(gate(0, x))
            ingate = sigmoid(gate(1, h))
            outgate = sigmoid(gate(2, x))
            change = jnp.tanh(gate(3, h))
            cell = cell * forget + ingate * change
            h = outgate * jnp.tanh(cell)
            rows += [h, cell]
            x = h
        y = x * extra[1] + extra[2]
        lse = jnp.log(jnp.sum(jnp.exp(y)) + 2)
        return jnp.stack(rows), jnp.sum(seq[t + 1] * (y - lse))

    c = seq.shape[0]
    _, terms = jax.lax.scan(step, state0, jnp.arange(c - 1))
    return -jnp.sum(terms) / ((c - 1) * b)


def make_jax(values):
    import jax
    import jax.numpy as jnp
    args = [jnp.asarray(v) for v in values]
    main, extra, state, seq = args
    grad = jax.grad(lambda m, e: jax_loss(m, e, state, seq), argnums=(0, 1))
    return {"objective": (jax_loss, args),
            "gradient": (grad, [main, extra])}


# ---------------------------------------------------------------- PyTorch

def torch_loss(main, extra, state0, seq):
    import torch
    l2, w = main.shape
    c, b = seq.shape
    layers = l2 // 2
    # per layer [4][b]: the blocks forget, ingate, outgate, change
    wts, bias = main[0::2].view(-1, 4, b).unbind(), main[1::2].view(-1, 4, b).unbind()
    hs, cells = list(state0[0::2].unbind()), list(state0[1::2].unbind())
    # each step's input to the first layer
    xs = (seq[:-1] * extra[0]).unbind()
    outs = []
    for x in xs:                                  # the recurrence: one step after another
        for i in range(layers):
            # all four gates at once, from the inputs (x, h, x, h)
            pre = torch.addcmul(bias[i], torch.stack((x, hs[i], x, hs[i])), wts[i])
            forget, ingate, outgate = torch.sigmoid(pre[:3]).unbind()
            cells[i] = torch.addcmul(cells[i] * forget, ingate, torch.tanh(pre[3]))
            hs[i] = outgate * torch.tanh(cells[i])
            x = hs[i]
        outs.append(x)
    # the predictions and their log-likelihood terms, for all steps together
    y = torch.stack(outs) * extra[1] + extra[2]   # [c-1][b]
    lse = torch.log(torch.exp(y).sum(1, keepdim=True) + 2)
    return -(seq[1:] * (y - lse)).sum() / ((c - 1) * b)


def make_torch(values):
    import torch
    main, extra, state, seq = (torch.as_tensor(v, dtype=torch.float64) for v in values)

    def gradient(main, extra):
        main = main.detach().requires_grad_()
        extra = extra.detach().requires_grad_()
        return torch.autograd.grad(torch_loss(main, extra, state, seq), (main, extra))
    return {"objective": (torch_loss, [main, extra, state, seq]),
            "gradient": (gradient, [main, extra])}


JAX = {"lstm": make_jax}
TORCH = {"lstm": make_torch}
