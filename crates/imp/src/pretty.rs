//! A readable text form of the imperative IR (`parad dump --stage=imp`):
//! C-like statements, with scalar operators written as Futhark's core
//! IR names them (`add.i32(x, y)`) and memory reads as `mem[i]:f64`.

use crate::ir::{CallArg, CallRes, Code, DeviceOp, Exp, Function, IOp, Kernel, Program, RetVal};
use std::fmt::{self, Display, Formatter, Write};

impl Display for Exp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Exp::Var(v) => write!(f, "{v}"),
            Exp::Const(s) => f.write_str(&parad_core::pretty::scalar(s)),
            Exp::I(op, a, b) => {
                let o = match op {
                    IOp::Add => "+",
                    IOp::Sub => "-",
                    IOp::Mul => "*",
                    IOp::Div => "/",
                    IOp::Min => return write!(f, "min({a}, {b})"),
                    IOp::Max => return write!(f, "max({a}, {b})"),
                };
                write!(f, "({a} {o} {b})")
            }
            Exp::Un(op, t, x) => write!(f, "{op}.{t}({x})"),
            Exp::Bin(op, t, x, y) => write!(f, "{op}.{t}({x}, {y})"),
            Exp::Tern(op, t, x, y, z) => write!(f, "{op}.{t}({x}, {y}, {z})"),
            Exp::Cmp(op, t, x, y) => write!(f, "{op}.{t}({x}, {y})"),
            Exp::Conv(op, a, b, x) => write!(f, "{op}.{a}.{b}({x})"),
            Exp::Select(c, a, b) => write!(f, "({c} ? {a} : {b})"),
            Exp::And(a, b) => write!(f, "({a} && {b})"),
            Exp::Read { mem, elem, index } => write!(f, "{mem}[{index}]:{elem}"),
            Exp::NumThreads => f.write_str("num_threads"),
            Exp::UserParam { index, default } => write!(f, "user_param({index}, {default})"),
            Exp::Unique(m) => write!(f, "unique({m})"),
            Exp::DeviceRead { mem, elem, index } => write!(f, "device {mem}[{index}]:{elem}"),
        }
    }
}

fn block(out: &mut String, code: &[Code], d: usize) -> fmt::Result {
    for c in code {
        line(out, c, d)?;
    }
    Ok(())
}

fn pad(out: &mut String, d: usize) {
    out.extend(std::iter::repeat_n("  ", d));
}

fn nested(out: &mut String, head: fmt::Arguments, body: &[Code], d: usize) -> fmt::Result {
    pad(out, d);
    writeln!(out, "{head} {{")?;
    block(out, body, d + 1)?;
    pad(out, d);
    writeln!(out, "}}")
}

