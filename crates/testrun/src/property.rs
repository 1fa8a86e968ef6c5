//! Property-based tests: the `property: NAME…` items of test blocks.
//!
//! A property is an entry point of type `t -> bool` carrying a `#[prop]`
//! attribute, optionally `#[prop(gen(g), shrink(s), size(N))]`. To test
//! it, [`NUM_TESTS`] *candidates* of type `t` are made and given to the
//! property; the first for which it returns `false` is a
//! *counterexample*, which is then shrunk, and the smallest
//! counterexample found is reported (in Futhark's value syntax) together
//! with the seed that reproduces the run.
//!
//! Design decisions:
//!
//! - **Types and attributes come from the type checker.** The file is
//!   type-checked once more (a few milliseconds) to read each entry point's
//!   interface ([`ApiEntry`]: parameters as records, tuples, arrays of
//!   records, …) and its attributes as parsed syntax ([`Attr`]), so nothing
//!   is guessed from the source text. Candidates are passed to the
//!   backend as the entry point's *leaves* (primitives and arrays of
//!   primitives, what [`Loaded::call`] takes), checked against
//!   [`Loaded::param_types`]; this works on every backend.
//! - **Generation.** Candidate `i` (0-based) has size
//!   `max_size · i / (NUM_TESTS − 1)`, growing from 0 to `size(N)` (default
//!   [`DEFAULT_MAX_SIZE`]; Futhark gives every candidate the largest
//!   size, growing sizes find small counterexamples first, which makes
//!   shrinking cheap); each candidate draws its own seed from the
//!   property's random generator, which is seeded with `--seed` (or a
//!   random seed, printed with any counterexample). Without `gen`, a
//!   candidate of size `s` picks one length `n ≤ s` for every dimension of
//!   every array in it, so that size constraints between parameters
//!   (`[n]i32`, `[n]f32`) hold, and numbers in `[-s, s]` (unsigned: `[0,
//!   s]`), drawn with [`parad_values::try_random_value_in`] as `parad
//!   dataset` draws them. With `gen(g)`, the candidate is `g size seed`.
//!   Sum types, abstract types and arrays of them need a `gen`: without
//!   one the property is skipped with the reason.
//! - **Shrinking**, at most [`SHRINK_STEPS`] property calls, greedily
//!   taking the first smaller candidate that still fails and starting
//!   over from it. With `shrink(f)`, `f candidate random` is asked for a
//!   smaller candidate until it fails to give one that is still a
//!   counterexample [`SHRINK_TRIES`] times in a row (as Futhark does).
//!   Otherwise the built-in shrinker: with a `gen`, first the same seed
//!   at smaller sizes; then, where the type is known, shorter arrays
//!   (a chunk of indices removed from every dimension of the same
//!   extent at once, which keeps size constraints, then from each array
//!   alone), then each number towards zero (`0`, `-x`, `x - x/2`, …,
//!   `x - 1`; floats `0`, `-x`, `trunc x`, then as integers) and `true`
//!   to `false`, component by component of tuples and records. A shrunk
//!   candidate on which the property fails with a run-time error (e.g. a
//!   size mismatch) is not taken. An error in the user's shrinker ends
//!   shrinking, and is shown below the counterexample.
//! - **Errors are failures** with a clear message: a name that is not an
//!   entry point, an entry point without `#[prop]` (a failure in Futhark
//!   too), a property of another type than `t -> bool`, a malformed
//!   `#[prop(...)]` (with its location), a `gen` or `shrink` that is not
//!   an entry point or whose type does not fit (`i64 -> u64 -> t`, `t ->
//!   u64 -> t`; compared by the values they pass, so a type abbreviation
//!   and its definition agree), and a run-time error of the property or
//!   the generator on a generated candidate (reported with the candidate,
//!   not shrunk). What the backend cannot run is a skip.

use parad_base::{FloatType, IntType, PrimType, Scalar, SourceMap, Span};
use parad_driver::{DriverError, Loaded, Source};
use parad_syntax::ast::{Attr, Decl, ValKind};
use parad_types::api::{ApiEntry, ApiType, OpaqueKind};
use parad_values::{to_text, ArrayData, ArrayValue, Bounds, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;

/// Candidates tried per property.
pub const NUM_TESTS: u64 = 100;
/// The largest size when the property's `#[prop]` gives no `size(N)`.
pub const DEFAULT_MAX_SIZE: i64 = 50;
/// The most elements (all arrays together) of a generated candidate.
pub const MAX_ELEMENTS: usize = 1 << 24;
/// The most property calls spent shrinking one counterexample.
pub const SHRINK_STEPS: usize = 1000;
/// Calls of a user-defined shrinker in a row that may fail to give a
/// smaller counterexample before shrinking stops.
pub const SHRINK_TRIES: usize = 5;

/// What testing one property came to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// No counterexample found.
    Holds,
    /// A failure: the first line goes after the heading, further lines
    /// are shown indented below it.
    Fails(String),
    /// Not run, for this reason.
    Skip(String),
}

