"""futhark-server driving `parad c --server` and `parad multicore --server`.

The servers are started and spoken to by `futhark_server.Server`,
unchanged. Commands the class has no method for (`kind`, `new`, `variants`,
`construct`, `destruct`, ...) go through its generic `cmd`; type names
holding spaces are quoted as the protocol says (futhark-server passes words
through as they are).
"""

import os
import re
import tempfile

import futhark_data
import numpy as np
import pytest
from futhark_server import Failure, Server

import helpers
from helpers import DTYPES, bump, sample


@pytest.fixture(scope="module", params=helpers.BACKENDS)
def backend(request):
    return request.param


def start(parad, backend, program, tmp_path_factory):
    folder = tmp_path_factory.mktemp("server_%s_%s" % (program.replace(".", "_"), backend))
    exe = helpers.compile_program(parad, backend, program, folder / "server", "server")
    return Server(str(exe))


@pytest.fixture(scope="module")
def prims(parad, backend, tmp_path_factory):
    with start(parad, backend, "prims.fut", tmp_path_factory) as s:
        yield s


@pytest.fixture(scope="module")
def opaque(parad, backend, tmp_path_factory):
    with start(parad, backend, "opaque.fut", tmp_path_factory) as s:
        yield s


@pytest.fixture(scope="module")
def errors(parad, backend, tmp_path_factory):
    with start(parad, backend, "errors.fut", tmp_path_factory) as s:
        yield s


def q(t):
    """A type name as one word of a command."""
    return '"%s"' % t if " " in t else t


def fresh(prefix="v"):
    fresh.n += 1
    return "%s%d" % (prefix, fresh.n)


fresh.n = 0


def put(s, v):
    name = fresh()
    s.put_value(name, v)
    return name


def call(s, entry, *args):
    out = fresh("out")
    s.cmd_call(entry, out, *args)
    return out


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)


# ---- values in and out ------------------------------------------------------


def test_listings(prims, opaque):
    entries = prims.cmd_entry_points()
    for t in DTYPES:
        for suffix in ["0", "1", "2", "3", "sum"]:
            assert "%s_%s" % (t, suffix) in entries
    types = set(prims.cmd_types())
    for t in DTYPES:
        assert {t, "[]" + t, "[][]" + t, "[][][]" + t} <= types
    assert {"particle", "shape", "pair", "(f64, []f64)", "(i64, bool)", "[]particle"} <= set(
        opaque.cmd_types()
    )
    assert set(opaque.cmd_entry_points()) >= {"mk_particle", "area", "bump", "particles"}


def test_inputs_and_output(prims, opaque):
    assert prims.cmd_inputs("f16_2") == ["[][]f16"]
    assert prims.cmd_output("f16_2") == ["[][]f16"]
    assert prims.cmd_inputs("bool_0") == ["bool"]
    assert opaque.cmd_inputs("mk_particle") == ["f64", "[]f64", "i64"]
    assert opaque.cmd_output("mk_particle") == ["particle"]
    assert opaque.cmd_inputs("scale") == ["f64", "shape"]
    assert opaque.cmd_output("unpack") == ["(f64, []f64)"]
    assert opaque.cmd_inputs("tuple_sum") == ["(f64, []f64)"]
    # Consumed inputs and unique results carry a star.
    assert opaque.cmd_inputs("bump") == ["*[]f64"]
    assert opaque.cmd_output("bump") == ["*[]f64"]
    assert opaque.cmd("attributes", "bump") == ["noinline"]
    assert opaque.cmd("attributes", "area") == []


@pytest.mark.parametrize("t", sorted(DTYPES))
def test_put_get_every_type_and_rank(prims, t):
    rng = np.random.default_rng(11)
    for shape in [(), (5,), (0,), (2, 3), (3, 0), (2, 2, 3), (1, 0, 2)]:
        v = sample(t, shape, rng)
        if shape == ():
            v = DTYPES[t](v)
        name = put(prims, v)
        assert prims.cmd("type", name) == ["[]" * len(shape) + t]
        got = prims.get_value(name)
        assert same(got, v), (t, shape, got, v)
        if shape:
            assert [int(x) for x in prims.cmd("shape", name)] == list(shape)
        prims.cmd_free(name)


