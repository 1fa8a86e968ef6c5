//! A compiled program: its entry points' signatures, and calls.

use crate::derivatives;
use crate::error::Error;
use crate::options::{Backend, Options};
use crate::value::{Opaque, Record, Type, Value};
use parad_driver::{CompiledC, Config, Interpreted, Loaded, C};
use parad_types::api::{ApiEntry, ApiType, OpaqueKind};
use std::path::Path;
use std::sync::Mutex;

/// A parameter of an entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name, when the program names it.
    pub name: Option<String>,
    pub ty: Type,
    /// Declared unique (`*[]f64`): the entry point may reuse its memory.
    pub unique: bool,
}

/// An entry point's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub params: Vec<Param>,
    /// The results: one, or the elements of a returned tuple.
    pub results: Vec<Type>,
    /// The documentation comment (`-- |`) of the entry point.
    pub doc: Option<String>,
    api: ApiEntry_,
}

/// The C API's view of the entry point, which says how values are laid
/// out as leaves.
#[derive(Clone, Debug, PartialEq)]
struct ApiEntry_(ApiEntry);
impl Eq for ApiEntry_ {}

impl Entry {
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    pub fn results(&self) -> &[Type] {
        &self.results
    }

    /// The signature in Futhark's words: `f : []f64 -> i64 -> ([]f64, f64)`.
    pub fn signature(&self) -> String {
        let mut s = format!("{} :", self.name);
        for p in &self.params {
            s.push(' ');
            if p.unique {
                s.push('*');
            }
            s.push_str(&p.ty.name());
            s.push_str(" ->");
        }
        let rs: Vec<String> = self.results.iter().map(Type::name).collect();
        if rs.len() == 1 {
            s.push(' ');
            s.push_str(&rs[0]);
        } else {
            s.push_str(&format!(" ({})", rs.join(", ")));
        }
        s
    }

    fn new(name: &str, api: ApiEntry) -> Entry {
        let params = api
            .params
            .iter()
            .map(|p| Param {
                name: p.name.clone(),
                ty: public_type(&p.ty),
                unique: p.unique,
            })
            .collect();
        let results = match public_type(&api.result) {
            t @ Type::Record { .. } if t.tuple_fields().is_some() => t
                .tuple_fields()
                .unwrap_or_default()
                .into_iter()
                .cloned()
                .collect(),
            t => vec![t],
        };
        Entry {
            name: name.to_string(),
            params,
            results,
            doc: api.doc.clone(),
            api: ApiEntry_(api),
        }
    }
}

/// A record whose leaves are its fields' leaves in order: shown with its
/// fields; any other opaque type by name only.
fn public_type(t: &ApiType) -> Type {
    match t {
        ApiType::Prim(p) => Type::Scalar(*p),
        ApiType::Array(p, r) => Type::Array(*p, *r),
        ApiType::Opaque(o) => match &o.kind {
            OpaqueKind::Record(fields) if record_fields_in_order(t) => Type::Record {
                name: o.name.clone(),
                fields: fields
                    .iter()
                    .map(|f| (f.name.clone(), public_type(&f.ty)))
                    .collect(),
            },
            _ => Type::Opaque(o.name.clone()),
        },
    }
}

fn record_fields_in_order(t: &ApiType) -> bool {
    match t {
        ApiType::Opaque(o) => match &o.kind {
            OpaqueKind::Record(fields) => {
                let leaves: Vec<_> = fields.iter().flat_map(|f| f.ty.leaves()).collect();
                leaves == o.leaves
            }
            _ => false,
        },
        _ => true,
    }
}

/// What runs the program.
enum Runner {
    Interpreter(Box<Interpreted>),
    C(Box<CompiledC>),
}

impl Runner {
    fn loaded(&mut self) -> &mut dyn Loaded {
        match self {
            Runner::Interpreter(i) => i.as_mut(),
            Runner::C(c) => c.as_mut(),
        }
    }
}