fn line(out: &mut String, c: &Code, d: usize) -> fmt::Result {
    match c {
        Code::Block(b) => return nested(out, format_args!(""), b, d),
        Code::For { i, it, bound, body } => {
            return nested(out, format_args!("for {i}:{it} < {bound}"), body, d)
        }
        Code::While { cond, body } => return nested(out, format_args!("while {cond}"), body, d),
        Code::ParFor { i, bound, body } => {
            return nested(out, format_args!("parfor {i} < {bound}"), body, d);
        }
        Code::If {
            cond,
            then_br,
            else_br,
        } => {
            nested(out, format_args!("if {cond}"), then_br, d)?;
            if !else_br.is_empty() {
                nested(out, format_args!("else"), else_br, d)?;
            }
            return Ok(());
        }
        Code::Cas {
            mem,
            elem,
            index,
            old,
            new,
            body,
        } => {
            return nested(
                out,
                format_args!("cas {mem}[{index}]:{elem} ({old} -> {new})"),
                body,
                d,
            )
        }
        Code::Critical(b) => return nested(out, format_args!("critical"), b, d),
        _ => {}
    }
    pad(out, d);
    match c {
        Code::Decl { var, ty } => writeln!(out, "var {var}: {ty}"),
        Code::Let { var, ty, exp } => writeln!(out, "let {var}: {ty} = {exp}"),
        Code::Assign { var, exp } => writeln!(out, "{var} = {exp}"),
        Code::DeclMem(m) => writeln!(out, "mem {m}"),
        Code::Alloc {
            mem, elem, elems, ..
        } => writeln!(out, "alloc {mem} = [{elems}]{elem}"),
        Code::SetMem { dst, src } => writeln!(out, "{dst} = ref {src}"),
        Code::Borrow { dst, src } => writeln!(out, "{dst} = borrow {src}"),
        Code::MoveMem { dst, src } => writeln!(out, "{dst} = move {src}"),
        Code::Unref(m) => writeln!(out, "unref {m}"),
        Code::Write {
            mem,
            elem,
            index,
            value,
        } => writeln!(out, "{mem}[{index}]:{elem} = {value}"),
        Code::Memcpy {
            dst,
            dst_off,
            src,
            src_off,
            elem,
            elems,
        } => writeln!(
            out,
            "copy {elems} {elem} from {src}[{src_off}..] to {dst}[{dst_off}..]"
        ),
        Code::AtomicAdd {
            mem,
            elem,
            index,
            value,
        } => writeln!(out, "atomic {mem}[{index}]:{elem} += {value}"),
        Code::Gemm(g) => {
            let mat =
                |x: &crate::ir::Mat| format!("{}[{}; {}, {}]", x.mem, x.offset, x.rows, x.cols);
            writeln!(
                out,
                "gemm.{} {}x{}x{} {} = {} * {} (pack {})",
                g.elem,
                g.m,
                g.n,
                g.k,
                mat(&g.c),
                mat(&g.a),
                mat(&g.b),
                g.pack
            )
        }
        Code::Error {
            span,
            message,
            args,
        } => {
            let args: Vec<String> = args.iter().map(|a| a.exp.to_string()).collect();
            writeln!(out, "error@{span:?} {message:?} ({})", args.join(", "))
        }
        Code::Input {
            k,
            elem,
            var,
            mem,
            shape,
        } => match (var, mem) {
            (Some(v), _) => writeln!(out, "input {k} -> {v}: {elem}"),
            (_, Some(m)) => {
                let dims: Vec<String> = shape.iter().map(|s| format!("[{s}]")).collect();
                writeln!(out, "input {k} -> {m}: {}{elem}", dims.concat())
            }
            _ => writeln!(out, "input {k}"),
        },
        Code::Output {
            k,
            elem,
            value,
            mem,
            shape,
            ..
        } => match (value, mem) {
            (Some(v), _) => writeln!(out, "output {k} <- {v}: {elem}"),
            (_, Some(m)) => {
                let dims: Vec<String> = shape.iter().map(|s| format!("[{s}]")).collect();
                writeln!(out, "output {k} <- {m}: {}{elem}", dims.concat())
            }
            _ => writeln!(out, "output {k}"),
        },
        Code::Call { fun, args, results } => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match a {
                    CallArg::Scalar(e) => e.to_string(),
                    CallArg::Array { mem, offset, .. } => format!("{mem}+{offset}"),
                })
                .collect();
            let res: Vec<String> = results
                .iter()
                .map(|r| match r {
                    CallRes::Scalar { var, .. } => var.to_string(),
                    CallRes::Array { mem, .. } => mem.to_string(),
                })
                .collect();
            writeln!(
                out,
                "{} <- call fun{fun}({})",
                res.join(", "),
                args.join(", ")
            )
        }
        Code::Return(vals) => {
            let vals: Vec<String> = vals
                .iter()
                .map(|v| match v {
                    RetVal::Scalar(e) => e.to_string(),
                    RetVal::Array { mem, offset, .. } => format!("{mem}+{offset}"),
                })
                .collect();
            writeln!(out, "return {}", vals.join(", "))
        }
        Code::Device(op) => device_op(out, op),
        _ => Ok(()),
    }
}

fn device_op(out: &mut String, op: &DeviceOp) -> fmt::Result {
    let dims = |shape: &[String]| -> String { shape.iter().map(|s| format!("[{s}]")).collect() };
    match op {
        DeviceOp::Alloc {
            mem, elem, elems, ..
        } => writeln!(out, "device alloc {mem} = [{elems}]{elem}"),
        DeviceOp::Write {
            mem,
            elem,
            index,
            value,
        } => writeln!(out, "device {mem}[{index}]:{elem} = {value}"),
        DeviceOp::Copy {
            dst,
            dst_off,
            src,
            src_off,
            elem,
            elems,
        } => writeln!(
            out,
            "device copy {elems} {elem} from {src}[{src_off}..] to {dst}[{dst_off}..]"
        ),
        DeviceOp::Input {
            k,
            elem,
            mem,
            shape,
            ..
        } => {
            let shape: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
            writeln!(out, "device input {k} -> {mem}: {}{elem}", dims(&shape))
        }
        DeviceOp::Output {
            k,
            elem,
            mem,
            shape,
            ..
        } => {
            let shape: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
            writeln!(out, "device output {k} <- {mem}: {}{elem}", dims(&shape))
        }
        DeviceOp::Launch { kernel, bound } => writeln!(out, "launch kernel{kernel} [{bound}]"),
    }
}

impl Display for Kernel {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let params: Vec<String> = self
            .scalars
            .iter()
            .map(|(v, t)| format!("{v}: {t}"))
            .chain(self.mems.iter().map(|m| format!("mem {m}")))
            .collect();
        let mut s = String::new();
        nested(
            &mut s,
            format_args!("kernel {} {} ({})", self.name, self.i, params.join(", ")),
            &self.body,
            0,
        )?;
        f.write_str(&s)
    }
}

impl Display for Function {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        nested(
            &mut s,
            format_args!("entry {}", self.entry.name),
            &self.body,
            0,
        )?;
        f.write_str(&s)
    }
}

impl Display for Program {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (k, fun) in self.internal.iter().enumerate() {
            let mut s = String::new();
            nested(&mut s, format_args!("fun{k} ({})", fun.name), &fun.body, 0)?;
            writeln!(f, "{s}")?;
        }
        for (k, fun) in self.funs.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{fun}")?;
        }
        for k in &self.kernels {
            write!(f, "\n{k}")?;
        }
        Ok(())
    }
}