@pytest.mark.parametrize("t", sorted(DTYPES))
def test_call_every_type_and_rank(prims, t):
    rng = np.random.default_rng(12)
    x = DTYPES[t](sample(t, (), rng))
    assert same(prims.get_value(call(prims, t + "_0", put(prims, x))), bump(t, x))
    for shape, want in [
        ((6,), lambda a: bump(t, a[::-1])),
        ((3, 4), lambda a: bump(t, a).T),
        ((2, 3, 4), lambda a: bump(t, a).transpose(0, 2, 1)),
        ((0,), lambda a: bump(t, a)),
        ((2, 3, 0), lambda a: bump(t, a).transpose(0, 2, 1)),
    ]:
        a = sample(t, shape, rng)
        got = prims.get_value(call(prims, "%s_%d" % (t, len(shape)), put(prims, a)))
        assert same(got, want(a)), (t, shape, got, want(a))
    a = sample(t, (3, 5), rng, small=True)
    got = prims.get_value(call(prims, t + "_sum", put(prims, a)))
    want = np.logical_xor.reduce(a.reshape(-1)) if t == "bool" else a.sum(dtype=DTYPES[t])
    assert same(got, want), (t, got, want)


def test_scalar_extremes(prims):
    for t, x, want in [
        ("i8", 127, -128),
        ("u8", 255, 0),
        ("i64", 2**63 - 1, -(2**63)),
        ("u64", 2**64 - 1, 0),
        ("u32", 2**32 - 1, 0),
    ]:
        got = prims.get_value(call(prims, t + "_0", put(prims, DTYPES[t](x))))
        assert same(got, DTYPES[t](want)), (t, got)
    for t in ["f16", "f32", "f64"]:
        got = prims.get_value(call(prims, t + "_0", put(prims, DTYPES[t](np.inf))))
        assert got == np.inf and got.dtype == DTYPES[t]
        got = prims.get_value(call(prims, t + "_0", put(prims, DTYPES[t](np.nan))))
        assert np.isnan(got) and got.dtype == DTYPES[t]


def test_value_bytes_are_futharks_binary_format(prims):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    name = put(prims, a)
    data = prims.get_value_bytes(name)
    assert data == futhark_data.dumpb(a)
    # put_value_bytes hands its second argument to cmd_restore as one pair.
    prims.put_value_bytes(data, ("copy", "[][]i32"))
    assert same(prims.get_value("copy"), a)
    prims.cmd_free("copy", name)


# ---- opaque values ----------------------------------------------------------


def make_particle(s, mass=2.0, vel=(1.0, 2.0, 2.0), tag=5):
    return call(
        s, "mk_particle", put(s, np.float64(mass)), put(s, np.array(vel)), put(s, np.int64(tag))
    )


def test_kinds(prims, opaque):
    assert prims.cmd("kind", "i32") == ["primitive"]
    assert prims.cmd("kind", "bool") == ["primitive"]
    assert prims.cmd("kind", "[][]u16") == ["array"]
    assert opaque.cmd("kind", "particle") == ["record"]
    assert opaque.cmd("kind", q("(f64, []f64)")) == ["record"]
    assert opaque.cmd("kind", "shape") == ["sum"]
    assert opaque.cmd("kind", "[]particle")[0] in {"array", "opaque"}
    with pytest.raises(Failure):
        opaque.cmd("kind", "nosuchtype")


