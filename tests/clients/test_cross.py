"""The repository's test programs through parad's compiled outputs.

For every program under tests/ whose `-- ==` blocks have plain cases
(`input { ... } output { ... }`, optionally under `entry:` lines), the
program is compiled once as an executable (`parad multicore`) and once as
a server (`parad c --server`). Then, for each case:

* the executable's standard output must equal that of `parad run --backend
  c -e ENTRY` on the same input, as text;
* the server, driven by futhark_server, must produce the expected output
  values (read with futhark_data, compared as `futhark test` does: integers
  and booleans exactly, floats within 0.2% of the largest expected
  magnitude, NaN equal to NaN).

Cases with `error:`, `random` or `script` inputs, data files (`@`), or
the tags `no_c`, `no_multicore` and `disable` are left out. A program whose
compilation fails is reported as skipped when `parad run` cannot compile it
either (an unsupported feature), and as a failure otherwise. Programs are
handled in parallel ($PARAD_CROSS_JOBS, default: the number of cores), and
a summary with the counts is printed at the end.
"""

import concurrent.futures
import os
import pathlib
import re
import shutil
import tempfile

import futhark_data
import numpy as np
import pytest
from futhark_server import Failure, Server

import conftest
import helpers

TESTS = helpers.REPO / "tests"
SKIP_TAGS = {"disable", "no_c", "no_multicore"}
PRIMS = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "bool": np.bool_,
}
TRANSPARENT = re.compile(r"^((?:\[\])*)(%s)$" % "|".join(PRIMS))
TIMEOUT = helpers.TIMEOUT
# Compiling: at most this long and this much virtual memory per process.
COMPILE_TIMEOUT = int(os.environ.get("PARAD_CROSS_COMPILE_TIMEOUT", "120"))
COMPILE_MEMORY_GIB = 6
# Flags for the C compiler appended to parad's (-O3) through PARAD_CFLAGS
# when compiling the executables and servers: -O0 by default, which
# compiles four times as fast as -O3 and is enough to compare results on
# small inputs (test_ffi.py and test_server.py compile at parad's -O3, as
# do `parad run` and the rest of the CI). PARAD_CROSS_CFLAGS overrides it
# ("" keeps -O3).
CROSS_CFLAGS = os.environ.get("PARAD_CROSS_CFLAGS", "-O0")


def compile_env():
    env = dict(os.environ)
    env["PARAD_CFLAGS"] = (env.get("PARAD_CFLAGS", "") + " " + CROSS_CFLAGS).strip()
    return env


def run_env():
    """`parad run` keeps its flags, and uses the library cache of the
    repository's cargo tests unless PARAD_CACHE_DIR says otherwise: they
    build every program of tests/ with these flags (the C of `--backend
    c` and `--backend multicore` is the same), so in CI nothing is
    compiled again."""
    env = dict(os.environ)
    if not env.get("PARAD_CACHE_DIR"):
        target = pathlib.Path(env.get("CARGO_TARGET_DIR") or helpers.REPO / "target")
        env["PARAD_CACHE_DIR"] = str(target.resolve() / "tmp" / "parad-cache")
    return env


# Programs that hit a parad bug, with the bug: their test is expected to
# fail, strictly (once the bug is fixed, the test says to remove them).
KNOWN_BUGS = {}


# ---- reading test blocks ----------------------------------------------------


class Case:
    def __init__(self, entry, line, input_text, output_text):
        self.entry, self.line = entry, line
        self.input, self.output = input_text, output_text

    def __repr__(self):
        return "line %d (%s)" % (self.line, self.entry)


def comment_runs(source):
    """Maximal runs of lines starting with `--`: lists of (line, text
    after the dashes)."""
    runs, cur = [], []
    for i, line in enumerate(source.splitlines(), 1):
        if line.startswith("--"):
            cur.append((i, line[2:]))
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


