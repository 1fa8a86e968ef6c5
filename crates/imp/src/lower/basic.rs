//! Basic operations: scalar operators with their run-time checks, and
//! the array operations (views where the index function allows, fresh
//! arrays otherwise, in-place updates).

use super::array::{product, row_major, Arr};
use super::{unsupported, Lower, Result, Val};
use crate::ir::{Code, ErrorArg, Exp, I64};
use parad_base::{PrimType, Scalar, Span};
use parad_core::{BasicOp, BinOp, CmpOp, DimIndex, Operand, Param, VName};

fn arg(exp: Exp) -> ErrorArg {
    ErrorArg { exp, ty: I64 }
}

fn one(v: Val) -> Result<Vec<Val>> {
    Ok(vec![v])
}

/// `[{}][{}]` with one hole per dimension.
fn shape_holes(rank: usize) -> String {
    "[{}]".repeat(rank)
}

/// An evaluated dimension index.
#[derive(Clone, Debug)]
enum Ix {
    Fix(Exp),
    Slice { start: Exp, len: Exp, stride: Exp },
}

impl Lower {
    pub(crate) fn basic(&mut self, b: &BasicOp, pat: &[Param], span: Span) -> Result<Vec<Val>> {
        let name = pat.first().map(|p| p.name);
        let like = name.unwrap_or_else(|| self.fresh("x"));
        match b {
            BasicOp::Atom(o) => match self.val_of(o)? {
                Val::Array(a) => one(Val::Array(self.view(like, a))),
                v => one(v),
            },
            BasicOp::UnOp(op, t, x) => {
                let x = self.operand(x)?;
                let rt = op.result_type(*t).unwrap_or(*t);
                one(Val::Scalar(Exp::Un(*op, *t, Box::new(x)), rt))
            }
            BasicOp::BinOp(op, t, x, y) => {
                let (x, y) = (self.operand(x)?, self.operand(y)?);
                self.check_binop(*op, *t, &y, span);
                one(Val::Scalar(Exp::Bin(*op, *t, Box::new(x), Box::new(y)), *t))
            }
            BasicOp::TernOp(op, t, x, y, z) => {
                let (x, y, z) = (self.operand(x)?, self.operand(y)?, self.operand(z)?);
                one(Val::Scalar(
                    Exp::Tern(*op, *t, Box::new(x), Box::new(y), Box::new(z)),
                    *t,
                ))
            }
            BasicOp::Cmp(op, t, x, y) => {
                let (x, y) = (self.operand(x)?, self.operand(y)?);
                one(Val::Scalar(Exp::cmp(*op, *t, x, y), PrimType::Bool))
            }
            BasicOp::Conv(op, from, to, x) => {
                let x = self.operand(x)?;
                one(Val::Scalar(Exp::Conv(*op, *from, *to, Box::new(x)), *to))
            }
            BasicOp::Index { arr, slice } => {
                let a = self.arr(*arr)?;
                let ixs = self.slice(slice)?;
                self.check_slice(&a, &ixs, span);
                let v = index(&a, &ixs);
                if v.rank() == 0 {
                    return one(Val::Scalar(v.read(&[]), v.elem));
                }
                one(Val::Array(self.view(like, v)))
            }
            BasicOp::Update { arr, slice, value } => {
                let a = self.arr(*arr)?;
                let ixs = self.slice(slice)?;
                self.check_slice(&a, &ixs, span);
                let v = self.val_of(value)?;
                let target = index(&a, &ixs);
                if let Val::Array(src) = &v {
                    self.check_same_shape(&src.shape, &target.shape, span);
                }
                let a = self.take_unique(like, &a, span)?;
                let target = index(&a, &ixs);
                self.write_val(&target, &[], &v)?;
                one(Val::Array(a))
            }
            BasicOp::Reshape { arr, shape } => {
                let a = self.arr(*arr)?;
                let dims: Vec<Exp> = shape
                    .iter()
                    .map(|d| self.operand(d))
                    .collect::<Result<_>>()?;
                self.check_reshape(&a, &dims, "reshape", span);
                one(Val::Array(self.reshaped(like, &a, dims, span)?))
            }
            BasicOp::Flatten { arr } => {
                let a = self.arr(*arr)?;
                if a.rank() < 2 {
                    return unsupported("flatten of an array of rank < 2");
                }
                let mut dims = vec![Exp::times(a.shape[0].clone(), a.shape[1].clone())];
                dims.extend(a.shape[2..].iter().cloned());
                one(Val::Array(self.reshaped(like, &a, dims, span)?))
            }
            BasicOp::Unflatten { arr, n, m } => {
                let a = self.arr(*arr)?;
                let mut dims = vec![self.operand(n)?, self.operand(m)?];
                dims.extend(a.shape[1..].iter().cloned());
                self.check_reshape(&a, &dims, "unflatten", span);
                one(Val::Array(self.reshaped(like, &a, dims, span)?))
            }
            BasicOp::Rearrange { arr, perm } => {
                let a = self.arr(*arr)?;
                let identity = perm.iter().enumerate().all(|(i, p)| i == *p);
                let v = Arr {
                    strides: perm.iter().map(|p| a.strides[*p].clone()).collect(),
                    shape: perm.iter().map(|p| a.shape[*p].clone()).collect(),
                    contig: a.contig && identity,
                    ..a
                };
                one(Val::Array(self.view(like, v)))
            }
            BasicOp::Reverse { arr } => {
                let a = self.arr(*arr)?;
                let last = Exp::minus(a.shape[0].clone(), Exp::i64(1));
                let mut strides = a.strides.clone();
                let s0 = strides[0].clone();
                strides[0] = Exp::minus(Exp::i64(0), s0.clone());
                let v = Arr {
                    offset: Exp::plus(a.offset.clone(), Exp::times(last, s0)),
                    strides,
                    contig: false,
                    ..a
                };
                one(Val::Array(self.view(like, v)))
            }
            BasicOp::Iota { n, start, step, it } => {
                let n = self.operand(n)?;
                self.check_iota_size(&n, start, step, span)?;
                let t = PrimType::Int(*it);
                let range = super::iota::Iota {
                    n: n.clone(),
                    start: self.operand(start)?,
                    step: self.operand(step)?,
                    t,
                };
                let dst = self.alloc(like, t, vec![n.clone()], span);
                self.loop_nest(&[n], &mut |l, idx| {
                    l.emit(Code::Write {
                        mem: dst.mem,
                        elem: t,
                        index: dst.pos(idx),
                        value: range.at(idx[0].clone()),
                    });
                    Ok(())
                })?;
                one(Val::Array(dst))
            }
            BasicOp::Replicate { n, value } => {
                let n = self.operand(n)?;
                self.check_size(&n, "replicate", span);
                let v = self.val_of(value)?;
                let (elem, inner) = match &v {
                    Val::Scalar(_, t) => (*t, vec![]),
                    Val::Array(a) => (a.elem, a.shape.clone()),
                    Val::Acc(_) => return unsupported("replicate of an accumulator"),
                };
                let mut shape = vec![n.clone()];
                shape.extend(inner);
                let dst = self.alloc(like, elem, shape, span);
                let v = match v {
                    Val::Scalar(e, t) => Val::Scalar(self.name_exp("v", t, e), t),
                    v => v,
                };
                self.loop_nest(&[n], &mut |l, idx| l.write_val(&dst, idx, &v))?;
                one(Val::Array(dst))
            }
            BasicOp::Scratch { elem, shape } => {
                let dims: Vec<Exp> = shape
                    .iter()
                    .map(|d| self.operand(d))
                    .collect::<Result<_>>()?;
                for d in &dims {
                    self.check_size(d, "create scratch array", span);
                }
                one(Val::Array(self.alloc(like, *elem, dims, span)))
            }
            BasicOp::Concat { arrs } => {
                let arrs: Vec<Arr> = arrs.iter().map(|a| self.arr(*a)).collect::<Result<_>>()?;
                let first = arrs
                    .first()
                    .ok_or_else(|| super::LowerError("concat of no arrays".into()))?
                    .clone();
                for a in &arrs[1..] {
                    self.check_concat(&first, a, span);
                }
                let outer = arrs
                    .iter()
                    .fold(Exp::i64(0), |s, a| Exp::plus(s, a.shape[0].clone()));
                let mut shape = vec![outer];
                shape.extend(first.shape[1..].iter().cloned());
                let dst = self.alloc(like, first.elem, shape, span);
                let mut at = Exp::i64(0);
                for a in &arrs {
                    let part = Arr {
                        offset: Exp::plus(
                            dst.offset.clone(),
                            Exp::times(at.clone(), dst.strides[0].clone()),
                        ),
                        shape: a.shape.clone(),
                        ..dst.clone()
                    };
                    self.copy_into(&part, a)?;
                    at = self.name_exp("at", I64, Exp::plus(at, a.shape[0].clone()));
                }
                one(Val::Array(dst))
            }
            BasicOp::Copy { arr } => {
                let a = self.arr(*arr)?;
                one(Val::Array(self.copy_arr(like, &a, span)?))
            }
            BasicOp::Rotate { arr, amount } => {
                let a = self.arr(*arr)?;
                let k = self.operand(amount)?;
                let dst = self.alloc(like, a.elem, a.shape.clone(), span);
                let n = a.shape[0].clone();
                let nonempty = Exp::lt(Exp::i64(0), n.clone());
                let body = self.nested(|l| {
                    let k = l.name_exp(
                        "k",
                        I64,
                        Exp::Bin(BinOp::Mod, I64, Box::new(k.clone()), Box::new(n.clone())),
                    );
                    l.loop_nest(std::slice::from_ref(&n), &mut |l, idx| {
                        let j = Exp::Bin(
                            BinOp::Mod,
                            I64,
                            Box::new(Exp::plus(idx[0].clone(), k.clone())),
                            Box::new(n.clone()),
                        );
                        let src = super::array::row_val(&a, j);
                        l.write_val(&dst, idx, &src)
                    })
                })?;
                self.emit(Code::If {
                    cond: nonempty,
                    then_br: body,
                    else_br: vec![],
                });
                one(Val::Array(dst))
            }
            BasicOp::Size { arr, dim } => {
                let a = self.arr(*arr)?;
                let d = a.shape.get(*dim).cloned().unwrap_or(Exp::i64(0));
                one(Val::Scalar(d, I64))
            }
            BasicOp::UserParam { name, default } => {
                let index = self.tuning_param(name);
                let default = Box::new(self.operand(default)?);
                one(Val::Scalar(Exp::UserParam { index, default }, I64))
            }
            BasicOp::Assert {
                cond,
                message,
                args,
            } => {
                let c = self.operand(cond)?;
                let mut eargs = vec![];
                for a in args {
                    let e = self.operand(a)?;
                    let ty = match a {
                        Operand::Const(s) => s.prim_type(),
                        Operand::Var(v) => match self.lookup(*v)? {
                            Val::Scalar(_, t) => *t,
                            _ => I64,
                        },
                    };
                    eargs.push(ErrorArg { exp: e, ty });
                }
                self.fail_if(Exp::negate(c), span, message, eargs);
                Ok(vec![])
            }
            BasicOp::Upd { acc, inds, vals } => self.upd(*acc, inds, vals, span),
        }
    }

