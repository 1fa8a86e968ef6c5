#!/usr/bin/env python3
"""Check (or fill in) the expected outputs of the test programs under tests/.

Every `.fut` file's `-- ==` block is parsed; for each `input {...}` case the
Python reference implementation registered for that file and entry point
(see ref_*.py next to this script) is run on the parsed input, and its result
is compared with the written `output {...}` (integers exactly, floats with a
tight relative tolerance). `error:` cases must make the reference raise.
Inputs and outputs are also checked against the entry point's declared
parameter and return types.

    python3 tests/tools/check_expected.py            # check everything
    python3 tests/tools/check_expected.py --fill F   # rewrite `output { ? }`
                                                     # placeholders in F
"""

import math
import os
import random
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fut  # noqa: E402

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRIMS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
         "f16", "f32", "f64", "bool")

# ---------------------------------------------------------------- values

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>-?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+
        |[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?)
        (?:i8|i16|i32|i64|u8|u16|u32|u64|f16|f32|f64)?)
  | (?P<special>-?f(?:16|32|64)\.(?:nan|inf))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[\[\](),])
""", re.X)


Empty = fut.Empty
plain = fut.plain


def tokenize(text):
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError("bad value text at %r" % text[pos:pos + 20])
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    return out


def parse_number(tok, want=None):
    """A number token as (value, type); an unsuffixed one takes the type
    `want` if given (an entry point's parameter), and must fit in it."""
    m = re.match(r"(.*?)(i8|i16|i32|i64|u8|u16|u32|u64|f16|f32|f64)?$", tok)
    body, suf = m.group(1).replace("_", ""), m.group(2)
    if suf is None and want is not None and want != "bool":
        suf = want
        is_float = re.search(r"[.eE]", body) and not body.lstrip("-")[:2] in ("0x", "0X")
        if want[0] != "f":
            if is_float:
                raise ValueError("%s is not an integer (%s expected)" % (tok, want))
            v = int(body, 0) if body.lstrip("-")[:2].lower() in ("0x", "0b") else int(body)
            if fut.wrap(v, want) != v:
                raise ValueError("%s does not fit in %s" % (tok, want))
    neg = body.startswith("-")
    digits = body[1:] if neg else body
    if digits[:2] in ("0x", "0X"):
        v = int(digits[2:], 16)
    elif digits[:2] in ("0b", "0B"):
        v = int(digits[2:], 2)
    elif re.search(r"[.eE]", digits):
        v = float(digits)
        suf = suf or "f64"
    else:
        v = int(digits)
    suf = suf or "i32"
    if suf[0] == "f":
        v = float(v)
    v = -v if neg else v
    if suf == "f32":
        v = fut.f32(v)
    elif suf == "f16":
        v = fut.f16(v)
    return v, suf


def parse_values(text, expected=()):
    """Parse a sequence of values; returns a list of (value, (rank, elem)).
    `expected`: the (rank, elem) types of an entry point's parameters, which
    unsuffixed numbers take (as parad's reader does for arguments)."""
    toks = tokenize(text)
    pos = 0

    def value(want=None):
        nonlocal pos
        kind, t = toks[pos]
        pos += 1
        if kind == "num":
            v, suf = parse_number(t, want)
            return v, (0, suf)
        if kind == "special":
            neg = t.startswith("-")
            ty, what = t.lstrip("-").split(".")
            v = math.nan if what == "nan" else math.inf
            return (-v if neg else v), (0, ty)
        if kind == "word" and t in ("true", "false"):
            return t == "true", (0, "bool")
        if kind == "word" and t == "empty":
            assert toks[pos][1] == "("
            pos += 1
            shape = []
            while toks[pos][1] == "[":
                shape.append(int(parse_number(toks[pos + 1][1])[0]))
                assert toks[pos + 2][1] == "]"
                pos += 3
            elem = toks[pos][1]
            assert toks[pos + 1][1] == ")"
            pos += 2
            assert 0 in shape, "empty() needs a zero dimension"
            return Empty(shape, elem), (len(shape), elem)
        if t == "[":
            elems, ty = [], None
            while toks[pos][1] != "]":
                v, vty = value(want if ty is None else
                               (ty[1] if ty[1] == want else None))
                if ty is None:
                    ty = vty
                elems.append(coerce(v, ty) if vty[0] == 0 else v)
                if toks[pos][1] == ",":
                    pos += 1
            pos += 1
            if ty is None:
                raise ValueError("use empty(...) for empty arrays")
            return elems, (ty[0] + 1, ty[1])
        raise ValueError("unexpected token %r" % t)

    out = []
    while pos < len(toks):
        want = None
        if len(out) < len(expected):
            rank, elem = expected[len(out)]
            # A scalar's type applies to a scalar, an array's to elements.
            if (toks[pos][1] == "[") == (rank > 0):
                want = elem
        out.append(value(want))
    return out


def coerce(v, ty):
    if ty[1][0] == "f" and not isinstance(v, bool):
        return float(v)
    return v


# ---------------------------------------------------------------- formatting

def fmt_float(x, t):
    if math.isnan(x):
        return "%s.nan" % t
    if math.isinf(x):
        return ("-" if x < 0 else "") + "%s.inf" % t
    if t == "f64":
        s = repr(x)
    else:
        rnd = fut.f32 if t == "f32" else fut.f16
        x = rnd(x)
        for p in range(1, 18):
            s = "%.*g" % (p, x)
            if rnd(float(s)) == x:
                break
    if "e" not in s and "." not in s and "inf" not in s:
        s += ".0"
    return s + t


def fmt_value(v, rank, elem):
    if isinstance(v, Empty):
        return "empty(%s%s)" % ("".join("[%d]" % d for d in v.shape), elem)
    if rank > 0:
        dims, w = [], v
        for _ in range(rank):
            dims.append(len(w))
            if not w:
                break
            w = w[0]
        if 0 in dims:
            if len(dims) < rank:
                raise ValueError("give multi-dimensional empties as Empty")
            return "empty(%s%s)" % ("".join("[%d]" % d for d in dims), elem)
        return "[" + ", ".join(fmt_value(x, rank - 1, elem) for x in v) + "]"
    if elem == "bool":
        assert isinstance(v, bool), v
        return "true" if v else "false"
    if elem[0] == "f":
        return fmt_float(float(v), elem)
    assert isinstance(v, int) and not isinstance(v, bool), (v, elem)
    assert fut.wrap(v, elem) == v, "%d out of range for %s" % (v, elem)
    return "%d%s" % (v, elem)


# ---------------------------------------------------------------- signatures

def split_top(s, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def parse_type(t):
    """'[n][]f32' -> [(2, 'f32')]; '(i32, []f64)' -> [(0,'i32'), (1,'f64')]."""
    t = t.strip().lstrip("*").strip()
    t = re.sub(r"^\?(\[\w+\])+\.", "", t).strip()
    if t.startswith("(") and t.endswith(")"):
        return [x for p in split_top(t[1:-1]) for x in parse_type(p)]
    rank = 0
    while t.startswith("["):
        depth, i = 0, 0
        while True:
            depth += {"[": 1, "]": -1}.get(t[i], 0)
            i += 1
            if depth == 0:
                break
        t = t[i:].strip()
        rank += 1
    t = t.lstrip("*")
    assert t in PRIMS, "entry points must use primitive element types: %r" % t
    return [(rank, t)]


def entry_points(src):
    """Map entry name -> (param types, result types) for `entry f` and main."""
    eps = {}
    for m in re.finditer(r"^(entry\s+(\w+)|def\s+(main))\b(.*?)=(?!=)", src,
                         re.M | re.S):
        name = m.group(2) or m.group(3)
        rest = m.group(4)
        params, i = [], 0
        while True:
            while i < len(rest) and rest[i].isspace():
                i += 1
            if i >= len(rest) or rest[i] not in "([":
                break
            close = ")" if rest[i] == "(" else "]"
            depth, j = 0, i
            while True:
                depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(rest[j], 0)
                j += 1
                if depth == 0:
                    break
            group = rest[i:j]
            if close == ")":
                pname, ptype = group[1:-1].split(":", 1)
                params.extend(parse_type(ptype))
            i = j
        ret = rest[i:].strip()
        assert ret.startswith(":"), "entry %s needs a return type" % name
        eps[name] = (params, parse_type(ret[1:]))
    return eps


# ---------------------------------------------------------------- test blocks

class Case:
    def __init__(self, entries, kind, body, line, expect=None, eline=None):
        self.entries, self.kind, self.body, self.line = entries, kind, body, line
        self.expect, self.eline = expect, eline  # ('output', text)|('error', re)


def test_blocks(lines):
    """Yield lists of (line index, comment text) for each `-- ==` block."""
    i = 0
    while i < len(lines):
        if lines[i].startswith("--"):
            j = i
            while j < len(lines) and lines[j].startswith("--"):
                j += 1
            block = [(k, lines[k][2:].strip()) for k in range(i, j)]
            if any(t == "==" for _, t in block):
                start = next(n for n, (_, t) in enumerate(block) if t == "==")
                yield block[start + 1:]
            i = j
        else:
            i += 1


def parse_cases(lines):
    cases, compile_errors = [], []
    for block in test_blocks(lines):
        text = ""
        offsets = []
        for ln, t in block:
            offsets.append((len(text), ln))
            text += t + "\n"

        def line_of(pos):
            return max(ln for off, ln in offsets if off <= pos)

        entries = ["main"]
        pos = 0
        pending = None
        while True:
            m = re.compile(r"\s*").match(text, pos)
            pos = m.end()
            if pos >= len(text):
                break
            if text.startswith("entry:", pos):
                end = text.index("\n", pos)
                entries = text[pos + 6:end].split()
                pos = end
            elif text.startswith("tags", pos) or text.startswith("random", pos) \
                    or text.startswith("input", pos) or text.startswith("output", pos):
                kw = re.compile(r"\w+").match(text, pos).group()
                if kw == "random":
                    pos = re.compile(r"random\s+").match(text, pos).end()
                    kw = "random input"
                    pos += len("input")
                else:
                    pos += len(kw)
                ob = text.index("{", pos)
                cb = text.index("}", ob)
                body = text[ob + 1:cb]
                if kw in ("input", "random input"):
                    pending = Case(list(entries), kw, body, line_of(ob))
                    cases.append(pending)
                elif kw == "output":
                    assert pending is not None and pending.expect is None, \
                        "output without input near line %d" % (line_of(pos) + 1)
                    pending.expect = ("output", body)
                    pending.eline = line_of(ob)
                pos = cb + 1
            elif text.startswith("error:", pos):
                end = text.index("\n", pos)
                regex = text[pos + 6:end].strip()
                if pending is not None and pending.expect is None:
                    pending.expect = ("error", regex)
                else:
                    compile_errors.append(regex)
                pos = end
            elif text.startswith("property:", pos):
                # Property tests have no expected output: `parad test` runs them.
                pos = text.index("\n", pos)
            elif text.startswith("compiled", pos) or text.startswith("nobench", pos):
                pos = re.compile(r"\w+").match(text, pos).end()
            elif text[pos] == '"':
                pos = text.index('"', pos + 1) + 1
            else:
                raise ValueError("cannot parse test block at %r" % text[pos:pos + 30])
    return cases, compile_errors


# ---------------------------------------------------------------- comparison

def close(a, b, elem):
    if elem[0] != "f":
        return a == b and isinstance(a, bool) == isinstance(b, bool)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    tol = {"f16": 1e-3, "f32": 2e-6, "f64": 1e-12}[elem]
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def same(a, b, rank, elem):
    if isinstance(a, Empty) or isinstance(b, Empty):
        la = 0 if isinstance(a, Empty) else len(a)
        lb = 0 if isinstance(b, Empty) else len(b)
        if la == 0 and lb == 0:
            return True
        a, b = plain(a), plain(b)
    if rank == 0:
        return close(a, b, elem)
    return len(a) == len(b) and all(same(x, y, rank - 1, elem)
                                    for x, y in zip(a, b))


def shape_ok(v, rank, elem):
    if isinstance(v, Empty):
        return True
    if rank == 0:
        return True
    return isinstance(v, list)


def random_value(rank_shape, elem, rng):
    if not rank_shape:
        if elem == "bool":
            return rng.random() < 0.5
        if elem[0] == "f":
            return rng.random()
        lo, hi = (0, 100)
        return rng.randint(lo, hi)
    return [random_value(rank_shape[1:], elem, rng) for _ in range(rank_shape[0])]


def parse_random(body):
    out = []
    for t in body.split():
        dims = [int(d) for d in re.findall(r"\[(\d+)\]", t)]
        elem = re.sub(r"\[\d+\]", "", t)
        out.append((dims, elem))
    return out


# ---------------------------------------------------------------- driver

def load_refs():
    refs = {}
    here = os.path.dirname(os.path.abspath(__file__))
    for fn in sorted(os.listdir(here)):
        if fn.startswith("ref_") and fn.endswith(".py"):
            ns = {}
            with open(os.path.join(here, fn)) as f:
                exec(compile(f.read(), fn, "exec"), ns)
            for k, v in ns["REFS"].items():
                refs[k] = v
    return refs


def run_ref(fn, args):
    res = fn(*args)
    return res if isinstance(res, tuple) else (res,)


def check_file(path, refs, fill=False):
    rel = os.path.relpath(path, TESTS)
    with open(path) as f:
        src = f.read()
    lines = src.split("\n")
    problems = []
    cases, cerrs = parse_cases(lines)
    for regex in cerrs:
        if regex in (".*", ".+", "") or regex.startswith(".*") and len(regex) < 4:
            problems.append("compile error regex too loose: %r" % regex)
    if cerrs and cases:
        problems.append("mixes compile-error and run cases")
    if not cases:
        # Files under a lib/ folder are imported by tests, not tests.
        if not cerrs and "lib" not in rel.split(os.sep):
            problems.append("no test cases")
        return problems, 0
    eps = entry_points(src)
    ref = refs.get(rel)
    n = 0
    for c in cases:
        for e in c.entries:
            n += 1
            where = "%s:%d (%s)" % (rel, c.line + 1, e)
            if e not in eps:
                problems.append("%s: no entry point %s" % (where, e))
                continue
            ptys, rtys = eps[e]
            fn = ref.get(e) if isinstance(ref, dict) else (ref if e == "main" else None)
            if c.kind == "random input":
                spec = parse_random(c.body)
                if [(len(d), t) for d, t in spec] != ptys:
                    problems.append("%s: random input types %s vs params %s"
                                    % (where, spec, ptys))
                    continue
                if fn is None or c.expect is None or c.expect[0] != "output":
                    continue
                want = parse_values(c.expect[1])
                for seed in range(3):
                    rng = random.Random(seed)
                    args = [random_value(d, t, rng) for d, t in spec]
                    got = run_ref(fn, args)
                    if not all(same(g, w[0], r, t) for g, w, (r, t)
                               in zip(got, want, rtys)):
                        problems.append("%s: random output differs: %s"
                                        % (where, got))
                        break
                continue
            vals = parse_values(c.body, ptys)
            if [ty for _, ty in vals] != ptys:
                problems.append("%s: input types %s vs params %s"
                                % (where, [ty for _, ty in vals], ptys))
                continue
            if fn is None:
                problems.append("%s: no reference implementation" % where)
                continue
            args = [plain(v) for v, _ in vals]
            if c.expect is None:
                problems.append("%s: no expected result" % where)
                continue
            if c.expect[0] == "error":
                if c.expect[1] in (".*", ".+", ""):
                    problems.append("%s: error regex too loose" % where)
                try:
                    got = run_ref(fn, args)
                    problems.append("%s: expected an error, reference gave %s"
                                    % (where, got))
                except Exception:
                    pass
                continue
            try:
                got = run_ref(fn, args)
            except Exception as ex:  # noqa: BLE001
                problems.append("%s: reference raised %r" % (where, ex))
                continue
            if len(got) != len(rtys):
                problems.append("%s: reference gave %d results, entry has %d"
                                % (where, len(got), len(rtys)))
                continue
            if fill and c.expect[1].strip() == "?":
                text = " ".join(fmt_value(g, r, t) for g, (r, t) in zip(got, rtys))
                ln = c.eline
                lines[ln] = lines[ln].replace("output { ? }", "output { %s }" % text, 1)
                continue
            want = parse_values(c.expect[1])
            if [ty for _, ty in want] != rtys:
                problems.append("%s: output types %s vs result %s"
                                % (where, [ty for _, ty in want], rtys))
                continue
            for k, (g, (w, _), (r, t)) in enumerate(zip(got, want, rtys)):
                if not same(g, w, r, t):
                    problems.append("%s: result %d: expected %s, reference %s"
                                    % (where, k, fmt_value(w, r, t),
                                       fmt_value(g, r, t)))
    if fill:
        with open(path, "w") as f:
            f.write("\n".join(lines))
    return problems, n


def main(argv):
    fill = "--fill" in argv
    paths = [a for a in argv if not a.startswith("--")]
    refs = load_refs()
    if not paths:
        paths = [TESTS]
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, fns in os.walk(p):
                files += [os.path.join(root, f) for f in fns if f.endswith(".fut")]
        else:
            files.append(p)
    total, bad = 0, 0
    for path in sorted(files):
        try:
            problems, n = check_file(path, refs, fill)
        except Exception as ex:  # noqa: BLE001
            problems, n = ["%s: checker failed: %r" % (path, ex)], 0
        total += n
        for p in problems:
            bad += 1
            print(p)
    print("%d files, %d cases, %d problems" % (len(files), total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