def test_records_fields_project_new(opaque):
    s = opaque
    assert s.cmd_fields("particle") == ["mass f64", "tag i64", "vel []f64"]
    assert s.cmd_fields("pair") == ["extra (i64, bool)", "p particle"]
    assert s.cmd_fields(q("(f64, []f64)")) == ["0 f64", "1 []f64"]
    p = make_particle(s)
    assert s.get_value(call(s, "particle_energy", p)) == 0.5 * 2.0 * 9.0
    for field, want in [("mass", np.float64(2.0)), ("tag", np.int64(5)), ("vel", np.array([1.0, 2.0, 2.0]))]:
        s.cmd_project("f_" + field, p, field)
        assert same(s.get_value("f_" + field), want)
    # A new record from the projected fields (in the order `fields` gives).
    s.cmd("new", "p2", "particle", "f_mass", "f_tag", "f_vel")
    assert s.cmd("type", "p2") == ["particle"]
    assert s.get_value(call(s, "particle_energy", "p2")) == 9.0
    # Tuples: project "0" and "1", and build one with new.
    t = call(s, "unpack", "p2")
    s.cmd_project("t0", t, "0")
    s.cmd_project("t1", t, "1")
    assert same(s.get_value("t0"), np.float64(2.0))
    assert same(s.get_value("t1"), np.array([1.0, 2.0, 2.0]))
    s.cmd("new", "t2", q("(f64, []f64)"), put(s, np.float64(1.5)), "t1")
    assert s.get_value(call(s, "tuple_sum", "t2")) == 6.5
    # A record holding a record and a tuple.
    pr = call(s, "mk_pair", p, put(s, np.int64(10)), put(s, np.bool_(True)))
    assert s.get_value(call(s, "pair_score", pr)) == 15
    s.cmd_project("extra", pr, "extra")
    s.cmd_project("e1", "extra", "1")
    assert same(s.get_value("e1"), np.bool_(True))
    s.cmd("new", "e2", q("(i64, bool)"), put(s, np.int64(1)), put(s, np.bool_(False)))
    s.cmd("new", "pr2", "pair", "e2", p)
    assert s.get_value(call(s, "pair_score", "pr2")) == 4
    # Wrong field types and counts, and unknown fields, fail.
    with pytest.raises(Failure):
        s.cmd("new", "bad", "particle", "f_mass", "f_vel", "f_tag")
    with pytest.raises(Failure):
        s.cmd("new", "bad", "particle", "f_mass")
    with pytest.raises(Failure):
        s.cmd_project("bad", p, "nosuchfield")
    with pytest.raises(Failure):
        s.cmd_project("bad", "f_vel", "0")


def test_sums(opaque):
    s = opaque
    assert s.cmd("variants", "shape") == [
        "circle",
        "- f64",
        "dot",
        "poly",
        "- []f64",
        "- bool",
        "rect",
        "- f64",
        "- f64",
    ]
    c = call(s, "circle", put(s, np.float64(2.0)))
    assert s.cmd("variant", c) == ["circle"]
    assert s.get_value(call(s, "area", c)) == 12.0
    s.cmd("construct", "r", "shape", "rect", put(s, np.float64(3.0)), put(s, np.float64(0.5)))
    assert s.cmd("variant", "r") == ["rect"]
    assert s.get_value(call(s, "area", "r")) == 1.5
    scaled = call(s, "scale", put(s, np.float64(2.0)), "r")
    s.cmd("destruct", scaled, "w", "h")
    assert same(s.get_value("w"), np.float64(6.0)) and same(s.get_value("h"), np.float64(1.0))
    s.cmd("construct", "poly", "shape", "poly", put(s, np.array([1.0, 2.5])), put(s, np.bool_(True)))
    assert s.get_value(call(s, "area", "poly")) == 3.5
    s.cmd("destruct", "poly", "xs", "closed")
    assert same(s.get_value("xs"), np.array([1.0, 2.5])) and s.get_value("closed") == True  # noqa: E712
    s.cmd("construct", "dot", "shape", "dot")
    assert s.cmd("variant", "dot") == ["dot"]
    s.cmd("destruct", "dot")
    assert s.get_value(call(s, "area", "dot")) == -1.0
    # Wrong payloads and variants fail; so does destructing into too few
    # variables.
    with pytest.raises(Failure):
        s.cmd("construct", "bad", "shape", "rect", put(s, np.float64(1.0)))
    with pytest.raises(Failure):
        s.cmd("construct", "bad", "shape", "hexagon")
    with pytest.raises(Failure):
        s.cmd("construct", "bad", "shape", "circle", put(s, np.int64(1)))
    with pytest.raises(Failure):
        s.cmd("destruct", "r", "only_one")
    with pytest.raises(Failure):
        s.cmd("variants", "particle")


