//! Expressions: the right-hand sides of `let`, chosen by their first word.

use super::{Parser, Tok, R};
use crate::ir::*;
use crate::names::{Symbol, VName};
use crate::ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};

/// A scalar operator, named by its first word.
#[derive(Clone, Copy)]
enum ScalarOp {
    Conv(ConvOp),
    Un(UnOp),
    Bin(BinOp),
    Cmp(CmpOp),
    Tern(TernOp),
}

impl ScalarOp {
    /// The operator names are distinct across the families (a test in
    /// `tests/parse.rs` checks this).
    fn named(word: &str) -> Option<ScalarOp> {
        ConvOp::from_name(word)
            .map(ScalarOp::Conv)
            .or_else(|| UnOp::from_name(word).map(ScalarOp::Un))
            .or_else(|| BinOp::from_name(word).map(ScalarOp::Bin))
            .or_else(|| CmpOp::from_name(word).map(ScalarOp::Cmp))
            .or_else(|| TernOp::from_name(word).map(ScalarOp::Tern))
    }
}

impl Parser {
    /// Only the forms with bodies recurse, each in a small function of
    /// its own: nesting then costs little stack, even in debug builds
    /// (which keep every temporary of a function in its frame).
    pub(super) fn exp(&mut self) -> R<Exp> {
        let word = match self.peek() {
            Tok::Ident(w) => w.clone(),
            _ => String::new(),
        };
        match word.as_str() {
            "if" => self.if_exp(),
            "loop" => self.loop_exp(),
            "map" => self.map_exp(),
            "reduce" | "reduce_comm" | "scan" => self.reduce_or_scan(&word),
            "hist" => self.hist_exp(),
            "withacc" => self.withacc(),
            "screma" => self.screma(),
            "jvp" | "vjp" => self.jvp_or_vjp(&word),
            "with_vjp" => self.with_vjp(),
            _ => self.flat_exp(&word),
        }
    }

    /// The expressions without bodies.
    fn flat_exp(&mut self, word: &str) -> R<Exp> {
        let basic = |b: BasicOp| Ok(Exp::Basic(b));
        match word {
            "" | "true" | "false" | "f16" | "f32" | "f64" => Ok(Exp::atom(self.operand()?)),
            "apply" => {
                self.advance();
                let fun = Symbol::intern(&self.ident("a function name")?);
                let args = self.list("(", ")", Parser::operand)?;
                Ok(Exp::Apply(Apply { fun, args }))
            }
            "scatter" => self.scatter(),
            "reshape" | "flatten" | "unflatten" | "rearrange" | "iota" | "replicate"
            | "scratch" | "concat" | "copy" | "reverse" | "rotate" | "size" | "assert" | "upd"
            | "user_param" => basic(self.array_op(word)?),
            _ => match ScalarOp::named(word) {
                Some(op) => basic(self.scalar_op(op)?),
                None if super::var_parts(word).is_some() => basic(self.var_exp()?),
                None => Err(self.error(format!("unknown operation `{word}`"))),
            },
        }
    }

    /// `v`, `v[slice]` or `v with [slice] = x`.
    fn var_exp(&mut self) -> R<BasicOp> {
        let arr = self.var()?;
        if self.is_sym("[") {
            let slice = self.list("[", "]", Parser::dim_index)?;
            return Ok(BasicOp::Index { arr, slice });
        }
        if self.is_kw("with") {
            self.advance();
            let slice = self.list("[", "]", Parser::dim_index)?;
            self.sym("=")?;
            let value = self.operand()?;
            return Ok(BasicOp::Update { arr, slice, value });
        }
        Ok(BasicOp::Atom(Operand::Var(arr)))
    }

    fn dim_index(&mut self) -> R<DimIndex> {
        let start = self.operand()?;
        if !self.eat_sym(":") {
            return Ok(DimIndex::Fix(start));
        }
        self.sym("+")?;
        let len = self.operand()?;
        self.sym("*")?;
        let stride = self.operand()?;
        Ok(DimIndex::Slice { start, len, stride })
    }

    /// `op.t(x, …)` or `conv.from.to(x)`.
    fn scalar_op(&mut self, op: ScalarOp) -> R<BasicOp> {
        let word = self.ident("an operator")?;
        self.sym(".")?;
        let t = self.prim()?;
        let to = match op {
            ScalarOp::Conv(_) => {
                self.sym(".")?;
                self.prim()?
            }
            _ => t,
        };
        let at = self.pos;
        let args = self.list("(", ")", Parser::operand)?;
        let arity = match op {
            ScalarOp::Conv(_) | ScalarOp::Un(_) => 1,
            ScalarOp::Bin(_) | ScalarOp::Cmp(_) => 2,
            ScalarOp::Tern(_) => 3,
        };
        if args.len() != arity {
            let s = if arity == 1 { "" } else { "s" };
            return Err(self.error_at(
                at,
                format!("`{word}` takes {arity} operand{s}, found {}", args.len()),
            ));
        }
        let a = |i: usize| args[i];
        Ok(match op {
            ScalarOp::Conv(c) => BasicOp::Conv(c, t, to, a(0)),
            ScalarOp::Un(o) => BasicOp::UnOp(o, t, a(0)),
            ScalarOp::Bin(o) => BasicOp::BinOp(o, t, a(0), a(1)),
            ScalarOp::Cmp(o) => BasicOp::Cmp(o, t, a(0), a(1)),
            ScalarOp::Tern(o) => BasicOp::TernOp(o, t, a(0), a(1), a(2)),
        })
    }

