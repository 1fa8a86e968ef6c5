//! `parad._parad`: the native part of the Python package `parad`, over
//! the Rust library (`parad::Program`). The Python modules around it
//! (`parad/__init__.py`, `parad/torch.py`, `parad/jax.py`) make entry
//! points into methods and derivatives into framework operations.
//!
//! Values: numpy arrays in (any dtype parad has, any strides: read in
//! logical order), numpy arrays out (the result's buffer becomes the
//! array's, without a copy); scalars as Python numbers; records as
//! [`Record`] objects (or dicts going in), tuples as tuples, other opaque
//! values as [`Opaque`] objects. Calls release the GIL.

use half::f16;
use numpy::{IntoPyArray, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use parad::{Backend, FloatType, IntType, Options, PrimType, Scalar, Type, Value};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::path::PathBuf;

create_exception!(
    _parad,
    Error,
    PyException,
    "A failure of parad or of the program it runs."
);
create_exception!(
    _parad,
    CompileError,
    Error,
    "The program does not compile: a syntax, type or size error (or its file cannot be read)."
);
create_exception!(
    _parad,
    ProgramError,
    Error,
    "The program failed while running: an index out of bounds, a failed assertion, a size mismatch, ..."
);
create_exception!(
    _parad,
    InputError,
    Error,
    "Arguments that do not fit the entry point, or an entry point that does not exist."
);
create_exception!(
    _parad,
    UnsupportedError,
    Error,
    "Something parad cannot compile or run yet (or no C compiler was found)."
);
create_exception!(_parad, InternalError, Error, "A bug of parad.");

/// The Python exception for a library error, with its `location`
/// (`(file, line, column)` or `None`).
fn py_err(py: Python<'_>, e: parad::Error) -> PyErr {
    let location = e.location().map(|l| (l.file.clone(), l.line, l.column));
    let message = e.to_string();
    let err = match e {
        parad::Error::Compile { .. } | parad::Error::Read { .. } => CompileError::new_err(message),
        parad::Error::Runtime { .. } => ProgramError::new_err(message),
        parad::Error::NoEntry(_) | parad::Error::BadInput { .. } => InputError::new_err(message),
        parad::Error::Unsupported { .. } => UnsupportedError::new_err(message),
        _ => InternalError::new_err(message),
    };
    let _ = err.value(py).setattr("location", location);
    err
}

fn input_error(entry: &str, message: String) -> PyErr {
    InputError::new_err(format!("bad input to `{entry}`: {message}"))
}

/// Runs `$body` with `$t` the Rust type of the primitive type `$p`.
macro_rules! with_prim {
    ($p:expr, $t:ident => $body:expr) => {
        match $p {
            PrimType::Int(IntType::I8) => {
                type $t = i8;
                $body
            }
            PrimType::Int(IntType::I16) => {
                type $t = i16;
                $body
            }
            PrimType::Int(IntType::I32) => {
                type $t = i32;
                $body
            }
            PrimType::Int(IntType::I64) => {
                type $t = i64;
                $body
            }
            PrimType::Int(IntType::U8) => {
                type $t = u8;
                $body
            }
            PrimType::Int(IntType::U16) => {
                type $t = u16;
                $body
            }
            PrimType::Int(IntType::U32) => {
                type $t = u32;
                $body
            }
            PrimType::Int(IntType::U64) => {
                type $t = u64;
                $body
            }
            PrimType::Float(FloatType::F16) => {
                type $t = f16;
                $body
            }
            PrimType::Float(FloatType::F32) => {
                type $t = f32;
                $body
            }
            PrimType::Float(FloatType::F64) => {
                type $t = f64;
                $body
            }
            PrimType::Bool => {
                type $t = bool;
                $body
            }
        }
    };
}

/// numpy's name of the dtype of `p`.
fn dtype_name(p: PrimType) -> &'static str {
    match p {
        PrimType::Int(IntType::I8) => "int8",
        PrimType::Int(IntType::I16) => "int16",
        PrimType::Int(IntType::I32) => "int32",
        PrimType::Int(IntType::I64) => "int64",
        PrimType::Int(IntType::U8) => "uint8",
        PrimType::Int(IntType::U16) => "uint16",
        PrimType::Int(IntType::U32) => "uint32",
        PrimType::Int(IntType::U64) => "uint64",
        PrimType::Float(FloatType::F16) => "float16",
        PrimType::Float(FloatType::F32) => "float32",
        PrimType::Float(FloatType::F64) => "float64",
        PrimType::Bool => "bool",
    }
}

