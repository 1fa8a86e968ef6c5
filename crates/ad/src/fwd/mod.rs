//! Forward-mode AD (seed 001 §3, DESIGN §4): every primal statement is
//! followed by the statements computing its tangent, and tangents travel
//! bundled with their primals through lambdas, branches and loops.
//!
//! Tangents are kept in a [`Fwd`] environment mapping primal variables to
//! their tangent operands. A variable without an entry has a *static zero*
//! tangent: integers, booleans, free variables of the `jvp` lambda and
//! everything computed only from such values. Zeros are materialised only
//! where a construct needs a real value (a branch whose other branch has a
//! tangent, a loop parameter, a SOAC operand next to non-zero tangents).
//! A statement that uses no variable with a tangent is kept as is.
//!
//! Rules, one file each:
//! - [`scalar`]: every unary, binary and ternary operator and
//!   conversion, with the partial derivatives of [`crate::partials`];
//! - [`arrays`]: indexing, `update`, layout operations (reshape, flatten,
//!   unflatten, rearrange, reverse, rotate, copy, concat), `replicate`;
//!   `iota`, `scratch` and `size` have zero tangents;
//! - [`if_`]: both branches return the union of their tangents;
//! - [`loops`]: `for` and `while` loops carry tangent parameters for the
//!   parameters that an activity fixpoint shows may be non-zero;
//! - [`soac_map`]: the lambda takes primal rows and tangent rows and
//!   returns primal and tangent results; tangents of free variables are
//!   simply in scope;
//! - [`reduce`]: `reduce` and `scan` with the lifted dual-number operator
//!   `(a, ȧ) ⊙' (b, ḃ) = (a ⊙ b, ∂⊙/∂a·ȧ + ∂⊙/∂b·ḃ)`, neutral `(e, 0)`;
//! - [`hist`]: `reduce_by_index` on destinations and their tangents with
//!   the lifted operator; [`scatter`]: values' tangents are scattered into
//!   the destination's tangent;
//! - [`acc`]: `withacc`/`upd` (they occur in the output of `vjp`, so
//!   `jvp` of `vjp` works): an accumulator carries its tangent arrays as
//!   extra components, with the lifted operator.
//!
//! Calls (`apply`) with non-zero tangent arguments are rejected: lowering
//! inlines every call, so they do not occur in lowered programs.

pub mod acc;
pub mod arrays;
pub mod build;
pub mod hist;
pub mod if_;
pub mod loops;
pub mod reduce;
pub mod scalar;
pub mod scatter;
pub mod soac_map;

use crate::linear::{is_diff, zeros_like};
use crate::{AdError, Result};
use parad_base::Span;
use parad_core::builder::Ctx;
use parad_core::consts::is_zero;
use parad_core::free::exp_uses;
use parad_core::typing;
use parad_core::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Statements computing `lam(primals)` and its directional derivative
/// along `tangents`; the operands are the lambda's results followed by
/// their tangents.
pub fn jvp(
    ctx: &mut Ctx,
    lam: &Lambda,
    primals: &[Operand],
    tangents: &[Operand],
    span: Span,
) -> Result<(Vec<Stm>, Vec<Operand>)> {
    if primals.len() != lam.params.len() || tangents.len() != lam.params.len() {
        return Err(AdError::new(
            span,
            format!(
                "jvp of a function of {} parameters applied to {} primals and {} tangents",
                lam.params.len(),
                primals.len(),
                tangents.len()
            ),
        ));
    }
    let mut b = Builder::new(ctx);
    b.set_span(span);
    for (&x, &t) in primals.iter().zip(tangents) {
        crate::linear::check_same_shape(&mut b, t, x, "tangent passed to jvp");
    }
    let mut f = Fwd::default();
    for (p, (&x, &t)) in lam.params.iter().zip(primals.iter().zip(tangents)) {
        b.let_pat(vec![p.clone()], Exp::Basic(BasicOp::Atom(x)));
        f.set(p.name, &p.ty, Some(t));
    }
    let (res, tans) = f.body(&mut b, &lam.body)?;
    let mut out = res.clone();
    for (&r, t) in res.iter().zip(tans) {
        out.push(f.materialise(&mut b, r, t, span)?);
    }
    Ok((b.finish(), out))
}