    fn operands(&mut self) -> R<Vec<Operand>> {
        self.list("[", "]", Parser::operand)
    }

    fn vars(&mut self) -> R<Vec<VName>> {
        self.list("[", "]", Parser::var)
    }

    /// The array operations written as calls: `word(…)`, some with a type
    /// after the word (`iota.i64(…)`).
    fn array_op(&mut self, word: &str) -> R<BasicOp> {
        self.advance();
        let (it, elem) = match word {
            "iota" => {
                self.sym(".")?;
                (Some(self.int_type()?), None)
            }
            "scratch" => {
                self.sym(".")?;
                (None, Some(self.prim()?))
            }
            _ => (None, None),
        };
        self.sym("(")?;
        let op = match word {
            "reshape" => {
                let shape = self.operands()?;
                self.sym(",")?;
                BasicOp::Reshape {
                    shape,
                    arr: self.var()?,
                }
            }
            "flatten" => BasicOp::Flatten { arr: self.var()? },
            "unflatten" => {
                let n = self.operand()?;
                self.sym(",")?;
                let m = self.operand()?;
                self.sym(",")?;
                BasicOp::Unflatten {
                    n,
                    m,
                    arr: self.var()?,
                }
            }
            "rearrange" => {
                let perm = self.list("[", "]", |p| p.int("a dimension number"))?;
                self.sym(",")?;
                BasicOp::Rearrange {
                    perm,
                    arr: self.var()?,
                }
            }
            "iota" => {
                let n = self.operand()?;
                self.sym(",")?;
                let start = self.operand()?;
                self.sym(",")?;
                let step = self.operand()?;
                BasicOp::Iota {
                    n,
                    start,
                    step,
                    it: it.expect("read above"),
                }
            }
            "replicate" => {
                let n = self.operand()?;
                self.sym(",")?;
                BasicOp::Replicate {
                    n,
                    value: self.operand()?,
                }
            }
            "scratch" => BasicOp::Scratch {
                elem: elem.expect("read above"),
                shape: self.operands()?,
            },
            "concat" => {
                let mut arrs = vec![];
                while !self.is_sym(")") {
                    if !arrs.is_empty() {
                        self.sym(",")?;
                    }
                    arrs.push(self.var()?);
                }
                BasicOp::Concat { arrs }
            }
            "copy" => BasicOp::Copy { arr: self.var()? },
            "reverse" => BasicOp::Reverse { arr: self.var()? },
            "rotate" => {
                let amount = self.operand()?;
                self.sym(",")?;
                BasicOp::Rotate {
                    amount,
                    arr: self.var()?,
                }
            }
            "size" => {
                let arr = self.var()?;
                self.sym(",")?;
                BasicOp::Size {
                    arr,
                    dim: self.int("a dimension number")?,
                }
            }
            "user_param" => {
                let name = self.string()?;
                self.sym(",")?;
                BasicOp::UserParam {
                    name,
                    default: self.operand()?,
                }
            }
            "assert" => {
                let cond = self.operand()?;
                self.sym(",")?;
                let message = self.string()?;
                let args = if self.eat_sym(",") {
                    self.operands()?
                } else {
                    vec![]
                };
                BasicOp::Assert {
                    cond,
                    message,
                    args,
                }
            }
            _ => {
                let acc = self.var()?;
                self.sym(",")?;
                let inds = self.operands()?;
                self.sym(",")?;
                BasicOp::Upd {
                    acc,
                    inds,
                    vals: self.operands()?,
                }
            }
        };
        self.sym(")")?;
        Ok(op)
    }

    fn if_exp(&mut self) -> R<Exp> {
        self.kw("if")?;
        let cond = self.operand()?;
        self.sym(":")?;
        let ret = self.tuple(Parser::ty)?;
        self.kw("then")?;
        let then_br = self.body()?;
        self.kw("else")?;
        let else_br = self.body()?;
        Ok(Exp::If(If {
            cond,
            then_br,
            else_br,
            ret,
        }))
    }

    fn loop_exp(&mut self) -> R<Exp> {
        self.kw("loop")?;
        let params = self.list("(", ")", |p| {
            let param = p.param()?;
            p.sym("=")?;
            Ok((param, p.operand()?))
        })?;
        let form = if self.is_kw("for") {
            self.advance();
            let i = self.var()?;
            self.sym(":")?;
            let it = self.int_type()?;
            self.sym("<")?;
            LoopForm::For {
                i,
                it,
                bound: self.operand()?,
            }
        } else if self.is_kw("while") {
            self.advance();
            LoopForm::While { cond: self.var()? }
        } else {
            return Err(self.expected("`for` or `while`"));
        };
        let body = self.body()?;
        Ok(Exp::Loop(Loop { params, form, body }))
    }

