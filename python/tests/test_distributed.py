"""The data-parallel example: two processes on localhost combine their
shards' gradients with torch.distributed, and the result equals the
whole dataset's gradient."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("torch", reason="PyTorch is not installed (CI installs it)")

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "distributed.py"


def test_two_processes_on_localhost(cache_dir):
    p = subprocess.run(
        [sys.executable, str(EXAMPLE), "--procs", "2", "--steps", "15", "--n", "300", "--threads", "1",
         "--check", "--cache-dir", str(cache_dir)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert "the combined gradient matches" in p.stdout, p.stdout
    losses = [float(l.split()[-1]) for l in p.stdout.splitlines() if l.startswith("step")]
    assert len(losses) >= 2 and losses[-1] < losses[0], p.stdout