/// A Futhark program compiled once, whose entry points can be called
/// from any thread (one call at a time runs; the multicore backend uses
/// every thread it was given for each).
///
/// ```
/// use parad::{Backend, Options, Program, Value};
/// let program = Program::compile_source(
///     "square.fut",
///     "entry square (xs: []f64) : []f64 = map (\\x -> x * x) xs",
///     Options::default().backend(Backend::Interpreter).differentiate(["square"]),
/// )?;
/// let xs = ndarray::arr1(&[1.0, 2.0, 3.0]).into_dyn();
/// let ys = program.call("square", &[Value::from(xs.clone())])?;
/// let ys: ndarray::ArrayD<f64> = ys[0].clone().try_into()?;
/// assert_eq!(ys.as_slice(), Some(&[1.0, 4.0, 9.0][..]));
/// // The gradient of sum(square xs): the vjp with a seed of ones.
/// let seed = Value::from(ndarray::ArrayD::<f64>::ones(xs.shape()));
/// let grad = program.vjp("square", &[Value::from(xs)], &[seed])?;
/// assert_eq!(grad[0].as_array::<f64>().unwrap().as_slice(), Some(&[2.0, 4.0, 6.0][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Program {
    runner: Mutex<Runner>,
    entries: Vec<Entry>,
    /// The generated derivative entry points.
    derivatives: Vec<Entry>,
    backend: Backend,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("backend", &self.backend)
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl Program {
    /// Compiles the Futhark program in the file at `path` (imports are
    /// found next to it).
    pub fn compile_file(path: impl AsRef<Path>, options: Options) -> Result<Program, Error> {
        let path = path.as_ref();
        let text = parad_base::read_source(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Program::compile_source(&path.display().to_string(), &text, options)
    }

    /// Compiles Futhark source text; `name` is its file name in messages,
    /// and imports are found relative to it.
    pub fn compile_source(name: &str, text: &str, options: Options) -> Result<Program, Error> {
        let mut config = if options.optimise {
            Config::default()
        } else {
            Config::up_to("differentiate").unwrap_or_default()
        };
        config.check_ir = options.check_ir;
        // The derivatives' entry points go after the program, so that the
        // program's own lines keep their numbers.
        let mut text = text.to_string();
        if !options.derivatives.is_empty() {
            // The signatures, from the type checker.
            let checked = parad_driver::Source::new(name, text.as_str()).check()?;
            let entries: Vec<Entry> = checked
                .checked
                .entries
                .iter()
                .map(|e| Entry::new(&e.name, e.api.clone()))
                .collect();
            for d in &options.derivatives {
                let e = entries
                    .iter()
                    .find(|e| e.name == *d)
                    .ok_or_else(|| Error::NoEntry(d.clone()))?;
                for generated in [derivatives::vjp_name(d), derivatives::jvp_name(d)] {
                    if entries.iter().any(|e| e.name == generated) {
                        return Err(Error::Unsupported {
                            message: format!(
                                "cannot add the derivatives of `{d}`: the program already has an entry point `{generated}`"
                            ),
                            location: None,
                        });
                    }
                }
                let source = derivatives::source(e).map_err(|message| Error::Unsupported {
                    message,
                    location: None,
                })?;
                text.push_str(&source);
            }
        }
        let compiled = parad_driver::compile_source(name, &text, &config)?;
        let mut entries = entries_of(&compiled);
        let is_derivative = |n: &str| {
            options
                .derivatives
                .iter()
                .any(|d| n == derivatives::vjp_name(d) || n == derivatives::jvp_name(d))
        };
        let derivatives: Vec<Entry> = entries
            .iter()
            .filter(|e| is_derivative(&e.name))
            .cloned()
            .collect();
        entries.retain(|e| !is_derivative(&e.name));
        let runner = match options.backend {
            Backend::Interpreter => Runner::Interpreter(Box::new(Interpreted(compiled))),
            Backend::C | Backend::Multicore => {
                let mut c = C::new(config, Some(options.thread_count()));
                c.sequential = options.backend == Backend::C;
                let mut build = parad_cgen::build::BuildOptions::new(options.library_dir());
                if !options.c_compiler.is_empty() {
                    build.cc = options.c_compiler.clone();
                }
                Runner::C(Box::new(c.load_with(compiled, &build)?))
            }
        };
        Ok(Program {
            runner: Mutex::new(runner),
            entries,
            derivatives,
            backend: options.backend,
        })
    }

    /// What runs the program.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The entry points, in the order the program defines them.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry point called `name`.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Calls the entry point `entry`; the results are its return value,
    /// or the elements of a returned tuple.
    pub fn call(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, Error> {
        let e = self
            .entry(entry)
            .ok_or_else(|| Error::NoEntry(entry.to_string()))?;
        self.run(e, entry, args)
    }

    /// Which parameters of `entry` [`Program::vjp`] and [`Program::jvp`]
    /// differentiate (floating-point scalars and arrays); the others are
    /// held fixed.
    pub fn differentiable(&self, entry: &str) -> Result<Vec<bool>, Error> {
        let e = self
            .entry(entry)
            .ok_or_else(|| Error::NoEntry(entry.to_string()))?;
        Ok(derivatives::differentiable(e))
    }

    /// The reverse-mode derivative of `entry` at `args`: given a seed per
    /// result (`ȳ`), the adjoint `J(args)ᵀ ȳ` of each differentiable
    /// parameter, in order. The program must have been compiled with
    /// [`Options::differentiate`](crate::Options::differentiate) naming
    /// `entry`.
    pub fn vjp(&self, entry: &str, args: &[Value], seeds: &[Value]) -> Result<Vec<Value>, Error> {
        let (e, d) = self.derivative(entry, &derivatives::vjp_name(entry))?;
        if seeds.len() != e.results.len() {
            return Err(Error::BadInput {
                entry: entry.to_string(),
                message: format!(
                    "vjp needs one seed per result: {} given, {} expected",
                    seeds.len(),
                    e.results.len()
                ),
            });
        }
        self.derivative_call(e, d, args, seeds)
    }

    /// The forward-mode derivative of `entry` at `args`: given a tangent
    /// per differentiable parameter (`ẋ`), the tangent `J(args) ẋ` of each
    /// result. Needs [`Options::differentiate`](crate::Options::differentiate)
    /// as [`Program::vjp`] does.
    pub fn jvp(
        &self,
        entry: &str,
        args: &[Value],
        tangents: &[Value],
    ) -> Result<Vec<Value>, Error> {
        let (e, d) = self.derivative(entry, &derivatives::jvp_name(entry))?;
        let n = derivatives::differentiable(e)
            .iter()
            .filter(|&&d| d)
            .count();
        if tangents.len() != n {
            return Err(Error::BadInput {
                entry: entry.to_string(),
                message: format!(
                    "jvp needs one tangent per differentiable parameter: {} given, {n} expected",
                    tangents.len()
                ),
            });
        }
        self.derivative_call(e, d, args, tangents)
    }

    fn derivative(&self, entry: &str, generated: &str) -> Result<(&Entry, &Entry), Error> {
        let e = self
            .entry(entry)
            .ok_or_else(|| Error::NoEntry(entry.to_string()))?;
        let d = self
            .derivatives
            .iter()
            .find(|d| d.name == generated)
            .ok_or_else(|| Error::BadInput {
                entry: entry.to_string(),
                message: format!(
                    "its derivatives were not compiled (compile with Options::differentiate([\"{entry}\"]))"
                ),
            })?;
        Ok((e, d))
    }

    fn derivative_call(
        &self,
        e: &Entry,
        d: &Entry,
        args: &[Value],
        extra: &[Value],
    ) -> Result<Vec<Value>, Error> {
        if args.len() != e.params.len() {
            return Err(bad_count(&e.name, e.params.len(), args.len()));
        }
        let all: Vec<Value> = args.iter().chain(extra).cloned().collect();
        self.run(d, &e.name, &all)
    }

    /// Calls `e` (named `shown` in messages).
    fn run(&self, e: &Entry, shown: &str, args: &[Value]) -> Result<Vec<Value>, Error> {
        let api = &e.api.0;
        if args.len() != api.params.len() {
            return Err(bad_count(shown, api.params.len(), args.len()));
        }
        let mut leaves = vec![];
        for (k, (v, p)) in args.iter().zip(&api.params).enumerate() {
            flatten(v, &p.ty, &mut leaves).map_err(|found| Error::BadInput {
                entry: shown.to_string(),
                message: format!(
                    "argument {} ({}) must be of type {}, not {found}",
                    k + 1,
                    p.name.as_deref().unwrap_or("unnamed"),
                    p.ty.name()
                ),
            })?;
        }
        let results = {
            let mut runner = self.runner.lock().unwrap_or_else(|e| e.into_inner());
            runner.loaded().call(&e.name, leaves)?
        };
        let mut it = results.into_iter();
        let value = unflatten(&api.result, &mut it)
            .ok_or_else(|| Error::Internal(format!("`{shown}` returned too few values")))?;
        if it.next().is_some() {
            return Err(Error::Internal(format!(
                "`{shown}` returned too many values"
            )));
        }
        Ok(match value {
            Value::Record(r) if r.is_tuple() && !r.fields.is_empty() => {
                r.fields.into_iter().map(|(_, v)| v).collect()
            }
            v => vec![v],
        })
    }
}

fn bad_count(entry: &str, expected: usize, given: usize) -> Error {
    Error::BadInput {
        entry: entry.to_string(),
        message: format!("{given} arguments given, {expected} expected"),
    }
}

/// The entry points of a compiled program with their C API signatures
/// (from the source; from the leaves for printed IR).
fn entries_of(c: &parad_driver::Compiled) -> Vec<Entry> {
    let mut out = vec![];
    for f in &c.program.entries {
        let api = c.api_entry(f);
        out.push(Entry::new(&f.name, api));
    }
    // Entry points a stage left out are still callable by name (the call
    // says why it cannot run).
    for l in &c.left_out {
        if out.iter().any(|e| e.name == l.entry) {
            continue;
        }
        if let Some((_, a)) = c.api.iter().find(|(n, _)| *n == l.entry) {
            out.push(Entry::new(&l.entry, a.clone()));
        }
    }
    out
}

/// Appends the leaves of `v` as a value of type `t`; `Err` gives the
/// type `v` has instead.
fn flatten(v: &Value, t: &ApiType, out: &mut Vec<parad_values::Value>) -> Result<(), String> {
    match (v, t) {
        (Value::Scalar(s), ApiType::Prim(p)) if s.prim_type() == *p => {
            out.push(parad_values::Value::Scalar(*s));
            Ok(())
        }
        (Value::Array(a), ApiType::Array(p, r)) if a.elem_type() == *p && a.rank() == *r => {
            out.push(parad_values::Value::Array(a.clone()));
            Ok(())
        }
        (Value::Record(r), ApiType::Opaque(o)) => match &o.kind {
            OpaqueKind::Record(fields)
                if record_fields_in_order(t)
                    && fields.len() == r.fields.len()
                    && fields.iter().zip(&r.fields).all(|(f, (n, _))| f.name == *n) =>
            {
                for (f, (_, v)) in fields.iter().zip(&r.fields) {
                    flatten(v, &f.ty, out)
                        .map_err(|found| format!("{} (field {}: {found})", r.type_name, f.name))?;
                }
                Ok(())
            }
            _ => Err(r.type_name.clone()),
        },
        (Value::Opaque(x), ApiType::Opaque(o))
            if x.type_name == o.name
                && x.leaves.len() == o.leaves.len()
                && x.leaves
                    .iter()
                    .zip(&o.leaves)
                    .all(|(v, l)| leaf_type(v) == *l) =>
        {
            out.extend(x.leaves.iter().cloned());
            Ok(())
        }
        (v, _) => Err(v.type_name()),
    }
}

fn leaf_type(v: &parad_values::Value) -> (parad_base::PrimType, usize) {
    (v.elem_type(), v.rank())
}

/// Takes the leaves of a value of type `t` from `it`.
fn unflatten(t: &ApiType, it: &mut impl Iterator<Item = parad_values::Value>) -> Option<Value> {
    match t {
        ApiType::Prim(_) | ApiType::Array(..) => Some(match it.next()? {
            parad_values::Value::Scalar(s) => Value::Scalar(s),
            parad_values::Value::Array(a) => Value::Array(a),
        }),
        ApiType::Opaque(o) => match &o.kind {
            OpaqueKind::Record(fields) if record_fields_in_order(t) => {
                let mut out = vec![];
                for f in fields {
                    out.push((f.name.clone(), unflatten(&f.ty, it)?));
                }
                Some(Value::Record(Record {
                    type_name: o.name.clone(),
                    fields: out,
                }))
            }
            _ => {
                let leaves: Option<Vec<_>> = o.leaves.iter().map(|_| it.next()).collect();
                Some(Value::Opaque(Opaque {
                    type_name: o.name.clone(),
                    leaves: leaves?,
                }))
            }
        },
    }
}
