//! Printing kernels as OpenCL C, on top of the prelude `opencl/prims.cl`
//! (the C runtime's scalar operators with the same names and meaning),
//! with the C backend's expression printer in its kernel dialect.
//!
//! Kernel `k` is `__kernel void parad_kK(long n_, scalars…, blocks…
//! [, errors])`: thread `i < n_` runs iteration `i` of the parallel loop.
//! Blocks are `__global uchar` pointers, cast to the element type at
//! each access; the memory variables of the body are pointers into them
//! (the body never allocates). A failing thread claims the error words
//! (`errors`, see the C runtime's `device.h`) with a compare-and-swap,
//! writes its site and arguments, and leaves; other threads go on, and
//! the host reports the claimed error after the launch.

use parad_base::PrimType;
use parad_cgen::emit::{ctype, exp_in, name, Dialect};
use parad_imp::ir::{Code, ErrorArg, Exp, Kernel};
use std::fmt::Write;

/// The OpenCL C prelude of every kernel source.
pub const PRIMS_CL: &str = include_str!("opencl/prims.cl");

/// The OpenCL C source of `kernels`, after the prelude.
pub fn opencl_source(kernels: &[Kernel]) -> String {
    let mut out = String::from(PRIMS_CL);
    for k in kernels {
        kernel(&mut out, k);
    }
    out
}

fn exp(e: &Exp) -> String {
    exp_in(Dialect::Kernel, e)
}

fn indent(out: &mut String, d: usize) {
    out.extend(std::iter::repeat_n("  ", d));
}

/// A block's element `index`, as an lvalue.
fn elem(mem: parad_core::VName, t: PrimType, index: &Exp) -> String {
    format!("((__global {} *){})[{}]", ctype(t), name(mem), exp(index))
}

struct Printer {
    /// The next error site's number (sites are numbered in the order of
    /// [`Kernel::error_sites`]).
    site: usize,
    /// Fresh names of the printer's own loops.
    fresh: usize,
}

fn kernel(out: &mut String, k: &Kernel) {
    let mut params = vec!["long n_".to_string()];
    // OpenCL kernels take no `bool` arguments: a byte instead.
    let mut bools = vec![];
    for (v, t) in &k.scalars {
        if *t == PrimType::Bool {
            params.push(format!("uchar {}_b", name(*v)));
            bools.push(name(*v));
        } else {
            params.push(format!("{} {}", ctype(*t), name(*v)));
        }
    }
    for m in &k.mems {
        params.push(format!("__global unsigned char *{}", name(*m)));
    }
    if !k.error_sites().is_empty() {
        params.push("__global long *errors_".into());
    }
    let _ = writeln!(out, "\n__kernel void {}({}) {{", k.name, params.join(", "));
    let _ = writeln!(
        out,
        "  const long {} = (long)get_global_id(0);\n  if ({} >= n_) return;",
        name(k.i),
        name(k.i)
    );
    for b in bools {
        let _ = writeln!(out, "  const bool {b} = {b}_b != 0;");
    }
    let mut mems = vec![];
    collect_mems(&k.body, &mut mems);
    for m in mems {
        let _ = writeln!(out, "  __global unsigned char *{} = 0;", name(m));
    }
    let mut p = Printer { site: 0, fresh: 0 };
    p.block(out, &k.body, 1);
    out.push_str("}\n");
}

fn collect_mems(code: &[Code], out: &mut Vec<parad_core::VName>) {
    for c in code {
        match c {
            Code::DeclMem(m) => out.push(*m),
            Code::Block(b)
            | Code::For { body: b, .. }
            | Code::While { body: b, .. }
            | Code::Cas { body: b, .. } => collect_mems(b, out),
            Code::If {
                then_br, else_br, ..
            } => {
                collect_mems(then_br, out);
                collect_mems(else_br, out);
            }
            _ => {}
        }
    }
}

impl Printer {
    fn block(&mut self, out: &mut String, code: &[Code], d: usize) {
        for c in code {
            self.code(out, c, d);
        }
    }

