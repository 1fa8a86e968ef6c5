//! Showing types and values as Futhark writes them.
//!
//! A value comes back from the interpreter as the *leaves* its type is
//! flattened into by lowering (`parad_types::api::leaves_of`): each
//! primitive or array of primitives in a tuple, record or sum is a value
//! of its own, an array of tuples is a tuple of arrays, and a sum is its
//! tag followed by the payloads of every constructor. [`write_value`]
//! puts the value back together by walking the type: values of type
//! `(i32, [2]f64)` print as `(1i32, [0.5f64, 1.0f64])`, records as
//! `{x = 1i32, y = true}`, sums as `#some 1i32`, arrays of tuples as
//! arrays of tuples. A primitive or an array of primitives (the common
//! case) is written by `parad_values::write_text` as it is encoded, as
//! `parad run` writes it, so a large array is never held as text.

use parad_types::api::leaves_of;
use parad_types::tast::{Dim, TProgram, Type};
use parad_values::{scalar_to_text, Value};
use std::io::{self, Write};

/// Whether a value of type `t` holds a function.
pub fn has_function(t: &Type) -> bool {
    match t {
        Type::Arrow(..) => true,
        Type::Array(e, _) => has_function(e),
        Type::Tuple(ts) => ts.iter().any(has_function),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_function(t)),
        Type::Sum(cs) => cs.iter().flat_map(|(_, ts)| ts).any(has_function),
        Type::Prim(_) | Type::Acc(_) | Type::Param(_) | Type::Var(_) => false,
    }
}

/// The type as Futhark writes it, with known sizes (`[3]i64`, `[n]f32`)
/// and `[]` for unknown ones.
pub fn type_text(t: &Type, prog: &TProgram) -> String {
    let mut s = String::new();
    write_type(&mut s, t, prog);
    s
}

fn write_type(s: &mut String, t: &Type, prog: &TProgram) {
    match t {
        Type::Prim(p) => s.push_str(p.name()),
        Type::Array(e, ds) => {
            for d in ds {
                s.push('[');
                s.push_str(&dim_text(d, prog));
                s.push(']');
            }
            write_atom(s, e, prog);
        }
        Type::Tuple(ts) => {
            s.push('(');
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_type(s, t, prog);
            }
            s.push(')');
        }
        Type::Record(fs) => {
            s.push('{');
            for (i, (name, t)) in fs.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(name);
                s.push_str(": ");
                write_type(s, t, prog);
            }
            s.push('}');
        }
        Type::Arrow(a, b) => {
            write_atom(s, a, prog);
            s.push_str(" -> ");
            write_type(s, b, prog);
        }
        Type::Acc(t) => {
            s.push_str("acc ");
            write_atom(s, t, prog);
        }
        Type::Sum(cs) => {
            for (i, (name, ts)) in cs.iter().enumerate() {
                if i > 0 {
                    s.push_str(" | ");
                }
                s.push('#');
                s.push_str(name);
                for t in ts {
                    s.push(' ');
                    write_atom(s, t, prog);
                }
            }
        }
        Type::Param(p) => match prog.type_params.get(p.0 as usize) {
            Some(name) => s.push_str(name),
            None => s.push_str(&format!("t{}", p.0)),
        },
        Type::Var(_) => s.push('?'),
    }
}

/// A type in parentheses unless it is one token or bracketed.
fn write_atom(s: &mut String, t: &Type, prog: &TProgram) {
    let bare = match t {
        Type::Arrow(..) | Type::Acc(_) => false,
        Type::Sum(cs) => cs.len() == 1 && cs[0].1.is_empty(),
        Type::Array(e, _) => !matches!(**e, Type::Sum(_) | Type::Arrow(..)),
        _ => true,
    };
    if bare {
        write_type(s, t, prog);
    } else {
        s.push('(');
        write_type(s, t, prog);
        s.push(')');
    }
}

fn dim_text(d: &Dim, prog: &TProgram) -> String {
    d.show(
        &|v| {
            prog.vars
                .get(v.0 as usize)
                .map_or_else(String::new, |i| i.name.clone())
        },
        "",
    )
}

/// Writes the value whose leaves are `leaves` and whose type is `t`, in
/// Futhark's syntax, without a final newline.
pub fn write_value(out: &mut impl Write, t: &Type, leaves: &[Value]) -> io::Result<()> {
    if let [leaf] = leaves {
        if is_plain(t) {
            return parad_values::write_text(leaf, out);
        }
    }
    let mut s = String::new();
    Walk { out: &mut s }.value(t, leaves, 0, 0);
    out.write_all(s.as_bytes())
}

/// A primitive or an array of primitives: one leaf, printed as it is.
fn is_plain(t: &Type) -> bool {
    match t {
        Type::Prim(_) => true,
        Type::Array(e, _) => matches!(**e, Type::Prim(_)),
        _ => false,
    }
}

fn leaf_count(t: &Type) -> usize {
    let mut v = vec![];
    leaves_of(t, 0, &mut v);
    v.len()
}

/// Rebuilds a value from its leaves.
struct Walk<'a> {
    out: &'a mut String,
}