/// A transformed nested body before its result list is fixed.
pub struct Branch {
    pub stms: Vec<Stm>,
    pub res: Vec<Operand>,
    pub tans: Vec<Option<Operand>>,
}

/// The tangent environment of one `jvp` expansion.
#[derive(Default)]
pub struct Fwd {
    /// Non-zero tangents of primal variables.
    tans: FxHashMap<VName, Operand>,
    /// Accumulators whose components include their tangent arrays.
    bundled: FxHashSet<VName>,
}

impl Fwd {
    /// The tangent of `o`, or `None` when it is statically zero.
    pub fn tan(&self, o: Operand) -> Option<Operand> {
        match o {
            Operand::Var(v) => self.tans.get(&v).copied(),
            Operand::Const(_) => None,
        }
    }

    /// Records the tangent of `v` (of type `ty`; accumulators have no
    /// tangent value of their own).
    pub fn set(&mut self, v: VName, ty: &Type, t: Option<Operand>) {
        match t {
            // A constant zero tangent (as lowering passes for inactive
            // arguments) is a static zero.
            Some(Operand::Const(c)) if is_zero(c) => {
                self.tans.remove(&v);
            }
            Some(t) if is_diff(ty) => {
                self.tans.insert(v, t);
            }
            _ => {
                self.tans.remove(&v);
            }
        }
    }

    pub fn is_bundled(&self, v: VName) -> bool {
        self.bundled.contains(&v)
    }

    pub fn bundle(&mut self, v: VName) {
        self.bundled.insert(v);
    }

    /// The tangent of `o`, with zeros built when it is statically zero.
    pub fn tan_or_zero(&self, b: &mut Builder, o: Operand) -> Operand {
        self.tan(o).unwrap_or_else(|| zeros_like(b, o))
    }

    /// Like [`Self::tan_or_zero`] for a tangent already looked up; fails on
    /// accumulators, which have no tangent value of their own.
    pub fn materialise(
        &self,
        b: &mut Builder,
        primal: Operand,
        t: Option<Operand>,
        span: Span,
    ) -> Result<Operand> {
        if let Some(t) = t {
            return Ok(t);
        }
        if b.type_of(primal).is_acc() {
            return Err(AdError::new(
                span,
                "jvp of a function returning an accumulator",
            ));
        }
        Ok(zeros_like(b, primal))
    }

    /// Every variable with a tangent, and every bundled accumulator.
    pub fn active_vars(&self) -> FxHashSet<VName> {
        self.tans.keys().chain(&self.bundled).copied().collect()
    }

    /// Whether `e` uses a variable with a tangent (or a bundled accumulator).
    pub fn active(&self, e: &Exp) -> bool {
        let mut any = false;
        exp_uses(e, &mut |v| {
            any |= self.tans.contains_key(&v) || self.bundled.contains(&v)
        });
        any
    }

    /// Emits the primal and tangent statements of `body` into `b`; returns
    /// its results and their tangents.
    pub fn body(
        &mut self,
        b: &mut Builder,
        body: &Body,
    ) -> Result<(Vec<Operand>, Vec<Option<Operand>>)> {
        for s in &body.stms {
            self.stm(b, s)?;
        }
        let tans = body.result.iter().map(|&r| self.tan(r)).collect();
        Ok((body.result.clone(), tans))
    }

    /// Transforms a nested body (branch, loop body, lambda body) in its
    /// own scope: its statements, primal results and their tangents.
    pub fn branch(&mut self, b: &mut Builder, body: &Body) -> Result<Branch> {
        let (stms, r) = b.nested(|b| self.body(b, body));
        let (res, tans) = r?;
        Ok(Branch { stms, res, tans })
    }