/// The entry points of a program, as the type checker sees them.
pub(crate) struct Prepared {
    sources: SourceMap,
    entries: Vec<EntryInfo>,
}

struct EntryInfo {
    name: String,
    api: ApiEntry,
    attrs: Vec<Attr>,
}

/// Type-checks the program at `path` to learn its entry points' types and
/// attributes. An `Err` is the outcome of every property of the file.
pub(crate) fn prepare(path: &Path) -> Result<Prepared, Outcome> {
    let source = Source::read(path).map_err(|e| Outcome::Fails(e.render()))?;
    if source.is_printed_ir() {
        return Err(Outcome::Skip(
            "property tests need Futhark source (this file is printed IR, without attributes)"
                .to_string(),
        ));
    }
    let checked = source.check().map_err(|e| Outcome::Fails(e.render()))?;
    let mut entries: Vec<EntryInfo> = vec![];
    for e in &checked.checked.entries {
        // A later definition shadows an earlier one, in both lists.
        let attrs = checked
            .checked
            .program
            .decls
            .iter()
            .rev()
            .find_map(|d| match d {
                Decl::Val(v) if v.kind == ValKind::Entry && v.name.name == e.name => {
                    Some(v.attrs.clone())
                }
                _ => None,
            })
            .unwrap_or_default();
        entries.retain(|x| x.name != e.name);
        entries.push(EntryInfo {
            name: e.name.clone(),
            api: e.api.clone(),
            attrs,
        });
    }
    Ok(Prepared {
        sources: checked.sources,
        entries,
    })
}