class Block:
    """A cursor over the text after a block's `==` line."""

    def __init__(self, lines):
        self.lines = lines
        self.row, self.col = 0, 0

    def line(self):
        return self.lines[min(self.row, len(self.lines) - 1)][0]

    def peek(self):
        while self.row < len(self.lines):
            text = self.lines[self.row][1]
            while self.col < len(text) and text[self.col].isspace():
                self.col += 1
            if self.col < len(text):
                return text[self.col]
            self.row, self.col = self.row + 1, 0
        return None

    def word(self, take=True):
        c = self.peek()
        if c is None:
            return None
        text = self.lines[self.row][1]
        if c in "{}":
            end = self.col + 1
        else:
            m = re.compile(r"[^\s{}]+").match(text, self.col)
            end = m.end()
        w = text[self.col : end]
        if take:
            self.col = end
        return w

    def rest_of_line(self):
        text = self.lines[self.row][1][self.col :]
        self.row, self.col = self.row + 1, 0
        return text.strip()

    def braced(self):
        if self.peek() != "{":
            raise ValueError("line %d: expected `{`" % self.line())
        self.col += 1
        depth, out = 1, []
        while self.row < len(self.lines):
            text = self.lines[self.row][1]
            for i in range(self.col, len(text)):
                if text[i] == "{":
                    depth += 1
                elif text[i] == "}":
                    depth -= 1
                    if depth == 0:
                        out.append(text[self.col : i])
                        self.col = i + 1
                        return "\n".join(out)
            out.append(text[self.col :])
            self.row, self.col = self.row + 1, 0
        raise ValueError("unclosed `{`")

    def values(self):
        """`{ text }` (the text) or `@ file` (None)."""
        if self.peek() == "@":
            self.col += 1
            self.word()
            return None
        return self.braced()


def read_cases(path):
    """(usable cases, tags of the file) of the program at path."""
    source = path.read_text()
    cases, tags = [], set()
    for run in comment_runs(source):
        eq = [i for i, (_, t) in enumerate(run) if t.strip() == "=="]
        if not eq:
            continue
        b = Block(run[eq[0] + 1 :])
        if not b.lines:
            continue
        entries = ["main"]
        while b.peek() is not None:
            line = b.line()
            w = b.word(take=False)
            if w == "tags":
                b.word()
                tags |= set(b.braced().split())
            elif w == "entry:":
                b.word()
                entries = b.rest_of_line().split()
            elif w in ("error:", "property:", "warning:"):
                b.word()
                b.rest_of_line()
            elif w == "structure":
                b.word()
                if b.peek() != "{":
                    b.word()
                b.braced()
            else:
                # [ "name" ] modifier* input (values) [output (values) |
                # auto output | error: ...]
                if b.peek() == '"':
                    text = b.lines[b.row][1]
                    b.col = text.index('"', b.col + 1) + 1
                modifiers = []
                while True:
                    w = b.word()
                    if w is None:
                        raise ValueError("line %d: expected `input`" % line)
                    if w == "input":
                        break
                    modifiers.append(w)
                input_text = b.values()
                output_text, plain = None, True
                nxt = b.word(take=False)
                if nxt == "output":
                    b.word()
                    output_text = b.values()
                elif nxt == "auto":
                    b.word()
                    b.word()
                elif nxt == "error:":
                    b.word()
                    b.rest_of_line()
                    plain = False
                if set(modifiers) & ({"random", "script"} | SKIP_TAGS):
                    plain = False
                if plain and input_text is not None and output_text is not None:
                    for e in entries:
                        cases.append(Case(e, line, input_text, output_text))
    return cases, tags


def programs_with_cases():
    out = []
    for path in sorted(TESTS.rglob("*.fut")):
        try:
            cases, tags = read_cases(path)
        except (ValueError, UnicodeDecodeError):
            continue  # a malformed block: `parad test` reports it
        if cases and not tags & SKIP_TAGS:
            out.append((path, cases))
    return out


PROGRAMS = programs_with_cases()


# ---- values -----------------------------------------------------------------

_SPECIAL = re.compile(r"^(-?)(f16|f32|f64)\.(nan|inf)$")
_TOKEN = re.compile(r"\s*(empty\s*\(|[\[\](),]|[^\s\[\](),]+)")


