//! Arrays as memory plus index functions: views without copies, element
//! access, allocation and copying.

use super::{Lower, Result};
use crate::ir::{Code, ErrorArg, Exp, I64};
use parad_base::{PrimType, Span};
use parad_core::{CmpOp, VName};

/// An array: element `(i0, …, ik)` is at `offset + Σ ij·strides[j]` in
/// `mem`.
#[derive(Clone, Debug)]
pub struct Arr {
    pub mem: VName,
    pub elem: PrimType,
    pub offset: Exp,
    pub strides: Vec<Exp>,
    pub shape: Vec<Exp>,
    /// The strides are the row-major ones of the shape (so the elements
    /// are `offset..offset + Π shape`, in order).
    pub contig: bool,
    /// The memory variable shares another array's block.
    pub view: bool,
    /// The memory variable is this value's own (not its parent's, as for
    /// a row passed to a function), so it is released with the value.
    pub own: bool,
}

/// Row-major strides of a shape.
pub fn row_major(shape: &[Exp]) -> Vec<Exp> {
    let mut strides = vec![Exp::i64(1); shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = Exp::times(strides[i + 1].clone(), shape[i + 1].clone());
    }
    strides
}

pub fn product(shape: &[Exp]) -> Exp {
    shape
        .iter()
        .fold(Exp::i64(1), |a, d| Exp::times(a, d.clone()))
}

impl Arr {
    /// A whole block in row-major order.
    pub fn fresh(mem: VName, elem: PrimType, shape: Vec<Exp>) -> Arr {
        Arr {
            mem,
            elem,
            offset: Exp::i64(0),
            strides: row_major(&shape),
            shape,
            contig: true,
            view: false,
            own: true,
        }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn elems(&self) -> Exp {
        product(&self.shape)
    }

    /// The flat position of an element (or of the first element of the
    /// row at a prefix of the indices).
    pub fn pos(&self, idx: &[Exp]) -> Exp {
        idx.iter()
            .zip(&self.strides)
            .fold(self.offset.clone(), |a, (i, s)| {
                Exp::plus(a, Exp::times(i.clone(), s.clone()))
            })
    }

    pub fn read(&self, idx: &[Exp]) -> Exp {
        Exp::read(self.mem, self.elem, self.pos(idx))
    }

    /// Row `i` of the outer dimension (a view).
    pub fn row(&self, i: Exp) -> Arr {
        Arr {
            mem: self.mem,
            elem: self.elem,
            offset: Exp::plus(self.offset.clone(), Exp::times(i, self.strides[0].clone())),
            strides: self.strides[1..].to_vec(),
            shape: self.shape[1..].to_vec(),
            contig: self.contig,
            view: true,
            own: false,
        }
    }

    /// The same index function over another memory variable.
    pub fn with_mem(&self, mem: VName, view: bool) -> Arr {
        Arr {
            mem,
            view,
            own: true,
            ..self.clone()
        }
    }
}

/// A value of an array's row: a scalar read, or a view.
pub(crate) fn row_val(a: &Arr, i: Exp) -> super::Val {
    if a.rank() == 1 {
        super::Val::Scalar(a.read(&[i]), a.elem)
    } else {
        super::Val::Array(a.row(i))
    }
}

impl Lower {
    /// A fresh uninitialised array of `shape` in a new memory variable
    /// named after `like`.
    pub(crate) fn alloc(
        &mut self,
        like: VName,
        elem: PrimType,
        shape: Vec<Exp>,
        span: Span,
    ) -> Arr {
        let shape: Vec<Exp> = shape
            .into_iter()
            .map(|d| self.name_exp("dim", I64, d))
            .collect();
        let mem = self.new_mem(like);
        let span = self.span_id(span);
        self.emit(Code::Alloc {
            mem,
            elem,
            elems: product(&shape),
            span,
        });
        Arr::fresh(mem, elem, shape)
    }

    /// Fails unless `a` has outer size `w`.
    pub(crate) fn check_outer(&mut self, a: &Arr, w: &Exp, what: &str, span: Span) {
        self.check_width(&a.shape, w, what, span)
    }