    /// Division by zero and negative integer exponents fail.
    fn check_binop(&mut self, op: BinOp, t: PrimType, y: &Exp, span: Span) {
        let PrimType::Int(it) = t else { return };
        let zero = Exp::Const(Scalar::from_int(it, 0));
        match op {
            BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem => {
                let c = match y {
                    Exp::Const(s) => Exp::Const(Scalar::Bool(*s == Scalar::from_int(it, 0))),
                    _ => Exp::cmp(CmpOp::Eq, t, y.clone(), zero),
                };
                self.fail_if(c, span, "division by zero", vec![]);
            }
            BinOp::Pow if it.signed() => {
                let c = Exp::cmp(CmpOp::Lt, t, y.clone(), zero);
                let msg = "negative exponent {} in integer power";
                self.fail_if(
                    c,
                    span,
                    msg,
                    vec![ErrorArg {
                        exp: y.clone(),
                        ty: t,
                    }],
                );
            }
            _ => {}
        }
    }

    fn slice(&self, slice: &[DimIndex]) -> Result<Vec<Ix>> {
        slice
            .iter()
            .map(|d| {
                Ok(match d {
                    DimIndex::Fix(i) => Ix::Fix(self.operand(i)?),
                    DimIndex::Slice { start, len, stride } => Ix::Slice {
                        start: self.operand(start)?,
                        len: self.operand(len)?,
                        stride: self.operand(stride)?,
                    },
                })
            })
            .collect()
    }