    /// The body of a transformed branch returning its primal results and
    /// then the tangents of the results numbered `keep` (zeros built in the
    /// branch where they are statically zero).
    pub fn finish(&self, b: &mut Builder, br: Branch, keep: &[usize]) -> Result<Body> {
        let Branch {
            mut stms,
            res,
            tans,
        } = br;
        let span = b.span();
        let (zs, r) = b.nested(|b| -> Result<Vec<Operand>> {
            let mut out = res.clone();
            for &i in keep {
                out.push(self.materialise(b, res[i], tans[i], span)?);
            }
            Ok(out)
        });
        stms.extend(zs);
        Ok(Body { stms, result: r? })
    }

    /// [`Self::branch`] then [`Self::finish`], keeping the non-zero tangents
    /// of the results; returns the body and the kept indices.
    pub fn nested_body(&mut self, b: &mut Builder, body: &Body) -> Result<(Body, Vec<usize>)> {
        let br = self.branch(b, body)?;
        let keep: Vec<usize> = (0..br.res.len())
            .filter(|&i| br.tans[i].is_some())
            .collect();
        Ok((self.finish(b, br, &keep)?, keep))
    }

    fn stm(&mut self, b: &mut Builder, s: &Stm) -> Result<()> {
        b.set_span(s.span);
        if !self.active(&s.exp) {
            b.add_stm(s.clone());
            return Ok(());
        }
        match &s.exp {
            Exp::Basic(BasicOp::Atom(Operand::Var(v))) if self.is_bundled(*v) => {
                let names = self.emit_extended(b, &s.pat, s.exp.clone(), "acc");
                self.bundle(names[0]);
                Ok(())
            }
            Exp::Basic(BasicOp::Atom(o)) => {
                b.add_stm(s.clone());
                let t = self.tan(*o);
                self.set(s.pat[0].name, &s.pat[0].ty, t);
                Ok(())
            }
            Exp::Basic(BasicOp::UnOp(..))
            | Exp::Basic(BasicOp::BinOp(..))
            | Exp::Basic(BasicOp::TernOp(..))
            | Exp::Basic(BasicOp::Cmp(..))
            | Exp::Basic(BasicOp::Conv(..)) => scalar::stm(self, b, s),
            Exp::Basic(BasicOp::Index { .. })
            | Exp::Basic(BasicOp::Update { .. })
            | Exp::Basic(BasicOp::Reshape { .. })
            | Exp::Basic(BasicOp::Flatten { .. })
            | Exp::Basic(BasicOp::Unflatten { .. })
            | Exp::Basic(BasicOp::Rearrange { .. })
            | Exp::Basic(BasicOp::Copy { .. })
            | Exp::Basic(BasicOp::Reverse { .. })
            | Exp::Basic(BasicOp::Rotate { .. })
            | Exp::Basic(BasicOp::Concat { .. })
            | Exp::Basic(BasicOp::Replicate { .. })
            | Exp::Basic(BasicOp::Iota { .. })
            | Exp::Basic(BasicOp::Scratch { .. })
            | Exp::Basic(BasicOp::Size { .. })
            | Exp::Basic(BasicOp::UserParam { .. })
            | Exp::Basic(BasicOp::Assert { .. }) => arrays::stm(self, b, s),
            Exp::If(If { .. }) => if_::stm(self, b, s),
            Exp::Loop(Loop { .. }) => loops::stm(self, b, s),
            Exp::Soac(Soac::Map(Map { .. })) => soac_map::stm(self, b, s),
            Exp::Soac(Soac::Reduce(Reduce { .. })) | Exp::Soac(Soac::Scan(Scan { .. })) => {
                reduce::stm(self, b, s)
            }
            Exp::Soac(Soac::Hist(Hist { .. })) => hist::stm(self, b, s),
            Exp::Soac(Soac::Scatter(Scatter { .. })) => scatter::stm(self, b, s),
            Exp::Soac(Soac::WithAcc(WithAcc { .. })) | Exp::Basic(BasicOp::Upd { .. }) => {
                acc::stm(self, b, s)
            }
            Exp::Apply(Apply { fun, .. }) => Err(crate::recursive_call(s.span, *fun)),
            // Forward mode differentiates the function itself.
            Exp::Ad(AdOp::WithVjp(WithVjp { lam, args, .. })) => {
                for (p, &a) in lam.params.iter().zip(args) {
                    b.let_pat(vec![p.clone()], Exp::Basic(BasicOp::Atom(a)));
                    self.set(p.name, &p.ty, self.tan(a));
                }
                let (res, tans) = self.body(b, &lam.body)?;
                for ((p, r), t) in s.pat.iter().zip(res).zip(tans) {
                    b.let_pat(vec![p.clone()], Exp::Basic(BasicOp::Atom(r)));
                    self.set(p.name, &p.ty, t);
                }
                Ok(())
            }
            Exp::Ad(AdOp::Jvp(Jvp { .. })) | Exp::Ad(AdOp::Vjp(Vjp { .. })) => Err(AdError::new(
                s.span,
                "nested AD node left unexpanded (expansion is innermost first)",
            )),
            Exp::Soac(Soac::Screma(_)) => Err(AdError::new(
                s.span,
                "internal error: screma reached AD (it is split first)",
            )),
        }
    }