    /// `word(w, [arrs],`: the start of most SOACs.
    fn soac_head(&mut self) -> R<(Operand, Vec<VName>)> {
        self.advance();
        self.sym("(")?;
        let w = self.operand()?;
        self.sym(",")?;
        let arrs = self.vars()?;
        self.sym(",")?;
        Ok((w, arrs))
    }

    fn map_exp(&mut self) -> R<Exp> {
        let (w, arrs) = self.soac_head()?;
        let lam = self.lambda()?;
        self.sym(")")?;
        Ok(Map { w, lam, arrs }.into())
    }

    fn reduce_or_scan(&mut self, word: &str) -> R<Exp> {
        let (w, arrs) = self.soac_head()?;
        let op = self.acc_op()?;
        self.sym(")")?;
        Ok(match word {
            "scan" => Scan { w, op, arrs }.into(),
            _ => Reduce {
                w,
                comm: word == "reduce_comm",
                op,
                arrs,
            }
            .into(),
        })
    }

    fn hist_exp(&mut self) -> R<Exp> {
        let (w, dests) = self.soac_head()?;
        let inds = self.vars()?;
        self.sym(",")?;
        let vals = self.vars()?;
        self.sym(",")?;
        let op = self.acc_op()?;
        self.sym(")")?;
        Ok(Hist {
            w,
            dests,
            op,
            inds,
            vals,
        }
        .into())
    }

    /// `[neutral], lambda`.
    fn acc_op(&mut self) -> R<AccOp> {
        let neutral = self.operands()?;
        self.sym(",")?;
        Ok(AccOp {
            lam: self.lambda()?,
            neutral,
        })
    }

    fn scatter(&mut self) -> R<Exp> {
        self.advance();
        self.sym("(")?;
        let w = self.operand()?;
        self.sym(",")?;
        let mut dests = vec![];
        while !self.eat_sym(")") {
            if !dests.is_empty() {
                self.sym(",")?;
            }
            let arr = self.var()?;
            let inds = self.vars()?;
            self.sym("<-")?;
            let vals = self.var()?;
            dests.push(ScatterDest { arr, inds, vals });
        }
        Ok(Scatter { w, dests }.into())
    }

    fn withacc(&mut self) -> R<Exp> {
        self.advance();
        self.sym("(")?;
        let mut inputs = vec![];
        while self.eat_sym("{") {
            let ispace = self.operands()?;
            self.sym(",")?;
            let arrs = self.vars()?;
            let op = if self.eat_sym(",") {
                Some(self.acc_op()?)
            } else {
                None
            };
            self.sym("}")?;
            self.sym(",")?;
            inputs.push(AccInput { ispace, arrs, op });
        }
        let lam = self.lambda()?;
        self.sym(")")?;
        Ok(WithAcc { inputs, lam }.into())
    }

    fn screma(&mut self) -> R<Exp> {
        let (w, arrs) = self.soac_head()?;
        let (mut scans, mut reds) = (vec![], vec![]);
        loop {
            let word = match self.peek() {
                Tok::Ident(k) if k == "scan" || k == "reduce" || k == "reduce_comm" => k.clone(),
                _ => break,
            };
            if word == "scan" && !reds.is_empty() {
                return Err(self.error("the scans of a screma come before its reductions"));
            }
            self.advance();
            self.sym("(")?;
            let op = self.acc_op()?;
            self.sym(")")?;
            self.sym(",")?;
            match word.as_str() {
                "scan" => scans.push(op),
                w => reds.push(Reduction {
                    comm: w == "reduce_comm",
                    op,
                }),
            }
        }
        let lam = self.lambda()?;
        self.sym(")")?;
        Ok(Screma {
            w,
            arrs,
            scans,
            reds,
            lam,
        }
        .into())
    }

    fn jvp_or_vjp(&mut self, word: &str) -> R<Exp> {
        self.advance();
        self.sym("(")?;
        let lam = self.lambda()?;
        self.sym(",")?;
        let primals = self.operands()?;
        self.sym(",")?;
        let other = self.operands()?;
        self.sym(")")?;
        Ok(match word {
            "jvp" => Jvp {
                lam,
                primals,
                tangents: other,
            }
            .into(),
            _ => Vjp {
                lam,
                primals,
                adjoints: other,
            }
            .into(),
        })
    }

    fn with_vjp(&mut self) -> R<Exp> {
        self.advance();
        self.sym("(")?;
        let lam = self.lambda()?;
        self.sym(",")?;
        let adj = self.lambda()?;
        self.sym(",")?;
        let args = self.operands()?;
        self.sym(")")?;
        Ok(WithVjp { lam, adj, args }.into())
    }
}
