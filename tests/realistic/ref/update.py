#!/usr/bin/env python3
"""Regenerate (or check) the test blocks of tests/realistic/*.fut from the
reference implementations next to this script.

    python3 tests/realistic/ref/update.py           # rewrite the blocks
    python3 tests/realistic/ref/update.py --check   # fail if any differs
    python3 tests/realistic/ref/update.py kmeans    # only some references

Each reference module defines FILE (the program, relative to
tests/realistic), REF (entry point name -> function returning a list of
(value, type) results) and CASES ([(entries, typed arguments, comment)]).
The block runs from the line `-- ==` to the first line that is not a
comment; it is replaced as a whole. A module with CODE_FROM (a path
relative to tests/realistic) also gets the program text after the block
copied from that file.
"""

import importlib
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import block  # noqa: E402

MODULES = ["kmeans", "lstm", "rk4", "gmm"]


def replace_block(text, new):
    lines = text.split("\n")
    start = lines.index("-- ==")
    end = start + 1
    while end < len(lines) and lines[end].startswith("--"):
        end += 1
    return "\n".join(lines[:start] + new.split("\n") + lines[end:])


def after_block(lines):
    """Index of the first line after the test block (and its blank line)."""
    end = lines.index("-- ==") + 1
    while end < len(lines) and lines[end].startswith("--"):
        end += 1
    return end


def replace_code(text, source):
    """The program text after the block, taken from `source` (a module's
    CODE_FROM), so that a test shares the code of a benchmark."""
    with open(source) as f:
        src = f.read().split("\n")
    lines = text.split("\n")
    return "\n".join(lines[:after_block(lines)] + src[after_block(src):])


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or MODULES
    bad = 0
    for name in names:
        mod = importlib.import_module(name)
        path = os.path.join(os.path.dirname(HERE), mod.FILE)
        with open(path) as f:
            old = f.read()
        new = replace_block(old, block(mod.CASES, mod.REF))
        if hasattr(mod, "CODE_FROM"):
            new = replace_code(new, os.path.join(os.path.dirname(HERE), mod.CODE_FROM))
        if new == old:
            print("%s: up to date" % mod.FILE)
        elif check:
            print("%s: test block differs from the reference" % mod.FILE)
            bad += 1
        else:
            with open(path, "w") as f:
                f.write(new)
            print("%s: updated" % mod.FILE)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