def parse_fallback(text):
    """Futhark's text values, for what futhark_data cannot read (the
    constants `f32.nan`, `-f64.inf`, ...). Returns a list of numpy values."""
    toks = [m.group(1) for m in _TOKEN.finditer(text)]
    toks = [t for t in toks if t]
    pos = 0

    def scalar(tok):
        m = _SPECIAL.match(tok)
        if m:
            v = float("nan") if m.group(3) == "nan" else float("inf")
            return PRIMS[m.group(2)](-v if m.group(1) else v)
        return next(futhark_data.loads(tok))

    def value():
        nonlocal pos
        tok = toks[pos]
        pos += 1
        if tok.startswith("empty"):
            dims = []
            while toks[pos] == "[":
                dims.append(int(toks[pos + 1]))
                assert toks[pos + 2] == "]"
                pos += 3
            t = toks[pos]
            assert toks[pos + 1] == ")"
            pos += 2
            return np.zeros(dims, dtype=PRIMS[t])
        if tok == "[":
            elems = []
            while toks[pos] != "]":
                elems.append(value())
                if toks[pos] == ",":
                    pos += 1
            pos += 1
            # Unsuffixed literals beside suffixed ones: the widest type.
            return np.array(elems, dtype=np.result_type(*[np.asarray(e).dtype for e in elems]))
        return scalar(tok)

    vals = []
    while pos < len(toks):
        vals.append(value())
    return vals


def parse_values(text):
    """(values, whether the fallback reader was needed)."""
    # Strip `--` comments, as futhark_data does, so that the fallback
    # does not see them either.
    text = "\n".join(line.split("--")[0] for line in text.splitlines())
    try:
        return list(futhark_data.loads(text)), False
    except (ValueError, AttributeError, IndexError, KeyError):
        return parse_fallback(text), True


def values_match(want, got, rel=0.002):
    """`futhark test`'s comparison: None when equal, else why not."""
    want, got = np.asarray(want), np.asarray(got)
    if want.dtype != got.dtype or want.shape != got.shape:
        return "expected %s%s, got %s%s" % (want.dtype, want.shape, got.dtype, got.shape)
    if want.dtype.kind == "f":
        w, g = want.astype(np.float64), got.astype(np.float64)
        finite = np.abs(w[np.isfinite(w)])
        thr = rel * max(1.0, float(finite.max()) if finite.size else 1.0)
        with np.errstate(invalid="ignore", over="ignore"):
            near = np.isfinite(w) & np.isfinite(g) & (np.abs(w - g) <= thr)
        bad = ~((np.isnan(w) & np.isnan(g)) | (w == g) | near)
    else:
        bad = want != got
    if np.any(bad):
        i = np.argwhere(np.atleast_1d(bad))[0]
        return "%d of %d elements differ; first at %s: expected %r, got %r" % (
            int(np.sum(bad)),
            want.size,
            list(i),
            np.atleast_1d(want)[tuple(i)],
            np.atleast_1d(got)[tuple(i)],
        )
    return None


# ---- one program ------------------------------------------------------------


class Outcome:
    def __init__(self, rel):
        self.rel = rel
        self.skipped = None  # the reason, when the program is skipped
        self.failures = []
        self.notes = []  # case-level skips
        self.exe_cases = 0
        self.server_cases = 0
        self.fallback = 0


def first_lines(text, n=6):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return "\n".join(lines[:n])


def proc(cmd, stdin=None, env=None, timeout=TIMEOUT, memory_gib=None):
    return helpers.capture(cmd, env=env, input=stdin, timeout=timeout, memory_gib=memory_gib)


def parad_run(parad, path, case):
    return proc(
        [parad, "run", "--backend", "c", "-e", case.entry, path],
        stdin=case.input,
        env=run_env(),
    )


def compile_or_skip(parad, path, cases, kind, out, outcome):
    """Compiles; on failure sets outcome.skipped (when `parad run` fails to
    compile too) or records a failure. Returns whether it compiled."""
    args = {"executable": ["multicore"], "server": ["c", "--server"]}[kind]
    p = proc(
        [parad, *args, path, "-o", out],
        env=compile_env(),
        timeout=COMPILE_TIMEOUT,
        memory_gib=COMPILE_MEMORY_GIB,
    )
    if p.returncode == 0:
        return True
    r = parad_run(parad, path, cases[0])
    if r.returncode != 0:
        outcome.skipped = "parad %s and parad run both fail to compile it: %s" % (
            " ".join(args),
            first_lines(p.stderr, 2),
        )
    else:
        outcome.failures.append(
            "parad %s fails, but parad run compiles it:\n%s" % (" ".join(args), first_lines(p.stderr))
        )
    return False