impl Walk<'_> {
    /// The part of the value of type `t` at position `at` (row-major over
    /// the leading `depth` dimensions that every leaf of `t` shares).
    fn value(&mut self, t: &Type, leaves: &[Value], depth: usize, at: usize) {
        match t {
            Type::Prim(_) => match leaves.first().and_then(|l| scalar(l, depth, at)) {
                Some(s) => self.out.push_str(&scalar_to_text(s)),
                None => self.out.push('?'),
            },
            Type::Array(e, ds) => {
                // The array's shape is the next dimensions of its leaves.
                let Some(leaf) = leaves.first() else {
                    // No leaves (an array of empty tuples): no length known.
                    self.out.push_str("[]");
                    return;
                };
                if let (Type::Prim(_), Value::Array(a)) = (&**e, leaf) {
                    match a.sub_array(depth, at) {
                        Some(sub) => self
                            .out
                            .push_str(&parad_values::to_text(&Value::Array(sub))),
                        None => self.out.push('?'),
                    }
                    return;
                }
                let shape = leaf.shape().get(depth..depth + ds.len()).unwrap_or(&[]);
                if shape.contains(&0) || shape.len() < ds.len() {
                    self.empty(e, shape);
                    return;
                }
                let n = shape[0];
                let elem = if ds.len() > 1 {
                    Type::Array(e.clone(), ds[1..].to_vec())
                } else {
                    (**e).clone()
                };
                self.out.push('[');
                for i in 0..n {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(&elem, leaves, depth + 1, at * n + i);
                }
                self.out.push(']');
            }
            Type::Tuple(ts) => {
                self.out.push('(');
                let mut rest = leaves;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    let (mine, others) = rest.split_at(leaf_count(t).min(rest.len()));
                    self.value(t, mine, depth, at);
                    rest = others;
                }
                self.out.push(')');
            }
            Type::Record(fs) => {
                self.out.push('{');
                let mut rest = leaves;
                for (i, (name, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str(name);
                    self.out.push_str(" = ");
                    let (mine, others) = rest.split_at(leaf_count(t).min(rest.len()));
                    self.value(t, mine, depth, at);
                    rest = others;
                }
                self.out.push('}');
            }
            Type::Sum(cs) => {
                let tag = leaves
                    .first()
                    .and_then(|l| scalar(l, depth, at))
                    .and_then(tag_number);
                let Some((name, ts)) = tag.and_then(|k| cs.get(k)) else {
                    self.out.push('?');
                    return;
                };
                // The payloads of the constructors before this one come first.
                let tag = tag.unwrap_or(0);
                let skip: usize = cs[..tag]
                    .iter()
                    .flat_map(|(_, ts)| ts)
                    .map(leaf_count)
                    .sum();
                let mut rest = leaves.get(1 + skip..).unwrap_or(&[]);
                self.out.push('#');
                self.out.push_str(name);
                for t in ts {
                    let (mine, others) = rest.split_at(leaf_count(t).min(rest.len()));
                    self.out.push(' ');
                    let paren = needs_parens(t);
                    if paren {
                        self.out.push('(');
                    }
                    self.value(t, mine, depth, at);
                    if paren {
                        self.out.push(')');
                    }
                    rest = others;
                }
            }
            Type::Arrow(..) | Type::Acc(_) | Type::Param(_) | Type::Var(_) => {
                self.out.push_str("<function>");
            }
        }
    }

    /// An empty array of elements of type `elem`, written `empty([0]t)`.
    fn empty(&mut self, elem: &Type, shape: &[usize]) {
        self.out.push_str("empty(");
        for d in shape {
            self.out.push_str(&format!("[{d}]"));
        }
        let no_names = TProgram {
            funs: vec![],
            vars: vec![],
            type_params: vec![],
        };
        let mut e = String::new();
        write_atom(&mut e, &strip_dims(elem), &no_names);
        self.out.push_str(&e);
        self.out.push(')');
    }
}

/// The type with every size unknown (printed `[]`).
fn strip_dims(t: &Type) -> Type {
    t.map_dims(&|_| Dim::Any)
}

/// The constructor number held by a sum's tag.
fn tag_number(s: parad_values::Scalar) -> Option<usize> {
    use parad_values::Scalar as S;
    match s {
        S::I8(x) => usize::try_from(x).ok(),
        S::I16(x) => usize::try_from(x).ok(),
        S::I32(x) => usize::try_from(x).ok(),
        S::I64(x) => usize::try_from(x).ok(),
        S::U8(x) => Some(usize::from(x)),
        S::U16(x) => Some(usize::from(x)),
        S::U32(x) => usize::try_from(x).ok(),
        S::U64(x) => usize::try_from(x).ok(),
        _ => None,
    }
}

/// A constructor's payload in parentheses: a sum with a payload.
fn needs_parens(t: &Type) -> bool {
    matches!(t, Type::Sum(cs) if cs.iter().any(|(_, ts)| !ts.is_empty()))
}

/// Element `at` (row-major over all dimensions) of a leaf with `depth`
/// dimensions; the scalar itself at depth 0.
fn scalar(leaf: &Value, depth: usize, at: usize) -> Option<parad_values::Scalar> {
    match leaf {
        Value::Scalar(s) if depth == 0 => Some(*s),
        Value::Scalar(_) => None,
        Value::Array(a) if a.rank() == depth => a.data.get(at),
        Value::Array(_) => None,
    }
}