impl Prepared {
    fn entry(&self, name: &str) -> Option<&EntryInfo> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// The arguments of a `#[prop(...)]` attribute.
#[derive(Debug, Default, PartialEq)]
struct PropAttr {
    gen: Option<String>,
    shrink: Option<String>,
    size: Option<i64>,
}

/// An attribute as written, for messages.
fn attr_text(a: &Attr) -> String {
    match a {
        Attr::Atom(s, _) => s.clone(),
        Attr::Int(i, _) => i.to_string(),
        Attr::Comp(s, args, _) => format!(
            "{s}({})",
            args.iter().map(attr_text).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn attr_span(a: &Attr) -> Span {
    match a {
        Attr::Atom(_, s) | Attr::Int(_, s) | Attr::Comp(_, _, s) => *s,
    }
}

/// The `#[prop]` attribute among `attrs`: `Ok(None)` when there is none;
/// an error (with the location) when there are several or an argument is
/// not `gen(NAME)`, `shrink(NAME)` or `size(N)` with `N ≥ 0`.
fn prop_attr(attrs: &[Attr], sources: &SourceMap) -> Result<Option<PropAttr>, String> {
    let props: Vec<&Attr> = attrs
        .iter()
        .filter(|a| matches!(a, Attr::Atom(n, _) | Attr::Comp(n, _, _) if n == "prop"))
        .collect();
    let a = match props.as_slice() {
        [] => return Ok(None),
        [a] => *a,
        [_, second, ..] => {
            return Err(format!(
                "more than one #[prop] attribute ({})",
                sources.location(attr_span(second))
            ))
        }
    };
    let mut p = PropAttr::default();
    let Attr::Comp(_, args, _) = a else {
        return Ok(Some(p));
    };
    for arg in args {
        let bad = |why: &str| {
            format!(
                "#[prop] argument `{}` {why} ({})",
                attr_text(arg),
                sources.location(attr_span(arg))
            )
        };
        match arg {
            Attr::Comp(n, xs, _) if n == "gen" || n == "shrink" => {
                let [Attr::Atom(f, _)] = xs.as_slice() else {
                    return Err(bad("must name one entry point"));
                };
                let slot = if n == "gen" {
                    &mut p.gen
                } else {
                    &mut p.shrink
                };
                if slot.is_some() {
                    return Err(bad("is given twice"));
                }
                *slot = Some(f.clone());
            }
            Attr::Comp(n, xs, _) if n == "size" => {
                let [Attr::Int(k, _)] = xs.as_slice() else {
                    return Err(bad("must be a non-negative integer"));
                };
                if *k < 0 {
                    return Err(bad("must be a non-negative integer"));
                }
                if p.size.is_some() {
                    return Err(bad("is given twice"));
                }
                p.size = Some(*k);
            }
            _ => return Err(bad("is not gen(f), shrink(f) or size(N)")),
        }
    }
    Ok(Some(p))
}

/// The signature of an entry point as a Futhark type: `[]i32 -> bool`.
fn signature(api: &ApiEntry) -> String {
    let mut parts: Vec<String> = api.params.iter().map(|p| p.ty.name()).collect();
    parts.push(api.result.name());
    parts.join(" -> ")
}

/// The structure of a candidate: how its leaves make up the value.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// A primitive (rank 0) or an array of primitives, `rank` dimensions
    /// below the enclosing arrays of records: one leaf.
    Leaf(PrimType, usize),
    /// A record or tuple; its fields' leaves one after the other.
    Record {
        tuple: bool,
        fields: Vec<(String, Shape)>,
    },
    /// An array of records of this rank (leaves: the element's, each with
    /// these extra outer dimensions).
    Array(usize, Box<Shape>),
}

impl Shape {
    /// The shape of values of `t`, or what cannot be generated.
    fn of(t: &ApiType) -> Result<Shape, String> {
        let o = match t {
            ApiType::Prim(p) => return Ok(Shape::Leaf(*p, 0)),
            ApiType::Array(p, r) => return Ok(Shape::Leaf(*p, *r)),
            ApiType::Opaque(o) => o,
        };
        let shape = match &o.kind {
            OpaqueKind::Record(fields) => {
                let tuple = fields.len() != 1
                    && fields
                        .iter()
                        .enumerate()
                        .all(|(k, f)| f.name == k.to_string());
                Shape::Record {
                    tuple,
                    fields: fields
                        .iter()
                        .map(|f| Ok((f.name.clone(), Shape::of(&f.ty)?)))
                        .collect::<Result<_, String>>()?,
                }
            }
            OpaqueKind::RecordArray { rank, elem, .. } => {
                Shape::Array(*rank, Box::new(Shape::of(elem)?))
            }
            OpaqueKind::Sum(_) => return Err(format!("the sum type `{}`", o.name)),
            OpaqueKind::OpaqueArray { .. } => {
                return Err(format!("the array of opaque values `{}`", o.name))
            }
            OpaqueKind::Abstract => return Err(format!("the abstract type `{}`", o.name)),
        };
        if shape.leaves(0) != o.leaves {
            return Err(format!("the type `{}` (unexpected layout)", o.name));
        }
        Ok(shape)
    }

    /// The leaves, each with `outer` more dimensions.
    fn leaves(&self, outer: usize) -> Vec<(PrimType, usize)> {
        match self {
            Shape::Leaf(p, r) => vec![(*p, r + outer)],
            Shape::Record { fields, .. } => fields.iter().flat_map(|f| f.1.leaves(outer)).collect(),
            Shape::Array(r, e) => e.leaves(outer + r),
        }
    }

    fn count(&self) -> usize {
        match self {
            Shape::Leaf(..) => 1,
            Shape::Record { fields, .. } => fields.iter().map(|f| f.1.count()).sum(),
            Shape::Array(_, e) => e.count(),
        }
    }

    /// The element type as Futhark writes it, inner dimensions unsized
    /// (for `empty(...)` of an array of records).
    fn type_name(&self) -> String {
        match self {
            Shape::Leaf(p, r) => format!("{}{}", "[]".repeat(*r), p.name()),
            Shape::Record { tuple, fields } => {
                let fs: Vec<String> = fields
                    .iter()
                    .map(|(n, s)| {
                        if *tuple {
                            s.type_name()
                        } else {
                            format!("{n}: {}", s.type_name())
                        }
                    })
                    .collect();
                if *tuple {
                    format!("({})", fs.join(", "))
                } else {
                    format!("{{{}}}", fs.join(", "))
                }
            }
            Shape::Array(r, e) => format!("{}{}", "[]".repeat(*r), e.type_name()),
        }
    }

    /// Writes the value made of `leaves`, indexed by `prefix` in the
    /// enclosing arrays of records, in Futhark syntax.
    fn show(&self, leaves: &[Value], prefix: &[usize], out: &mut String) {
        match self {
            Shape::Leaf(..) => out.push_str(&to_text(&sub_value(&leaves[0], prefix))),
            Shape::Record { tuple, fields } => {
                out.push(if *tuple { '(' } else { '{' });
                let mut at = 0;
                for (k, (name, s)) in fields.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    if !*tuple {
                        out.push_str(name);
                        out.push_str(" = ");
                    }
                    let n = s.count();
                    s.show(&leaves[at..at + n], prefix, out);
                    at += n;
                }
                out.push(if *tuple { ')' } else { '}' });
            }
            Shape::Array(r, e) => self.show_dims(*r, e, leaves, prefix.to_vec(), out),
        }
    }

    /// The `dims` outer dimensions of an array of records `e`, from
    /// `prefix` on.
    fn show_dims(
        &self,
        dims: usize,
        e: &Shape,
        leaves: &[Value],
        prefix: Vec<usize>,
        out: &mut String,
    ) {
        if dims == 0 {
            return e.show(leaves, &prefix, out);
        }
        let Some(first) = leaves.first() else {
            out.push_str("[]");
            return;
        };
        let extent = first.shape().get(prefix.len()).copied().unwrap_or(0);
        if extent == 0 {
            let shape = &first.shape()[prefix.len()..prefix.len() + dims];
            let ds: String = shape.iter().map(|d| format!("[{d}]")).collect();
            out.push_str(&format!("empty({ds}{})", e.type_name()));
            return;
        }
        out.push('[');
        for i in 0..extent {
            if i > 0 {
                out.push_str(", ");
            }
            let mut p = prefix.clone();
            p.push(i);
            self.show_dims(dims - 1, e, leaves, p, out);
        }
        out.push(']');
    }
}

/// The sub-array (or element) of `v` at the index `prefix`.
fn sub_value(v: &Value, prefix: &[usize]) -> Value {
    let Value::Array(a) = v else {
        return v.clone();
    };
    if prefix.is_empty() {
        return v.clone();
    }
    let mut at = 0;
    for (k, i) in prefix.iter().enumerate() {
        at = at * a.shape[k] + i;
    }
    match a.sub_array(prefix.len(), at) {
        Some(sub) if sub.rank() > 0 => Value::Array(sub),
        Some(sub) => Value::Scalar(
            sub.data
                .get(0)
                .unwrap_or_else(|| Scalar::zero(a.elem_type())),
        ),
        // Not reached: prefixes come from the value's own extents.
        None => Value::Scalar(Scalar::zero(a.elem_type())),
    }
}

/// How a candidate is shown: by its shape, or, for a type that only a
/// generator makes, its leaves.
fn show(shape: Option<&Shape>, type_name: &str, leaves: &[Value]) -> String {
    match shape {
        Some(s) => {
            let mut out = String::new();
            s.show(leaves, &[], &mut out);
            out
        }
        None => {
            let ls: Vec<String> = leaves.iter().map(to_text).collect();
            format!("<{type_name}: {}>", ls.join(", "))
        }
    }
}

/// Bounds of random numbers for size `size`: `[-size, size]`, within each
/// type's range.
fn bounds(size: u64) -> Bounds {
    let mut b = Bounds::default();
    let s = size as i128;
    for t in IntType::ALL {
        let (lo, hi) = t.bounds();
        let _ = b.set(PrimType::Int(t), &format!("{}:{}", (-s).max(lo), s.min(hi)));
    }
    for t in FloatType::ALL {
        let x = size as f64;
        let _ = b.set(PrimType::Float(t), &format!("{}:{x}", -x));
    }
    b
}

/// A random candidate of size `size` with the given leaves: one length
/// for every dimension, numbers within [`bounds`].
fn generate(
    leaves: &[(PrimType, usize)],
    size: u64,
    rng: &mut StdRng,
) -> Result<Vec<Value>, String> {
    let n = rng.gen_range(0..=size) as usize;
    let elements = leaves.iter().try_fold(0usize, |acc, &(_, rank)| {
        acc.checked_add(n.checked_pow(u32::try_from(rank).ok()?)?)
    });
    if elements.is_none_or(|e| e > MAX_ELEMENTS) {
        return Err(format!(
            "a candidate of size {size} would have more than {MAX_ELEMENTS} elements: give the property a smaller size(N)"
        ));
    }
    let b = bounds(size);
    leaves
        .iter()
        .map(|&(p, rank)| {
            parad_values::try_random_value_in(&vec![n; rank], p, &b, rng).map_err(|e| e.to_string())
        })
        .collect()
}

fn int_of(s: Scalar) -> Option<(IntType, i128)> {
    Some(match s {
        Scalar::I8(x) => (IntType::I8, x.into()),
        Scalar::I16(x) => (IntType::I16, x.into()),
        Scalar::I32(x) => (IntType::I32, x.into()),
        Scalar::I64(x) => (IntType::I64, x.into()),
        Scalar::U8(x) => (IntType::U8, x.into()),
        Scalar::U16(x) => (IntType::U16, x.into()),
        Scalar::U32(x) => (IntType::U32, x.into()),
        Scalar::U64(x) => (IntType::U64, x.into()),
        _ => return None,
    })
}

fn float_of(s: Scalar) -> Option<(FloatType, f64)> {
    Some(match s {
        Scalar::F16(x) => (FloatType::F16, x.to_f64()),
        Scalar::F32(x) => (FloatType::F32, x.into()),
        Scalar::F64(x) => (FloatType::F64, x),
        _ => return None,
    })
}

/// Smaller scalars than `s`, nearest to zero first.
fn smaller(s: Scalar) -> Vec<Scalar> {
    let mut out: Vec<Scalar> = vec![];
    let mut add = |c: Scalar| {
        if c != s && !out.contains(&c) {
            out.push(c);
        }
    };
    if let Some((t, x)) = int_of(s) {
        if x != 0 {
            add(Scalar::from_int(t, 0));
            if x < 0 && -x <= t.bounds().1 {
                add(Scalar::from_int(t, -x));
            }
            let mut i = x / 2;
            while i != 0 {
                add(Scalar::from_int(t, x - i));
                i /= 2;
            }
        }
    } else if let Some((t, x)) = float_of(s) {
        if x != 0.0 {
            add(Scalar::from_float(t, 0.0));
            if x < 0.0 {
                add(Scalar::from_float(t, -x));
            }
            if x.is_nan() {
                // Only zero.
            } else if x.trunc() != x {
                add(Scalar::from_float(t, x.trunc()));
            } else if x.abs() < 1e15 {
                // A whole number: towards zero as an integer.
                let n = x as i64;
                let mut i = n / 2;
                while i != 0 {
                    add(Scalar::from_float(t, (n - i) as f64));
                    i /= 2;
                }
            }
        }
    } else if s == Scalar::Bool(true) {
        add(Scalar::Bool(false));
    }
    out
}

/// One way to make a candidate smaller.
#[derive(Clone, Debug)]
enum Move {
    /// Remove indices `start..end` along every dimension of extent `len`
    /// of every leaf.
    Joint {
        len: usize,
        start: usize,
        end: usize,
    },
    /// Remove indices `start..end` along dimension `axis` of one leaf.
    Cut {
        leaf: usize,
        axis: usize,
        start: usize,
        end: usize,
    },
    /// Replace element `index` (row-major) of one leaf.
    Set {
        leaf: usize,
        index: usize,
        value: Scalar,
    },
}

/// Chunks of `0..len` to remove: all of it, then halves, quarters, …,
/// single indices.
fn chunks(len: usize) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut k = len;
    while k > 0 {
        let mut start = 0;
        while start < len {
            out.push((start, (start + k).min(len)));
            start += k;
        }
        if k == 1 {
            break;
        }
        k /= 2;
    }
    out
}

/// The moves to try on `cand`, in order: shorter arrays, then smaller
/// elements.
fn moves(cand: &[Value]) -> Vec<Move> {
    let mut out = vec![];
    let mut extents: Vec<usize> = cand
        .iter()
        .flat_map(|v| v.shape().iter().copied())
        .filter(|&d| d > 0)
        .collect();
    extents.sort_unstable_by(|a, b| b.cmp(a));
    extents.dedup();
    for len in extents {
        let members: Vec<(usize, usize)> = cand
            .iter()
            .enumerate()
            .flat_map(|(l, v)| {
                v.shape()
                    .iter()
                    .enumerate()
                    .filter(move |(_, &d)| d == len)
                    .map(move |(axis, _)| (l, axis))
            })
            .collect();
        for (start, end) in chunks(len) {
            out.push(Move::Joint { len, start, end });
        }
        if members.len() > 1 {
            for &(leaf, axis) in &members {
                for (start, end) in chunks(len) {
                    out.push(Move::Cut {
                        leaf,
                        axis,
                        start,
                        end,
                    });
                }
            }
        }
    }
    for (leaf, v) in cand.iter().enumerate() {
        let n = match v {
            Value::Scalar(_) => 1,
            Value::Array(a) => a.data.len(),
        };
        for index in 0..n {
            let s = match v {
                Value::Scalar(s) => Some(*s),
                Value::Array(a) => a.data.get(index),
            };
            for value in s.map(smaller).unwrap_or_default() {
                out.push(Move::Set { leaf, index, value });
            }
        }
    }
    out
}

/// `a` without indices `start..end` along `axis`.
fn remove_range(a: &ArrayValue, axis: usize, start: usize, end: usize) -> ArrayValue {
    let stride: usize = a.shape[axis + 1..].iter().product();
    let extent = a.shape[axis];
    let mut shape = a.shape.clone();
    shape[axis] -= end - start;
    let mut data = ArrayData::with_capacity(a.elem_type(), shape.iter().product());
    for i in 0..a.data.len() {
        let at = (i / stride.max(1)) % extent.max(1);
        if !(start..end).contains(&at) {
            if let Some(s) = a.data.get(i) {
                data.push(s);
            }
        }
    }
    ArrayValue { shape, data }
}

/// `cand` with the move made.
fn apply(cand: &[Value], m: &Move) -> Vec<Value> {
    let mut out = cand.to_vec();
    match *m {
        Move::Joint { len, start, end } => {
            for v in &mut out {
                if let Value::Array(a) = v {
                    for axis in 0..a.shape.len() {
                        if a.shape[axis] == len {
                            *a = remove_range(a, axis, start, end);
                        }
                    }
                }
            }
        }
        Move::Cut {
            leaf,
            axis,
            start,
            end,
        } => {
            if let Value::Array(a) = &mut out[leaf] {
                *a = remove_range(a, axis, start, end);
            }
        }
        Move::Set { leaf, index, value } => match &mut out[leaf] {
            Value::Scalar(s) => *s = value,
            Value::Array(a) => {
                let mut data = ArrayData::with_capacity(a.elem_type(), a.data.len());
                for i in 0..a.data.len() {
                    let s = if i == index {
                        Some(value)
                    } else {
                        a.data.get(i)
                    };
                    if let Some(s) = s {
                        data.push(s);
                    }
                }
                a.data = data;
            }
        },
    }
    out
}

/// Why a property run stopped early.
enum Stop {
    /// The backend cannot run something: the property is skipped.
    Unsupported(String),
    /// A failure message.
    Failed(String),
}

/// One property being tested.
struct Run<'a> {
    program: &'a mut dyn Loaded,
    name: &'a str,
    /// The candidate's type as Futhark names it.
    type_name: String,
    /// How to show and shrink candidates, when the type is known.
    shape: Option<Shape>,
    leaves: Vec<(PrimType, usize)>,
    attr: PropAttr,
    seed: u64,
}

