"""The Python package: values in and out, errors, signatures, threads,
and derivatives (vjp/jvp agreement, finite differences in f64)."""

import inspect
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import parad
from conftest import PROGRAMS


def ref_loss(w1, w2, xs, ys):
    pred = np.tanh(xs @ w1.T) @ w2
    return float(np.sum((pred - ys) ** 2) / len(ys))


def data(seed=0, n=5, d=3, h=4):
    r = np.random.default_rng(seed)
    return r.normal(size=(h, d)), r.normal(size=h), r.normal(size=(n, d)), r.normal(size=n)


def test_calls_match_numpy_on_every_backend(model_on):
    args = data()
    assert model_on.loss(*args) == pytest.approx(ref_loss(*args), rel=1e-12)
    a = np.arange(12.0).reshape(3, 4)
    x = np.linspace(0, 1, 4)
    np.testing.assert_allclose(model_on.matvec(a, x), a @ x, rtol=1e-14)


def test_any_memory_order(model):
    a = np.arange(20.0).reshape(4, 5)
    x = np.arange(5.0)
    ref = a @ x
    for view in [np.asfortranarray(a), a.T.copy().T, np.ascontiguousarray(a)]:
        np.testing.assert_array_equal(model.matvec(view, x), ref)
    big = np.arange(40.0).reshape(4, 10)
    np.testing.assert_array_equal(model.matvec(big[:, ::2], x), big[:, ::2] @ x)
    np.testing.assert_array_equal(model.matvec(a, np.arange(10.0)[::2]), a @ np.arange(10.0)[::2])
    # Lists are read as arrays of the parameter's type.
    np.testing.assert_array_equal(model.matvec(a.tolist(), [0, 1, 2, 3, 4]), ref)


def test_results_are_numpy_arrays_python_numbers_and_tuples(model):
    ys, s = model.poly(np.array([0.0, 1.0]), 2, 3.0)
    assert isinstance(ys, np.ndarray) and ys.dtype == np.float64 and ys.flags.c_contiguous
    np.testing.assert_allclose(ys, [0.0, 3.0 + np.sin(1.0)])
    assert isinstance(s, float) and s == pytest.approx(3 * (3.0 + np.sin(1.0)))
    out = model.scale32(np.array([1.5, -2.0], dtype=np.float32), 2)
    assert out.dtype == np.float32 and out.tolist() == [3.0, -4.0]
    assert model.get(np.array([5, 6, 7]), 2) == 7
    c = model.counts(np.array([1, 2, 250], dtype=np.uint8), np.array([True, False, True]))
    assert c == (251, 253)
    assert model.halves(np.array([1.0, 3.0], dtype=np.float16)).tolist() == [0.5, 1.5]
    # Results own their memory: they stay valid after more calls.
    first = model.matvec(np.eye(2), np.array([1.0, 2.0]))
    model.matvec(np.eye(2), np.array([5.0, 6.0]))
    assert first.tolist() == [1.0, 2.0]


def test_records_and_opaque_values(model):
    p = model.mk_particle(2.0, np.array([1.0, 2.0, 2.0]))
    assert isinstance(p, parad.Record) and p.type_name == "particle"
    assert p.mass == 2.0 and p.vel.tolist() == [1.0, 2.0, 2.0]
    assert p["mass"] == 2.0 and p.keys() == ["mass", "vel"]
    assert set(p.fields()) == {"mass", "vel"}
    assert model.energy(p) == 9.0
    assert model.energy({"mass": 4.0, "vel": [1.0, 2.0, 2.0]}) == 18.0
    s = model.square(3.0)
    assert isinstance(s, parad.Opaque) and s.type_name == "shape"
    assert model.area(s) == 9.0
    with pytest.raises(parad.InputError):
        model.energy(s)
    with pytest.raises(AttributeError):
        p.nope


def test_bad_input(model):
    w1, w2, xs, ys = data()
    with pytest.raises(parad.InputError, match="3 arguments given, 4 expected"):
        model.loss(w1, w2, xs)
    with pytest.raises(parad.InputError, match="float32"):
        model.loss(w1.astype(np.float32), w2, xs, ys)
    with pytest.raises(parad.InputError, match="rank"):
        model.loss(w1, w2, xs, ys[None])
    with pytest.raises(parad.InputError, match="out of the range of i64"):
        model.get(np.array([1, 2]), 2**70)
    with pytest.raises(parad.InputError, match="argument 1 \\(xs\\) must be an array of u8"):
        model.counts([300], [True])
    with pytest.raises(parad.InputError):
        model.get(np.array([1, 2]), 1.5)
    with pytest.raises(parad.InputError, match="no entry point"):
        model["nope"]
    assert issubclass(parad.InputError, parad.Error)


def test_run_time_errors_have_their_location(model_on):
    with pytest.raises(parad.ProgramError) as e:
        model_on.get(np.array([1, 2, 3]), 10)
    assert "out of bounds" in str(e.value)
    file, line, col = e.value.location
    assert file.endswith("model.fut") and line == 29
    with pytest.raises(parad.ProgramError, match="size mismatch|must be"):
        model_on.matvec(np.ones((2, 3)), np.ones(4))
    # Still usable afterwards.
    assert model_on.get(np.array([1, 2, 3]), 1) == 2


