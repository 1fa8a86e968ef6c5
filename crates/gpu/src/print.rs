//! Printing kernels as OpenCL C, on top of the prelude `opencl/prims.cl`
//! (the C runtime's scalar operators with the same names and meaning),
//! with the C backend's expression printer in its kernel dialect.
//!
//! Kernel `k` is `__kernel void parad_kK(long n_, scalars…, blocks…
//! [, errors])`: thread `i < n_` runs iteration `i` of the parallel loop.
//! Blocks are `__global uchar` pointers, cast to the element type at
//! each access. The memory variables of the body point into parameters'
//! blocks or into blocks of the thread's share of an arena (see
//! [`parad_imp::ir::Arena`]); those have a header as the host's blocks
//! do (reference count, size, next free block), held by the variable's
//! `m_rc` (0 for a block it does not count), so that the thread's
//! blocks are counted, reused and updated in place exactly as on the
//! host, and blocks whose count drops to zero go to the thread's free
//! list for its next allocations. A failing thread claims the error words
//! (`errors`, see the C runtime's `device.h`) with a compare-and-swap,
//! writes its site and arguments, and leaves; other threads go on, and
//! the host reports the claimed error after the launch.

use parad_base::PrimType;
use parad_cgen::emit::{ctype, exp_in, name, Dialect};
use parad_imp::ir::{Code, ErrorArg, Exp, Kernel};
use std::fmt::Write;

/// The OpenCL C prelude of every kernel source.
pub const PRIMS_CL: &str = include_str!("opencl/prims.cl");

/// Reference counting of the blocks of a thread (`free_` is the
/// thread's list of blocks no one refers to; a header is three words:
/// count, bytes, next free block).
const BLOCKS_CL: &str = r#"
#define P_HEADER_WORDS 3
#define P_UNREF(m, rc) do { if ((rc) != 0 && --(rc)[0] == 0) { (rc)[2] = (long)free_; free_ = (rc); } (m) = 0; (rc) = 0; } while (0)
"#;

