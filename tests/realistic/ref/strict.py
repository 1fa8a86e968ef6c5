#!/usr/bin/env python3
"""Run every case of tests/realistic on parad and compare the results with
the references at a tight tolerance (`parad test` uses Futhark's 0.2%).

    python3 tests/realistic/ref/strict.py [--parad PATH] [--rtol 1e-10] [module...]

Floats agree when |got - want| <= rtol * max(1, largest |want| in that
value), as `parad test` does with its looser tolerance. PATH defaults to
$PARAD, else `parad` on the PATH.
"""

import importlib
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import flatten, fmt_all  # noqa: E402
from update import MODULES  # noqa: E402

TOKEN = re.compile(r"\s*(\[|\]|,|true|false|empty\([^)]*\)|-?f64\.(?:inf|nan)"
                   r"|[-+0-9.eE]+(?:i8|i16|i32|i64|u8|u16|u32|u64|f32|f64)?)")


def parse_values(text):
    toks, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError("cannot parse %r" % text[pos:pos + 30])
        toks.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    out, i = [], 0

    def value(i):
        t = toks[i]
        if t == "[":
            items, i = [], i + 1
            while toks[i] != "]":
                v, i = value(i)
                items.append(v)
                if toks[i] == ",":
                    i += 1
            return items, i + 1
        if t in ("true", "false"):
            return t == "true", i + 1
        if t.startswith("empty"):
            return [], i + 1
        if "f64." in t:
            return float(t.replace("f64.", "")), i + 1
        num = re.match(r"(.*?)(i8|i16|i32|i64|u8|u16|u32|u64|f32|f64)?$", t)
        body, suf = num.group(1), num.group(2)
        if (suf or "").startswith("f") or re.search(r"[.eE]", body):
            return float(body), i + 1
        return int(body), i + 1

    while i < len(toks):
        v, i = value(i)
        out.append(v)
    return out


def close(got, want, rtol):
    g, w = flatten(got), flatten(want)
    if len(g) != len(w):
        return False
    scale = max([1.0] + [abs(x) for x in w if isinstance(x, float)])
    for a, b in zip(g, w):
        if isinstance(b, float):
            if abs(a - b) > rtol * scale:
                return False
        elif a != b:
            return False
    return True


def main(argv):
    parad = os.environ.get("PARAD", "parad")
    rtol = 1e-10
    args = list(argv)
    if "--parad" in args:
        i = args.index("--parad")
        parad = args[i + 1]
        del args[i:i + 2]
    if "--rtol" in args:
        i = args.index("--rtol")
        rtol = float(args[i + 1])
        del args[i:i + 2]
    bad = total = 0
    for name in args or MODULES:
        mod = importlib.import_module(name)
        path = os.path.join(os.path.dirname(HERE), mod.FILE)
        for entries, typed_args, comment in mod.CASES:
            want = [v for v, _ in mod.REF[entries[0]](*[v for v, _ in typed_args])]
            for e in entries:
                total += 1
                r = subprocess.run([parad, "run", path, "-e", e], input=fmt_all(typed_args),
                                   capture_output=True, text=True)
                where = "%s %s %s" % (mod.FILE, e, comment or "")
                if r.returncode != 0:
                    print("%s: parad failed: %s" % (where, r.stderr.strip()))
                    bad += 1
                    continue
                got = parse_values(r.stdout)
                for k, (g, w) in enumerate(zip(got, want)):
                    if not close(g, w, rtol):
                        print("%s: result %d differs\n  got  %s\n  want %s" % (where, k, g, w))
                        bad += 1
                if len(got) != len(want):
                    print("%s: %d results, want %d" % (where, len(got), len(want)))
                    bad += 1
    print("%d cases, %d problems (rtol %g)" % (total, bad, rtol))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