    /// The interpreter's bounds rule and message.
    fn check_slice(&mut self, a: &Arr, ixs: &[Ix], span: Span) {
        let mut ok = Exp::Const(Scalar::Bool(true));
        let mut parts = vec![];
        let mut args = vec![];
        for (ix, d) in ixs.iter().zip(&a.shape) {
            match ix {
                Ix::Fix(i) => {
                    ok = Exp::and(
                        ok,
                        Exp::and(
                            Exp::cmp(CmpOp::Le, I64, Exp::i64(0), i.clone()),
                            Exp::lt(i.clone(), d.clone()),
                        ),
                    );
                    parts.push("{}");
                    args.push(arg(i.clone()));
                }
                Ix::Slice { start, len, stride } => {
                    // len == 0, or start and the last index within [0, d).
                    let last = Exp::plus(
                        start.clone(),
                        Exp::times(Exp::minus(len.clone(), Exp::i64(1)), stride.clone()),
                    );
                    let inside = Exp::and(
                        Exp::and(
                            Exp::cmp(CmpOp::Le, I64, Exp::i64(0), start.clone()),
                            Exp::lt(start.clone(), d.clone()),
                        ),
                        Exp::and(
                            Exp::cmp(CmpOp::Le, I64, Exp::i64(0), last.clone()),
                            Exp::lt(last, d.clone()),
                        ),
                    );
                    let c = Exp::and(
                        Exp::cmp(CmpOp::Le, I64, Exp::i64(0), len.clone()),
                        Exp::Select(
                            Box::new(Exp::cmp(CmpOp::Eq, I64, len.clone(), Exp::i64(0))),
                            Box::new(Exp::Const(Scalar::Bool(true))),
                            Box::new(inside),
                        ),
                    );
                    ok = Exp::and(ok, c);
                    let end = Exp::plus(start.clone(), Exp::times(len.clone(), stride.clone()));
                    if stride.as_i64() == Some(1) {
                        parts.push("{}:{}");
                        args.extend([arg(start.clone()), arg(end)]);
                    } else {
                        parts.push("{}:{}:{}");
                        args.extend([arg(start.clone()), arg(end), arg(stride.clone())]);
                    }
                }
            }
        }
        if let Exp::Const(Scalar::Bool(true)) = ok {
            return;
        }
        let msg = format!(
            "Index [{}] out of bounds for array of shape {}",
            parts.join(", "),
            shape_holes(a.rank())
        );
        args.extend(a.shape.iter().cloned().map(arg));
        self.fail_if(Exp::negate(ok), span, &msg, args);
    }

