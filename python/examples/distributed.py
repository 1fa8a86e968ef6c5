"""Data-parallel training with a gradient that parad derives, combined
across processes by torch.distributed.

Each process holds a shard of the dataset and the same parameters. It
computes the loss on its shard with the Futhark entry point `loss` (a
PyTorch operation through parad.torch, so the backward pass is parad's
vjp), weighted by the shard's share of the data; an all-reduce sums the
gradients, so every process takes the same step as one process would on
the whole dataset.

On one machine (processes started here, gloo over TCP on localhost):

    python distributed.py --procs 2 --steps 20

On a cluster, start one process per node (or per core group) with
torchrun, which sets RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT:

    torchrun --nnodes 4 --nproc-per-node 1 --rdzv-backend c10d \\
        --rdzv-endpoint HEAD:29500 distributed.py --steps 100 --threads 16

Each process compiles the program (or finds it in its cache folder) and
runs parad's multicore code with --threads threads. --check compares the
combined gradient of the first step with the gradient of the whole
dataset computed by one process, and fails if they differ.
"""

import argparse
import os
import pathlib
import socket
import sys

import numpy as np
import torch
import torch.distributed as dist

import parad
import parad.torch

HERE = pathlib.Path(__file__).resolve().parent


def dataset(n, d, h, seed=0):
    """The whole dataset and the initial parameters, the same in every
    process."""
    r = np.random.default_rng(seed)
    xs = r.normal(size=(n, d))
    teacher = r.normal(size=d)
    ys = np.tanh(xs @ teacher) + 0.1 * r.normal(size=n)
    w1 = 0.5 * r.normal(size=(h, d))
    w2 = 0.5 * r.normal(size=h)
    return xs, ys, w1, w2


def train(rank, world, args):
    module = parad.load(args.program, threads=args.threads, cache_dir=args.cache_dir)
    loss = parad.torch.function(module, "loss")
    xs, ys, w1, w2 = dataset(args.n, args.d, args.h)
    shard = slice(rank, None, world)
    my_xs, my_ys = torch.from_numpy(xs[shard]), torch.from_numpy(ys[shard])
    weight = len(my_ys) / len(ys)
    w1 = torch.tensor(w1, requires_grad=True)
    w2 = torch.tensor(w2, requires_grad=True)
    opt = torch.optim.SGD([w1, w2], lr=args.lr)
    for step in range(args.steps):
        opt.zero_grad()
        # The mean over everything = the sum of the shards' weighted means.
        local = loss(w1, w2, my_xs, my_ys) * weight
        local.backward()
        total = local.detach().clone()
        dist.all_reduce(total)
        for p in (w1, w2):
            dist.all_reduce(p.grad)
        if step == 0 and args.check:
            check(module, loss, xs, ys, w1, w2, rank)
        opt.step()
        if rank == 0 and (step % 10 == 0 or step == args.steps - 1):
            print("step %3d  loss %.6f" % (step, total.item()), flush=True)
    return total.item()


def check(module, loss, xs, ys, w1, w2, rank):
    """The combined gradient equals the whole dataset's gradient."""
    a1 = w1.detach().clone().requires_grad_()
    a2 = w2.detach().clone().requires_grad_()
    loss(a1, a2, torch.from_numpy(xs), torch.from_numpy(ys)).backward()
    err = max((w1.grad - a1.grad).abs().max().item(), (w2.grad - a2.grad).abs().max().item())
    scale = max(a1.grad.abs().max().item(), a2.grad.abs().max().item())
    if err > 1e-12 * max(scale, 1.0):
        raise SystemExit("rank %d: combined gradient differs from the whole dataset's by %g" % (rank, err))
    if rank == 0:
        print("check: the combined gradient matches the whole dataset's (max difference %.3g)" % err, flush=True)


def worker(rank, world, port, args):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
    try:
        train(rank, world, args)
        dist.barrier()
    finally:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--procs", type=int, default=2, help="processes to start here (without torchrun)")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--n", type=int, default=1000, help="examples in the dataset")
    p.add_argument("--d", type=int, default=8, help="inputs per example")
    p.add_argument("--h", type=int, default=16, help="hidden units")
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--threads", type=int, default=None, help="threads per process")
    p.add_argument("--cache-dir", default=None, help="parad's cache of compiled programs")
    p.add_argument("--program", default=str(HERE / "mlp.fut"))
    p.add_argument("--check", action="store_true", help="check the combined gradient")
    args = p.parse_args(argv)
    if "RANK" in os.environ:  # started by torchrun
        dist.init_process_group("gloo")
        try:
            train(dist.get_rank(), dist.get_world_size(), args)
        finally:
            dist.destroy_process_group()
        return
    # Compiled once here, so that the processes find it in the cache.
    parad.load(args.program, threads=args.threads, cache_dir=args.cache_dir).derivatives("loss")
    torch.multiprocessing.spawn(worker, args=(args.procs, free_port(), args), nprocs=args.procs, join=True)


if __name__ == "__main__":
    sys.exit(main())
