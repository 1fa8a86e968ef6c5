//! Printing types the way Futhark writes them: `[][]f32`, `(i32, bool)`,
//! `{x: f32}`, `a -> b`.

use crate::tast::{Dim, Type, TypeParamId};
use std::fmt;

/// How the parts of a type that are not fixed syntax are written: type
/// parameters, inference variables and (if at all) dimensions.
pub(crate) struct Names<'a> {
    pub param: &'a dyn Fn(TypeParamId) -> String,
    pub var: &'a dyn Fn(u32) -> String,
    /// `None` writes every dimension as `[]`.
    pub dim: Option<&'a dyn Fn(&Dim) -> String>,
}

pub(crate) fn write_type(
    f: &mut dyn fmt::Write,
    t: &Type,
    param: &dyn Fn(TypeParamId) -> String,
    var: &dyn Fn(u32) -> String,
) -> fmt::Result {
    write_with(
        f,
        t,
        &Names {
            param,
            var,
            dim: None,
        },
    )
}

pub(crate) fn write_with(f: &mut dyn fmt::Write, t: &Type, n: &Names) -> fmt::Result {
    let (param, var) = (n.param, n.var);
    match t {
        Type::Prim(p) => f.write_str(p.name()),
        Type::Array(e, ds) => {
            for d in ds {
                match n.dim {
                    Some(show) => write!(f, "[{}]", show(d))?,
                    None => f.write_str("[]")?,
                }
            }
            write_atom(f, e, n)
        }
        Type::Tuple(ts) => {
            f.write_str("(")?;
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_with(f, t, n)?;
            }
            f.write_str(")")
        }
        Type::Record(fs) => {
            f.write_str("{")?;
            for (i, (name, t)) in fs.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{name}: ")?;
                write_with(f, t, n)?;
            }
            f.write_str("}")
        }
        Type::Arrow(a, b) => {
            if matches!(**a, Type::Arrow(..) | Type::Sum(_)) {
                f.write_str("(")?;
                write_with(f, a, n)?;
                f.write_str(")")?;
            } else {
                write_with(f, a, n)?;
            }
            f.write_str(" -> ")?;
            write_with(f, b, n)
        }
        Type::Acc(t) => {
            f.write_str("acc (")?;
            write_with(f, t, n)?;
            f.write_str(")")
        }
        Type::Sum(cs) => {
            for (i, (name, ts)) in cs.iter().enumerate() {
                if i > 0 {
                    f.write_str(" | ")?;
                }
                write!(f, "#{name}")?;
                for t in ts {
                    f.write_str(" ")?;
                    if matches!(t, Type::Array(..)) {
                        f.write_str("(")?;
                        write_with(f, t, n)?;
                        f.write_str(")")?;
                    } else {
                        write_atom(f, t, n)?;
                    }
                }
            }
            Ok(())
        }
        Type::Param(p) => f.write_str(&param(*p)),
        Type::Var(v) => f.write_str(&var(*v)),
    }
}

fn write_atom(f: &mut dyn fmt::Write, t: &Type, n: &Names) -> fmt::Result {
    if matches!(t, Type::Arrow(..) | Type::Sum(_)) {
        f.write_str("(")?;
        write_with(f, t, n)?;
        f.write_str(")")
    } else {
        write_with(f, t, n)
    }
}

/// Prints a type with the given type parameter names; inference variables
/// print as `?` followed by their number.
pub fn type_to_string(t: &Type, param_names: &[String]) -> String {
    let mut s = String::new();
    let param = |p: TypeParamId| {
        param_names
            .get(p.0 as usize)
            .cloned()
            .unwrap_or_else(|| format!("'p{}", p.0))
    };
    let _ = write_type(&mut s, t, &param, &|v| format!("?{v}"));
    s
}