    /// Rows of a map's result must all have the shape of the first.
    pub(crate) fn check_rows(&mut self, want: &[Exp], got: &[Exp], span: Span) {
        let bad = any_differ(want, got);
        let msg = format!(
            "Cannot build an array from rows of shapes {} and {}",
            shape_holes(want.len()),
            shape_holes(got.len())
        );
        let args = want.iter().chain(got).cloned().map(arg).collect();
        self.fail_if(bad, span, &msg, args);
    }

    fn check_same_shape(&mut self, got: &[Exp], want: &[Exp], span: Span) {
        let mut bad = Exp::Const(Scalar::Bool(false));
        for (g, w) in got.iter().zip(want) {
            if g != w {
                let ne = Exp::cmp(CmpOp::Ne, I64, g.clone(), w.clone());
                bad = match bad {
                    Exp::Const(Scalar::Bool(false)) => ne,
                    b => Exp::negate(Exp::and(Exp::negate(b), Exp::negate(ne))),
                };
            }
        }
        let msg = format!(
            "Cannot write value of shape {} to slice of shape {}",
            shape_holes(got.len()),
            shape_holes(want.len())
        );
        let args = got.iter().chain(want).cloned().map(arg).collect();
        self.fail_if(bad, span, &msg, args);
    }

    pub(crate) fn check_size(&mut self, n: &Exp, what: &str, span: Span) {
        if n.as_i64().is_some_and(|n| n >= 0) {
            return;
        }
        let c = Exp::lt(n.clone(), Exp::i64(0));
        self.fail_if(
            c,
            span,
            &format!("Cannot {what} with negative size {{}}"),
            vec![arg(n.clone())],
        );
    }

