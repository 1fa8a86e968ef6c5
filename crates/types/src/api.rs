//! The external interface of entry points, as Futhark's C API, server
//! protocol and manifest present it (the "value mapping").
//!
//! A primitive is passed as itself and an array of primitives as an array
//! object; every other type is *opaque*: a record (tuples included), a sum,
//! an array of records, an array of other opaque values, or an abstract
//! type. An opaque type is named after the type written in the entry
//! point's signature: a type name as written (`t1`, `m.t`), else the type
//! printed from its parts (`(i32, []f32)`, `[]v3`). The C name follows
//! Futhark: the name itself when it is a C identifier, `tupN_…` for tuples
//! and `arrNd_…` for arrays, else a hash of the name.
//!
//! Each type also knows its *leaves*: the primitive values and arrays that
//! lowering flattens it into (`parad_lower::value::leaf_types`), in order.
//! An entry point's core function takes its parameters' leaves, one after
//! another, and returns its result's leaves.

use crate::tast::{sum_tag_type, Type};
use parad_base::PrimType;
use parad_syntax::ast::{Attr, Pat, TypeExp};
use std::fmt::Write;
use std::sync::Arc;

/// An entry point as the C API presents it.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiEntry {
    pub params: Vec<ApiParam>,
    pub result: ApiType,
    /// The result is declared unique (`*t`).
    pub result_unique: bool,
    /// The entry point's attributes, as written between `#[` and `]`.
    pub attrs: Vec<String>,
    pub doc: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ApiParam {
    /// The parameter's name, when its pattern is a name.
    pub name: Option<String>,
    pub ty: ApiType,
    /// Declared unique (consumed: `*t`).
    pub unique: bool,
}

/// A leaf: a primitive (rank 0) or an array of primitives.
pub type Leaf = (PrimType, usize);