    /// Fails unless an array of `shape` has outer size `w`.
    pub(crate) fn check_width(&mut self, shape: &[Exp], w: &Exp, what: &str, span: Span) {
        let Some(d) = shape.first() else { return };
        if d == w {
            return;
        }
        let cond = Exp::cmp(CmpOp::Ne, I64, d.clone(), w.clone());
        let msg = format!(
            "Sizes do not match: {what} of width {{}} over an array of shape {}",
            "[{}]".repeat(shape.len())
        );
        let mut args = vec![ErrorArg {
            exp: w.clone(),
            ty: I64,
        }];
        args.extend(shape.iter().map(|d| ErrorArg {
            exp: d.clone(),
            ty: I64,
        }));
        self.fail_if(cond, span, &msg, args);
    }

    /// Nested loops over `shape`, calling `f` with the indices innermost.
    pub(crate) fn loop_nest(
        &mut self,
        shape: &[Exp],
        f: &mut dyn FnMut(&mut Lower, &[Exp]) -> Result<()>,
    ) -> Result<()> {
        let is: Vec<VName> = shape.iter().map(|_| self.fresh("i")).collect();
        let idx: Vec<Exp> = is.iter().map(|i| Exp::Var(*i)).collect();
        let mut inner = self.nested(|l| f(l, &idx))?;
        for (i, d) in is.iter().zip(shape).rev() {
            inner = vec![Code::For {
                i: *i,
                it: parad_base::IntType::I64,
                bound: d.clone(),
                body: inner,
            }];
        }
        self.code.extend(inner);
        Ok(())
    }

    /// Copies the elements of `src` into `dst` (same shape).
    pub(crate) fn copy_into(&mut self, dst: &Arr, src: &Arr) -> Result<()> {
        if dst.contig && src.contig {
            self.emit(Code::Memcpy {
                dst: dst.mem,
                dst_off: dst.offset.clone(),
                src: src.mem,
                src_off: src.offset.clone(),
                elem: dst.elem,
                elems: src.elems(),
            });
            return Ok(());
        }
        let shape = dst.shape.clone();
        self.loop_nest(&shape, &mut |l, idx| {
            l.emit(Code::Write {
                mem: dst.mem,
                elem: dst.elem,
                index: dst.pos(idx),
                value: src.read(idx),
            });
            Ok(())
        })
    }

    /// Writes a value (scalar or array) at element or row `idx` of `dst`.
    pub(crate) fn write_val(&mut self, dst: &Arr, idx: &[Exp], v: &super::Val) -> Result<()> {
        match v {
            super::Val::Scalar(e, _) if idx.len() == dst.rank() => {
                self.emit(Code::Write {
                    mem: dst.mem,
                    elem: dst.elem,
                    index: dst.pos(idx),
                    value: e.clone(),
                });
                Ok(())
            }
            super::Val::Array(a) => {
                let mut d = dst.clone();
                for i in idx {
                    d = d.row(i.clone());
                }
                self.copy_into(&d, a)
            }
            _ => super::unsupported("internal error: writing a value of the wrong rank"),
        }
    }

    /// A fresh copy of `a`, in row-major order.
    pub(crate) fn copy_arr(&mut self, like: VName, a: &Arr, span: Span) -> Result<Arr> {
        let dst = self.alloc(like, a.elem, a.shape.clone(), span);
        self.copy_into(&dst, a)?;
        Ok(dst)
    }

    /// `a` itself when its elements are in order, else a copy.
    pub(crate) fn contiguous(&mut self, a: &Arr, span: Span) -> Result<Arr> {
        if a.contig {
            Ok(a.clone())
        } else {
            self.copy_arr(a.mem, a, span)
        }
    }

    /// A view of `a` in a memory variable of its own, named after `like`.
    pub(crate) fn view(&mut self, like: VName, a: Arr) -> Arr {
        let mem = self.new_mem(like);
        self.share_mem(mem, a.mem);
        let offset = self.name_exp("off", I64, a.offset.clone());
        Arr {
            mem,
            offset,
            view: true,
            own: true,
            ..a
        }
    }
}
