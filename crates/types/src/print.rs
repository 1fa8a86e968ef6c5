//! Printing types the way Futhark writes them: `[][]f32`, `(i32, bool)`,
//! `{x: f32}`, `a -> b`.

use crate::tast::{Type, TypeParamId};
use std::fmt;

pub(crate) fn write_type(
    f: &mut dyn fmt::Write,
    t: &Type,
    param: &dyn Fn(TypeParamId) -> String,
    var: &dyn Fn(u32) -> String,
) -> fmt::Result {
    match t {
        Type::Prim(p) => f.write_str(p.name()),
        Type::Array(e, ds) => {
            for _ in ds {
                f.write_str("[]")?;
            }
            write_atom(f, e, param, var)
        }
        Type::Tuple(ts) => {
            f.write_str("(")?;
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_type(f, t, param, var)?;
            }
            f.write_str(")")
        }
        Type::Record(fs) => {
            f.write_str("{")?;
            for (i, (n, t)) in fs.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{n}: ")?;
                write_type(f, t, param, var)?;
            }
            f.write_str("}")
        }
        Type::Arrow(a, b) => {
            if matches!(**a, Type::Arrow(..) | Type::Sum(_)) {
                f.write_str("(")?;
                write_type(f, a, param, var)?;
                f.write_str(")")?;
            } else {
                write_type(f, a, param, var)?;
            }
            f.write_str(" -> ")?;
            write_type(f, b, param, var)
        }
        Type::Acc(t) => {
            f.write_str("acc (")?;
            write_type(f, t, param, var)?;
            f.write_str(")")
        }
        Type::Sum(cs) => {
            for (i, (n, ts)) in cs.iter().enumerate() {
                if i > 0 {
                    f.write_str(" | ")?;
                }
                write!(f, "#{n}")?;
                for t in ts {
                    f.write_str(" ")?;
                    if matches!(t, Type::Array(..)) {
                        f.write_str("(")?;
                        write_type(f, t, param, var)?;
                        f.write_str(")")?;
                    } else {
                        write_atom(f, t, param, var)?;
                    }
                }
            }
            Ok(())
        }
        Type::Param(p) => f.write_str(&param(*p)),
        Type::Var(v) => f.write_str(&var(*v)),
    }
}

fn write_atom(
    f: &mut dyn fmt::Write,
    t: &Type,
    param: &dyn Fn(TypeParamId) -> String,
    var: &dyn Fn(u32) -> String,
) -> fmt::Result {
    if matches!(t, Type::Arrow(..) | Type::Sum(_)) {
        f.write_str("(")?;
        write_type(f, t, param, var)?;
        f.write_str(")")
    } else {
        write_type(f, t, param, var)
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