    /// [`Self::emit_extended`] for a construct whose results are `pat`'s
    /// followed by the tangents of the results numbered `keep`; the
    /// results marked in `bundled` are bundled accumulators.
    pub fn emit_with_tangents(
        &mut self,
        b: &mut Builder,
        pat: &[Param],
        exp: Exp,
        base: &str,
        bundled: &[bool],
        keep: &[usize],
    ) {
        let names = self.emit_extended(b, pat, exp, base);
        for (i, _) in bundled.iter().enumerate().filter(|(_, &bd)| bd) {
            self.bundle(names[i]);
        }
        for (k, &i) in keep.iter().enumerate() {
            self.set(pat[i].name, &pat[i].ty, Some(names[pat.len() + k].into()));
        }
    }

    /// Binds `exp`, whose results are the values of `pat` followed by
    /// `extra` more values: the names of `pat` are kept (with the types
    /// `exp` now has, which differ for bundled accumulators) and the extra
    /// values get fresh names based on `base`.
    pub fn emit_extended(
        &mut self,
        b: &mut Builder,
        pat: &[Param],
        exp: Exp,
        base: &str,
    ) -> Vec<VName> {
        let tys = typing::result_types(&*b.ctx, &exp)
            .unwrap_or_else(|e| panic!("fwd: cannot type {exp:?}: {e}"));
        let mut params = vec![];
        for (i, ty) in tys.into_iter().enumerate() {
            match pat.get(i) {
                Some(p) => {
                    // Keep declared dimensions unless the type changed class.
                    let ty = if p.ty.same_shape_class(&ty) {
                        p.ty.clone()
                    } else {
                        ty
                    };
                    params.push(Param::new(p.name, ty))
                }
                None => params.push(b.param(base, ty)),
            }
        }
        let names = params.iter().map(|p| p.name).collect();
        b.let_pat(params, exp);
        names
    }
}

/// Vars of `body` (transitively) depending on `active`, which is extended
/// in place: a statement is active when any variable it uses is.
pub fn activity(body: &Body, active: &mut FxHashSet<VName>) {
    for s in &body.stms {
        if crate::linear::never_active(&s.exp) {
            continue;
        }
        let mut any = false;
        exp_uses(&s.exp, &mut |v| any |= active.contains(&v));
        if any {
            active.extend(s.pat.iter().map(|p| p.name));
        }
    }
}
