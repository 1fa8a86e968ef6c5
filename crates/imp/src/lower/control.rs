//! `if` and loops: values that meet at a merge point (the branches'
//! results, a loop's parameters) live in variables declared before it;
//! an array's merge variable holds its block and its whole index
//! function, since each branch or iteration may give a different one.

use super::{unsupported, Arr, Lower, Result, Val};
use crate::ir::{Code, Exp, I64};
use parad_base::Scalar;
use parad_base::{PrimType, Span};
use parad_core::{BinOp, If, Loop, LoopForm, Param, Type, VName};

/// Where a merged value lives.
#[derive(Clone, Debug)]
pub(crate) enum Merge {
    Scalar(VName, PrimType),
    Array {
        mem: VName,
        elem: PrimType,
        offset: VName,
        strides: Vec<VName>,
        shape: Vec<VName>,
    },
    Acc,
}

impl Merge {
    pub(crate) fn val(&self, acc: Option<&Val>) -> Val {
        match self {
            Merge::Scalar(v, t) => Val::Scalar(Exp::Var(*v), *t),
            Merge::Array {
                mem,
                elem,
                offset,
                strides,
                shape,
            } => Val::Array(Arr {
                mem: *mem,
                elem: *elem,
                offset: Exp::Var(*offset),
                strides: strides.iter().map(|s| Exp::Var(*s)).collect(),
                shape: shape.iter().map(|s| Exp::Var(*s)).collect(),
                contig: false,
                view: false,
                own: true,
            }),
            Merge::Acc => acc.cloned().expect("an accumulator"),
        }
    }
}

impl Lower {
    /// Declares the merge variable of a value of type `t` named after
    /// `like`.
    pub(crate) fn merge_var(&mut self, like: VName, t: &Type) -> Merge {
        match t {
            Type::Prim(pt) => {
                let v = self.fresh(&like.base.to_string());
                self.emit(Code::Decl { var: v, ty: *pt });
                Merge::Scalar(v, *pt)
            }
            Type::Array { elem, shape } => {
                let mem = self.new_mem(like);
                let decl = |l: &mut Lower, base: &str| {
                    let v = l.fresh(base);
                    l.emit(Code::Decl { var: v, ty: I64 });
                    v
                };
                let offset = decl(self, "off");
                let strides = shape.iter().map(|_| decl(self, "stride")).collect();
                let shape = shape.iter().map(|_| decl(self, "dim")).collect();
                Merge::Array {
                    mem,
                    elem: *elem,
                    offset,
                    strides,
                    shape,
                }
            }
            Type::Acc(_) => Merge::Acc,
        }
    }

    /// Stores `v` in the merge variable. `take` moves the block (its
    /// variable is dead from here on) when `v` owns it: a row of another
    /// array, or a block of an enclosing thread, is shared instead.
    pub(crate) fn assign_merge(&mut self, m: &Merge, v: &Val, take: bool) -> Result<()> {
        match (m, v) {
            (Merge::Scalar(var, _), Val::Scalar(e, _)) => self.emit(Code::Assign {
                var: *var,
                exp: e.clone(),
            }),
            (
                Merge::Array {
                    mem,
                    offset,
                    strides,
                    shape,
                    ..
                },
                Val::Array(a),
            ) => {
                if take && a.own && self.owned_here(a.mem) {
                    self.emit(Code::MoveMem {
                        dst: *mem,
                        src: a.mem,
                    });
                } else {
                    self.share_mem(*mem, a.mem);
                }
                self.emit(Code::Assign {
                    var: *offset,
                    exp: a.offset.clone(),
                });
                for (s, e) in strides.iter().zip(&a.strides) {
                    self.emit(Code::Assign {
                        var: *s,
                        exp: e.clone(),
                    });
                }
                for (s, e) in shape.iter().zip(&a.shape) {
                    self.emit(Code::Assign {
                        var: *s,
                        exp: e.clone(),
                    });
                }
            }
            (Merge::Acc, Val::Acc(_)) => {}
            _ => return unsupported("internal error: merging values of different kinds"),
        }
        Ok(())
    }