/// A scalar of type `p` from a Python number (or a numpy scalar, or a
/// 0-d array); `Err` says what was wrong.
fn scalar(obj: &Bound<'_, PyAny>, p: PrimType) -> Result<Scalar, String> {
    let int = |obj: &Bound<'_, PyAny>| -> Result<i128, String> {
        if obj.is_instance_of::<pyo3::types::PyFloat>() {
            return Err("a float".to_string());
        }
        obj.extract::<i128>()
            .map_err(|_| format!("a {}", type_name(obj)))
    };
    let fits = |n: i128, t: IntType| -> Result<Scalar, String> {
        let out = |_| format!("{n}, out of the range of {}", t.name());
        Ok(match t {
            IntType::I8 => Scalar::I8(i8::try_from(n).map_err(out)?),
            IntType::I16 => Scalar::I16(i16::try_from(n).map_err(out)?),
            IntType::I32 => Scalar::I32(i32::try_from(n).map_err(out)?),
            IntType::I64 => Scalar::I64(i64::try_from(n).map_err(out)?),
            IntType::U8 => Scalar::U8(u8::try_from(n).map_err(out)?),
            IntType::U16 => Scalar::U16(u16::try_from(n).map_err(out)?),
            IntType::U32 => Scalar::U32(u32::try_from(n).map_err(out)?),
            IntType::U64 => Scalar::U64(u64::try_from(n).map_err(out)?),
        })
    };
    match p {
        PrimType::Int(t) => fits(int(obj)?, t),
        PrimType::Float(t) => {
            let x = obj
                .extract::<f64>()
                .map_err(|_| format!("a {}", type_name(obj)))?;
            Ok(match t {
                FloatType::F16 => Scalar::F16(f16::from_f64(x)),
                FloatType::F32 => Scalar::F32(x as f32),
                FloatType::F64 => Scalar::F64(x),
            })
        }
        PrimType::Bool => obj
            .extract::<bool>()
            .map(Scalar::Bool)
            .map_err(|_| format!("a {}", type_name(obj))),
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "value".to_string())
}

/// An array of `p` and rank `rank` from a numpy array of that dtype, or
/// from anything `numpy.asarray` makes one of (a list).
fn array(obj: &Bound<'_, PyAny>, p: PrimType, rank: usize) -> Result<Value, String> {
    let py = obj.py();
    let arr = if let Ok(a) = obj.cast::<PyUntypedArray>() {
        a.clone()
    } else {
        let np = py.import("numpy").map_err(|e| e.to_string())?;
        np.getattr("asarray")
            .and_then(|f| f.call1((obj, dtype_name(p))))
            .map_err(|e| format!("a {} that is no array of {}: {e}", type_name(obj), p.name()))?
            .cast_into::<PyUntypedArray>()
            .map_err(|e| e.to_string())?
    };
    if arr.ndim() != rank {
        return Err(format!("an array of rank {}", arr.ndim()));
    }
    with_prim!(p, T => {
        let typed = arr.cast::<PyArrayDyn<T>>().map_err(|_| {
            let dt = arr.dtype().to_string();
            format!("an array of {dt}")
        })?;
        let ro = typed.try_readonly().map_err(|e| e.to_string())?;
        Ok(Value::from(ro.as_array()))
    })
}

/// `obj` as a value of type `t`.
fn to_value(obj: &Bound<'_, PyAny>, t: &Type) -> Result<Value, String> {
    if let Ok(r) = obj.cast::<Record>() {
        return Ok(r.get().value.clone());
    }
    if let Ok(o) = obj.cast::<Opaque>() {
        return Ok(o.get().value.clone());
    }
    match t {
        Type::Scalar(p) => {
            if let Ok(a) = obj.cast::<PyUntypedArray>() {
                if a.ndim() != 0 {
                    return Err(format!("an array of rank {}", a.ndim()));
                }
                let item = a.call_method0("item").map_err(|e| e.to_string())?;
                return scalar(&item, *p).map(Value::Scalar);
            }
            scalar(obj, *p).map(Value::Scalar)
        }
        Type::Array(p, r) => array(obj, *p, *r),
        Type::Record { name, fields } => {
            let tuple = t.tuple_fields().is_some();
            let mut out = vec![];
            if let (true, Ok(items)) = (tuple, obj.cast::<PyTuple>()) {
                if items.len() != fields.len() {
                    return Err(format!("a tuple of {} elements", items.len()));
                }
                for ((n, ft), item) in fields.iter().zip(items.iter()) {
                    out.push((
                        n.clone(),
                        to_value(&item, ft).map_err(|e| format!("{e} in element {n}"))?,
                    ));
                }
            } else if let Ok(d) = obj.cast::<PyDict>() {
                if d.len() != fields.len() {
                    return Err(format!("a dict of {} fields", d.len()));
                }
                for (n, ft) in fields {
                    let item = d
                        .get_item(n)
                        .map_err(|e| e.to_string())?
                        .ok_or_else(|| format!("a dict without the field {n}"))?;
                    out.push((
                        n.clone(),
                        to_value(&item, ft).map_err(|e| format!("{e} in field {n}"))?,
                    ));
                }
            } else {
                return Err(format!("a {}", type_name(obj)));
            }
            Ok(Value::Record(parad::Record {
                type_name: name.clone(),
                fields: out,
            }))
        }
        Type::Opaque(_) => Err(format!("a {}", type_name(obj))),
    }
}