def test_arrays_of_records(opaque):
    s = opaque
    ps = call(s, "particles", put(s, np.array([1.0, 2.0, 3.0])))
    assert s.cmd("type", ps) == ["[]particle"]
    assert s.cmd("shape", ps) == ["3"]
    assert s.get_value(call(s, "total_energy", ps)) == 0.5 + 4.0 + 13.5
    s.cmd("index", "second", ps, "1")
    assert s.cmd("type", "second") == ["particle"]
    assert s.get_value(call(s, "particle_energy", "second")) == 4.0
    with pytest.raises(Failure):
        s.cmd("index", "bad", ps, "3")
    s.cmd("unzip", ps, "ms", "ts", "vs")
    assert same(s.get_value("ms"), np.array([1.0, 2.0, 3.0]))
    assert same(s.get_value("ts"), np.array([1, 2, 3], dtype=np.int64))
    s.cmd("zip", "ps2", "[]particle", "ms", "ts", "vs")
    assert s.get_value(call(s, "total_energy", "ps2")) == 18.0


def test_rename_and_free(opaque):
    s = opaque
    p = make_particle(s)
    s.cmd_rename(p, "renamed")
    with pytest.raises(Failure):
        s.cmd("type", p)
    assert s.get_value(call(s, "particle_energy", "renamed")) == 9.0
    other = put(s, np.float64(1.0))
    with pytest.raises(Failure):
        s.cmd_rename("renamed", other)  # the new name is taken
    s.cmd_free("renamed", other)
    for name in ["renamed", other]:
        with pytest.raises(Failure):
            s.cmd("type", name)
    with pytest.raises(Failure):
        s.cmd_free("renamed")
    # The freed names can be used again.
    s.put_value(other, np.int64(3))
    assert s.get_value(other) == 3


def test_store_restore_opaque(opaque, tmp_path):
    s = opaque
    p = make_particle(s, 3.0, (1.0, 0.0, -1.0), 8)
    s.cmd("construct", "sq", "shape", "rect", put(s, np.float64(2.0)), put(s, np.float64(2.0)))
    t = call(s, "unpack", p)
    ps = call(s, "particles", put(s, np.array([1.0, 2.0])))
    f = str(tmp_path / "values")
    s.cmd_store(f, p, "sq", t, ps)
    s.cmd_restore(
        f, ("p_back", "particle"), ("sq_back", "shape"), ("t_back", q("(f64, []f64)")), ("ps_back", "[]particle")
    )
    assert s.get_value(call(s, "particle_energy", "p_back")) == 3.0
    assert s.get_value(call(s, "area", "sq_back")) == 4.0
    assert s.get_value(call(s, "tuple_sum", "t_back")) == 3.0
    assert s.get_value(call(s, "total_energy", "ps_back")) == 4.5
    # futhark-server's byte helpers on an opaque value.
    data = s.get_value_bytes(p)
    s.put_value_bytes(data, ("p_bytes", "particle"))
    s.cmd_project("tag", "p_bytes", "tag")
    assert s.get_value("tag") == 8
    # Restoring as the wrong type fails and binds nothing.
    with pytest.raises(Failure):
        s.put_value_bytes(data, ("wrong", "shape"))
    with pytest.raises(Failure):
        s.cmd("type", "wrong")


def test_consumption(opaque):
    s = opaque
    xs = put(s, np.array([1.0, 2.0]))
    ys = call(s, "bump", xs)
    assert same(s.get_value(ys), np.array([2.0, 2.0]))
    # A consumed variable can only be freed.
    with pytest.raises(Failure):
        call(s, "bump", xs)
    s.cmd_free(xs)
    assert same(s.get_value(ys), np.array([2.0, 2.0]))