    fn check_reshape(&mut self, a: &Arr, dims: &[Exp], what: &str, span: Span) {
        let mut ok = Exp::cmp(CmpOp::Eq, I64, product(dims), a.elems());
        for d in dims {
            if d.as_i64().is_none_or(|n| n < 0) {
                ok = Exp::and(Exp::cmp(CmpOp::Le, I64, Exp::i64(0), d.clone()), ok);
            }
        }
        if product(dims) == a.elems() && dims.iter().all(|d| d.as_i64().is_some_and(|n| n >= 0)) {
            return;
        }
        let msg = format!(
            "Cannot {what} array of shape {} to shape {}",
            shape_holes(a.rank()),
            shape_holes(dims.len())
        );
        let args = a.shape.iter().chain(dims).cloned().map(arg).collect();
        self.fail_if(Exp::negate(ok), span, &msg, args);
    }

    fn check_concat(&mut self, first: &Arr, a: &Arr, span: Span) {
        let mut bad = Exp::Const(Scalar::Bool(false));
        for (x, y) in first.shape[1..].iter().zip(&a.shape[1..]) {
            if x != y {
                let ne = Exp::cmp(CmpOp::Ne, I64, x.clone(), y.clone());
                bad = match bad {
                    Exp::Const(Scalar::Bool(false)) => ne,
                    b => Exp::negate(Exp::and(Exp::negate(b), Exp::negate(ne))),
                };
            }
        }
        let msg = format!(
            "Cannot concatenate arrays of shapes {} and {}",
            shape_holes(first.rank()),
            shape_holes(a.rank())
        );
        let args = first
            .shape
            .iter()
            .chain(&a.shape)
            .cloned()
            .map(arg)
            .collect();
        self.fail_if(bad, span, &msg, args);
    }

    /// `a` with a new shape: a view when its elements are in order.
    fn reshaped(&mut self, like: VName, a: &Arr, dims: Vec<Exp>, span: Span) -> Result<Arr> {
        let a = self.contiguous(a, span)?;
        let dims: Vec<Exp> = dims
            .into_iter()
            .map(|d| self.name_exp("dim", I64, d))
            .collect();
        let v = Arr {
            strides: row_major(&dims),
            shape: dims,
            contig: true,
            ..a
        };
        Ok(self.view(like, v))
    }

