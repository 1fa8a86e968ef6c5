//! Sequential loops, the only construct that keeps values across the
//! sweeps: the forward loop saves every loop parameter at the entry of
//! each iteration; the return loop runs the iterations backwards, reloads
//! the checkpoint, re-executes the body and runs its return sweep, seeded
//! with the adjoints of the parameters at the iteration's end. Adjoints
//! of the body's free variables are loop-carried. A `while` loop is first
//! run once to count its iterations (an inspector) and is then treated
//! as a `for` loop with that bound.

use super::adjenv::{Adj, Rev};
use super::build::{i64_of, is_diff};
use super::Saved;
use crate::Result;
use parad_base::{IntType, PrimType};
use parad_core::free::free_in_body;
use parad_core::rename::Renamer;
use parad_core::types::I64;
use parad_core::*;

pub fn fwd(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<Saved> {
    let Exp::Loop(Loop { params, form, body }) = &s.exp else {
        unreachable!()
    };
    let (i, it, count) = match form {
        LoopForm::For { i, it, bound } => {
            let c = i64_of(b, r.po(*bound));
            (*i, *it, c)
        }
        LoopForm::While { .. } => {
            let c = count_iterations(r, b, params, form, body);
            let i = b.fresh("i");
            b.ctx.types.insert(i, I64);
            (i, IntType::I64, c)
        }
    };
    let inits: Vec<Operand> = params.iter().map(|(_, o)| r.po(*o)).collect();
    let mut bufs = vec![];
    for &init in &inits {
        let t = b.type_of(init);
        let mut shape = vec![count];
        if let Operand::Var(v) = init {
            for k in 0..t.rank() {
                shape.push(b.dim(v, k));
            }
        }
        bufs.push(b.scratch(t.elem().expect("loop parameter"), shape));
    }
    let mut ren = Renamer {
        ctx: b.ctx,
        subst: &mut r.subst,
    };
    let i_new = ren.bind(&Param::new(i, Type::Prim(PrimType::Int(it))));
    let mut new_params: Vec<(Param, Operand)> = params
        .iter()
        .zip(&inits)
        .map(|((p, _), &o)| (ren.bind(p), o))
        .collect();
    let cp_params: Vec<Param> = bufs
        .iter()
        .map(|&v| {
            let t = b.type_of(v);
            b.param("checkpoint", t)
        })
        .collect();
    let body_new = b.body(|b| {
        let idx = i64_of(b, i_new.name.into());
        let mut res = vec![];
        let mut cps: Vec<Operand> = vec![];
        for ((p, _), cp) in new_params.iter().zip(&cp_params) {
            cps.push(b.update(cp.name, &[idx], p.name).into());
        }
        let body = Renamer {
            ctx: b.ctx,
            subst: &mut r.subst,
        }
        .body(body);
        for st in body.stms {
            b.add_stm(st);
        }
        res.extend(body.result);
        res.extend(cps);
        res
    });
    for (p, &buf) in cp_params.iter().zip(&bufs) {
        new_params.push((p.clone(), buf.into()));
    }
    let mut ren = Renamer {
        ctx: b.ctx,
        subst: &mut r.subst,
    };
    let mut pat: Vec<Param> = s.pat.iter().map(|p| ren.bind(p)).collect();
    let cp_out: Vec<Param> = bufs
        .iter()
        .map(|&v| {
            let t = b.type_of(v);
            b.param("checkpoints", t)
        })
        .collect();
    pat.extend(cp_out.iter().cloned());
    let bound = match it {
        IntType::I64 => count,
        _ => b.cast(PrimType::Int(it), count).into(),
    };
    b.let_pat(
        pat,
        Exp::Loop(Loop {
            params: new_params,
            form: LoopForm::For {
                i: i_new.name,
                it,
                bound,
            },
            body: body_new,
        }),
    );
    Ok(Saved::Loop {
        checkpoints: cp_out.iter().map(|p| p.name).collect(),
        count,
        i,
    })
}

/// Runs a renamed copy of a while loop with an iteration counter.
fn count_iterations(
    r: &mut Rev,
    b: &mut Builder,
    params: &[(Param, Operand)],
    form: &LoopForm,
    body: &Body,
) -> Operand {
    let exp = Renamer {
        ctx: b.ctx,
        subst: &mut r.subst,
    }
    .exp(&Exp::Loop(Loop {
        params: params.to_vec(),
        form: form.clone(),
        body: body.clone(),
    }));
    let Exp::Loop(Loop {
        mut params,
        form,
        mut body,
    }) = exp
    else {
        unreachable!()
    };
    let n = b.param("count", I64);
    let n1 = b.param("count", I64);
    body.stms.push(Stm {
        pat: vec![n1.clone()],
        exp: Exp::Basic(BasicOp::BinOp(
            BinOp::Add,
            PrimType::Int(IntType::I64),
            n.name.into(),
            Operand::i64(1),
        )),
        span: b.span(),
        attrs: vec![],
    });
    body.result.push(n1.name.into());
    params.push((n, Operand::i64(0)));
    let out = b.emit_as("inspect", Exp::Loop(Loop { params, form, body }));
    (*out.last().expect("count")).into()
}

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm, saved: Saved) -> Result<()> {
    let Exp::Loop(Loop { params, body, form }) = &s.exp else {
        unreachable!()
    };
    let Saved::Loop {
        checkpoints,
        count,
        i,
    } = saved
    else {
        return Ok(());
    };
    let it = match form {
        LoopForm::For { it, .. } => *it,
        LoopForm::While { .. } => IntType::I64,
    };
    let fl: Vec<usize> = (0..params.len())
        .filter(|&k| is_diff(&params[k].0.ty) && r.wants(b, s.pat[k].name))
        .collect();
    let seeds: Vec<Operand> = fl.iter().map(|&k| r.adj_val(b, s.pat[k].name)).collect();
    let mut free: Vec<VName> = free_in_body(body)
        .into_iter()
        .filter(|v| *v != i && !params.iter().any(|(p, _)| p.name == *v))
        .collect();
    free.sort();
    let cands: Vec<VName> = free.iter().copied().filter(|&v| r.wants(b, v)).collect();
    let before: Vec<Adj> = cands.iter().map(|&v| r.adj_any(b, v)).collect();
    let saved_subst = r.save_subst(&free);
    let saved_params = r.save_subst(&params.iter().map(|(p, _)| p.name).collect::<Vec<_>>());

    let mut loop_params: Vec<(Param, Operand)> = vec![];
    for &sd in &seeds {
        let t = b.type_of(sd);
        loop_params.push((b.param("adj", t), sd));
    }
    for &a in &before {
        let (t, o) = match a {
            Adj::Val(o) => (b.type_of(o), o),
            Adj::Acc(v) => (b.type_of(v), v.into()),
        };
        loop_params.push((b.param("adj", t), o));
    }
    let j = b.param("j", I64).name;
    let nf = fl.len();
    let (stms, res) = b.nested(|b| -> Result<Vec<Operand>> {
        let last = b.sub(count, Operand::i64(1));
        let idx = b.sub(last, j);
        for (k, (p, _)) in params.iter().enumerate() {
            let v = b.index(checkpoints[k], &[idx.into()]);
            r.subst.set(p.name, v);
            r.forget(p.name);
        }
        let iv = match it {
            IntType::I64 => idx,
            _ => b.cast(PrimType::Int(it), idx),
        };
        r.subst.set(i, iv);
        for ((&v, a), (p, _)) in cands.iter().zip(&before).zip(&loop_params[nf..]) {
            let new = match a {
                Adj::Val(_) => Adj::Val(p.name.into()),
                Adj::Acc(_) => Adj::Acc(p.name),
            };
            r.adj.insert(v, new);
        }
        let mut body_seeds = vec![Operand::i64(0); params.len()];
        for (&k, (p, _)) in fl.iter().zip(&loop_params) {
            body_seeds[k] = p.name.into();
        }
        r.body(b, body, &body_seeds)?;
        let mut res = vec![];
        for &k in &fl {
            res.push(r.final_adj(b, params[k].0.name));
        }
        for &v in &cands {
            res.push(r.adj_operand(b, v));
        }
        Ok(res)
    });
    let res = res?;
    r.restore_subst(&saved_subst);
    r.restore_subst(&saved_params);
    let out = b.emit_as(
        "adj",
        Exp::Loop(Loop {
            params: loop_params,
            form: LoopForm::For {
                i: j,
                it: IntType::I64,
                bound: count,
            },
            body: Body::new(stms, res),
        }),
    );
    for ((&v, a), &o) in cands.iter().zip(&before).zip(&out[nf..]) {
        let new = match a {
            Adj::Val(_) => Adj::Val(o.into()),
            Adj::Acc(_) => Adj::Acc(o),
        };
        r.adj.insert(v, new);
    }
    for (&k, &o) in fl.iter().zip(&out[..nf]) {
        r.add_op(b, params[k].1, o.into());
    }
    Ok(())
}
