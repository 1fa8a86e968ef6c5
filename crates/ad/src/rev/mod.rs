//! Reverse-mode AD by redundant execution (seeds 001/002, DESIGN §4).
//!
//! A body is differentiated by emitting its forward statements (renamed
//! copies: every scope re-executed in a return sweep binds fresh names),
//! seeding the adjoints of its results, and then emitting the return sweep
//! of each statement in reverse order. Nested scopes (lambdas, branches,
//! loop bodies) re-run their forward statements inside the return sweep,
//! so no tape is kept; only sequential loops checkpoint their
//! loop-variant values.
//!
//! One file per rule: [`scalar`], [`index`] (indexing and layout
//! operations), [`update`], [`scatter`], [`if_`], [`map`], [`reduce`],
//! [`scan`], [`hist`], [`loops`], [`acc`] (accumulators, for `vjp` of
//! `vjp`), [`custom`] (`with_vjp`), [`sparse`] (maps whose result
//! adjoint is sparse); [`adjenv`] holds the sweep state (renamed copies come from `parad_core::rename`).

pub mod acc;
pub mod adjenv;
pub mod build;
pub mod custom;
pub mod hist;
pub mod if_;
pub mod index;
pub mod loops;
pub mod map;
pub mod reduce;
pub mod scalar;
pub mod scan;
pub mod scatter;
pub mod sparse;
pub mod update;

use crate::{AdError, Result};
use adjenv::{activity, Rev};
use build::zeros_like;
use parad_base::Span;
use parad_core::builder::Ctx;
use parad_core::rename::Renamer;
use parad_core::*;

/// Statements computing `lam(primals)` and the adjoints of its parameters
/// given the adjoints of its results; the operands are the lambda's
/// results followed by the parameters' adjoints.
pub fn vjp(
    ctx: &mut Ctx,
    lam: &Lambda,
    primals: &[Operand],
    adjoints: &[Operand],
    span: Span,
) -> Result<(Vec<Stm>, Vec<Operand>)> {
    let mut b = Builder::new(ctx);
    b.set_span(span);
    let (res, adjs) = vjp_with(&mut b, lam, primals, adjoints, Some(span))?;
    Ok((b.finish(), res.into_iter().chain(adjs).collect()))
}

/// Emits the forward and return sweeps of `lam` applied to `primals`
/// into `b`; returns its results and the adjoints of its parameters.
pub fn vjp_inline(
    b: &mut Builder,
    lam: &Lambda,
    primals: &[Operand],
    adjoints: &[Operand],
) -> Result<(Vec<Operand>, Vec<Operand>)> {
    vjp_with(b, lam, primals, adjoints, None)
}

/// [`vjp_inline`], checking first (for a user's `vjp`) that each adjoint
/// has the shape of the result it belongs to.
fn vjp_with(
    b: &mut Builder,
    lam: &Lambda,
    primals: &[Operand],
    adjoints: &[Operand],
    check: Option<Span>,
) -> Result<(Vec<Operand>, Vec<Operand>)> {
    let params: Vec<VName> = lam.params.iter().map(|p| p.name).collect();
    let mut r = Rev::new(activity(&params, &lam.body));
    r.check_seeds = check;
    for (p, &a) in lam.params.iter().zip(primals) {
        let ty = r.subst.ty(&p.ty);
        let v = b.bind_as(&p.name.base.to_string(), Exp::Basic(BasicOp::Atom(a)), ty);
        r.subst.set(p.name, v);
    }
    let res = r.body(b, &lam.body, adjoints)?;
    let adjs = params.iter().map(|&p| r.final_adj(b, p)).collect();
    Ok((res, adjs))
}

/// What a forward sweep keeps for the return sweep of one statement.
pub enum Saved {
    None,
    /// Elements overwritten by an in-place update or scatter, one array
    /// (or scalar) per destination.
    Overwritten(Vec<Operand>),
    /// A loop's checkpoints: each parameter's value at the entry of every
    /// iteration, and the trip count.
    Loop {
        checkpoints: Vec<VName>,
        count: Operand,
        /// The (original) name of the iteration variable.
        i: VName,
    },
}

impl Rev {
    /// The adjoint of `v` after the sweep: zeros for non-float values.
    pub fn final_adj(&mut self, b: &mut Builder, v: VName) -> Operand {
        self.densify(b, v);
        if self.wants(b, v) {
            if let Some(adjenv::Adj::Val(o)) = self.adj.get(&v) {
                return *o;
            }
        }
        zeros_like(b, Operand::Var(self.p(v)))
    }

    /// Forward sweep, seeding with `seeds`, return sweep; returns the
    /// (renamed) results of `body`.
    pub fn body(
        &mut self,
        b: &mut Builder,
        body: &Body,
        seeds: &[Operand],
    ) -> Result<Vec<Operand>> {
        self.forget_body(body);
        let saved = self.fwd_stms(b, &body.stms)?;
        let res: Vec<Operand> = body.result.iter().map(|&o| self.po(o)).collect();
        if let Some(span) = self.check_seeds.take() {
            let here = b.span();
            b.set_span(span);
            for (&s, &r) in seeds.iter().zip(&res) {
                crate::linear::check_same_shape(b, s, r, "adjoint passed to vjp");
            }
            b.set_span(here);
        }
        for (&r, &s) in body.result.iter().zip(seeds) {
            if let Operand::Var(v) = r {
                self.add(b, v, s);
            }
        }
        self.rev_stms(b, &body.stms, saved)?;
        Ok(res)
    }