# ---- failures ---------------------------------------------------------------


def test_failing_call_keeps_the_server(errors):
    s = errors
    xs = put(s, np.array([10, 20, 30], dtype=np.int64))
    i = put(s, np.int64(3))
    line = helpers.source_line("errors.fut", "xs[i]")
    with pytest.raises(Failure) as e:
        s.cmd_call("get", "result", xs, i)
    assert re.search(r"errors\.fut:%d:\d+" % line, str(e.value)), str(e.value)
    # The output variable was not bound; the inputs are intact.
    with pytest.raises(Failure):
        s.cmd("type", "result")
    assert same(s.get_value(xs), np.array([10, 20, 30], dtype=np.int64))
    s.cmd_call("get", "result", xs, put(s, np.int64(2)))
    assert s.get_value("result") == 30
    line = helpers.source_line("errors.fut", "assert")
    neg = put(s, np.float64(-4.0))
    for _ in range(2):
        with pytest.raises(Failure) as e:
            call(s, "checked_sqrt", neg)
        assert re.search(r"errors\.fut:%d:\d+" % line, str(e.value)), str(e.value)
    assert s.get_value(call(s, "checked_sqrt", put(s, np.float64(2.25)))) == 1.5
    assert s.get_value(call(s, "total", xs)) == 60


def test_bad_calls(errors):
    s = errors
    xs = put(s, np.array([1, 2], dtype=np.int64))
    i = put(s, np.int64(0))
    out = fresh("out")
    s.cmd_call("get", out, xs, i)
    for args in [
        ("get", out, xs, i),  # the output exists already
        ("get", fresh(), xs),  # too few inputs
        ("get", fresh(), xs, i, i),  # too many
        ("get", fresh(), i, xs),  # wrong types
        ("get", fresh(), xs, "undefined"),
        ("nosuchentry", fresh(), xs),
    ]:
        with pytest.raises(Failure):
            s.cmd_call(*args)
    assert s.get_value(out) == 1


def test_garbage_commands(errors, tmp_path):
    s = errors
    xs = put(s, np.array([4, 5], dtype=np.int64))
    for words in [
        ["frobnicate"],
        ["frobnicate", "a", "b"],
        ["call"],
        ["restore"],
        ["store"],
        ["rename", xs],
        ["project", "a"],
        ['"unterminated'],
        ["\x01\x02garbage\x7f"],
        ["restore", str(tmp_path / "missing"), "a", "i64"],
        ["restore", str(tmp_path / "missing"), "a"],
        ["store", str(tmp_path / "out"), "nosuchvar"],
        ["kind", "[[[i32"],
        ["fields", "i32"],
        ["inputs", "nosuchentry"],
        ["set_tuning_param", "nosuchparam", "1"],
    ]:
        with pytest.raises(Failure):
            s.cmd(*words)
    # A value of the wrong type in a file.
    f = tmp_path / "f64"
    f.write_bytes(futhark_data.dumpb(np.float64(1.0)))
    with pytest.raises(Failure):
        s.cmd_restore(str(f), ("a", "i64"))
    f.write_bytes(b"b\x02garbage")
    with pytest.raises(Failure):
        s.cmd_restore(str(f), ("a", "[]i64"))
    # Still serving, with its variables.
    assert same(s.get_value(xs), np.array([4, 5], dtype=np.int64))
    assert "get" in s.cmd_entry_points()


def test_misc_commands(errors):
    s = errors
    s.cmd_clear()
    s.cmd_pause_profiling()
    s.cmd_unpause_profiling()
    assert isinstance(s.cmd_report(), list)
    assert isinstance(s.cmd_tuning_params("get"), list)
    s.cmd_call("total", "t", put(s, np.arange(5, dtype=np.int64)))
    assert s.get_value("t") == 10