    /// Takes over the block of `a` (consumed here) for an in-place update,
    /// copying it first if something else still refers to it.
    pub(crate) fn take_unique(&mut self, like: VName, a: &Arr, span: Span) -> Result<Arr> {
        let mem = self.new_mem(like);
        if a.own && self.owned_here(a.mem) {
            self.emit(Code::MoveMem {
                dst: mem,
                src: a.mem,
            });
        } else {
            // A row of another array, or a block owned outside this thread:
            // shared, so the update below copies it.
            self.share_mem(mem, a.mem);
        }
        let off = self.fresh("off");
        let strides: Vec<VName> = a.strides.iter().map(|_| self.fresh("stride")).collect();
        for v in std::iter::once(&off).chain(&strides) {
            self.emit(Code::Decl { var: *v, ty: I64 });
        }
        let keep = self.nested(|l| {
            l.emit(Code::Assign {
                var: off,
                exp: a.offset.clone(),
            });
            for (v, s) in strides.iter().zip(&a.strides) {
                l.emit(Code::Assign {
                    var: *v,
                    exp: s.clone(),
                });
            }
            Ok(())
        })?;
        let copy = self.nested(|l| {
            let fresh = l.copy_arr(like, &a.with_mem(mem, true), span)?;
            l.emit(Code::MoveMem {
                dst: mem,
                src: fresh.mem,
            });
            l.emit(Code::Assign {
                var: off,
                exp: Exp::i64(0),
            });
            for (v, s) in strides.iter().zip(&fresh.strides) {
                l.emit(Code::Assign {
                    var: *v,
                    exp: s.clone(),
                });
            }
            Ok(())
        })?;
        self.emit(Code::If {
            cond: Exp::Unique(mem),
            then_br: keep,
            else_br: copy,
        });
        Ok(Arr {
            mem,
            elem: a.elem,
            offset: Exp::Var(off),
            strides: strides.into_iter().map(Exp::Var).collect(),
            shape: a.shape.clone(),
            contig: false,
            view: false,
            own: true,
        })
    }
}

/// Whether some dimension differs (false when they are the same
/// expressions).
fn any_differ(a: &[Exp], b: &[Exp]) -> Exp {
    let mut bad = Exp::Const(Scalar::Bool(false));
    for (x, y) in a.iter().zip(b) {
        if x != y {
            let ne = Exp::cmp(CmpOp::Ne, I64, x.clone(), y.clone());
            bad = match bad {
                Exp::Const(Scalar::Bool(false)) => ne,
                b => Exp::negate(Exp::and(Exp::negate(b), Exp::negate(ne))),
            };
        }
    }
    bad
}

/// The view `a[ixs]`.
fn index(a: &Arr, ixs: &[Ix]) -> Arr {
    let mut offset = a.offset.clone();
    let mut strides = vec![];
    let mut shape = vec![];
    let mut contig = a.contig;
    let mut fixed_prefix = true;
    for (k, ix) in ixs.iter().enumerate() {
        match ix {
            Ix::Fix(i) => {
                offset = Exp::plus(offset, Exp::times(i.clone(), a.strides[k].clone()));
                contig &= fixed_prefix;
            }
            Ix::Slice { start, len, stride } => {
                offset = Exp::plus(offset, Exp::times(start.clone(), a.strides[k].clone()));
                strides.push(Exp::times(a.strides[k].clone(), stride.clone()));
                shape.push(len.clone());
                contig &= fixed_prefix && stride.as_i64() == Some(1);
                fixed_prefix = false;
            }
        }
    }
    // A slice of the outer sliced dimension keeps the order only when
    // it is the last one indexed (or the rest are whole).
    let rest = ixs.len();
    if !fixed_prefix && rest < a.rank() {
        // Later dimensions are whole: still in order.
    }
    strides.extend(a.strides[rest..].iter().cloned());
    shape.extend(a.shape[rest..].iter().cloned());
    Arr {
        mem: a.mem,
        elem: a.elem,
        offset,
        strides,
        shape,
        contig,
        view: true,
        own: false,
    }
}