/// A result as a Python object: arrays as numpy arrays (taking over the
/// result's buffer), scalars as numbers, tuples as tuples, records and
/// other opaque values as objects.
fn to_python(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Scalar(s) => match s {
            Scalar::I8(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::I16(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::I32(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::I64(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::U8(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::U16(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::U32(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::U64(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::F16(x) => x.to_f64().into_pyobject(py)?.into_any().unbind(),
            Scalar::F32(x) => (x as f64).into_pyobject(py)?.into_any().unbind(),
            Scalar::F64(x) => x.into_pyobject(py)?.into_any().unbind(),
            Scalar::Bool(x) => x.into_pyobject(py)?.to_owned().into_any().unbind(),
        },
        Value::Array(a) => {
            let p = a.elem_type();
            let v = Value::Array(a);
            with_prim!(p, T => {
                let arr: ndarray_of::ArrayD<T> = v
                    .try_into()
                    .map_err(|e: parad::ConversionError| InternalError::new_err(e.to_string()))?;
                arr.into_pyarray(py).into_any().unbind()
            })
        }
        Value::Record(r) if r.is_tuple() => {
            let items = r
                .fields
                .into_iter()
                .map(|(_, v)| to_python(py, v))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any().unbind()
        }
        v @ Value::Record(_) => Py::new(py, Record { value: v })?.into_any(),
        v @ Value::Opaque(_) => Py::new(py, Opaque { value: v })?.into_any(),
    })
}

mod ndarray_of {
    pub use parad::ndarray::ArrayD;
}

/// A record value: its fields are attributes (`p.mass`), and `fields()`
/// gives them all. Passed to an entry point as it is.
#[pyclass(frozen, module = "parad")]
struct Record {
    value: Value,
}

#[pymethods]
impl Record {
    /// The record type's name in the program.
    #[getter]
    fn type_name(&self) -> String {
        self.value.type_name()
    }

    /// The fields' names, in order.
    fn keys(&self) -> Vec<String> {
        match &self.value {
            Value::Record(r) => r.fields.iter().map(|(n, _)| n.clone()).collect(),
            _ => vec![],
        }
    }

    /// The fields as a dict.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Value::Record(r) = &self.value {
            for (n, v) in &r.fields {
                d.set_item(n, to_python(py, v.clone())?)?;
            }
        }
        Ok(d)
    }

    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match &self.value {
            Value::Record(r) => match r.field(name) {
                Some(v) => to_python(py, v.clone()),
                None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                    "{} has no field {name}",
                    r.type_name
                ))),
            },
            _ => Err(pyo3::exceptions::PyAttributeError::new_err(
                name.to_string(),
            )),
        }
    }

    fn __getitem__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match &self.value {
            Value::Record(r) => match r.field(name) {
                Some(v) => to_python(py, v.clone()),
                None => Err(PyKeyError::new_err(name.to_string())),
            },
            _ => Err(PyKeyError::new_err(name.to_string())),
        }
    }

    fn __repr__(&self) -> String {
        format!("<parad.Record {}: {}>", self.value.type_name(), self.value)
    }
}

/// A value of an opaque type (a sum type, an abstract type, an array of
/// records): only passed back to the program's entry points.
#[pyclass(frozen, module = "parad")]
struct Opaque {
    value: Value,
}

#[pymethods]
impl Opaque {
    #[getter]
    fn type_name(&self) -> String {
        self.value.type_name()
    }

