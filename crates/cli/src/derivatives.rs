//! The entry points that [`Options::differentiate`] adds to a program:
//! for an entry point `f`, `vjp` and `jvp` of `f` in its differentiable
//! parameters, the others held fixed.
//!
//! For `entry f (x: []f64) (k: i64) (w: [][]f64) : ([]f64, f64)` the
//! program gets, in Futhark (the names are reserved; see [`vjp_name`]):
//!
//! ```text
//! entry parad_vjp_f (a0: []f64) (a1: i64) (a2: [][]f64) (s0: []f64) (s1: f64) =
//!   vjp (\(d0, d1) -> f d0 a1 d1) (a0, a2) (s0, s1)
//! entry parad_jvp_f (a0: []f64) (a1: i64) (a2: [][]f64) (t0: []f64) (t1: [][]f64) =
//!   jvp (\(d0, d1) -> f d0 a1 d1) (a0, a2) (t0, t1)
//! ```
//!
//! so `vjp` gives the adjoint of each differentiable parameter, in order
//! (`x̄ = J(x)ᵀ ȳ`), and `jvp` the tangent of the result (`ẏ = J(x) ẋ`),
//! as the AD pass derives them. A parameter is differentiable when it is
//! a floating-point scalar or array; the result must be one, or a tuple
//! of them. Sizes are left anonymous: the seeds' shapes are checked when
//! the derivative runs (a size mismatch is a run-time error at the
//! `vjp`).
//!
//! [`Options::differentiate`]: crate::Options::differentiate

use crate::value::Type;
use crate::Entry;
use std::fmt::Write;

/// The entry point computing `vjp` of `entry`.
pub fn vjp_name(entry: &str) -> String {
    format!("parad_vjp_{entry}")
}

/// The entry point computing `jvp` of `entry`.
pub fn jvp_name(entry: &str) -> String {
    format!("parad_jvp_{entry}")
}

fn is_float(t: &Type) -> bool {
    matches!(
        t,
        Type::Scalar(parad_base::PrimType::Float(_))
            | Type::Array(parad_base::PrimType::Float(_), _)
    )
}

/// Which of `entry`'s parameters are differentiable.
pub fn differentiable(entry: &Entry) -> Vec<bool> {
    entry.params.iter().map(|p| is_float(&p.ty)).collect()
}

/// The Futhark text of the two entry points, or why there can be none.
pub fn source(entry: &Entry) -> Result<String, String> {
    let name = &entry.name;
    let diff = differentiable(entry);
    if !diff.iter().any(|&d| d) {
        return Err(format!(
            "`{name}` has no parameter to differentiate with respect to \
             (a floating-point scalar or array)"
        ));
    }
    if !entry.results.iter().all(is_float) {
        let found: Vec<String> = entry.results.iter().map(Type::name).collect();
        return Err(format!(
            "the result of `{name}` ({}) is not differentiable: it must be floating-point \
             scalars or arrays, or a tuple of them",
            found.join(", ")
        ));
    }
    let params: String = entry
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| format!(" (a{k}: {})", p.ty.name()))
        .collect();
    // The lambda over the differentiable parameters, and the point.
    let ds: Vec<usize> = (0..diff.len()).filter(|&k| diff[k]).collect();
    let tuple = |items: Vec<String>| {
        if items.len() == 1 {
            items.into_iter().next().unwrap_or_default()
        } else {
            format!("({})", items.join(", "))
        }
    };
    let lam_param = tuple((0..ds.len()).map(|j| format!("d{j}")).collect());
    let args: String = (0..diff.len())
        .map(|k| match ds.iter().position(|&d| d == k) {
            Some(j) => format!(" d{j}"),
            None => format!(" a{k}"),
        })
        .collect();
    let lam = format!("(\\{lam_param} -> {name}{args})");
    let point = tuple(ds.iter().map(|k| format!("a{k}")).collect());
    let seeds: String = entry
        .results
        .iter()
        .enumerate()
        .map(|(j, t)| format!(" (s{j}: {})", t.name()))
        .collect();
    let seed = tuple((0..entry.results.len()).map(|j| format!("s{j}")).collect());
    let tangents: String = ds
        .iter()
        .enumerate()
        .map(|(j, &k)| format!(" (t{j}: {})", entry.params[k].ty.name()))
        .collect();
    let tangent = tuple((0..ds.len()).map(|j| format!("t{j}")).collect());
    let mut s = format!("\n\n-- The derivatives of `{name}`, added by parad.\n");
    let _ = writeln!(
        s,
        "entry {}{params}{seeds} =\n  vjp {lam} {point} {seed}",
        vjp_name(name)
    );
    let _ = writeln!(
        s,
        "entry {}{params}{tangents} =\n  jvp {lam} {point} {tangent}",
        jvp_name(name)
    );
    Ok(s)
}
