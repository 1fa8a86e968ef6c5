//! Accumulators (`withacc`/`upd`), which appear when a `vjp` is itself
//! differentiated (`vjp` of `vjp`). With `+` as operator, a `withacc`
//! computes `out = in + Σ updates`, so `īn += ōut` and each `upd acc i v`
//! gives `v̄ += ōut[i]`. The return sweep re-executes the lambda's body
//! with every accumulator replaced by a scalar that sums `⟨ōut[i], v⟩`
//! over its updates (the "stripped" body, plain IR whose ordinary return
//! sweep, seeded with 1 for those scalars, yields exactly these adjoints).

use super::adjenv::Rev;
use super::build::{all_in_bounds, if_, sum_rows};
use super::reduce::{classify, Special};
use crate::{AdError, Result};
use parad_base::{FloatType, PrimType, Span};
use parad_core::consts;
use parad_core::free::body_binds;
use parad_core::walk;
use parad_core::*;
use rustc_hash::FxHashMap;

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) = &s.exp else {
        return Err(AdError::new(
            s.span,
            "internal error: accumulator update outside withacc in a reverse sweep",
        ));
    };
    let mut st = Strip {
        info: FxHashMap::default(),
        ren: FxHashMap::default(),
        span: s.span,
    };
    let mut k = 0;
    let mut prologue = vec![];
    // Adjoints of the arrays of an overwriting accumulator, added to the
    // inputs only where nothing was written (after the sweep).
    let mut overwritten: Vec<(VName, VName)> = vec![];
    for (inp, p) in inputs.iter().zip(&lam.params) {
        let overwrite = inp.op.is_none();
        if overwrite && !overwrite_supported(inputs, lam) {
            return Err(AdError::new(
                s.span,
                "reverse AD of writes through an accumulator is only supported for a single accumulator",
            ));
        }
        if !overwrite
            && !matches!(&inp.op, Some(op) if matches!(classify(&op.lam), Some((Special::Add, _))))
        {
            return Err(AdError::new(
                s.span,
                "reverse AD of an accumulator whose operator is not + is not supported",
            ));
        }
        let mut obar = vec![];
        for &a in &inp.arrs {
            let out = s.pat[k].name;
            k += 1;
            if r.wants(b, out) {
                let o = r.adj_val(b, out).var().expect("array adjoint");
                if overwrite {
                    overwritten.push((a, o));
                } else {
                    r.add(b, a, o.into());
                }
                obar.push(Some(o));
            } else {
                obar.push(None);
            }
        }
        let info = AccInfo { obar };
        let ft = info.float_type(b);
        let sc = st.scalar(b, p.name, ft);
        prologue.push(Stm {
            pat: vec![Param::new(sc, Type::Prim(ft))],
            exp: Exp::Basic(BasicOp::Atom(Operand::Const(consts::zero(ft)))),
            span: s.span,
            attrs: vec![],
        });
        st.info.insert(p.name, info);
    }
    let mut body = st.body(b, &lam.body)?;
    prologue.append(&mut body.stms);
    body.stms = prologue;
    body_binds(&body, &mut |v| {
        r.active.insert(v);
    });
    let n_in = inputs.len();
    let mut seeds: Vec<Operand> = body.result[..n_in]
        .iter()
        .map(|&o| {
            let t = b.type_of(o).as_prim().expect("scalar");
            Operand::Const(consts::one(t))
        })
        .collect();
    seeds.extend(r.seeds(b, &s.pat[k..]));
    r.body(b, &body, &seeds)?;
    if !overwritten.is_empty() {
        let written = written_adjoints(r, b, s, &overwritten);
        for ((a, o), w) in overwritten.into_iter().zip(written) {
            let t = b.type_of(o).elem().expect("array");
            let neg = super::build::scale(b, w.into(), Operand::Const(consts::int(t, -1)));
            let kept = super::build::add_values(b, o.into(), neg);
            r.add(b, a, kept);
        }
    }
    Ok(())
}

/// Writes (no operator) are differentiated for a `withacc` of one input
/// whose body creates no accumulators of its own (every `upd` in it then
/// writes to that input). Duplicate writes to one position are not
/// supported (their order is unspecified, as for `scatter`).
fn overwrite_supported(inputs: &[AccInput], lam: &Lambda) -> bool {
    inputs.len() == 1
        && !walk::any_in_body(&lam.body, |s| {
            matches!(s.exp, Exp::Soac(Soac::WithAcc(WithAcc { .. })))
        })
}