    fn __repr__(&self) -> String {
        format!("<parad.Opaque {}>", self.value.type_name())
    }
}

/// A type as a dict: `kind` (`scalar`, `array`, `record`, `opaque`),
/// `name` (Futhark's), and `elem` (numpy's dtype name) and `rank` for
/// scalars and arrays, `fields` for records.
fn type_dict<'py>(py: Python<'py>, t: &Type) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", t.name())?;
    match t {
        Type::Scalar(p) => {
            d.set_item("kind", "scalar")?;
            d.set_item("elem", dtype_name(*p))?;
            d.set_item("rank", 0)?;
        }
        Type::Array(p, r) => {
            d.set_item("kind", "array")?;
            d.set_item("elem", dtype_name(*p))?;
            d.set_item("rank", r)?;
        }
        Type::Record { fields, .. } => {
            d.set_item("kind", "record")?;
            let fs = PyList::empty(py);
            for (n, ft) in fields {
                fs.append((n, type_dict(py, ft)?))?;
            }
            d.set_item("fields", fs)?;
        }
        Type::Opaque(_) => d.set_item("kind", "opaque")?,
    }
    Ok(d)
}

/// A compiled Futhark program.
#[pyclass(frozen, module = "parad")]
struct Program {
    inner: parad::Program,
}

fn options(
    backend: &str,
    threads: Option<usize>,
    cache_dir: Option<PathBuf>,
    differentiate: Vec<String>,
    optimise: bool,
) -> PyResult<Options> {
    let backend: Backend = backend.parse().map_err(PyValueError::new_err)?;
    let mut o = Options::default()
        .backend(backend)
        .threads(threads)
        .differentiate(differentiate)
        .optimise(optimise);
    if let Some(d) = cache_dir {
        o = o.cache_dir(d);
    }
    Ok(o)
}

impl Program {
    fn entry(&self, name: &str) -> PyResult<&parad::Entry> {
        self.inner
            .entry(name)
            .ok_or_else(|| InputError::new_err(format!("the program has no entry point `{name}`")))
    }

    /// The arguments of `entry` as values of its parameters' types.
    /// `args` as values of `types`; `what` names them in messages
    /// (`argument`, `seed`, `tangent`), with `names` when known.
    fn values(
        &self,
        entry: &str,
        what: &str,
        types: &[Type],
        names: &[Option<String>],
        args: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Value>> {
        let args: Vec<Bound<'_, PyAny>> = args.try_iter()?.collect::<PyResult<_>>()?;
        if args.len() != types.len() {
            return Err(input_error(
                entry,
                format!("{} {what}s given, {} expected", args.len(), types.len()),
            ));
        }
        args.iter()
            .zip(types)
            .enumerate()
            .map(|(k, (a, t))| {
                to_value(a, t).map_err(|found| {
                    let named = match names.get(k) {
                        Some(Some(n)) => format!(" ({n})"),
                        _ => String::new(),
                    };
                    input_error(
                        entry,
                        format!(
                            "{what} {}{named} must be {}, not {found}",
                            k + 1,
                            describe(t)
                        ),
                    )
                })
            })
            .collect()
    }

    /// Runs `f` on the library without the GIL; its results as Python
    /// objects.
    fn run(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&parad::Program) -> Result<Vec<Value>, parad::Error> + Send,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let out = py.detach(|| f(&self.inner)).map_err(|e| py_err(py, e))?;
        out.into_iter().map(|v| to_python(py, v)).collect()
    }
}

/// The types and names of an entry point's parameters.
fn params(e: &parad::Entry) -> (Vec<Type>, Vec<Option<String>>) {
    e.params()
        .iter()
        .map(|p| (p.ty.clone(), p.name.clone()))
        .unzip()
}

/// How a type is named in a message about a wrong argument.
fn describe(t: &Type) -> String {
    match t {
        Type::Scalar(p) => format!("a {} (a number)", p.name()),
        Type::Array(p, r) => format!(
            "an array of {} of rank {r} (numpy {})",
            p.name(),
            dtype_name(*p)
        ),
        t => format!("a {}", t.name()),
    }
}

#[pymethods]
impl Program {
    /// Compiles the program in the file at `path`.
    #[staticmethod]
    #[pyo3(signature = (path, backend="multicore", threads=None, cache_dir=None, differentiate=vec![], optimise=true))]
    fn compile_file(
        py: Python<'_>,
        path: PathBuf,
        backend: &str,
        threads: Option<usize>,
        cache_dir: Option<PathBuf>,
        differentiate: Vec<String>,
        optimise: bool,
    ) -> PyResult<Program> {
        let o = options(backend, threads, cache_dir, differentiate, optimise)?;
        let inner = py
            .detach(|| parad::Program::compile_file(&path, o))
            .map_err(|e| py_err(py, e))?;
        Ok(Program { inner })
    }

