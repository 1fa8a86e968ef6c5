//! Exhaustiveness of `match`: whether some value of the scrutinee's type
//! is matched by no case, with an example of such a value for the error.
//!
//! The usual algorithm on pattern matrices: a column of a type with a
//! finite set of constructors (tuples and records have one, sum types
//! theirs, `bool` two) is split by constructor when the column's
//! patterns name all of them, otherwise only the rows with a wildcard
//! there are kept and a missing constructor (or `_` for types with
//! infinitely many values) starts the example.

use crate::tast::{Literal, TPat, Type};

/// A pattern reduced to what matters for exhaustiveness.
#[derive(Clone, Debug)]
enum P {
    Wild,
    Con(Ctor, Vec<P>),
}

#[derive(Clone, Debug, PartialEq)]
enum Ctor {
    /// The one constructor of a tuple, or of a record (field names).
    Tuple,
    Record(Vec<String>),
    /// A sum type's constructor.
    Sum(String),
    /// A literal: `true`/`false` are the two constructors of `bool`;
    /// other literals never cover their type.
    Lit(LitKey),
}

/// A literal compared by value (floats by their bits).
#[derive(Clone, Debug, PartialEq)]
enum LitKey {
    Int(i128),
    Float(u64),
    Bool(bool),
}

fn lower(p: &TPat) -> P {
    match p {
        TPat::Var(..) | TPat::Wildcard(..) => P::Wild,
        TPat::Tuple(ps, _) => P::Con(Ctor::Tuple, ps.iter().map(lower).collect()),
        TPat::Record(fs, _) => P::Con(
            Ctor::Record(fs.iter().map(|(n, _)| n.clone()).collect()),
            fs.iter().map(|(_, p)| lower(p)).collect(),
        ),
        TPat::Constr(n, ps, _, _) => P::Con(Ctor::Sum(n.clone()), ps.iter().map(lower).collect()),
        TPat::Lit(l, _, _) => P::Con(
            Ctor::Lit(match l {
                Literal::Int(i) => LitKey::Int(*i),
                Literal::Float(x) => LitKey::Float(x.to_bits()),
                Literal::Bool(b) => LitKey::Bool(*b),
            }),
            vec![],
        ),
    }
}

/// Every constructor of type `t` with its field types, if it has
/// finitely many.
fn signature(t: &Type) -> Option<Vec<(Ctor, Vec<Type>)>> {
    match t {
        Type::Tuple(ts) => Some(vec![(Ctor::Tuple, ts.clone())]),
        Type::Record(fs) => Some(vec![(
            Ctor::Record(fs.iter().map(|(n, _)| n.clone()).collect()),
            fs.iter().map(|(_, t)| t.clone()).collect(),
        )]),
        Type::Sum(cs) => Some(
            cs.iter()
                .map(|(n, ts)| (Ctor::Sum(n.clone()), ts.clone()))
                .collect(),
        ),
        Type::Prim(parad_base::PrimType::Bool) => Some(vec![
            (Ctor::Lit(LitKey::Bool(false)), vec![]),
            (Ctor::Lit(LitKey::Bool(true)), vec![]),
        ]),
        _ => None,
    }
}

/// The rows starting with constructor `c` (of `arity` fields) or a
/// wildcard, with the head replaced by its fields.
fn specialise(rows: &[Vec<P>], c: &Ctor, arity: usize) -> Vec<Vec<P>> {
    rows.iter()
        .filter_map(|r| {
            let mut out = match &r[0] {
                P::Wild => vec![P::Wild; arity],
                P::Con(d, ps) if d == c => ps.clone(),
                P::Con(..) => return None,
            };
            out.extend(r[1..].iter().cloned());
            Some(out)
        })
        .collect()
}

/// A sequence of values (one per type of `tys`) that no row matches,
/// if there is one.
fn missing(rows: &[Vec<P>], tys: &[Type]) -> Option<Vec<P>> {
    let Some((t, rest)) = tys.split_first() else {
        return rows.is_empty().then(Vec::new);
    };
    let heads: Vec<&Ctor> = rows
        .iter()
        .filter_map(|r| match &r[0] {
            P::Con(c, _) => Some(c),
            P::Wild => None,
        })
        .collect();
    let sig = signature(t);
    if let Some(sig) = &sig {
        let complete = sig.len() == 1 || sig.iter().all(|(c, _)| heads.contains(&c));
        if complete {
            for (c, fts) in sig {
                let spec = specialise(rows, c, fts.len());
                let mut tys2 = fts.clone();
                tys2.extend(rest.iter().cloned());
                if let Some(mut w) = missing(&spec, &tys2) {
                    let tail = w.split_off(fts.len());
                    let mut out = vec![P::Con(c.clone(), w)];
                    out.extend(tail);
                    return Some(out);
                }
            }
            return None;
        }
    }
    let default: Vec<Vec<P>> = rows
        .iter()
        .filter(|r| matches!(r[0], P::Wild))
        .map(|r| r[1..].to_vec())
        .collect();
    let w = missing(&default, rest)?;
    let head = match &sig {
        Some(sig) if !heads.is_empty() => sig
            .iter()
            .find(|(c, _)| !heads.contains(&c))
            .map(|(c, fts)| P::Con(c.clone(), vec![P::Wild; fts.len()]))
            .unwrap_or(P::Wild),
        _ => P::Wild,
    };
    let mut out = vec![head];
    out.extend(w);
    Some(out)
}

fn show(p: &P, atom: bool) -> String {
    match p {
        P::Wild => "_".to_string(),
        P::Con(Ctor::Tuple, ps) => format!(
            "({})",
            ps.iter()
                .map(|p| show(p, false))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        P::Con(Ctor::Record(ns), ps) => format!(
            "{{{}}}",
            ns.iter()
                .zip(ps)
                .map(|(n, p)| format!("{n} = {}", show(p, false)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        P::Con(Ctor::Sum(n), ps) => {
            let mut s = format!("#{n}");
            for p in ps {
                s.push(' ');
                s.push_str(&show(p, true));
            }
            if atom && !ps.is_empty() {
                format!("({s})")
            } else {
                s
            }
        }
        P::Con(Ctor::Lit(l), _) => match l {
            LitKey::Int(i) => i.to_string(),
            LitKey::Float(x) => f64::from_bits(*x).to_string(),
            LitKey::Bool(b) => b.to_string(),
        },
    }
}

/// A value of type `ty` that none of `pats` matches, printed as a
/// pattern (`#foo (#moo _ #none)`), or `None` if the patterns are
/// exhaustive.
pub(crate) fn unmatched(ty: &Type, pats: &[&TPat]) -> Option<String> {
    let rows: Vec<Vec<P>> = pats.iter().map(|p| vec![lower(p)]).collect();
    let w = missing(&rows, std::slice::from_ref(ty))?;
    Some(show(&w[0], false))
}
