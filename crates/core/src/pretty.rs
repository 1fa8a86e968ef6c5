//! The textual form of core IR, used by `parad dump` and by snapshot
//! tests. The format is stable: one statement per line, nested bodies
//! indented by two spaces, operators written `name.type(args)`.

use crate::ir::*;
use crate::types::{AccType, Dim, Type};
use parad_base::Scalar;
use std::fmt::{self, Display, Write};

/// Formats a constant with its type suffix, e.g. `1.5f32`, `-3i8`, `true`.
pub fn scalar(s: &Scalar) -> String {
    fn float(x: f64, t: &str) -> String {
        if x.is_nan() {
            format!("{t}.nan")
        } else if x.is_infinite() {
            format!("{}{t}.inf", if x < 0.0 { "-" } else { "" })
        } else {
            format!("{x:?}{t}")
        }
    }
    match s {
        Scalar::I8(x) => format!("{x}i8"),
        Scalar::I16(x) => format!("{x}i16"),
        Scalar::I32(x) => format!("{x}i32"),
        Scalar::I64(x) => format!("{x}i64"),
        Scalar::U8(x) => format!("{x}u8"),
        Scalar::U16(x) => format!("{x}u16"),
        Scalar::U32(x) => format!("{x}u32"),
        Scalar::U64(x) => format!("{x}u64"),
        Scalar::F16(x) => float(x.to_f32() as f64, "f16"),
        // `{:?}` of an f32 is the shortest decimal that round-trips at f32 precision.
        Scalar::F32(x) if x.is_finite() => format!("{x:?}f32"),
        Scalar::F32(x) => float(*x as f64, "f32"),
        Scalar::F64(x) => float(*x, "f64"),
        Scalar::Bool(b) => b.to_string(),
    }
}

impl Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Var(v) => write!(f, "{v}"),
            Operand::Const(s) => f.write_str(&scalar(s)),
        }
    }
}

impl Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Const(n) => write!(f, "[{n}]"),
            Dim::Var(v) => write!(f, "[{v}]"),
            Dim::Ext => f.write_str("[?]"),
        }
    }
}

impl Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Prim(t) => write!(f, "{t}"),
            Type::Array { elem, shape } => {
                for d in shape {
                    write!(f, "{d}")?;
                }
                write!(f, "{elem}")
            }
            Type::Acc(AccType { ispace, elems }) => {
                f.write_str("acc(")?;
                for d in ispace {
                    write!(f, "{d}")?;
                }
                write!(f, ", {})", tuple(elems))
            }
        }
    }
}

/// `a` for one element, `(a, b)` otherwise.
fn tuple<T: Display>(xs: &[T]) -> String {
    if xs.len() == 1 {
        xs[0].to_string()
    } else {
        format!("({})", list(xs))
    }
}

fn list<T: Display>(xs: &[T]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn brackets<T: Display>(xs: &[T]) -> String {
    format!("[{}]", list(xs))
}

impl Display for Attr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attr::Name(n) => f.write_str(n),
            Attr::Int(i) => write!(f, "{i}"),
            Attr::Call(n, args) => write!(f, "{n}({})", list(args)),
        }
    }
}

impl Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.ty)
    }
}

impl Display for DimIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimIndex::Fix(i) => write!(f, "{i}"),
            DimIndex::Slice { start, len, stride } => write!(f, "{start}:+{len}*{stride}"),
        }
    }
}