def check_executable(parad, path, cases, folder, outcome):
    exe = folder / "exe"
    if not compile_or_skip(parad, path, cases, "executable", exe, outcome):
        return False
    for case in cases:
        e = proc([exe, "-e", case.entry], stdin=case.input)
        r = parad_run(parad, path, case)
        if r.returncode != 0 and e.returncode != 0:
            outcome.notes.append("%r: both the executable and parad run fail: %s" % (case, first_lines(r.stderr, 1)))
            continue
        if e.returncode != 0 or r.returncode != 0 or e.stdout != r.stdout:
            outcome.failures.append(
                "%r: the executable and `parad run --backend c` differ:\n"
                "  executable (exit %d): %s %s\n  parad run (exit %d): %s %s"
                % (
                    case,
                    e.returncode,
                    e.stdout[:800],
                    first_lines(e.stderr, 3),
                    r.returncode,
                    r.stdout[:800],
                    first_lines(r.stderr, 3),
                )
            )
            continue
        outcome.exe_cases += 1
    return True


def q(t):
    return '"%s"' % t if " " in t else t


class ServerSession:
    def __init__(self, server):
        self.s = server
        self.n = 0
        self.kinds = {}

    def fresh(self):
        self.n += 1
        return "v%d" % self.n

    def kind(self, t):
        if t not in self.kinds:
            self.kinds[t] = self.s.cmd("kind", q(t))[0]
        return self.kinds[t]

    def leaves(self, var, t, names):
        """The values of var (of type t) as a flat list, tuples taken
        apart into their components as test blocks write them; None if a
        value is opaque."""
        if TRANSPARENT.match(t):
            return [self.s.get_value(var)]
        if self.kind(t) != "record":
            return None
        fields = [f.split(" ", 1) for f in self.s.cmd("fields", q(t))]
        if [f[0] for f in fields] != [str(i) for i in range(len(fields))]:
            return None  # a record with named fields
        out = []
        for name, ft in fields:
            v = self.fresh()
            self.s.cmd_project(v, var, name)
            names.append(v)
            sub = self.leaves(v, ft, names)
            if sub is None:
                return None
            out.extend(sub)
        return out


def check_server(parad, path, cases, folder, outcome):
    exe = folder / "server"
    if not compile_or_skip(parad, path, cases, "server", exe, outcome):
        return
    try:
        # As `parad test` (and `futhark test`) do, the server reads the
        # program's tuning file when there is one.
        tuning = pathlib.Path(str(path) + ".tuning")
        server = Server(str(exe), *(["--tuning", str(tuning)] if tuning.exists() else []))
    except Exception as err:  # noqa: BLE001 - any failure to start
        outcome.failures.append("the server does not start: %s" % err)
        return
    sess = ServerSession(server)
    types = {}
    try:
        for case in cases:
            if case.entry not in types:
                try:
                    ins = [t.lstrip("*") for t in server.cmd_inputs(case.entry)]
                    (out_t,) = [t.lstrip("*") for t in server.cmd_output(case.entry)]
                    types[case.entry] = (ins, out_t)
                except Failure as err:
                    types[case.entry] = str(err)
            if isinstance(types[case.entry], str):
                r = parad_run(parad, path, case)
                if r.returncode != 0:
                    outcome.notes.append("%r: not in the server, and parad run fails too" % case)
                else:
                    outcome.failures.append("%r: the server lacks the entry point: %s" % (case, types[case.entry]))
                continue
            ins, out_t = types[case.entry]
            if not all(TRANSPARENT.match(t) for t in ins):
                outcome.notes.append("%r: opaque inputs %s" % (case, ins))
                continue
            inputs, fb1 = parse_values(case.input)
            expected, fb2 = parse_values(case.output)
            outcome.fallback += fb1 or fb2
            if len(inputs) != len(ins):
                outcome.failures.append("%r: %d input values for %d parameters" % (case, len(inputs), len(ins)))
                continue
            names = []
            for v, t in zip(inputs, ins):
                m = TRANSPARENT.match(t)
                dt = PRIMS[m.group(2)]
                v = np.asarray(v)
                if v.dtype != dt and v.dtype in (np.int32, np.float64):
                    v = v.astype(dt)  # an unsuffixed literal
                if v.ndim == 0:
                    v = v[()]
                name = sess.fresh()
                server.put_value(name, v)
                names.append(name)
            out = sess.fresh()
            try:
                server.cmd_call(case.entry, out, *names)
            except Failure as err:
                outcome.failures.append("%r: the call fails on the server:\n%s" % (case, first_lines(str(err))))
                server.cmd_free(*names)
                continue
            made = [out]
            got = sess.leaves(out, out_t, made)
            if got is None:
                outcome.notes.append("%r: opaque result %s" % (case, out_t))
            elif len(got) != len(expected):
                outcome.failures.append("%r: %d values from the server, %d expected" % (case, len(got), len(expected)))
            else:
                bad = [(i, values_match(w, g)) for i, (w, g) in enumerate(zip(expected, got))]
                bad = [(i, why) for i, why in bad if why]
                if bad:
                    outcome.failures.append(
                        "%r: server result %s" % (case, "; ".join("value %d: %s" % b for b in bad))
                    )
                else:
                    outcome.server_cases += 1
            server.cmd_free(*names, *made)
    except Exception as err:  # noqa: BLE001 - the server died or misspoke
        outcome.failures.append("server session broke: %s: %s" % (type(err).__name__, err))
    finally:
        try:
            server.__exit__(None, None, None)
        except Exception:  # noqa: BLE001
            server.proc.kill()


