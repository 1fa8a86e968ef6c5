"""Futhark programs compiled by parad, called from Python.

    import parad
    m = parad.load("model.fut")          # compiled once, cached on disk
    y = m.predict(weights, inputs)       # numpy in, numpy out
    help(m.predict)                      # the entry point's signature

Entry points are methods of the module that ``load`` returns: numpy
arrays (any memory order, copied only to lay them out in row-major
order) and Python numbers go in; numpy arrays, Python numbers, tuples
(for a returned tuple) and ``Record`` objects (records, whose fields are
attributes) come out. Other opaque values come out as ``Opaque`` objects,
to be passed back to the program. Calls release the GIL.

Derivatives, derived by parad from the program:

* ``m.vjp("f", args, seeds)`` and ``m.jvp("f", args, tangents)``;
* ``parad.torch.function(m, "f")``: ``f`` as a differentiable PyTorch
  operation;
* ``parad.jax.function(m, "f")``: ``f`` as a JAX function that works
  under ``jax.grad``, ``jax.jit`` and ``jax.vmap``.

Errors raise ``parad.CompileError``, ``parad.ProgramError`` (a failure
while running, with its ``location``), ``parad.InputError`` (arguments
that do not fit) or ``parad.UnsupportedError``, all ``parad.Error``.
"""

import inspect
import os
import threading

from ._parad import (
    CompileError,
    Error,
    InputError,
    InternalError,
    Opaque,
    Program,
    ProgramError,
    Record,
    UnsupportedError,
    __version__,
)

__all__ = [
    "load",
    "load_source",
    "Module",
    "Program",
    "Record",
    "Opaque",
    "Error",
    "CompileError",
    "ProgramError",
    "InputError",
    "UnsupportedError",
    "InternalError",
    "__version__",
]

BACKENDS = ("multicore", "c", "interp")


def load(path, backend="multicore", threads=None, cache_dir=None, differentiate=()):
    """Compiles the Futhark program in the file ``path`` (imports are found
    next to it) and returns a ``Module`` whose methods are its entry points.

    ``backend``: ``"multicore"`` (parallel C, the default), ``"c"``
    (sequential C) or ``"interp"`` (parad's interpreter, which needs no C
    compiler). ``threads``: threads of the multicore backend (default: one
    per core). ``cache_dir``: where compiled libraries are kept (default:
    the user's cache folder); a program compiled before is not compiled
    again, and within a process the same file with the same options gives
    the same module. ``differentiate``: entry points whose derivatives
    (``vjp``, ``jvp``, ``parad.torch``, ``parad.jax``) are compiled with
    the program at once; others are compiled on first use.
    """
    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    key = ("file", os.path.abspath(path), text)
    return Module._get(key, path, text, backend, threads, cache_dir, differentiate)


def load_source(text, name="<source>.fut", backend="multicore", threads=None, cache_dir=None, differentiate=()):
    """``load`` for Futhark source text; ``name`` is its file name in
    messages (and imports are found relative to it)."""
    return Module._get(("source", name, text), name, text, backend, threads, cache_dir, differentiate)


def _describe(t):
    return t["name"]


class Module:
    """A compiled Futhark program: its entry points are methods.

    ``entries`` describes them (parameters, results, signature, doc);
    ``program`` is the compiled ``parad.Program``.
    """

    _cache = {}
    _lock = threading.Lock()

    @classmethod
    def _get(cls, key, name, text, backend, threads, cache_dir, differentiate=()):
        if backend not in BACKENDS:
            raise ValueError("unknown backend %r (expected one of %s)" % (backend, ", ".join(BACKENDS)))
        if isinstance(differentiate, str):
            differentiate = (differentiate,)
        differentiate = tuple(differentiate)
        full = key + (backend, threads, None if cache_dir is None else os.fspath(cache_dir), differentiate)
        with cls._lock:
            m = cls._cache.get(full)
            if m is None:
                m = cls(name, text, backend, threads, cache_dir, differentiate)
                cls._cache[full] = m
            return m

    def __init__(self, name, text, backend="multicore", threads=None, cache_dir=None, differentiate=()):
        self._name = name
        self._text = text
        self._options = dict(backend=backend, threads=threads, cache_dir=None if cache_dir is None else os.fspath(cache_dir))
        differentiate = list(differentiate)
        self.program = Program.compile_source(text, name=name, differentiate=differentiate, **self._options)
        self.entries = {e["name"]: e for e in self.program.entries()}
        # Programs compiled with the derivatives of an entry point.
        self._derivatives = {d: self.program for d in differentiate}
        self._derivatives_lock = threading.Lock()
        self._methods = {n: self._method(self.program, e) for n, e in self.entries.items()}
        for n, f in self._methods.items():
            # An entry point named like a method of Module stays
            # reachable as m[name].
            if not hasattr(type(self), n):
                setattr(self, n, f)

    def __getitem__(self, entry):
        """The entry point ``entry`` as a function."""
        self._entry(entry)
        return self._methods[entry]

    @staticmethod
    def _method(program, e):
        name = e["name"]

        def call(*args):
            out = program.call(name, args)
            return out[0] if len(out) == 1 else tuple(out)

        params = [
            inspect.Parameter(p["name"] or "arg%d" % k, inspect.Parameter.POSITIONAL_ONLY)
            for k, p in enumerate(e["params"])
        ]
        call.__name__ = name
        call.__qualname__ = name
        call.__signature__ = inspect.Signature(params)
        lines = ["Futhark entry point: " + e["signature"]]
        if e["doc"]:
            lines += ["", e["doc"].strip()]
        lines += [""]
        for k, p in enumerate(e["params"]):
            lines.append("%s: %s" % (p["name"] or "arg%d" % k, _describe(p["type"])))
        lines.append("returns: " + ", ".join(_describe(t) for t in e["results"]))
        call.__doc__ = "\n".join(lines)
        return call

    def __repr__(self):
        return "<parad.Module %s (%s): %s>" % (self._name, self._options["backend"], ", ".join(self.entries))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.entries))

    def differentiable(self, entry):
        """Which parameters of ``entry`` have derivatives (floating-point
        scalars and arrays); the others are held fixed."""
        return [p["differentiable"] for p in self._entry(entry)["params"]]

    def _entry(self, entry):
        e = self.entries.get(entry)
        if e is None:
            raise InputError("the program has no entry point `%s`" % entry)
        return e

    def derivatives(self, entry):
        """The program compiled with the derivatives of ``entry`` (once;
        the compiled library is cached on disk like any other)."""
        self._entry(entry)
        with self._derivatives_lock:
            p = self._derivatives.get(entry)
            if p is None:
                p = Program.compile_source(self._text, name=self._name, differentiate=[entry], **self._options)
                self._derivatives[entry] = p
            return p

    def vjp(self, entry, args, seeds):
        """Reverse mode: the adjoints ``J(args)^T seeds`` of the
        differentiable parameters of ``entry``, one per such parameter,
        given a seed per result (a list)."""
        return self.derivatives(entry).vjp(entry, args, seeds)

    def jvp(self, entry, args, tangents):
        """Forward mode: the tangents ``J(args) tangents`` of the results
        of ``entry`` (a list), given a tangent per differentiable
        parameter."""
        return self.derivatives(entry).jvp(entry, args, tangents)
