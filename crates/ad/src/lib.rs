//! Automatic differentiation as a core-IR pass (DESIGN §4).
//!
//! [`differentiate`] replaces every `jvp` and `vjp` node of a program by
//! ordinary core IR, innermost first, so that nested uses (`jvp` of `vjp`,
//! `vjp` inside `map`) work: when a node is expanded its lambda no longer
//! contains AD nodes.
//!
//! - [`fwd`]: forward mode (tangents carried alongside primals);
//! - [`rev`]: reverse mode by redundant execution (no tape).

pub mod fwd;
pub mod linear;
pub mod partials;
pub mod rev;
pub mod special;

use parad_base::Span;
use parad_core::builder::Ctx;
use parad_core::{visit, walk, Body, Exp, Operand, Program, Stm, WithVjp};
use parad_core::{AdOp, BasicOp, Jvp, Vjp};
use std::fmt;

/// A construct the AD pass cannot differentiate, located at the `jvp` or
/// `vjp` (or the statement inside it) that needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct AdError {
    pub message: String,
    pub span: Span,
}

impl AdError {
    pub fn new(span: Span, message: impl Into<String>) -> AdError {
        AdError {
            message: message.into(),
            span,
        }
    }
}

/// The error for a call of a core function (a specialisation of a
/// recursive source function, named `NAME_recK` by lowering) inside a
/// function being differentiated.
pub(crate) fn recursive_call(span: Span, fun: parad_core::Symbol) -> AdError {
    let full = fun.to_string();
    let name = full.rsplit_once("_rec").map_or(full.as_str(), |(n, _)| n);
    AdError::new(
        span,
        format!(
            "differentiating recursive functions is not supported: this differentiates a call of the recursive function '{name}'"
        ),
    )
}

impl fmt::Display for AdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AdError {}

pub type Result<T> = std::result::Result<T, AdError>;

/// Expands every `jvp`/`vjp` of `prog`.
pub fn differentiate(prog: &mut Program) -> Result<()> {
    // The rules work on the plain SOACs.
    parad_core::screma::split_all(prog);
    let mut ctx = Ctx::for_program(prog);
    let mut funs = std::mem::take(&mut prog.funs);
    let res = funs
        .iter_mut()
        .try_for_each(|f| expand_body(&mut ctx, &mut f.body));
    for f in &mut funs {
        walk::rewrite_stms(&mut f.body, &mut inline_custom);
    }
    prog.funs = funs;
    prog.names = ctx.names;
    // Return sweeps restore arrays in place and re-execute statements
    // that consume: copy where the original is still needed.
    if res.is_ok() {
        parad_core::consume::insert_copies(prog);
    }
    res
}

/// Expands the AD nodes of `body` (and of every body nested in it).
pub fn expand_body(ctx: &mut Ctx, body: &mut Body) -> Result<()> {
    let stms = std::mem::take(&mut body.stms);
    for mut stm in stms {
        expand_nested(ctx, &mut stm.exp)?;
        match stm.exp {
            Exp::Ad(AdOp::Jvp(Jvp {
                lam,
                primals,
                tangents,
            })) => {
                let (new, res) = fwd::jvp(ctx, &lam, &primals, &tangents, stm.span)?;
                body.stms.extend(new);
                bind_results(&mut body.stms, stm.pat, res, stm.span);
            }
            Exp::Ad(AdOp::Vjp(Vjp {
                lam,
                primals,
                adjoints,
            })) => {
                let (new, res) = rev::vjp(ctx, &lam, &primals, &adjoints, stm.span)?;
                body.stms.extend(new);
                bind_results(&mut body.stms, stm.pat, res, stm.span);
            }
            exp => body.stms.push(Stm { exp, ..stm }),
        }
    }
    Ok(())
}

/// Binds the pattern of an expanded AD node to the operands computed by
/// its expansion.
fn bind_results(out: &mut Vec<Stm>, pat: Vec<parad_core::Param>, res: Vec<Operand>, span: Span) {
    assert_eq!(
        pat.len(),
        res.len(),
        "AD expansion returned the wrong arity"
    );
    for (p, r) in pat.into_iter().zip(res) {
        out.push(Stm {
            pat: vec![p],
            exp: Exp::Basic(BasicOp::Atom(r)),
            span,
            attrs: vec![],
        });
    }
}

/// Replaces a `with_vjp` left once every `vjp` is expanded (one outside
/// any `vjp`) by its function applied to its arguments: the custom
/// adjoint is no longer needed.
fn inline_custom(s: Stm, out: &mut Vec<Stm>) {
    match s.exp {
        Exp::Ad(AdOp::WithVjp(WithVjp { lam, args, .. })) => {
            for (p, a) in lam.params.into_iter().zip(args) {
                out.push(Stm::new(vec![p], Exp::atom(a), s.span));
            }
            out.extend(lam.body.stms);
            for (p, r) in s.pat.into_iter().zip(lam.body.result) {
                out.push(Stm::new(vec![p], Exp::atom(r), s.span));
            }
        }
        _ => out.push(s),
    }
}

/// Expands AD nodes inside the bodies and lambdas of `e` (not `e` itself).
fn expand_nested(ctx: &mut Ctx, e: &mut Exp) -> Result<()> {
    let mut res = Ok(());
    visit::each_body_mut(e, |b| {
        if res.is_ok() {
            res = expand_body(ctx, b)
        }
    });
    res
}