/// An indenting writer.
struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// Writes `head {`, the body, and `}` + `tail`.
    fn block(&mut self, head: &str, body: &Body, tail: &str) {
        self.line(&format!("{head}{{"));
        self.indent += 1;
        self.body_inner(body);
        self.indent -= 1;
        self.line(&format!("}}{tail}"));
    }

    fn body_inner(&mut self, b: &Body) {
        for s in &b.stms {
            self.stm(s);
        }
        self.line(&format!("in {}", result_list(&b.result)));
    }

    fn lambda_head(l: &Lambda) -> String {
        format!("\\({}): {} ", list(&l.params), tuple(&l.ret))
    }

    fn stm(&mut self, s: &Stm) {
        let pat = if s.pat.len() == 1 {
            s.pat[0].to_string()
        } else {
            format!("({})", list(&s.pat))
        };
        for a in &s.attrs {
            self.line(&format!("#[{a}]"));
        }
        let head = format!("let {pat} = ");
        self.exp(&head, &s.exp, "");
    }

    /// Writes `prefix exp suffix`, over several lines if `exp` has bodies.
    fn exp(&mut self, prefix: &str, e: &Exp, suffix: &str) {
        let simple = |s: String| s;
        let text = match e {
            Exp::Basic(BasicOp::Atom(o)) => simple(o.to_string()),
            Exp::Basic(BasicOp::UnOp(op, t, x)) => format!("{op}.{t}({x})"),
            Exp::Basic(BasicOp::BinOp(op, t, x, y)) => format!("{op}.{t}({x}, {y})"),
            Exp::Basic(BasicOp::TernOp(op, t, x, y, z)) => format!("{op}.{t}({x}, {y}, {z})"),
            Exp::Basic(BasicOp::Cmp(op, t, x, y)) => format!("{op}.{t}({x}, {y})"),
            Exp::Basic(BasicOp::Conv(op, from, to, x)) => format!("{op}.{from}.{to}({x})"),
            Exp::Basic(BasicOp::Index { arr, slice }) => format!("{arr}[{}]", list(slice)),
            Exp::Basic(BasicOp::Update { arr, slice, value }) => {
                format!("{arr} with [{}] = {value}", list(slice))
            }
            Exp::Basic(BasicOp::Reshape { arr, shape }) => {
                format!("reshape({}, {arr})", brackets(shape))
            }
            Exp::Basic(BasicOp::Flatten { arr }) => format!("flatten({arr})"),
            Exp::Basic(BasicOp::Unflatten { arr, n, m }) => format!("unflatten({n}, {m}, {arr})"),
            Exp::Basic(BasicOp::Rearrange { arr, perm }) => {
                format!("rearrange({}, {arr})", brackets(perm))
            }
            Exp::Basic(BasicOp::Iota { n, start, step, it }) => {
                format!("iota.{it}({n}, {start}, {step})")
            }
            Exp::Basic(BasicOp::Replicate { n, value }) => format!("replicate({n}, {value})"),
            Exp::Basic(BasicOp::Scratch { elem, shape }) => {
                format!("scratch.{elem}({})", brackets(shape))
            }
            Exp::Basic(BasicOp::Concat { arrs }) => format!("concat({})", list(arrs)),
            Exp::Basic(BasicOp::Copy { arr }) => format!("copy({arr})"),
            Exp::Basic(BasicOp::Reverse { arr }) => format!("reverse({arr})"),
            Exp::Basic(BasicOp::Rotate { arr, amount }) => format!("rotate({amount}, {arr})"),
            Exp::Basic(BasicOp::Size { arr, dim }) => format!("size({arr}, {dim})"),
            Exp::Basic(BasicOp::UserParam { name, default }) => {
                format!("user_param({name:?}, {default})")
            }
            Exp::Apply(Apply { fun, args }) => format!("apply {fun}({})", list(args)),
            Exp::Basic(BasicOp::Assert {
                cond,
                message,
                args,
            }) if args.is_empty() => format!("assert({cond}, {message:?})"),
            Exp::Basic(BasicOp::Assert {
                cond,
                message,
                args,
            }) => format!("assert({cond}, {message:?}, {})", brackets(args)),
            Exp::Basic(BasicOp::Upd { acc, inds, vals }) => {
                format!("upd({acc}, {}, {})", brackets(inds), brackets(vals))
            }
            Exp::If(If {
                cond,
                then_br,
                else_br,
                ret,
            }) => {
                self.line(&format!("{prefix}if {cond} : {} then {{", tuple(ret)));
                self.indent += 1;
                self.body_inner(then_br);
                self.indent -= 1;
                self.block("} else ", else_br, suffix);
                return;
            }
            Exp::Loop(Loop { params, form, body }) => {
                let ps: Vec<String> = params.iter().map(|(p, i)| format!("{p} = {i}")).collect();
                let form = match form {
                    LoopForm::For { i, it, bound } => format!("for {i}: {it} < {bound}"),
                    LoopForm::While { cond } => format!("while {cond}"),
                };
                self.block(
                    &format!("{prefix}loop ({}) {form} ", ps.join(", ")),
                    body,
                    suffix,
                );
                return;
            }
            Exp::Soac(Soac::Map(Map { w, lam, arrs })) => {
                let head = format!("{prefix}map({w}, {}, ", brackets(arrs));
                self.lambda(&head, lam, &format!("){suffix}"));
                return;
            }
            Exp::Soac(Soac::Reduce(Reduce { w, comm, op, arrs })) => {
                let name = if *comm { "reduce_comm" } else { "reduce" };
                let head = format!(
                    "{prefix}{name}({w}, {}, {}, ",
                    brackets(arrs),
                    brackets(&op.neutral)
                );
                self.lambda(&head, &op.lam, &format!("){suffix}"));
                return;
            }
            Exp::Soac(Soac::Scan(Scan { w, op, arrs })) => {
                let head = format!(
                    "{prefix}scan({w}, {}, {}, ",
                    brackets(arrs),
                    brackets(&op.neutral)
                );
                self.lambda(&head, &op.lam, &format!("){suffix}"));
                return;
            }
            Exp::Soac(Soac::Hist(Hist {
                w,
                dests,
                op,
                inds,
                vals,
            })) => {
                let head = format!(
                    "{prefix}hist({w}, {}, {}, {}, {}, ",
                    brackets(dests),
                    brackets(inds),
                    brackets(vals),
                    brackets(&op.neutral)
                );
                self.lambda(&head, &op.lam, &format!("){suffix}"));
                return;
            }
            Exp::Soac(Soac::Scatter(Scatter { w, dests })) => {
                let ds: Vec<String> = dests
                    .iter()
                    .map(|d| format!("{}{} <- {}", d.arr, brackets(&d.inds), d.vals))
                    .collect();
                format!("scatter({w}, {})", ds.join(", "))
            }
            Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) => {
                self.line(&format!("{prefix}withacc("));
                self.indent += 1;
                for i in inputs {
                    let head = format!("{}, {}", brackets(&i.ispace), brackets(&i.arrs));
                    match &i.op {
                        None => self.line(&format!("{{{head}}},")),
                        Some(o) => self.lambda(
                            &format!("{{{head}, {}, ", brackets(&o.neutral)),
                            &o.lam,
                            "},",
                        ),
                    }
                }
                self.lambda("", lam, "");
                self.indent -= 1;
                self.line(&format!("){suffix}"));
                return;
            }
            Exp::Soac(Soac::Screma(sc)) => {
                self.line(&format!("{prefix}screma({}, {},", sc.w, brackets(&sc.arrs)));
                self.indent += 1;
                for op in &sc.scans {
                    let head = format!("scan({}, ", brackets(&op.neutral));
                    self.lambda(&head, &op.lam, "),");
                }
                for r in &sc.reds {
                    let name = if r.comm { "reduce_comm" } else { "reduce" };
                    let head = format!("{name}({}, ", brackets(&r.op.neutral));
                    self.lambda(&head, &r.op.lam, "),");
                }
                self.lambda("", &sc.lam, "");
                self.indent -= 1;
                self.line(&format!("){suffix}"));
                return;
            }
            Exp::Ad(AdOp::Jvp(Jvp {
                lam,
                primals,
                tangents,
            })) => {
                let tail = format!(", {}, {}){suffix}", brackets(primals), brackets(tangents));
                self.lambda(&format!("{prefix}jvp("), lam, &tail);
                return;
            }
            Exp::Ad(AdOp::Vjp(Vjp {
                lam,
                primals,
                adjoints,
            })) => {
                let tail = format!(", {}, {}){suffix}", brackets(primals), brackets(adjoints));
                self.lambda(&format!("{prefix}vjp("), lam, &tail);
                return;
            }
            Exp::Ad(AdOp::WithVjp(WithVjp { lam, adj, args })) => {
                // `}, \(…) {` joins the two lambdas, as `} else {` does branches.
                let head = format!("{prefix}with_vjp({}{{", Printer::lambda_head(lam));
                self.line(&head);
                self.indent += 1;
                self.body_inner(&lam.body);
                self.indent -= 1;
                let tail = format!(", {}){suffix}", brackets(args));
                self.lambda("}, ", adj, &tail);
                return;
            }
        };
        self.line(&format!("{prefix}{text}{suffix}"));
    }

    fn lambda(&mut self, prefix: &str, l: &Lambda, suffix: &str) {
        self.block(
            &format!("{prefix}{}", Printer::lambda_head(l)),
            &l.body,
            suffix,
        );
    }

    fn fun(&mut self, f: &FunDef) {
        let head = format!("fun {}({}): {} ", f.name, list(&f.params), tuple(&f.ret));
        self.block(&head, &f.body, "");
    }
}