    pub fn fwd_stms(&mut self, b: &mut Builder, stms: &[Stm]) -> Result<Vec<Saved>> {
        stms.iter().map(|s| self.fwd_stm(b, s)).collect()
    }

    pub fn rev_stms(&mut self, b: &mut Builder, stms: &[Stm], saved: Vec<Saved>) -> Result<()> {
        for (s, sv) in stms.iter().zip(saved).rev() {
            self.rev_stm(b, s, sv)?;
        }
        Ok(())
    }

    /// Emits a renamed copy of `s`.
    pub fn copy_stm(&mut self, b: &mut Builder, s: &Stm) {
        let s = Renamer {
            ctx: b.ctx,
            subst: &mut self.subst,
        }
        .stm(s);
        b.add_stm(s);
    }

    fn is_active(&self, s: &Stm) -> bool {
        s.pat.iter().any(|p| self.active.contains(&p.name))
    }

    fn fwd_stm(&mut self, b: &mut Builder, s: &Stm) -> Result<Saved> {
        b.set_span(s.span);
        if !self.is_active(s) {
            self.copy_stm(b, s);
            return Ok(Saved::None);
        }
        match &s.exp {
            Exp::Basic(BasicOp::Update { .. }) => update::fwd(self, b, s),
            Exp::Soac(Soac::Scatter(Scatter { .. })) => scatter::fwd(self, b, s),
            Exp::Loop(Loop { .. }) => loops::fwd(self, b, s),
            Exp::Apply(Apply { fun, .. }) => Err(crate::recursive_call(s.span, *fun)),
            _ => {
                self.copy_stm(b, s);
                Ok(Saved::None)
            }
        }
    }

    fn rev_stm(&mut self, b: &mut Builder, s: &Stm, saved: Saved) -> Result<()> {
        b.set_span(s.span);
        let needed = s.pat.iter().any(|p| self.has_adj(p.name));
        match (&s.exp, saved) {
            (Exp::Basic(BasicOp::Update { .. }), sv) => update::rev(self, b, s, sv, needed),
            (Exp::Soac(Soac::Scatter(Scatter { .. })), sv) => scatter::rev(self, b, s, sv, needed),
            _ if !needed => Ok(()),
            (Exp::Loop(Loop { .. }), sv) => loops::rev(self, b, s, sv),
            (Exp::Basic(BasicOp::Atom(x)), _) => {
                let y = self.adj_val(b, s.pat[0].name);
                self.add_op(b, *x, y);
                Ok(())
            }
            (
                Exp::Basic(BasicOp::UnOp(..))
                | Exp::Basic(BasicOp::BinOp(..))
                | Exp::Basic(BasicOp::TernOp(..))
                | Exp::Basic(BasicOp::Conv(..))
                | Exp::Basic(BasicOp::Cmp(..)),
                _,
            ) => {
                scalar::rev(self, b, s);
                Ok(())
            }
            (
                Exp::Basic(BasicOp::Index { .. })
                | Exp::Basic(BasicOp::Reshape { .. })
                | Exp::Basic(BasicOp::Flatten { .. })
                | Exp::Basic(BasicOp::Unflatten { .. })
                | Exp::Basic(BasicOp::Rearrange { .. })
                | Exp::Basic(BasicOp::Replicate { .. })
                | Exp::Basic(BasicOp::Concat { .. })
                | Exp::Basic(BasicOp::Copy { .. })
                | Exp::Basic(BasicOp::Reverse { .. })
                | Exp::Basic(BasicOp::Rotate { .. }),
                _,
            ) => {
                index::rev(self, b, s);
                Ok(())
            }
            // As Futhark does, the count of an `iota` gets the sum of the
            // result's adjoint (forward mode gives `iota` a zero tangent).
            (Exp::Basic(BasicOp::Iota { n, .. }), _) => {
                if self.wants_op(b, *n) {
                    let y = self.adj_val(b, s.pat[0].name).var().expect("array adjoint");
                    let sum = build::sum_rows(b, y);
                    self.add_op(b, *n, sum);
                }
                Ok(())
            }
            (
                Exp::Basic(BasicOp::Scratch { .. })
                | Exp::Basic(BasicOp::Size { .. })
                | Exp::Basic(BasicOp::UserParam { .. })
                | Exp::Basic(BasicOp::Assert { .. }),
                _,
            ) => Ok(()),
            (Exp::If(If { .. }), _) => if_::rev(self, b, s),
            (Exp::Soac(Soac::Map(Map { .. })), _) => {
                if sparse::rev(self, b, s)? {
                    return Ok(());
                }
                map::rev(self, b, s)
            }
            (Exp::Soac(Soac::Reduce(Reduce { .. })), _) => reduce::rev(self, b, s),
            (Exp::Soac(Soac::Scan(Scan { .. })), _) => scan::rev(self, b, s),
            (Exp::Soac(Soac::Hist(Hist { .. })), _) => hist::rev(self, b, s),
            (Exp::Soac(Soac::WithAcc(WithAcc { .. })) | Exp::Basic(BasicOp::Upd { .. }), _) => {
                acc::rev(self, b, s)
            }
            (Exp::Ad(AdOp::WithVjp(WithVjp { .. })), _) => {
                custom::rev(self, b, s);
                Ok(())
            }
            (
                Exp::Apply(Apply { .. })
                | Exp::Ad(AdOp::Jvp(Jvp { .. }))
                | Exp::Ad(AdOp::Vjp(Vjp { .. }))
                | Exp::Soac(Soac::Screma(_)),
                _,
            ) => Err(AdError::new(
                s.span,
                "internal error: unexpanded AD node, call or screma in a reverse sweep",
            )),
        }
    }
}
