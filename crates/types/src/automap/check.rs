//! AUTOMAP in the type checker: when a top-level definition does not check as
//! written, its rank system is generated ([`super::infer`]), solved, and the
//! definition elaborated ([`super::elab`]) and checked again.
//!
//! Running AUTOMAP only on definitions the checker rejects gives the same
//! answers as running it on every definition: a definition that checks
//! without insertions has a solution of size 0, and a solution of size 0 is
//! the only optimum (every `M` is 0, so every frame is 0 and every `R` costs),
//! so it elaborates to itself. `PARAD_AUTOMAP=always` runs AUTOMAP on every
//! definition anyway and reports any that would not elaborate to itself as
//! an error; the test suites run under it to check that property. (The one
//! exception is a definition that compares whole arrays with `==` or `!=`,
//! which AUTOMAP reads as scalar comparisons: it is checked again with
//! array equality allowed, where it must elaborate to itself.)
//! `PARAD_AUTOMAP=off` turns AUTOMAP off (for measuring its cost).

use super::elab::elaborate;
use super::infer::Ranks;
use super::rtype::GiveUp;
use super::{Outcome, SolveOptions};
use crate::env::Checker;
use crate::env::Res;
use crate::intrinsics::Intrinsic;
use crate::tast::{Dim, Literal, SizeOp, TExp, TExpKind, Type};
use parad_base::Diagnostic;
use parad_base::Span;
use parad_syntax::ast::{Exp, ExpId, ValDecl};

/// When AUTOMAP runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Off,
    /// On definitions that do not check as written (the default).
    Fallback,
    /// On every definition, checking that those that check as written
    /// elaborate to themselves.
    Always,
}

impl Mode {
    /// The mode `PARAD_AUTOMAP` asks for.
    pub fn from_env() -> Mode {
        match std::env::var("PARAD_AUTOMAP").as_deref() {
            Ok("off") => Mode::Off,
            Ok("always") => Mode::Always,
            _ => Mode::Fallback,
        }
    }
}

/// What AUTOMAP made of one definition.
pub(crate) enum Elaborated {
    /// No insertion applies (the rank system has no solution, only the
    /// trivial one, or inference gave up): the checker's error stands.
    Nothing,
    /// The body with its maps explicit, and the spans of the size
    /// placeholders of its replicates.
    Body(Box<Exp>, Vec<Span>),
    /// A rank error that AUTOMAP can name: ambiguity.
    Error(Diagnostic),
}

impl Checker {
    /// AUTOMAP for definition `v`: generate, solve, elaborate. The checker's
    /// scope is left as it was.
    /// With `scalar_equality`, the built-in `==` and `!=` compare scalars
    /// only (as AUTOMAP reads them; see `infer`).
    pub(crate) fn automap_val(&mut self, v: &ValDecl, scalar_equality: bool) -> Elaborated {
        let start = std::time::Instant::now();
        let r = self.automap_val_untimed(v, scalar_equality);
        self.automap_time += start.elapsed();
        r
    }

    fn automap_val_untimed(&mut self, v: &ValDecl, scalar_equality: bool) -> Elaborated {
        let (smark, tmark, vmark) = (self.scope.len(), self.types.len(), self.vars.len());
        let generated = match self.fun_header(&v.type_params, &v.params, v.ret.as_ref()) {
            Ok(h) => {
                let fty = Type::arrows(h.tparams.iter().map(|p| p.ty()).collect(), h.rt.clone());
                let mut ranks = Ranks::new(self, scalar_equality);
                if !v.params.is_empty() {
                    ranks.bind_self(&v.name.name, &fty);
                }
                match ranks.body(&v.body, &h.rt) {
                    Ok(()) => Ok((ranks.t.sys, ranks.chains, ranks.app_spans)),
                    Err(GiveUp(why)) => Err(why),
                }
            }
            Err(_) => Err("parameters"),
        };
        self.forget_attempt(smark, tmark, vmark);
        let (sys, chains, spans) = match generated {
            Ok(g) => g,
            Err(why) => {
                self.automap_stats.push((v.name.name.clone(), Err(why)));
                return Elaborated::Nothing;
            }
        };
        let solved = sys.solve(&SolveOptions::default());
        self.automap_stats
            .push((v.name.name.clone(), Ok(solved.stats.clone())));
        match solved.outcome {
            Outcome::Unique(sol) if sol.size() > 0 => {
                let (body, sizes) = elaborate(&v.body, &chains, &sol, false);
                Elaborated::Body(Box::new(body), sizes)
            }
            Outcome::Ambiguous(a) => {
                let show =
                    |sol| parad_syntax::print::exp(&elaborate(&v.body, &chains, sol, true).0);
                let (first, second) = (show(&a.first), show(&a.second));
                let at = a.differing.first().map_or(v.span, |app| spans[app.index()]);
                Elaborated::Error(
                    Diagnostic::error(
                        at,
                        format!(
                            "ambiguous implicit maps in '{}': two elaborations insert as few maps and replicates",
                            v.name.name
                        ),
                    )
                    .with_note(format!("one elaboration: {first}"))
                    .with_note(format!("another: {second}"))
                    .with_note(
                        "write the map or replicate you mean, or annotate a parameter's type with its dimensions",
                    ),
                )
            }
            _ => Elaborated::Nothing,
        }
    }