/// Tests the property `name` of `program` with random seed `seed`.
pub(crate) fn check(
    program: &mut dyn Loaded,
    prepared: &Prepared,
    name: &str,
    seed: u64,
) -> Outcome {
    let Some(entry) = prepared.entry(name) else {
        return Outcome::Fails(format!(
            "declared as a property, but `{name}` is not an entry point"
        ));
    };
    let attr = match prop_attr(&entry.attrs, &prepared.sources) {
        Ok(Some(a)) => a,
        Ok(None) => {
            return Outcome::Fails(format!(
                "entry point `{name}` is declared as a property, but has no #[prop] attribute"
            ))
        }
        Err(e) => return Outcome::Fails(e),
    };
    let api = &entry.api;
    let param = match api.params.as_slice() {
        [p] if api.result == ApiType::Prim(PrimType::Bool) => &p.ty,
        _ => {
            return Outcome::Fails(format!(
                "entry point `{name}` has type `{}`, but a property must have type `t -> bool`",
                signature(api)
            ))
        }
    };
    let type_name = param.name();
    let leaves = param.leaves();
    for (role, f) in [("generator", &attr.gen), ("shrinker", &attr.shrink)] {
        let Some(f) = f else { continue };
        let Some(e) = prepared.entry(f) else {
            return Outcome::Fails(format!(
                "the {role} `{f}` of property `{name}` is not an entry point"
            ));
        };
        let (want, ok) = if role == "generator" {
            let ok = matches!(
                e.api.params.as_slice(),
                [a, b] if a.ty == ApiType::Prim(PrimType::Int(IntType::I64))
                    && b.ty == ApiType::Prim(PrimType::Int(IntType::U64))
            ) && e.api.result.leaves() == leaves;
            (format!("i64 -> u64 -> {type_name}"), ok)
        } else {
            let ok = matches!(
                e.api.params.as_slice(),
                [a, b] if a.ty.leaves() == leaves
                    && b.ty == ApiType::Prim(PrimType::Int(IntType::U64))
            ) && e.api.result.leaves() == leaves;
            (format!("{type_name} -> u64 -> {type_name}"), ok)
        };
        if !ok {
            return Outcome::Fails(format!(
                "the {role} `{f}` of property `{name}` has type `{}`, but must have type `{want}`",
                signature(&e.api)
            ));
        }
    }
    let shape = match Shape::of(param) {
        Ok(s) => Some(s),
        Err(_) if attr.gen.is_some() => None,
        Err(what) => {
            return Outcome::Skip(format!(
                "cannot generate values of {what}: give `{name}` a generator with #[prop(gen(f))]"
            ))
        }
    };
    if let Some(types) = program.param_types(name) {
        let compiled: Vec<(PrimType, usize)> = types.iter().map(|t| (t.elem, t.rank)).collect();
        if compiled != leaves {
            return Outcome::Skip(format!(
                "the compiled entry point `{name}` does not take the values of type `{type_name}`"
            ));
        }
    }
    let mut run = Run {
        program,
        name,
        type_name,
        shape,
        leaves,
        attr,
        seed,
    };
    match run.search() {
        Ok(o) => o,
        Err(Stop::Unsupported(why)) => Outcome::Skip(why),
        Err(Stop::Failed(msg)) => Outcome::Fails(msg),
    }
}