/// For each `(input, ōut)` of an overwriting accumulator: `ōut` at the
/// written positions and zero elsewhere, by re-running the `withacc` on
/// zeros with every write replaced by a read of `ōut` at its index.
fn written_adjoints(r: &mut Rev, b: &mut Builder, s: &Stm, pairs: &[(VName, VName)]) -> Vec<VName> {
    let Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) = &s.exp else {
        unreachable!()
    };
    let obars: Vec<VName> = pairs.iter().map(|&(_, o)| o).collect();
    let body = reads_for_writes(b, &lam.body, &obars);
    let zeros: Vec<VName> = obars
        .iter()
        .map(|&o| super::build::zeros_like(b, o.into()).var().expect("array"))
        .collect();
    let inputs = vec![AccInput {
        ispace: inputs[0].ispace.clone(),
        arrs: zeros,
        op: None,
    }];
    let copy = Stm {
        pat: s.pat.clone(),
        exp: Exp::Soac(Soac::WithAcc(WithAcc {
            inputs,
            lam: Lambda {
                params: lam.params.clone(),
                ret: lam.ret.clone(),
                body,
            },
        })),
        span: s.span,
        attrs: s.attrs.clone(),
    };
    // The copy's binders must not replace the primal's in the substitution.
    let names: Vec<VName> = s.pat.iter().map(|p| p.name).collect();
    let saved = r.save_subst(&names);
    let copy = parad_core::rename::Renamer {
        ctx: b.ctx,
        subst: &mut r.subst,
    }
    .stm(&copy);
    r.restore_subst(&saved);
    let out: Vec<VName> = copy.pat[..obars.len()].iter().map(|p| p.name).collect();
    b.add_stm(copy);
    out
}

/// `body` with every `upd acc i vs` turned into `upd acc i (ōut[i])`
/// (zeros where `i` is out of bounds, which `upd` ignores anyway), at
/// any depth: with a single accumulator and none created inside (see
/// [`overwrite_supported`]), every `upd` writes to it.
fn reads_for_writes(b: &mut Builder, body: &Body, obars: &[VName]) -> Body {
    struct Reads<'a, 'b> {
        b: &'a mut Builder<'b>,
        obars: &'a [VName],
    }
    impl VisitorMut for Reads<'_, '_> {
        fn visit_body(&mut self, body: &mut Body) {
            let mut stms = vec![];
            for mut s in std::mem::take(&mut body.stms) {
                if let Exp::Basic(BasicOp::Upd { inds, vals, .. }) = &mut s.exp {
                    let (pre, new_vals) = self.b.nested(|b| {
                        self.obars
                            .iter()
                            .zip(vals.iter())
                            .map(|(&o, &v)| guarded_read(b, o, inds, v))
                            .collect()
                    });
                    stms.extend(pre);
                    *vals = new_vals;
                } else {
                    self.visit_exp(&mut s.exp)
                }
                stms.push(s);
            }
            body.stms = stms;
        }
    }
    let mut body = body.clone();
    Reads { b, obars }.visit_body(&mut body);
    body
}

/// `o[inds]` if in bounds, else zeros shaped like `v`.
fn guarded_read(b: &mut Builder, o: VName, inds: &[Operand], v: Operand) -> Operand {
    let ok = all_in_bounds(b, o, inds);
    let t = b.type_of(v);
    if_(
        b,
        ok,
        vec![t],
        |b| vec![b.index(o, inds).into()],
        |b| vec![super::build::zeros_like(b, v)],
    )[0]
    .into()
}

/// The adjoints of the arrays behind one accumulator (`None`: not
/// differentiated).
#[derive(Clone)]
struct AccInfo {
    obar: Vec<Option<VName>>,
}

impl AccInfo {
    fn float_type(&self, b: &Builder) -> PrimType {
        self.obar
            .iter()
            .flatten()
            .find_map(|&o| b.type_of(o).elem())
            .unwrap_or(PrimType::Float(FloatType::F64))
    }
}

struct Strip {
    /// Accumulators being replaced, by original name.
    info: FxHashMap<VName, AccInfo>,
    /// Their scalar replacements.
    ren: FxHashMap<VName, VName>,
    span: Span,
}

impl Strip {
    fn scalar(&mut self, b: &mut Builder, acc: VName, ft: PrimType) -> VName {
        let v = b.ctx.names.fresh_like(acc);
        b.ctx.types.insert(v, Type::Prim(ft));
        self.ren.insert(acc, v);
        v
    }

    fn known(&self, o: &Operand) -> Option<VName> {
        o.var().filter(|v| self.info.contains_key(v))
    }