def test_compile_errors(cache_dir, tmp_path):
    with pytest.raises(parad.CompileError) as e:
        parad.load_source("entry f (x: i32) =\n  x + 1.5f32", name="bad.fut", backend="interp")
    assert e.value.location[:2] == ("bad.fut", 2)
    assert "bad.fut:2:" in str(e.value)
    with pytest.raises(FileNotFoundError):
        parad.load(tmp_path / "missing.fut")
    with pytest.raises(ValueError, match="backend"):
        parad.load_source("entry f (x: f64) = x", backend="gpu")
    m = parad.load(PROGRAMS / "model.fut", cache_dir=cache_dir)
    with pytest.raises(parad.UnsupportedError, match="no parameter to differentiate"):
        m.derivatives("get")
    with pytest.raises(parad.UnsupportedError, match="is not differentiable"):
        m.derivatives("count_pos")


def test_signatures_and_help(model):
    sig = inspect.signature(model.loss)
    assert list(sig.parameters) == ["w1", "w2", "xs", "ys"]
    assert "loss : [][]f64 -> []f64 -> [][]f64 -> []f64 -> f64" in model.loss.__doc__
    assert "two-layer perceptron" in model.loss.__doc__
    assert model.entries["poly"]["results"][0]["name"] == "[]f64"
    assert model.differentiable("poly") == [True, False, True]
    assert "loss" in dir(model)


def test_load_is_cached(cache_dir):
    a = parad.load(PROGRAMS / "model.fut", cache_dir=cache_dir)
    b = parad.load(str(PROGRAMS / "model.fut"), cache_dir=cache_dir)
    assert a is b


def test_derivatives_compiled_with_the_program(cache_dir):
    m = parad.load(PROGRAMS / "model.fut", cache_dir=cache_dir, differentiate=["matvec"])
    assert m.derivatives("matvec") is m.program
    a, x = np.arange(6.0).reshape(2, 3), np.ones(3)
    ga, gx = m.vjp("matvec", [a, x], [np.array([1.0, 2.0])])
    np.testing.assert_array_equal(ga, [[1, 1, 1], [2, 2, 2]])
    np.testing.assert_array_equal(gx, [6, 9, 12])
    with pytest.raises(parad.UnsupportedError):
        parad.load(PROGRAMS / "model.fut", cache_dir=cache_dir, differentiate=["get"])


def test_calls_from_threads_and_the_gil(model):
    a = np.random.default_rng(1).normal(size=(50, 40))
    xs = [np.random.default_rng(k).normal(size=40) for k in range(16)]
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda x: model.matvec(a, x), xs))
    for x, y in zip(xs, outs):
        np.testing.assert_allclose(y, a @ x, rtol=1e-12)
    # While a long call runs, another Python thread runs too.
    count = [0]
    done = threading.Event()

    def counter():
        while not done.is_set():
            count[0] += 1

    t = threading.Thread(target=counter)
    t.start()
    try:
        before = count[0]
        model.spin(30_000_000)
        during = count[0] - before
    finally:
        done.set()
        t.join()
    assert during > 1000, during


def fd(f, x, v, h=1e-6):
    return (f(x + h * v) - f(x - h * v)) / (2 * h)


def test_vjp_and_jvp(model_on):
    w1, w2, xs, ys = data(3)
    args = [w1, w2, xs, ys]
    r = np.random.default_rng(4)
    tangents = [r.normal(size=np.shape(a)) for a in args]
    (ldot,) = model_on.jvp("loss", args, tangents)
    grads = model_on.vjp("loss", args, [1.0])
    assert len(grads) == 4
    assert ldot == pytest.approx(sum(float(np.sum(g * t)) for g, t in zip(grads, tangents)), rel=1e-10)
    # Finite differences along the tangent.
    def along(h):
        return ref_loss(*[a + h * t for a, t in zip(args, tangents)])

    assert ldot == pytest.approx((along(1e-6) - along(-1e-6)) / 2e-6, rel=1e-6)
    # A tuple result, and the integer parameter held fixed.
    xs = np.array([0.5, 1.0, 2.0])
    ybar = np.array([1.0, -1.0, 0.5])
    gx, gc = model_on.vjp("poly", [xs, 3, 2.0], [ybar, 2.0])
    dys = 2.0 * 3 * xs**2 + np.cos(xs)
    np.testing.assert_allclose(gx, ybar * dys + 2.0 * 2.0 * dys, rtol=1e-12)
    ys = 2.0 * xs**3 + np.sin(xs)
    assert gc == pytest.approx(np.sum(ybar * xs**3) + 2.0 * (np.sum(ys) + 2.0 * np.sum(xs**3)), rel=1e-12)
    with pytest.raises(parad.InputError, match="1 seeds given, 2 expected"):
        model_on.vjp("poly", [xs, 3, 2.0], [ybar])
