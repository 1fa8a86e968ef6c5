//! Copies of IR fragments with fresh names. Every name is bound once in a
//! whole program, so re-executing a scope's forward statements (the
//! essence of redundant execution) needs renamed copies of them.
//!
//! A [`Subst`] maps original names to their current copies; uses are
//! rewritten through it and every binder met on the way gets a fresh name
//! (recorded in the type table of the [`Ctx`]).

use parad_core::builder::Ctx;
use parad_core::types::AccType;
use parad_core::*;
use rustc_hash::FxHashMap;

#[derive(Clone, Default)]
pub struct Subst {
    map: FxHashMap<VName, VName>,
}

impl Subst {
    pub fn get(&self, v: VName) -> VName {
        self.map.get(&v).copied().unwrap_or(v)
    }

    pub fn set(&mut self, from: VName, to: VName) {
        self.map.insert(from, to);
    }

    pub fn operand(&self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => Operand::Var(self.get(v)),
            c => c,
        }
    }

    pub fn dim(&self, d: Dim) -> Dim {
        match d {
            Dim::Var(v) => Dim::Var(self.get(v)),
            d => d,
        }
    }

    pub fn ty(&self, t: &Type) -> Type {
        match t {
            Type::Prim(_) => t.clone(),
            Type::Array { elem, shape } => Type::Array {
                elem: *elem,
                shape: shape.iter().map(|&d| self.dim(d)).collect(),
            },
            Type::Acc(a) => Type::Acc(AccType {
                ispace: a.ispace.iter().map(|&d| self.dim(d)).collect(),
                elems: a.elems.iter().map(|t| self.ty(t)).collect(),
            }),
        }
    }
}

/// Renames binders and substitutes uses.
pub struct Renamer<'a> {
    pub ctx: &'a mut Ctx,
    pub subst: &'a mut Subst,
}