    fn op(&self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => Operand::Var(self.ren.get(&v).copied().unwrap_or(v)),
            c => c,
        }
    }

    /// Records that `new` (an accumulator-typed binder) continues `old`,
    /// and returns its scalar parameter.
    fn follow(&mut self, b: &mut Builder, new: &Param, old: VName) -> Param {
        let info = self.info[&old].clone();
        let ft = info.float_type(b);
        let sc = self.scalar(b, new.name, ft);
        self.info.insert(new.name, info);
        Param::new(sc, Type::Prim(ft))
    }

    fn err(&self, what: &str) -> AdError {
        AdError::new(
            self.span,
            format!("reverse AD through accumulators: unsupported {what}"),
        )
    }

    fn body(&mut self, b: &mut Builder, body: &Body) -> Result<Body> {
        let mut stms = vec![];
        for s in &body.stms {
            self.stm(b, s, &mut stms)?;
        }
        Ok(Body::new(
            stms,
            body.result.iter().map(|&o| self.op(o)).collect(),
        ))
    }

    fn uses_known(&self, e: &Exp) -> bool {
        let mut hit = false;
        parad_core::free::exp_uses(e, &mut |v| hit |= self.info.contains_key(&v));
        hit
    }

    fn stm(&mut self, b: &mut Builder, s: &Stm, out: &mut Vec<Stm>) -> Result<()> {
        match &s.exp {
            Exp::Basic(BasicOp::Upd { acc, inds, vals }) if self.info.contains_key(acc) => {
                let info = self.info[acc].clone();
                let ft = info.float_type(b);
                let cur = self.op(Operand::Var(*acc));
                let (stms, total) = b.nested(|b| {
                    let mut total = cur;
                    for (o, &v) in info.obar.iter().zip(vals) {
                        let Some(o) = *o else { continue };
                        let c = guarded_dot(b, o, inds, v, ft);
                        total = b.add(total, c).into();
                    }
                    total
                });
                out.extend(stms);
                let p = self.follow(b, &s.pat[0], *acc);
                out.push(Stm {
                    pat: vec![p],
                    exp: Exp::Basic(BasicOp::Atom(total)),
                    span: s.span,
                    attrs: vec![],
                });
            }
            Exp::Basic(BasicOp::Atom(o)) if self.known(o).is_some() => {
                let p = self.follow(b, &s.pat[0], self.known(o).expect("known"));
                out.push(Stm {
                    pat: vec![p],
                    exp: Exp::Basic(BasicOp::Atom(self.op(*o))),
                    span: s.span,
                    attrs: vec![],
                });
            }
            Exp::Soac(Soac::Map(Map { w, lam, arrs }))
                if arrs.iter().any(|a| self.info.contains_key(a)) =>
            {
                self.map(b, s, *w, lam, arrs, out)?
            }
            Exp::If(If {
                cond,
                then_br,
                else_br,
                ret,
            }) if self.uses_known(&s.exp) => {
                let then_b = self.body(b, then_br)?;
                let else_b = self.body(b, else_br)?;
                let mut ret = ret.clone();
                let mut pat = s.pat.clone();
                for (j, &res) in then_br.result.iter().enumerate() {
                    if let Some(old) = self.known(&res) {
                        let p = self.follow(b, &s.pat[j], old);
                        ret[j] = p.ty.clone();
                        pat[j] = p;
                    }
                }
                out.push(Stm {
                    pat,
                    exp: Exp::If(If {
                        cond: *cond,
                        then_br: then_b,
                        else_br: else_b,
                        ret,
                    }),
                    span: s.span,
                    attrs: vec![],
                });
            }
            Exp::Loop(Loop { params, form, body }) if self.uses_known(&s.exp) => {
                let mut new_params = vec![];
                let mut pat = s.pat.clone();
                for (j, (p, init)) in params.iter().enumerate() {
                    match self.known(init) {
                        Some(old) => {
                            let np = self.follow(b, p, old);
                            let pp = self.follow(b, &s.pat[j], old);
                            pat[j] = pp;
                            new_params.push((np, self.op(*init)));
                        }
                        None => new_params.push((p.clone(), *init)),
                    }
                }
                let body = self.body(b, body)?;
                out.push(Stm {
                    pat,
                    exp: Exp::Loop(Loop {
                        params: new_params,
                        form: form.clone(),
                        body,
                    }),
                    span: s.span,
                    attrs: vec![],
                });
            }
            Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) if self.uses_known(&s.exp) => {
                let n_arr: usize = inputs.iter().map(|i| i.arrs.len()).sum();
                let body = self.body(b, &lam.body)?;
                let mut ret = lam.ret.clone();
                let mut pat = s.pat.clone();
                for (e, &res) in lam.body.result.iter().enumerate().skip(inputs.len()) {
                    if let Some(old) = self.known(&res) {
                        let k = n_arr + e - inputs.len();
                        let p = self.follow(b, &s.pat[k], old);
                        ret[e] = p.ty.clone();
                        pat[k] = p;
                    }
                }
                out.push(Stm {
                    pat,
                    exp: Exp::Soac(Soac::WithAcc(WithAcc {
                        inputs: inputs.clone(),
                        lam: Lambda {
                            params: lam.params.clone(),
                            ret,
                            body,
                        },
                    })),
                    span: s.span,
                    attrs: vec![],
                });
            }
            e if self.uses_known(e) => {
                return Err(self.err("use of an accumulator"));
            }
            _ => out.push(s.clone()),
        }
        Ok(())
    }

    /// A map threading known accumulators: each iteration starts its
    /// scalar from 0 and returns it; the sums are added afterwards.
    fn map(
        &mut self,
        b: &mut Builder,
        s: &Stm,
        w: Operand,
        lam: &Lambda,
        arrs: &[VName],
        out: &mut Vec<Stm>,
    ) -> Result<()> {
        let mut params = vec![];
        let mut new_arrs = vec![];
        let mut prologue = vec![];
        let mut acc_inputs = vec![];
        for (p, &a) in lam.params.iter().zip(arrs) {
            if self.info.contains_key(&a) {
                let sp = self.follow(b, p, a);
                let ft = sp.ty.as_prim().expect("scalar");
                prologue.push(Stm {
                    pat: vec![sp],
                    exp: Exp::Basic(BasicOp::Atom(Operand::Const(consts::zero(ft)))),
                    span: s.span,
                    attrs: vec![],
                });
                acc_inputs.push(Some(a));
            } else {
                if b.type_of(a).is_acc() {
                    acc_inputs.push(None);
                }
                params.push(p.clone());
                new_arrs.push(a);
            }
        }
        let mut body = self.body(b, &lam.body)?;
        prologue.append(&mut body.stms);
        body.stms = prologue;
        let mut ret = lam.ret.clone();
        let mut pat = s.pat.clone();
        let mut sums = vec![];
        let mut acc_k = 0;
        for (j, t) in lam.ret.iter().enumerate() {
            if !t.is_acc() {
                continue;
            }
            let input = acc_inputs.get(acc_k).copied().flatten();
            acc_k += 1;
            let Some(old) = input else { continue };
            let ft = self.info[&old].float_type(b);
            ret[j] = Type::Prim(ft);
            let parts = b.ctx.names.fresh("parts");
            let pt = Type::Prim(ft)
                .array_of(Dim::from_operand(&w))
                .expect("array");
            b.ctx.types.insert(parts, pt.clone());
            pat[j] = Param::new(parts, pt);
            sums.push((j, old, parts));
        }
        out.push(Stm {
            pat,
            exp: Exp::Soac(Soac::Map(Map {
                w,
                lam: Lambda { params, ret, body },
                arrs: new_arrs,
            })),
            span: s.span,
            attrs: vec![],
        });
        for (j, old, parts) in sums {
            let cur = self.op(Operand::Var(old));
            let (stms, total) = b.nested(|b| {
                let sm = sum_rows(b, parts);
                b.add(cur, sm)
            });
            out.extend(stms);
            let p = self.follow(b, &s.pat[j], old);
            out.push(Stm {
                pat: vec![p],
                exp: Exp::Basic(BasicOp::Atom(total.into())),
                span: s.span,
                attrs: vec![],
            });
        }
        Ok(())
    }
}

/// `⟨ō[inds], v⟩` (summed over the elements of `v`), 0 when `inds` is out
/// of bounds.
fn guarded_dot(b: &mut Builder, o: VName, inds: &[Operand], v: Operand, ft: PrimType) -> VName {
    let ok = all_in_bounds(b, o, inds);
    if_(
        b,
        ok,
        vec![Type::Prim(ft)],
        |b| {
            let e = b.index(o, inds);
            vec![dot_all(b, e.into(), v)]
        },
        |_| vec![Operand::Const(consts::zero(ft))],
    )[0]
}

/// The sum of the elementwise products of two equally shaped values.
fn dot_all(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    if b.type_of(x).rank() == 0 {
        return b.mul(x, y).into();
    }
    let (xv, yv) = (x.var().expect("array"), y.var().expect("array"));
    let w = b.width(xv);
    let per = super::build::map(b, w, &[xv, yv], |b, p| {
        vec![dot_all(b, p[0].into(), p[1].into())]
    })[0];
    sum_rows(b, per)
}