#[derive(Clone, Debug, PartialEq)]
pub enum ApiType {
    Prim(PrimType),
    /// An array of primitives of the rank.
    Array(PrimType, usize),
    Opaque(Arc<Opaque>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Opaque {
    /// Futhark's name of the type (the server's `types`, the manifest).
    pub name: String,
    /// The name in C identifiers: `futhark_opaque_<cname>`.
    pub cname: String,
    pub kind: OpaqueKind,
    pub leaves: Vec<Leaf>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OpaqueKind {
    /// A record or tuple (fields `0`, `1`, … in order), with its fields
    /// in the order `new` takes them and their leaves, in order.
    Record(Vec<Field>),
    /// Constructors in their API order (sorted by name, as the
    /// representation has them); each with its payload. The leaves are
    /// the tag, then every constructor's payload leaves in order.
    Sum(Vec<(String, Vec<ApiType>)>),
    /// An array of records: its element type and the arrays of the
    /// element's fields (what `zip` takes and `project` gives).
    RecordArray {
        rank: usize,
        elem: ApiType,
        fields: Vec<Field>,
    },
    /// An array of any other opaque type.
    OpaqueArray { rank: usize, elem: ApiType },
    /// A type whose definition is hidden by a module type.
    Abstract,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: ApiType,
}

impl ApiType {
    /// Futhark's name of the type.
    pub fn name(&self) -> String {
        match self {
            ApiType::Prim(p) => p.name().to_string(),
            ApiType::Array(p, r) => format!("{}{}", "[]".repeat(*r), p.name()),
            ApiType::Opaque(o) => o.name.clone(),
        }
    }

    /// The type's part of C names: `i32`, `f64_2d`, `opaque_t`.
    pub fn cname(&self) -> String {
        match self {
            ApiType::Prim(p) => p.name().to_string(),
            ApiType::Array(p, r) => format!("{}_{}d", p.name(), r),
            ApiType::Opaque(o) => format!("opaque_{}", o.cname),
        }
    }

    /// The name used inside the C names of types built from this one
    /// (`tup2_i32_arr1d_f32`).
    fn inner_cname(&self) -> String {
        match self {
            ApiType::Prim(p) => p.name().to_string(),
            ApiType::Array(p, r) => format!("arr{r}d_{}", p.name()),
            ApiType::Opaque(o) => o.cname.clone(),
        }
    }

    pub fn leaves(&self) -> Vec<Leaf> {
        match self {
            ApiType::Prim(p) => vec![(*p, 0)],
            ApiType::Array(p, r) => vec![(*p, *r)],
            ApiType::Opaque(o) => o.leaves.clone(),
        }
    }

    pub fn opaque(&self) -> Option<&Opaque> {
        match self {
            ApiType::Opaque(o) => Some(o),
            _ => None,
        }
    }

    /// Every type this one is built from, itself last, each once.
    pub fn collect(&self, out: &mut Vec<ApiType>) {
        if out.contains(self) {
            return;
        }
        if let ApiType::Opaque(o) = self {
            match &o.kind {
                OpaqueKind::Record(fs) => fs.iter().for_each(|f| f.ty.collect(out)),
                OpaqueKind::Sum(cs) => cs.iter().flat_map(|c| &c.1).for_each(|t| t.collect(out)),
                OpaqueKind::RecordArray { elem, fields, .. } => {
                    elem.collect(out);
                    fields.iter().for_each(|f| f.ty.collect(out));
                }
                OpaqueKind::OpaqueArray { elem, .. } => elem.collect(out),
                OpaqueKind::Abstract => {}
            }
        }
        if !out.contains(self) {
            out.push(self.clone());
        }
    }
}

/// The leaves of a type without abstract types (lowering's flattening).
pub fn leaves_of(t: &Type, outer: usize, out: &mut Vec<Leaf>) {
    match t {
        Type::Prim(p) => out.push((*p, outer)),
        Type::Array(e, ds) => leaves_of(e, outer + ds.len(), out),
        Type::Tuple(ts) => ts.iter().for_each(|t| leaves_of(t, outer, out)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| leaves_of(t, outer, out)),
        Type::Sum(cs) => {
            out.push((sum_tag_type(cs.len()), outer));
            cs.iter()
                .flat_map(|(_, ts)| ts)
                .for_each(|t| leaves_of(t, outer, out));
        }
        // Entry points take no functions, accumulators or unknown types
        // (the checker rejects them).
        Type::Arrow(..) | Type::Acc(_) | Type::Param(_) | Type::Var(_) => {}
    }
}

/// Builds [`ApiType`]s from the types of an entry point's signature as
/// written (where written) and as checked.
pub(crate) struct ApiBuilder<'a> {
    /// Abstract types by their representation (the checker's).
    pub expand: &'a dyn Fn(&Type) -> Type,
    /// The source name of a type parameter (abstract type).
    pub param_name: &'a dyn Fn(crate::tast::TypeParamId) -> String,
    /// The definition as written of a top-level type abbreviation.
    pub type_def: &'a dyn Fn(&str) -> Option<&'a TypeExp>,
}

impl ApiBuilder<'_> {
    /// The type `t` (abstract types kept), written as `te` where known.
    pub fn build(&self, te: Option<&TypeExp>, t: &Type) -> ApiType {
        let te = te.map(strip_unique);
        match t {
            Type::Prim(p) => return ApiType::Prim(*p),
            Type::Array(e, ds) => {
                if let Type::Prim(p) = &**e {
                    return ApiType::Array(*p, ds.len());
                }
            }
            _ => {}
        }
        let written = te.and_then(|te| match te {
            TypeExp::Named { name, .. } => {
                let mut s = name.quals.join(".");
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(&name.name);
                Some(s)
            }
            _ => None,
        });
        // The syntax the parts are written in: the type as written, or the
        // definition of the abbreviation it names.
        let mut body = te;
        for _ in 0..16 {
            match body {
                Some(TypeExp::Named { name, .. }) if name.quals.is_empty() => {
                    match (self.type_def)(&name.name) {
                        Some(d) => body = Some(strip_unique(d)),
                        None => break,
                    }
                }
                _ => break,
            }
        }
        let te_parts = body;
        let parts: Option<Vec<&TypeExp>> = te_parts.and_then(|te| match te {
            TypeExp::Tuple(ts, _) => Some(ts.iter().collect()),
            TypeExp::Record(fs, _) => Some(fs.iter().map(|(_, t)| t).collect()),
            _ => None,
        });
        let part = |k: usize| parts.as_ref().and_then(|p| p.get(k).copied());
        let (kind, structural, cstructural) = match t {
            Type::Tuple(ts) => {
                let fields: Vec<Field> = ts
                    .iter()
                    .enumerate()
                    .map(|(k, t)| Field {
                        name: k.to_string(),
                        ty: self.build(part(k), t),
                    })
                    .collect();
                let (name, cname) = tuple_names(&fields);
                (OpaqueKind::Record(fields), name, Some(cname))
            }
            Type::Record(fs) => {
                let fields: Vec<Field> = fs
                    .iter()
                    .map(|(n, t)| {
                        // Syntax fields are in source order.
                        let te = te_parts.and_then(|te| match te {
                            TypeExp::Record(sf, _) => {
                                sf.iter().find(|(i, _)| &i.name == n).map(|(_, t)| t)
                            }
                            _ => None,
                        });
                        Field {
                            name: n.clone(),
                            ty: self.build(te, t),
                        }
                    })
                    .collect();
                let name = format!(
                    "{{{}}}",
                    fields
                        .iter()
                        .map(|f| format!("{}: {}", f.name, f.ty.name()))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                (OpaqueKind::Record(fields), name, None)
            }
            Type::Sum(cs) => {
                let cons: Vec<(String, Vec<ApiType>)> = cs
                    .iter()
                    .map(|(c, ts)| {
                        let written: Option<&Vec<TypeExp>> = te_parts.and_then(|te| match te {
                            TypeExp::Sum(cs, _) => {
                                cs.iter().find(|(i, _)| &i.name == c).map(|(_, ts)| ts)
                            }
                            _ => None,
                        });
                        let payload = ts
                            .iter()
                            .enumerate()
                            .map(|(k, t)| self.build(written.and_then(|w| w.get(k)), t))
                            .collect();
                        (c.clone(), payload)
                    })
                    .collect();
                let name = cons
                    .iter()
                    .map(|(c, ts)| {
                        let mut s = format!("#{c}");
                        for t in ts {
                            let _ = write!(s, " {}", t.name());
                        }
                        s
                    })
                    .collect::<Vec<_>>()
                    .join(" | ");
                (OpaqueKind::Sum(cons), name, None)
            }
            Type::Array(e, ds) => {
                let rank = ds.len();
                let elem_te = te_parts.and_then(|te| array_elem(te, rank));
                let elem = self.build(elem_te, e);
                let name = format!("{}{}", "[]".repeat(rank), elem.name());
                let cname = format!("arr{rank}d_{}", elem.inner_cname());
                let kind = match (&**e, &elem) {
                    (_, ApiType::Opaque(o)) if matches!(o.kind, OpaqueKind::Record(_)) => {
                        let OpaqueKind::Record(fs) = &o.kind else {
                            unreachable!()
                        };
                        let fields = fs
                            .iter()
                            .map(|f| Field {
                                name: f.name.clone(),
                                ty: self.array_of(&f.ty, rank, e, &f.name),
                            })
                            .collect();
                        OpaqueKind::RecordArray { rank, elem, fields }
                    }
                    _ => OpaqueKind::OpaqueArray { rank, elem },
                };
                (kind, name, Some(cname))
            }
            Type::Param(p) => {
                let name = (self.param_name)(*p);
                // Futhark's manifest describes an abstract type by its
                // representation when that is a record or a sum.
                let rep = (self.expand)(t);
                let kind = match self.build(None, &rep) {
                    ApiType::Opaque(o) if rep != *t => match &o.kind {
                        k @ (OpaqueKind::Record(_) | OpaqueKind::Sum(_)) => k.clone(),
                        _ => OpaqueKind::Abstract,
                    },
                    _ => OpaqueKind::Abstract,
                };
                (kind, name, None)
            }
            Type::Arrow(..) | Type::Acc(_) | Type::Var(_) | Type::Prim(_) => {
                (OpaqueKind::Abstract, String::from("?"), None)
            }
        };
        let name = written.unwrap_or(structural);
        let cname = if is_c_ident(&name) {
            name.clone()
        } else {
            cstructural
                .filter(|c| is_c_ident(c))
                .unwrap_or_else(|| hash_name(&name))
        };
        let mut leaves = vec![];
        leaves_of(&(self.expand)(t), 0, &mut leaves);
        ApiType::Opaque(Arc::new(Opaque {
            name,
            cname,
            kind,
            leaves,
        }))
    }

    /// The array of `rank` dimensions of a record array's field `field`
    /// (of API type `ft`), the record being `elem` as checked.
    fn array_of(&self, ft: &ApiType, rank: usize, elem: &Type, field: &str) -> ApiType {
        let ft_checked = match elem {
            Type::Tuple(ts) => field.parse::<usize>().ok().and_then(|k| ts.get(k)),
            Type::Record(fs) => fs.iter().find(|(n, _)| n == field).map(|(_, t)| t),
            _ => None,
        };
        match (ft, ft_checked) {
            (ApiType::Prim(p), _) => ApiType::Array(*p, rank),
            (ApiType::Array(p, r), _) => ApiType::Array(*p, r + rank),
            (ApiType::Opaque(o), Some(t)) => {
                let arr = Type::Array(Box::new(t.clone()), vec![crate::tast::Dim::Any; rank]);
                // Named after the field's type as the signature names it.
                let built = self.build(None, &arr);
                let ApiType::Opaque(b) = built else {
                    return built;
                };
                let name = format!("{}{}", "[]".repeat(rank), o.name);
                let cname = format!("arr{rank}d_{}", o.cname);
                let mut b = (*b).clone();
                if let OpaqueKind::RecordArray { elem, .. } | OpaqueKind::OpaqueArray { elem, .. } =
                    &mut b.kind
                {
                    *elem = ft.clone();
                }
                b.cname = if is_c_ident(&name) {
                    name.clone()
                } else {
                    cname
                };
                b.name = name;
                ApiType::Opaque(Arc::new(b))
            }
            (ApiType::Opaque(_), None) => ft.clone(),
        }
    }
}

/// Futhark's name and the C name of a tuple of `fields`:
/// `(i32, []f32)` and `tup2_i32_arr1d_f32`.
fn tuple_names(fields: &[Field]) -> (String, String) {
    let names: Vec<String> = fields.iter().map(|f| f.ty.name()).collect();
    let mut cname = format!("tup{}", fields.len());
    for f in fields {
        let _ = write!(cname, "_{}", f.ty.inner_cname());
    }
    (format!("({})", names.join(", ")), cname)
}

/// `te` without a uniqueness mark.
pub(crate) fn strip_unique(te: &TypeExp) -> &TypeExp {
    match te {
        TypeExp::Unique(t, _) => strip_unique(t),
        t => t,
    }
}

/// Whether `te` is marked unique.
pub(crate) fn is_unique(te: &TypeExp) -> bool {
    matches!(te, TypeExp::Unique(..))
}

/// The element type written in the array type `te` of `rank` dimensions.
fn array_elem(te: &TypeExp, rank: usize) -> Option<&TypeExp> {
    let mut te = strip_unique(te);
    for _ in 0..rank {
        match te {
            TypeExp::Array(_, e, _) => te = strip_unique(e),
            _ => return None,
        }
    }
    Some(te)
}

fn is_c_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A name for a type whose name is no C identifier: 32 hexadecimal
/// digits of a 128-bit FNV-1a hash of the name.
fn hash_name(s: &str) -> String {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for b in s.bytes() {
        h ^= b as u128;
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    format!("{h:032x}")
}

/// The parameter's name and written type, when its pattern has them.
pub(crate) fn pat_parts(p: &Pat) -> (Option<String>, Option<&TypeExp>) {
    match p {
        Pat::Id(i) => (Some(i.name.clone()), None),
        Pat::Ascribe(inner, te, _) => (pat_parts(inner).0, Some(te)),
        Pat::Attr(_, inner, _) => pat_parts(inner),
        _ => (None, None),
    }
}

/// An attribute as written between `#[` and `]`.
pub(crate) fn attr_text(a: &Attr) -> String {
    match a {
        Attr::Atom(s, _) => s.clone(),
        Attr::Int(i, _) => i.to_string(),
        Attr::Comp(s, args, _) => format!(
            "{s}({})",
            args.iter().map(attr_text).collect::<Vec<_>>().join(", ")
        ),
    }
}

impl ApiEntry {
    /// The interface of an entry point known only by its leaves (a
    /// program read from printed IR): each parameter one leaf, the result
    /// its one leaf or a tuple of them.
    pub fn of_leaves(params: &[Leaf], results: &[Leaf]) -> ApiEntry {
        let leaf = |&(p, r): &Leaf| {
            if r == 0 {
                ApiType::Prim(p)
            } else {
                ApiType::Array(p, r)
            }
        };
        let result = match results {
            [one] => leaf(one),
            _ => {
                let fields: Vec<Field> = results
                    .iter()
                    .enumerate()
                    .map(|(k, l)| Field {
                        name: k.to_string(),
                        ty: leaf(l),
                    })
                    .collect();
                let (name, cname) = tuple_names(&fields);
                ApiType::Opaque(Arc::new(Opaque {
                    name,
                    cname,
                    kind: OpaqueKind::Record(fields),
                    leaves: results.to_vec(),
                }))
            }
        };
        ApiEntry {
            params: params
                .iter()
                .map(|l| ApiParam {
                    name: None,
                    ty: leaf(l),
                    unique: false,
                })
                .collect(),
            result,
            result_unique: false,
            attrs: vec![],
            doc: None,
        }
    }
}