    /// Undoes the bindings of a failed attempt at a definition: its scope
    /// entries go, and its variables (which nothing refers to) get a closed
    /// type so that finishing them cannot fail.
    pub(crate) fn forget_attempt(&mut self, smark: usize, tmark: usize, vmark: usize) {
        self.scope.truncate(smark);
        self.types.truncate(tmark);
        for v in &mut self.vars[vmark..] {
            v.ty = Type::unit();
        }
    }
}

impl Checker {
    /// `replicate ??? x` as AUTOMAP wrote it: the placeholder becomes the
    /// size inferred for `replicate`'s result, or an error if nothing
    /// determined it.
    pub(crate) fn finish_rep_size(&mut self, f: &TExp, args: &mut [TExp]) -> Res<()> {
        let TExpKind::Global(id, _, sizes) = &f.kind else {
            return Ok(());
        };
        if Some(*id) != self.replicate_fun || args.len() != 2 {
            return Ok(());
        }
        let placeholder = matches!(&args[0].kind, TExpKind::Apply(h, _)
            if matches!(&h.kind, TExpKind::Intrinsic(n, _) if *n == Intrinsic::Hole.name()));
        if !placeholder || !self.rep_size_spans.contains(&args[0].span) {
            return Ok(());
        }
        let span = args[0].span;
        let dim = sizes.first().map_or(Dim::Any, |(_, d)| d.clone());
        match dim_exp(&dim, span) {
            Some(e) => {
                args[0] = e;
                self.rep_sizes.push((span, dim));
                Ok(())
            }
            None => {
                let note = "with implicit maps, this argument would be replicated, but nothing determines how many times; write `replicate n (…)` if you mean that";
                Err(match self.automap_first.take() {
                    Some(first) => first.with_note(note),
                    None => Diagnostic::error(span, note),
                })
            }
        }
    }
}

/// An `i64` expression for a size.
fn dim_exp(d: &Dim, span: Span) -> Option<TExp> {
    let i64t = Type::i64();
    match d {
        Dim::Const(c) => Some(TExp::new(
            TExpKind::Lit(Literal::Int(i128::from(*c))),
            i64t,
            span,
        )),
        Dim::Var(v) => Some(TExp::new(TExpKind::Var(*v, vec![], vec![]), i64t, span)),
        Dim::Op(o, a, b) => {
            let op = match o {
                SizeOp::Add => Intrinsic::Add,
                SizeOp::Sub => Intrinsic::Sub,
                SizeOp::Mul => Intrinsic::Mul,
            };
            let f = TExp::new(
                TExpKind::Intrinsic(op.name(), vec![i64t.clone()]),
                Type::arrows(vec![i64t.clone(), i64t.clone()], i64t.clone()),
                span,
            );
            let args = vec![dim_exp(a, span)?, dim_exp(b, span)?];
            Some(TExp::new(TExpKind::Apply(Box::new(f), args), i64t, span))
        }
        _ => None,
    }
}

impl Checker {
    /// In the elaborated body kept for `v` (for `dump --stage=elaborated`),
    /// the size placeholders of AUTOMAP's replicates written as the sizes
    /// inferred for them.
    pub(crate) fn show_rep_sizes(&mut self, v: &ValDecl) {
        let sizes: std::collections::HashMap<Span, Dim> = self.rep_sizes.drain(..).collect();
        self.rep_size_spans.clear();
        self.automap_first = None;
        if sizes.is_empty() {
            return;
        }
        let Some((id, body)) = self.elaborated.last_mut() else {
            return;
        };
        if *id != v.body.id {
            return;
        }
        let vars = &self.vars;
        parad_syntax::visit::walk_exp_mut(body, &mut |e| {
            if matches!(e.kind, parad_syntax::ast::ExpKind::Hole) {
                if let Some(d) = sizes.get(&e.span) {
                    if let Some(s) = dim_source(d, &|v| vars[v.0 as usize].name.clone(), e.span) {
                        *e = s;
                    }
                }
            }
        });
    }
}

/// A size as a source expression.
fn dim_source(d: &Dim, name: &dyn Fn(crate::tast::VarId) -> String, span: Span) -> Option<Exp> {
    use parad_syntax::ast::{ExpKind, Lit, QualName};
    let node = |kind| Exp {
        id: ExpId(u32::MAX),
        kind,
        span,
    };
    let q = |name: String| QualName {
        quals: vec![],
        name,
        span,
    };
    Some(match d {
        Dim::Const(c) if *c >= 0 => node(ExpKind::Lit(Lit::Int {
            value: *c as u128,
            suffix: None,
        })),
        Dim::Var(v) => node(ExpKind::Var(q(name(*v)))),
        Dim::Op(o, a, b) => node(ExpKind::BinOp(
            q(o.symbol().to_string()),
            Box::new(dim_source(a, name, span)?),
            Box::new(dim_source(b, name, span)?),
        )),
        _ => return None,
    })
}