fn result_list(r: &[Operand]) -> String {
    if r.len() == 1 {
        r[0].to_string()
    } else {
        format!("({})", list(r))
    }
}

fn render(f: impl FnOnce(&mut Printer)) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
    };
    f(&mut p);
    p.out
}

/// Writes multi-line text without its final newline.
fn write_trimmed(f: &mut fmt::Formatter<'_>, s: String) -> fmt::Result {
    f.write_str(s.strip_suffix('\n').unwrap_or(&s))
}

impl Display for Exp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_trimmed(f, render(|p| p.exp("", self, "")))
    }
}

impl Display for Stm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_trimmed(f, render(|p| p.stm(self)))
    }
}

impl Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_trimmed(f, render(|p| p.block("", self, "")))
    }
}

impl Display for Lambda {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_trimmed(f, render(|p| p.lambda("", self, "")))
    }
}

impl Display for FunDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_trimmed(f, render(|p| p.fun(self)))
    }
}

impl Display for EntryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = if self.unique { "*" } else { "" };
        write!(f, "{u}{}{}", "[]".repeat(self.rank), self.elem)
    }
}

impl Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for e in &self.entries {
            let _ = writeln!(
                out,
                "entry {:?} = {} : ({}) -> {}",
                e.name,
                e.fun,
                list(&e.params),
                tuple(&e.results)
            );
        }
        for fun in &self.funs {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&render(|p| p.fun(fun)));
        }
        write_trimmed(f, out)
    }
}