    /// Compiles Futhark source text; `name` is its file name in messages
    /// (imports are found relative to it).
    #[staticmethod]
    #[pyo3(signature = (text, name="<source>.fut", backend="multicore", threads=None, cache_dir=None, differentiate=vec![], optimise=true))]
    #[allow(clippy::too_many_arguments)]
    fn compile_source(
        py: Python<'_>,
        text: &str,
        name: &str,
        backend: &str,
        threads: Option<usize>,
        cache_dir: Option<PathBuf>,
        differentiate: Vec<String>,
        optimise: bool,
    ) -> PyResult<Program> {
        let o = options(backend, threads, cache_dir, differentiate, optimise)?;
        let inner = py
            .detach(|| parad::Program::compile_source(name, text, o))
            .map_err(|e| py_err(py, e))?;
        Ok(Program { inner })
    }

    /// The backend's name (`interp`, `c`, `multicore`).
    #[getter]
    fn backend(&self) -> &'static str {
        self.inner.backend().name()
    }

    /// The entry points: a dict per entry point with `name`, `params`
    /// (each with `name`, `type`, `unique`, `differentiable`), `results`
    /// (types), `signature` and `doc`.
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in self.inner.entries() {
            let d = PyDict::new(py);
            d.set_item("name", &e.name)?;
            let diff = self
                .inner
                .differentiable(&e.name)
                .map_err(|x| py_err(py, x))?;
            let ps = PyList::empty(py);
            for (p, dp) in e.params().iter().zip(diff) {
                let pd = PyDict::new(py);
                pd.set_item("name", &p.name)?;
                pd.set_item("type", type_dict(py, &p.ty)?)?;
                pd.set_item("unique", p.unique)?;
                pd.set_item("differentiable", dp)?;
                ps.append(pd)?;
            }
            d.set_item("params", ps)?;
            let rs = PyList::empty(py);
            for t in e.results() {
                rs.append(type_dict(py, t)?)?;
            }
            d.set_item("results", rs)?;
            d.set_item("signature", e.signature())?;
            d.set_item("doc", &e.doc)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// Calls the entry point `name` with the arguments in `args`; the
    /// results as a list (one, or the elements of a returned tuple).
    fn call(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let e = self.entry(name)?;
        let (types, names) = params(e);
        let values = self.values(name, "argument", &types, &names, args)?;
        self.run(py, |p| p.call(name, &values))
    }

    /// The adjoints of the differentiable parameters of `name` at `args`
    /// given a seed per result (needs `differentiate=[name]`).
    fn vjp(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyAny>,
        seeds: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let e = self.entry(name)?;
        let (types, names) = params(e);
        let values = self.values(name, "argument", &types, &names, args)?;
        let seeds = self.values(name, "seed", e.results(), &[], seeds)?;
        self.run(py, |p| p.vjp(name, &values, &seeds))
    }

    /// The tangents of the results of `name` at `args` given a tangent
    /// per differentiable parameter (needs `differentiate=[name]`).
    fn jvp(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyAny>,
        tangents: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let e = self.entry(name)?;
        let (types, names) = params(e);
        let values = self.values(name, "argument", &types, &names, args)?;
        let diff = self.inner.differentiable(name).map_err(|x| py_err(py, x))?;
        let (ttypes, tnames): (Vec<Type>, Vec<Option<String>>) = types
            .iter()
            .zip(&names)
            .zip(&diff)
            .filter(|(_, &d)| d)
            .map(|((t, n), _)| (t.clone(), n.clone()))
            .unzip();
        let tangents = self.values(name, "tangent", &ttypes, &tnames, tangents)?;
        self.run(py, |p| p.jvp(name, &values, &tangents))
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self
            .inner
            .entries()
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        format!(
            "<parad.Program ({}) with entry points {}>",
            self.inner.backend().name(),
            names.join(", ")
        )
    }
}

#[pymodule]
fn _parad(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Program>()?;
    m.add_class::<Record>()?;
    m.add_class::<Opaque>()?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("CompileError", py.get_type::<CompileError>())?;
    m.add("ProgramError", py.get_type::<ProgramError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