    fn code(&mut self, out: &mut String, c: &Code, d: usize) {
        match c {
            Code::Block(b) => {
                indent(out, d);
                out.push_str("{\n");
                self.block(out, b, d + 1);
                indent(out, d);
                out.push_str("}\n");
            }
            Code::Decl { var, ty } => {
                indent(out, d);
                let _ = writeln!(out, "{} {};", ctype(*ty), name(*var));
            }
            Code::Let { var, ty, exp: e } => {
                indent(out, d);
                let _ = writeln!(out, "{} {} = {};", ctype(*ty), name(*var), exp(e));
            }
            Code::Assign { var, exp: e } => {
                indent(out, d);
                let _ = writeln!(out, "{} = {};", name(*var), exp(e));
            }
            Code::DeclMem(_) => {}
            // Views: pointers into blocks that live outside the kernel.
            Code::SetMem { dst, src } | Code::Borrow { dst, src } => {
                indent(out, d);
                let _ = writeln!(out, "{} = {};", name(*dst), name(*src));
            }
            Code::MoveMem { dst, src } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "{{ __global unsigned char *t_ = {0}; {0} = {1}; {1} = t_; }}",
                    name(*dst),
                    name(*src)
                );
            }
            Code::Unref(m) => {
                indent(out, d);
                let _ = writeln!(out, "{} = 0;", name(*m));
            }
            Code::Write {
                mem,
                elem: t,
                index,
                value,
            } => {
                indent(out, d);
                let _ = writeln!(out, "{} = {};", elem(*mem, *t, index), exp(value));
            }
            Code::Memcpy {
                dst,
                dst_off,
                src,
                src_off,
                elem: t,
                elems,
            } => {
                // memmove: backwards when the destination starts inside
                // the source.
                self.fresh += 1;
                let j = format!("j{}_", self.fresh);
                let ty = ctype(*t);
                let (dp, sp) = (format!("d{j}"), format!("s{j}"));
                indent(out, d);
                let _ = writeln!(
                    out,
                    "{{ __global {ty} *{dp} = (__global {ty} *){} + ({}); __global {ty} *{sp} = (__global {ty} *){} + ({}); const long n{j} = {};",
                    name(*dst),
                    exp(dst_off),
                    name(*src),
                    exp(src_off),
                    exp(elems)
                );
                indent(out, d + 1);
                let _ = writeln!(
                    out,
                    "if ({dp} <= {sp}) {{ for (long {j} = 0; {j} < n{j}; {j}++) {dp}[{j}] = {sp}[{j}]; }} else {{ for (long {j} = n{j} - 1; {j} >= 0; {j}--) {dp}[{j}] = {sp}[{j}]; }} }}"
                );
            }
            Code::For { i, it, bound, body } => {
                indent(out, d);
                let t = ctype(PrimType::Int(*it));
                let b = format!("{}_n", name(*i));
                let _ = writeln!(
                    out,
                    "{{ const {t} {b} = {}; for ({t} {i} = 0; {i} < {b}; {i}++) {{",
                    exp(bound),
                    i = name(*i)
                );
                self.block(out, body, d + 1);
                indent(out, d);
                out.push_str("} }\n");
            }
            Code::While { cond, body } => {
                indent(out, d);
                let _ = writeln!(out, "while ({}) {{", name(*cond));
                self.block(out, body, d + 1);
                indent(out, d);
                out.push_str("}\n");
            }
            Code::If {
                cond,
                then_br,
                else_br,
            } => {
                indent(out, d);
                let _ = writeln!(out, "if ({}) {{", exp(cond));
                self.block(out, then_br, d + 1);
                if !else_br.is_empty() {
                    indent(out, d);
                    out.push_str("} else {\n");
                    self.block(out, else_br, d + 1);
                }
                indent(out, d);
                out.push_str("}\n");
            }
            Code::AtomicAdd {
                mem,
                elem: t,
                index,
                value,
            } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "p_atomic_add_{}(&{}, {});",
                    ctype(*t),
                    elem(*mem, *t, index),
                    exp(value)
                );
            }
            Code::Cas {
                mem,
                elem: t,
                index,
                old,
                new,
                body,
            } => {
                indent(out, d);
                let ty = ctype(*t);
                let _ = writeln!(
                    out,
                    "{{ __global {ty} *p_ = &{}; {ty} {old} = p_atomic_load_{ty}(p_); for (;;) {{",
                    elem(*mem, *t, index),
                    old = name(*old)
                );
                self.block(out, body, d + 1);
                indent(out, d + 1);
                let _ = writeln!(
                    out,
                    "if (p_cas_{ty}(p_, &{}, {})) break;",
                    name(*old),
                    name(*new)
                );
                indent(out, d);
                out.push_str("} }\n");
            }
            Code::Error { args, .. } => self.fail(out, d, args),
            // Kernel extraction leaves nothing else in a kernel.
            other => panic!("internal error: {other:?} in a kernel"),
        }
    }

    /// Claims the error words for this site (when no thread has) and
    /// leaves the thread.
    fn fail(&mut self, out: &mut String, d: usize, args: &[ErrorArg]) {
        let site = self.site;
        self.site += 1;
        indent(out, d);
        let _ = writeln!(
            out,
            "{{ if (atom_cmpxchg(errors_, 0L, {}L) == 0L) {{",
            site + 1
        );
        for (j, a) in args.iter().enumerate() {
            let e = exp(&a.exp);
            let word = match a.ty {
                PrimType::Bool => format!("(long)({e} ? 1 : 0)"),
                PrimType::Int(i) if i.signed() => format!("(long)({e})"),
                PrimType::Int(_) => format!("(long)(ulong)({e})"),
                PrimType::Float(_) => format!("as_long((double)({e}))"),
            };
            indent(out, d + 1);
            let _ = writeln!(out, "errors_[{}] = {word};", j + 1);
        }
        indent(out, d);
        out.push_str("} return; }\n");
    }
}