def check_program(parad, path, cases):
    outcome = Outcome(path.relative_to(helpers.REPO))
    folder = pathlib.Path(tempfile.mkdtemp(prefix="parad_cross_"))
    try:
        compiled = check_executable(parad, path, cases, folder, outcome)
        if compiled:
            check_server(parad, path, cases, folder, outcome)
    except Exception as err:  # noqa: BLE001 - reported as the program's failure
        outcome.failures.append("%s: %s" % (type(err).__name__, err))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return outcome


# ---- the tests --------------------------------------------------------------

_results = {}


@pytest.fixture(scope="session")
def results(parad, request):
    """Checks every selected program, in parallel, the first time it is
    asked for."""
    if not _results:
        selected = {
            item.callspec.params["path"]
            for item in request.session.items
            if getattr(item, "originalname", None) == "test_program"
        }
        todo = [(p, c) for p, c in PROGRAMS if p in selected]
        jobs = int(os.environ.get("PARAD_CROSS_JOBS") or os.cpu_count() or 2)
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(check_program, parad, p, c): p for p, c in todo}
            for f in concurrent.futures.as_completed(futures):
                _results[futures[f]] = f.result()
        summarise(_results.values())
    return _results


def summarise(outcomes):
    outcomes = list(outcomes)
    skipped = [o for o in outcomes if o.skipped]
    failed = [o for o in outcomes if o.failures]
    conftest.SUMMARY.append(
        "cross: %d programs (%d skipped as unsupported, %d with failures); "
        "%d cases: executable = parad run, %d cases: server = expected output; "
        "%d cases left out (%s); %d read with the fallback value reader"
        % (
            len(outcomes),
            len(skipped),
            len(failed),
            sum(o.exe_cases for o in outcomes),
            sum(o.server_cases for o in outcomes),
            sum(len(o.notes) for o in outcomes),
            "opaque values or failing in parad run too",
            sum(o.fallback for o in outcomes),
        )
    )
    for o in sorted(outcomes, key=lambda o: str(o.rel)):
        if o.skipped:
            conftest.SUMMARY.append("cross: skipped %s: %s" % (o.rel, o.skipped.splitlines()[0]))
        for note in o.notes:
            conftest.SUMMARY.append("cross: left out %s %s" % (o.rel, note))


def test_programs_found():
    # The parser finds the repository's cases (a guard against a change of
    # layout silently leaving nothing to compare).
    assert len(PROGRAMS) >= 100
    assert sum(len(c) for _, c in PROGRAMS) >= 300


def _param(path):
    rel = path.relative_to(TESTS).as_posix()
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[rel])] if rel in KNOWN_BUGS else []
    return pytest.param(path, id=rel, marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p, _ in PROGRAMS])
def test_program(results, path):
    o = results[path]
    if o.failures:
        pytest.fail("\n".join(o.failures[:10]) + ("\n..." if len(o.failures) > 10 else ""), pytrace=False)
    if o.skipped:
        pytest.skip(o.skipped)