/// Turns a backend error into a stop: unsupported is a skip, anything
/// else a failure described by `what`.
fn stop(e: DriverError, what: impl FnOnce(String) -> String) -> Stop {
    if e.is_unsupported() {
        Stop::Unsupported(e.render())
    } else {
        Stop::Failed(what(e.render().trim_end().to_string()))
    }
}

impl Run<'_> {
    fn max_size(&self) -> u64 {
        self.attr.size.unwrap_or(DEFAULT_MAX_SIZE).max(0) as u64
    }

    fn seed_line(&self) -> String {
        format!(
            "seed {} (rerun with --seed={} to reproduce)",
            self.seed, self.seed
        )
    }

    fn show(&self, cand: &[Value]) -> String {
        show(self.shape.as_ref(), &self.type_name, cand)
    }

    /// Calls the generator with `size` and `seed`.
    fn call_gen(&mut self, g: &str, size: u64, seed: u64) -> Result<Vec<Value>, DriverError> {
        let args = vec![
            Value::Scalar(Scalar::I64(size as i64)),
            Value::Scalar(Scalar::U64(seed)),
        ];
        self.program.call(g, args)
    }

    /// Whether `vs` are values of the candidate's leaves.
    fn fits(&self, vs: &[Value]) -> bool {
        vs.len() == self.leaves.len()
            && vs
                .iter()
                .zip(&self.leaves)
                .all(|(v, &(p, r))| v.elem_type() == p && v.rank() == r)
    }

    /// A candidate of size `size` from its own seed.
    fn candidate(&mut self, size: u64, seed: u64) -> Result<Vec<Value>, Stop> {
        match self.attr.gen.clone() {
            None => {
                let mut rng = StdRng::seed_from_u64(seed);
                generate(&self.leaves, size, &mut rng).map_err(Stop::Failed)
            }
            Some(g) => {
                let vs = self.call_gen(&g, size, seed).map_err(|e| {
                    stop(e, |msg| {
                        format!(
                            "run-time error in the generator `{g}` with size {size} and seed {seed}:\n{msg}\n{}",
                            self.seed_line()
                        )
                    })
                })?;
                if !self.fits(&vs) {
                    return Err(Stop::Failed(format!(
                        "the generator `{g}` returned {} values, not a `{}`",
                        vs.len(),
                        self.type_name
                    )));
                }
                Ok(vs)
            }
        }
    }

    /// Runs the property on `cand`.
    fn holds(&mut self, cand: &[Value]) -> Result<bool, DriverError> {
        let r = self.program.call(self.name, cand.to_vec())?;
        match r.as_slice() {
            [Value::Scalar(Scalar::Bool(b))] => Ok(*b),
            _ => Err(DriverError::Runtime(
                format!("the property `{}` did not return one bool", self.name).into(),
            )),
        }
    }

    /// Whether `cand` is (still) a counterexample; a run-time error is not.
    fn fails(&mut self, cand: &[Value]) -> bool {
        matches!(self.holds(cand), Ok(false))
    }

    /// Tries [`NUM_TESTS`] candidates; shrinks the first counterexample.
    fn search(&mut self) -> Result<Outcome, Stop> {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let max = self.max_size();
        for i in 0..NUM_TESTS {
            let size = max * i / (NUM_TESTS - 1).max(1);
            let seed: u64 = rng.gen();
            let cand = self.candidate(size, seed)?;
            match self.holds(&cand) {
                Ok(true) => continue,
                Ok(false) => {
                    let (smallest, note) = self.shrink(cand, size, seed, &mut rng);
                    let mut msg = format!(
                        "counterexample after {} tests: {}\n",
                        i + 1,
                        self.show(&smallest)
                    );
                    if let Some(note) = note {
                        msg.push_str(&note);
                        msg.push('\n');
                    }
                    msg.push_str(&self.seed_line());
                    return Ok(Outcome::Fails(msg));
                }
                Err(e) => {
                    let shown = self.show(&cand);
                    return Err(stop(e, |msg| {
                        format!(
                            "run-time error after {} tests, with {shown}:\n{msg}\n{}",
                            i + 1,
                            self.seed_line()
                        )
                    }));
                }
            }
        }
        Ok(Outcome::Holds)
    }

    /// The smallest counterexample found from `cand` (made with `size`
    /// and `seed`), and a note if the user's shrinker failed.
    fn shrink(
        &mut self,
        cand: Vec<Value>,
        size: u64,
        seed: u64,
        rng: &mut StdRng,
    ) -> (Vec<Value>, Option<String>) {
        let mut cur = cand;
        let mut steps = 0;
        if let Some(s) = self.attr.shrink.clone() {
            let note = self.user_shrink(&s, &mut cur, rng);
            return (cur, note);
        }
        if let Some(g) = self.attr.gen.clone() {
            // The same seed at smaller sizes.
            for smaller in (0..size).rev() {
                if steps >= SHRINK_STEPS {
                    break;
                }
                steps += 1;
                match self.call_gen(&g, smaller, seed) {
                    Ok(vs) if self.fits(&vs) => {
                        if self.fails(&vs) {
                            cur = vs;
                        }
                    }
                    _ => break,
                }
            }
        }
        if self.shape.is_some() {
            self.builtin_shrink(&mut cur, &mut steps);
        }
        (cur, None)
    }

    /// Greedy shrinking with [`moves`].
    fn builtin_shrink(&mut self, cur: &mut Vec<Value>, steps: &mut usize) {
        loop {
            let mut improved = false;
            for m in moves(cur) {
                if *steps >= SHRINK_STEPS {
                    return;
                }
                let c = apply(cur, &m);
                *steps += 1;
                if self.fails(&c) {
                    *cur = c;
                    improved = true;
                    break;
                }
            }
            if !improved {
                return;
            }
        }
    }

    /// Shrinking with the user's shrinker `s`: stops after
    /// [`SHRINK_TRIES`] calls in a row without a smaller counterexample.
    fn user_shrink(&mut self, s: &str, cur: &mut Vec<Value>, rng: &mut StdRng) -> Option<String> {
        let mut tries = 0;
        let mut steps = 0;
        while tries < SHRINK_TRIES && steps < SHRINK_STEPS {
            steps += 1;
            let r: u64 = rng.gen();
            let mut args = cur.clone();
            args.push(Value::Scalar(Scalar::U64(r)));
            let next = match self.program.call(s, args) {
                Ok(vs) if self.fits(&vs) => vs,
                Ok(vs) => {
                    return Some(format!(
                        "the shrinker `{s}` returned {} values, not a `{}`",
                        vs.len(),
                        self.type_name
                    ))
                }
                Err(e) => {
                    return Some(format!(
                        "the shrinker `{s}` failed with random value {r}:\n{}",
                        e.render().trim_end()
                    ))
                }
            };
            if next != *cur && self.fails(&next) {
                *cur = next;
                tries = 0;
            } else {
                tries += 1;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32s(xs: &[i32]) -> Value {
        Value::Array(ArrayValue {
            shape: vec![xs.len()],
            data: ArrayData::I32(xs.to_vec()),
        })
    }

    #[test]
    fn numbers_shrink_towards_zero() {
        assert_eq!(
            smaller(Scalar::I32(5)),
            [Scalar::I32(0), Scalar::I32(3), Scalar::I32(4)]
        );
        assert_eq!(smaller(Scalar::I32(-1)), [Scalar::I32(0), Scalar::I32(1)]);
        assert_eq!(
            smaller(Scalar::I8(-128)),
            [
                Scalar::I8(0),
                Scalar::I8(-64),
                Scalar::I8(-96),
                Scalar::I8(-112),
                Scalar::I8(-120),
                Scalar::I8(-124),
                Scalar::I8(-126),
                Scalar::I8(-127)
            ]
        );
        assert_eq!(smaller(Scalar::U8(0)), []);
        assert_eq!(smaller(Scalar::Bool(true)), [Scalar::Bool(false)]);
        assert_eq!(smaller(Scalar::Bool(false)), []);
        assert_eq!(
            smaller(Scalar::F32(-2.5)),
            [Scalar::F32(0.0), Scalar::F32(2.5), Scalar::F32(-2.0)]
        );
        assert_eq!(
            smaller(Scalar::F64(11.0)),
            [
                Scalar::F64(0.0),
                Scalar::F64(6.0),
                Scalar::F64(9.0),
                Scalar::F64(10.0)
            ]
        );
        assert_eq!(smaller(Scalar::F64(f64::NAN)), [Scalar::F64(0.0)]);
    }

    #[test]
    fn chunks_go_from_everything_to_single_indices() {
        assert_eq!(chunks(1), [(0, 1)]);
        assert_eq!(chunks(3), [(0, 3), (0, 1), (1, 2), (2, 3)]);
        assert_eq!(
            chunks(4),
            [(0, 4), (0, 2), (2, 4), (0, 1), (1, 2), (2, 3), (3, 4)]
        );
    }

    #[test]
    fn joint_removal_keeps_equal_extents_equal() {
        let m = Value::Array(ArrayValue {
            shape: vec![2, 2],
            data: ArrayData::I32(vec![1, 2, 3, 4]),
        });
        let c = apply(
            &[m, i32s(&[5, 6])],
            &Move::Joint {
                len: 2,
                start: 0,
                end: 1,
            },
        );
        assert_eq!(
            c,
            [
                Value::Array(ArrayValue {
                    shape: vec![1, 1],
                    data: ArrayData::I32(vec![4]),
                }),
                i32s(&[6])
            ]
        );
    }

    #[test]
    fn records_and_arrays_of_tuples_print_in_futhark_syntax() {
        let pair = Shape::Record {
            tuple: true,
            fields: vec![
                ("0".into(), Shape::Leaf(PrimType::Int(IntType::I32), 0)),
                ("1".into(), Shape::Leaf(PrimType::Bool, 0)),
            ],
        };
        let arr = Shape::Array(1, Box::new(pair.clone()));
        let bools = Value::Array(ArrayValue {
            shape: vec![2],
            data: ArrayData::Bool(vec![true, false]),
        });
        assert_eq!(
            show(Some(&arr), "", &[i32s(&[1, 2]), bools]),
            "[(1i32, true), (2i32, false)]"
        );
        let empty = Value::Array(ArrayValue {
            shape: vec![0],
            data: ArrayData::Bool(vec![]),
        });
        assert_eq!(
            show(Some(&arr), "", &[i32s(&[]), empty]),
            "empty([0](i32, bool))"
        );
        let rec = Shape::Record {
            tuple: false,
            fields: vec![
                ("x".into(), Shape::Leaf(PrimType::Int(IntType::I32), 1)),
                ("y".into(), Shape::Leaf(PrimType::Bool, 0)),
            ],
        };
        assert_eq!(
            show(
                Some(&rec),
                "",
                &[i32s(&[3]), Value::Scalar(Scalar::Bool(true))]
            ),
            "{x = [3i32], y = true}"
        );
        assert_eq!(
            show(None, "t", &[Value::Scalar(Scalar::I64(1))]),
            "<t: 1i64>"
        );
    }
}