impl Renamer<'_> {
    /// A fresh copy of a binder; later uses of `p.name` refer to it.
    pub fn bind(&mut self, p: &Param) -> Param {
        let ty = self.subst.ty(&p.ty);
        let name = self.ctx.names.fresh_like(p.name);
        self.ctx.types.insert(name, ty.clone());
        self.subst.set(p.name, name);
        Param { name, ty }
    }

    fn bind_name(&mut self, v: VName, ty: Type) -> VName {
        self.bind(&Param::new(v, ty)).name
    }

    pub fn stm(&mut self, s: &Stm) -> Stm {
        let exp = self.exp(&s.exp);
        let pat = s.pat.iter().map(|p| self.bind(p)).collect();
        Stm {
            pat,
            exp,
            span: s.span,
        }
    }

    pub fn body(&mut self, b: &Body) -> Body {
        let stms = b.stms.iter().map(|s| self.stm(s)).collect();
        let result = b.result.iter().map(|&o| self.subst.operand(o)).collect();
        Body { stms, result }
    }

    pub fn lambda(&mut self, l: &Lambda) -> Lambda {
        let params = l.params.iter().map(|p| self.bind(p)).collect();
        let ret = l.ret.iter().map(|t| self.subst.ty(t)).collect();
        let body = self.body(&l.body);
        Lambda { params, ret, body }
    }

    fn op(&self, o: Operand) -> Operand {
        self.subst.operand(o)
    }

    fn ops(&self, os: &[Operand]) -> Vec<Operand> {
        os.iter().map(|&o| self.op(o)).collect()
    }

    fn v(&self, v: VName) -> VName {
        self.subst.get(v)
    }

    fn vs(&self, vs: &[VName]) -> Vec<VName> {
        vs.iter().map(|&v| self.v(v)).collect()
    }

    fn slice(&self, s: &[DimIndex]) -> Vec<DimIndex> {
        s.iter()
            .map(|d| match *d {
                DimIndex::Fix(i) => DimIndex::Fix(self.op(i)),
                DimIndex::Slice { start, len, stride } => DimIndex::Slice {
                    start: self.op(start),
                    len: self.op(len),
                    stride: self.op(stride),
                },
            })
            .collect()
    }

    fn acc_op(&mut self, o: &AccOp) -> AccOp {
        AccOp {
            neutral: self.ops(&o.neutral),
            lam: self.lambda(&o.lam),
        }
    }

    pub fn exp(&mut self, e: &Exp) -> Exp {
        match e {
            Exp::Atom(o) => Exp::Atom(self.op(*o)),
            Exp::UnOp(op, t, x) => Exp::UnOp(*op, *t, self.op(*x)),
            Exp::BinOp(op, t, x, y) => Exp::BinOp(*op, *t, self.op(*x), self.op(*y)),
            Exp::TernOp(op, t, x, y, z) => {
                Exp::TernOp(*op, *t, self.op(*x), self.op(*y), self.op(*z))
            }
            Exp::Cmp(op, t, x, y) => Exp::Cmp(*op, *t, self.op(*x), self.op(*y)),
            Exp::Conv(op, f, t, x) => Exp::Conv(*op, *f, *t, self.op(*x)),
            Exp::Index { arr, slice } => Exp::Index {
                arr: self.v(*arr),
                slice: self.slice(slice),
            },
            Exp::Update { arr, slice, value } => Exp::Update {
                arr: self.v(*arr),
                slice: self.slice(slice),
                value: self.op(*value),
            },
            Exp::Reshape { arr, shape } => Exp::Reshape {
                arr: self.v(*arr),
                shape: self.ops(shape),
            },
            Exp::Flatten { arr } => Exp::Flatten { arr: self.v(*arr) },
            Exp::Unflatten { arr, n, m } => Exp::Unflatten {
                arr: self.v(*arr),
                n: self.op(*n),
                m: self.op(*m),
            },
            Exp::Rearrange { arr, perm } => Exp::Rearrange {
                arr: self.v(*arr),
                perm: perm.clone(),
            },
            Exp::Iota { n, start, step, it } => Exp::Iota {
                n: self.op(*n),
                start: self.op(*start),
                step: self.op(*step),
                it: *it,
            },
            Exp::Replicate { n, value } => Exp::Replicate {
                n: self.op(*n),
                value: self.op(*value),
            },
            Exp::Scratch { elem, shape } => Exp::Scratch {
                elem: *elem,
                shape: self.ops(shape),
            },
            Exp::Concat { arrs } => Exp::Concat {
                arrs: self.vs(arrs),
            },
            Exp::Copy { arr } => Exp::Copy { arr: self.v(*arr) },
            Exp::Reverse { arr } => Exp::Reverse { arr: self.v(*arr) },
            Exp::Rotate { arr, amount } => Exp::Rotate {
                arr: self.v(*arr),
                amount: self.op(*amount),
            },
            Exp::Size { arr, dim } => Exp::Size {
                arr: self.v(*arr),
                dim: *dim,
            },
            Exp::Apply { fun, args } => Exp::Apply {
                fun: *fun,
                args: self.ops(args),
            },
            Exp::If {
                cond,
                then_br,
                else_br,
                ret,
            } => Exp::If {
                cond: self.op(*cond),
                ret: ret.iter().map(|t| self.subst.ty(t)).collect(),
                then_br: self.body(then_br),
                else_br: self.body(else_br),
            },
            Exp::Loop { params, form, body } => {
                let inits: Vec<Operand> = params.iter().map(|(_, o)| self.op(*o)).collect();
                let form = match form {
                    LoopForm::For { i, it, bound } => LoopForm::For {
                        bound: self.op(*bound),
                        i: self.bind_name(*i, Type::Prim(parad_base::PrimType::Int(*it))),
                        it: *it,
                    },
                    LoopForm::While { cond } => LoopForm::While { cond: *cond },
                };
                let params: Vec<(Param, Operand)> = params
                    .iter()
                    .zip(inits)
                    .map(|((p, _), o)| (self.bind(p), o))
                    .collect();
                let form = match form {
                    LoopForm::While { cond } => LoopForm::While { cond: self.v(cond) },
                    f => f,
                };
                Exp::Loop {
                    params,
                    form,
                    body: self.body(body),
                }
            }
            Exp::Assert {
                cond,
                message,
                args,
            } => Exp::Assert {
                cond: self.op(*cond),
                message: message.clone(),
                args: self.ops(args),
            },
            Exp::Map { w, lam, arrs } => Exp::Map {
                w: self.op(*w),
                arrs: self.vs(arrs),
                lam: self.lambda(lam),
            },
            Exp::Reduce { w, comm, op, arrs } => Exp::Reduce {
                w: self.op(*w),
                comm: *comm,
                arrs: self.vs(arrs),
                op: self.acc_op(op),
            },
            Exp::Scan { w, op, arrs } => Exp::Scan {
                w: self.op(*w),
                arrs: self.vs(arrs),
                op: self.acc_op(op),
            },
            Exp::Hist {
                w,
                dests,
                op,
                inds,
                vals,
            } => Exp::Hist {
                w: self.op(*w),
                dests: self.vs(dests),
                inds: self.vs(inds),
                vals: self.vs(vals),
                op: self.acc_op(op),
            },
            Exp::Scatter { w, dests } => Exp::Scatter {
                w: self.op(*w),
                dests: dests
                    .iter()
                    .map(|d| ScatterDest {
                        arr: self.v(d.arr),
                        inds: self.vs(&d.inds),
                        vals: self.v(d.vals),
                    })
                    .collect(),
            },
            Exp::WithAcc { inputs, lam } => {
                let inputs = inputs
                    .iter()
                    .map(|i| AccInput {
                        ispace: self.ops(&i.ispace),
                        arrs: self.vs(&i.arrs),
                        op: i.op.as_ref().map(|o| self.acc_op(o)),
                    })
                    .collect();
                Exp::WithAcc {
                    inputs,
                    lam: self.lambda(lam),
                }
            }
            Exp::Upd { acc, inds, vals } => Exp::Upd {
                acc: self.v(*acc),
                inds: self.ops(inds),
                vals: self.ops(vals),
            },
            Exp::Jvp {
                lam,
                primals,
                tangents,
            } => Exp::Jvp {
                primals: self.ops(primals),
                tangents: self.ops(tangents),
                lam: self.lambda(lam),
            },
            Exp::Vjp {
                lam,
                primals,
                adjoints,
            } => Exp::Vjp {
                primals: self.ops(primals),
                adjoints: self.ops(adjoints),
                lam: self.lambda(lam),
            },
            Exp::WithVjp { lam, adj, args } => Exp::WithVjp {
                args: self.ops(args),
                lam: self.lambda(lam),
                adj: self.lambda(adj),
            },
        }
    }
}