    /// Stores results in merge variables; a block is moved when its
    /// variable was created after `fresh_from` (inside the branch or
    /// iteration) and not already moved. The results that share a block
    /// are stored first, while the block is still in its variable.
    fn assign_results(&mut self, ms: &[Merge], vs: &[Val], fresh_from: u32) -> Result<()> {
        let mut moved = vec![];
        let takes: Vec<bool> = vs
            .iter()
            .map(|v| match v {
                Val::Array(a) if a.mem.id >= fresh_from && !moved.contains(&a.mem) => {
                    moved.push(a.mem);
                    true
                }
                _ => false,
            })
            .collect();
        for pass in [false, true] {
            for ((m, v), take) in ms.iter().zip(vs).zip(&takes) {
                if *take == pass {
                    self.assign_merge(m, v, pass)?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn if_(&mut self, i: &If, pat: &[Param], _span: Span) -> Result<Vec<Val>> {
        let cond = self.operand(&i.cond)?;
        // A scalar chosen between two values with nothing to compute is a
        // select: `b && b && …` (an `if` per operator) would otherwise
        // nest C blocks as deep as the chain.
        if let ([p], [], [], [a], [b]) = (
            pat,
            &i.then_br.stms[..],
            &i.else_br.stms[..],
            &i.then_br.result[..],
            &i.else_br.result[..],
        ) {
            if let Type::Prim(t) = p.ty {
                let (a, b) = (self.operand(a)?, self.operand(b)?);
                let m = self.merge_var(p.name, &p.ty);
                // `c && a` and `c || b` as bitwise operations on booleans:
                // gcc takes minutes on long chains of selects.
                let bool_const =
                    |e: &Exp, v: bool| matches!(e, Exp::Const(Scalar::Bool(x)) if *x == v);
                let e = if bool_const(&b, false) {
                    Exp::Bin(BinOp::And, t, Box::new(cond), Box::new(a))
                } else if bool_const(&a, true) {
                    Exp::Bin(BinOp::Or, t, Box::new(cond), Box::new(b))
                } else {
                    Exp::Select(Box::new(cond), Box::new(a), Box::new(b))
                };
                let v = Val::Scalar(e, t);
                self.assign_merge(&m, &v, false)?;
                return Ok(vec![m.val(None)]);
            }
        }
        let merges: Vec<Merge> = pat.iter().map(|p| self.merge_var(p.name, &p.ty)).collect();
        let mut accs: Vec<Option<Val>> = vec![None; pat.len()];
        let ending = self.ending.clone();
        let mut branch = |l: &mut Lower, b: &parad_core::Body| {
            let from = l.names.peek();
            l.inherit = ending.clone();
            l.nested(|l| {
                let vs = l.body(b, &[])?;
                for (a, v) in accs.iter_mut().zip(&vs) {
                    if let Val::Acc(_) = v {
                        *a = Some(v.clone());
                    }
                }
                l.assign_results(&merges, &vs, from)
            })
        };
        let then_br = branch(self, &i.then_br)?;
        let else_br = branch(self, &i.else_br)?;
        self.emit(Code::If {
            cond,
            then_br,
            else_br,
        });
        Ok(merges
            .iter()
            .zip(&accs)
            .map(|(m, a)| m.val(a.as_ref()))
            .collect())
    }

    pub(crate) fn loop_(&mut self, lp: &Loop, pat: &[Param], _span: Span) -> Result<Vec<Val>> {
        let mut merges = vec![];
        for (p, init) in &lp.params {
            let m = self.merge_var(p.name, &p.ty);
            let v = self.val_of(init)?;
            // A block is taken over only by the one parameter it starts.
            let once = lp.params.iter().filter(|(_, i)| i == init).count() == 1;
            let take = once && init.var().is_some_and(|x| self.dying.contains(&x));
            self.assign_merge(&m, &v, take)?;
            let acc = matches!(v, Val::Acc(_)).then_some(v);
            self.env.insert(p.name, m.val(acc.as_ref()));
            merges.push(m);
        }
        let params: Vec<VName> = lp.params.iter().map(|(p, _)| p.name).collect();
        let body = |l: &mut Lower| -> Result<()> {
            let from = l.names.peek();
            let vs = l.body(&lp.body, &params)?;
            // Through temporaries: a result may read another parameter.
            let temps: Vec<Merge> = lp
                .params
                .iter()
                .map(|(p, _)| l.merge_var(p.name, &p.ty))
                .collect();
            l.assign_results(&temps, &vs, from)?;
            for (m, t) in merges.iter().zip(&temps) {
                let tv = t.val(vs.iter().find(|v| matches!(v, Val::Acc(_))));
                l.assign_merge(m, &tv, true)?;
            }
            Ok(())
        };
        match &lp.form {
            LoopForm::For { i, it, bound } => {
                let bound = self.operand(bound)?;
                self.env
                    .insert(*i, Val::Scalar(Exp::Var(*i), PrimType::Int(*it)));
                let body = self.repeated(body)?;
                self.emit(Code::For {
                    i: *i,
                    it: *it,
                    bound,
                    body,
                });
            }
            LoopForm::While { cond } => {
                let Some(Merge::Scalar(c, _)) = params
                    .iter()
                    .position(|p| p == cond)
                    .map(|k| merges[k].clone())
                else {
                    return unsupported("a while loop whose condition is not a parameter");
                };
                let body = self.repeated(body)?;
                self.emit(Code::While { cond: c, body });
            }
        }
        let _ = pat;
        Ok(lp
            .params
            .iter()
            .map(|(p, _)| self.env[&p.name].clone())
            .collect())
    }
}