/// The OpenCL C source of `kernels`, after the prelude.
pub fn opencl_source(kernels: &[Kernel]) -> String {
    let mut out = String::from(PRIMS_CL);
    out.push_str(BLOCKS_CL);
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

struct Printer<'a> {
    kernel: &'a Kernel,
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
    let mut mems = vec![];
    collect_mems(&k.body, &mut mems);
    // Which blocks a thread owns alone (it may then reuse or update them
    // in place), and their sizes: parameters never.
    for m in &k.mems {
        let _ = writeln!(out, "  __global long *const {}_rc = 0;", name(*m));
    }
    for b in bools {
        let _ = writeln!(out, "  const bool {b} = {b}_b != 0;");
    }
    let i = name(k.i);
    let mut d = 1;
    match &k.arena {
        None => {
            let _ = writeln!(
                out,
                "  const long {i} = (long)get_global_id(0);\n  if ({i} >= n_) return;\n  __global long *free_ = 0;"
            );
        }
        Some(a) => {
            // Each of the n_ threads runs iterations i, i + n_, … of the
            // loop, allocating from its share of the arena.
            let _ = writeln!(
                out,
                "  const long gid_ = (long)get_global_id(0);\n  if (gid_ >= n_) return;\n  for (long {i} = gid_; {i} < {b}; {i} += n_) {{\n    __global unsigned char *top_ = {m} + gid_ * {p};\n    __global unsigned char *const end_ = top_ + {p};\n    __global long *free_ = 0;",
                b = name(a.bound),
                m = name(a.mem),
                p = name(a.per_thread),
            );
            d = 2;
        }
    }
    for m in &mems {
        indent(out, d);
        let _ = writeln!(
            out,
            "__global unsigned char *{0} = 0; __global long *{0}_rc = 0;",
            name(*m)
        );
    }
    let mut p = Printer {
        kernel: k,
        site: 0,
        fresh: 0,
    };
    p.block(out, &k.body, d);
    if k.arena.is_some() {
        out.push_str("  }\n");
    }
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

impl Printer<'_> {
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
            Code::Alloc {
                mem,
                elem: t,
                elems,
                ..
            } => {
                // Reuses the block the variable owns alone when it is
                // large enough (as the host's blocks are reused), else
                // takes the next bytes of the thread's share.
                let m = name(*mem);
                indent(out, d);
                let _ = writeln!(
                    out,
                    "{{ const long b_ = (({}) * (long)sizeof({}) + 7) / 8 * 8;",
                    exp(elems),
                    ctype(*t)
                );
                indent(out, d + 1);
                let _ = writeln!(
                    out,
                    "if (!({m}_rc != 0 && {m}_rc[0] == 1 && {m}_rc[1] >= b_)) {{"
                );
                indent(out, d + 2);
                let _ = writeln!(
                    out,
                    "P_UNREF({m}, {m}_rc); __global long *f_ = free_, *prev_ = 0; while (f_ != 0 && f_[1] < b_) {{ prev_ = f_; f_ = (__global long *)f_[2]; }}"
                );
                indent(out, d + 2);
                out.push_str("if (f_ != 0) { if (prev_ != 0) prev_[2] = f_[2]; else free_ = (__global long *)f_[2]; } else {\n");
                indent(out, d + 3);
                out.push_str("if (end_ - top_ < b_ + 8 * P_HEADER_WORDS) ");
                let share = self
                    .kernel
                    .arena
                    .as_ref()
                    .expect("an allocating kernel has an arena");
                let site = self.kernel.error_sites().len() - 1;
                self.fail_at(
                    out,
                    d + 3,
                    site,
                    &[ErrorArg {
                        exp: Exp::Var(share.per_thread),
                        ty: PrimType::Int(parad_base::IntType::I64),
                    }],
                );
                indent(out, d + 3);
                out.push_str(
                    "f_ = (__global long *)top_; f_[1] = b_; top_ += b_ + 8 * P_HEADER_WORDS;\n",
                );
                indent(out, d + 2);
                out.push_str("}\n");
                indent(out, d + 2);
                let _ = writeln!(
                    out,
                    "f_[0] = 1; {m}_rc = f_; {m} = (__global unsigned char *)(f_ + P_HEADER_WORDS);"
                );
                indent(out, d + 1);
                out.push_str("} }\n");
            }
            // The host's pmem_set, pmem_borrow, pmem_swap and pmem_unref.
            Code::SetMem { dst, src } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "{{ if ({1}_rc != 0) {1}_rc[0]++; __global unsigned char *s_ = {1}; __global long *sr_ = {1}_rc; P_UNREF({0}, {0}_rc); {0} = s_; {0}_rc = sr_; }}",
                    name(*dst),
                    name(*src)
                );
            }
            Code::Borrow { dst, src } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "{{ __global unsigned char *s_ = {1}; P_UNREF({0}, {0}_rc); {0} = s_; }}",
                    name(*dst),
                    name(*src)
                );
            }
            Code::MoveMem { dst, src } => {
                indent(out, d);
                let _ = writeln!(
                    out,
                    "if ({1} == {0}) {{ if (!({1}_rc == 0 && {0}_rc != 0)) {{ P_UNREF({0}, {0}_rc); {0} = {1}; {0}_rc = {1}_rc; }} {1} = 0; {1}_rc = 0; }} else {{ __global unsigned char *t_ = {0}; __global long *tr_ = {0}_rc; {0} = {1}; {0}_rc = {1}_rc; {1} = tr_ != 0 ? t_ : 0; {1}_rc = tr_; }}",
                    name(*dst),
                    name(*src)
                );
            }
            Code::Unref(m) => {
                indent(out, d);
                let _ = writeln!(out, "P_UNREF({0}, {0}_rc);", name(*m));
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
            Code::Error { args, .. } => {
                let site = self.site;
                self.site += 1;
                self.fail_at(out, d, site, args)
            }
            // Kernel extraction leaves nothing else in a kernel.
            other => panic!("internal error: {other:?} in a kernel"),
        }
    }

    /// Claims the error words for this site (when no thread has) and
    /// leaves the thread.
    fn fail_at(&mut self, out: &mut String, d: usize, site: usize, args: &[ErrorArg]) {
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
