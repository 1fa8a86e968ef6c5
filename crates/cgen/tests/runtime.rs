//! The C runtime (`parad_cgen::RUNTIME`) against the interpreter: every
//! scalar operator at every type it accepts, on edge and random inputs,
//! compiled with the backend's flags and again under AddressSanitizer and
//! UndefinedBehaviorSanitizer; and the memory blocks, errors and atomics
//! under the sanitizers. Skipped (with a note) when no `cc` is on PATH.

use half::f16;
use parad_base::{FloatType, PrimType};
use parad_core::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
use parad_interp::prim;
use parad_values::Scalar;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const OPT_FLAGS: &[&str] = &["-std=gnu11", "-O3", "-march=native", "-pthread"];
const SAN_FLAGS: &[&str] = &[
    "-std=gnu11",
    "-O1",
    "-g",
    "-pthread",
    "-fsanitize=address,undefined,float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

fn have_cc() -> bool {
    let ok = Command::new("cc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("note: no `cc` on PATH; C runtime test skipped");
    }
    ok
}

fn work_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("runtime-{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles `src` into an executable; `None` if the flags are unsupported
/// here (the sanitizer runtimes may be missing), a panic if the runtime
/// itself does not compile.
fn compile(dir: &Path, name: &str, src: &str, flags: &[&str], optional: bool) -> Option<PathBuf> {
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, src).unwrap();
    let out = Command::new("cc")
        .args(flags)
        .args(["-Wall", "-Wextra", "-Werror"])
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    if out.status.success() {
        return Some(exe);
    }
    let err = String::from_utf8_lossy(&out.stderr);
    if optional && probe_fails(dir, flags) {
        eprintln!("note: `cc {}` unavailable; skipped", flags.join(" "));
        return None;
    }
    panic!("C compilation of {name} failed:\n{err}");
}

/// Whether the flags fail even on a trivial program.
fn probe_fails(dir: &Path, flags: &[&str]) -> bool {
    let c = dir.join("probe.c");
    std::fs::write(&c, "int main(void) { return 0; }\n").unwrap();
    let ok = Command::new("cc")
        .args(flags)
        .arg(&c)
        .arg("-o")
        .arg(dir.join("probe"))
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(dir.join("probe"))
            .output()
            .is_ok_and(|o| o.status.success());
    !ok
}

fn run(exe: &Path, stdin: Option<&Path>) -> String {
    let mut cmd = Command::new(exe);
    cmd.env("ASAN_OPTIONS", "allocator_may_return_null=1:detect_leaks=1")
        .env("UBSAN_OPTIONS", "print_stacktrace=1");
    if let Some(p) = stdin {
        cmd.stdin(std::fs::File::open(p).unwrap());
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{} failed ({}):\n{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

// ---- operators ----------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Op {
    Un(UnOp),
    Bin(BinOp),
    Tern(TernOp),
    Cmp(CmpOp),
    Conv(ConvOp, PrimType),
}

/// One C function: the operator, its annotation type, operand and result types.
struct Case {
    op: Op,
    t: PrimType,
    args: Vec<PrimType>,
    ret: PrimType,
}

impl Case {
    fn c_name(&self) -> String {
        match self.op {
            Op::Un(o) => format!("p_{}_{}", o.name(), self.t),
            Op::Bin(o) => format!("p_{}_{}", o.name(), self.t),
            Op::Tern(o) => format!("p_{}_{}", o.name(), self.t),
            Op::Cmp(o) => format!("p_{}_{}", o.name(), self.t),
            Op::Conv(o, to) => format!("p_{}_{}_{}", o.name(), self.t, to),
        }
    }

    fn oracle(&self, a: &[Scalar]) -> Result<Scalar, String> {
        match self.op {
            Op::Un(o) => prim::unop(o, self.t, a[0]),
            Op::Bin(o) => prim::binop(o, self.t, a[0], a[1]),
            Op::Tern(o) => prim::ternop(o, self.t, a[0], a[1], a[2]),
            Op::Cmp(o) => prim::cmp(o, a[0], a[1]),
            Op::Conv(o, to) => prim::convert(o, to, a[0]),
        }
    }

    /// Results of functions that C (the system libm) and the interpreter
    /// (the `libm` crate, or Rust's own `cbrt`) compute with different
    /// algorithms: compared within a tolerance. Every other result must be
    /// bit-exact (the same correctly rounded operation, or the same system
    /// libm function on both sides).
    fn approximate(&self) -> bool {
        use UnOp::*;
        matches!(self.op, Op::Un(Cbrt | Gamma | Lgamma | Erf | Erfc))
    }
}

fn all_cases() -> Vec<Case> {
    let mut cs = vec![];
    for t in PrimType::all() {
        for &o in UnOp::ALL {
            if let Some(ret) = o.result_type(t) {
                cs.push(Case {
                    op: Op::Un(o),
                    t,
                    args: vec![t],
                    ret,
                });
            }
        }
        for &o in BinOp::ALL {
            if let Some((a, b)) = o.operand_types(t) {
                cs.push(Case {
                    op: Op::Bin(o),
                    t,
                    args: vec![a, b],
                    ret: t,
                });
            }
        }
        for &o in TernOp::ALL {
            if o.allowed(t) {
                cs.push(Case {
                    op: Op::Tern(o),
                    t,
                    args: vec![t; 3],
                    ret: t,
                });
            }
        }
        for &o in CmpOp::ALL {
            cs.push(Case {
                op: Op::Cmp(o),
                t,
                args: vec![t; 2],
                ret: PrimType::Bool,
            });
        }
        for to in PrimType::all() {
            for &o in ConvOp::ALL {
                if o.allowed(t, to) {
                    cs.push(Case {
                        op: Op::Conv(o, to),
                        t,
                        args: vec![t],
                        ret: to,
                    });
                }
            }
        }
    }
    cs
}

fn to_bits(s: Scalar) -> u64 {
    match s {
        Scalar::I8(x) => x as u8 as u64,
        Scalar::I16(x) => x as u16 as u64,
        Scalar::I32(x) => x as u32 as u64,
        Scalar::I64(x) => x as u64,
        Scalar::U8(x) => x as u64,
        Scalar::U16(x) => x as u64,
        Scalar::U32(x) => x as u64,
        Scalar::U64(x) => x,
        Scalar::F16(x) => x.to_bits() as u64,
        Scalar::F32(x) => x.to_bits() as u64,
        Scalar::F64(x) => x.to_bits(),
        Scalar::Bool(b) => b as u64,
    }
}

fn from_bits(t: PrimType, b: u64) -> Scalar {
    match t {
        PrimType::Int(it) => Scalar::from_int(it, b as i128),
        PrimType::Float(FloatType::F16) => Scalar::F16(f16::from_bits(b as u16)),
        PrimType::Float(FloatType::F32) => Scalar::F32(f32::from_bits(b as u32)),
        PrimType::Float(FloatType::F64) => Scalar::F64(f64::from_bits(b)),
        PrimType::Bool => Scalar::Bool(b != 0),
    }
}

/// Edge values of a type: zeros, ones, extremes, NaN, infinities, values
/// around the bit width (shift amounts) and around integer ranges (casts).
fn edges(t: PrimType) -> Vec<Scalar> {
    match t {
        PrimType::Bool => vec![Scalar::Bool(false), Scalar::Bool(true)],
        PrimType::Int(it) => {
            let (lo, hi) = it.bounds();
            let w = it.bits() as i128;
            [
                0,
                1,
                2,
                3,
                -1,
                -2,
                -3,
                5,
                -7,
                100,
                -100,
                lo,
                hi,
                lo + 1,
                hi - 1,
                w - 2,
                w - 1,
                w,
                w + 1,
                -w,
                16,
                -150,
                128,
                1100,
                -1100,
            ]
            .into_iter()
            .map(|v| Scalar::from_int(it, v))
            .collect()
        }
        PrimType::Float(ft) => {
            let mut xs: Vec<f64> = vec![
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.5,
                -0.5,
                1.5,
                -1.5,
                2.5,
                -2.5,
                3.5,
                2.0,
                -3.0,
                10.0,
                0.1,
                -0.25,
                0.75,
                1.0e-300,
                1.0e-40,
                255.5,
                -128.5,
                1.0e10,
                -1.0e10,
                1.0e30,
                -1.0e30,
                65504.0,
                65520.0,
                70000.0,
                2147483648.0,
                -2147483649.0,
                9.223_372_036_854_776e18,
                -9.223_372_036_854_776e18,
                1.8446744073709552e19,
                1.7014118346046923e38,
                -1.7014118346046923e38,
                3.0e38,
                -3.0e38,
                1.0e308,
                -1.0e308,
                4.0e9,
                -4.0e9,
            ];
            xs.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN]);
            let mut v: Vec<Scalar> = xs.into_iter().map(|x| Scalar::from_float(ft, x)).collect();
            let bits: &[u64] = match ft {
                FloatType::F16 => &[1, 0x3ff, 0x400, 0x7bff, 0xfbff, 0x8001, 0x3c01, 0x7c01],
                FloatType::F32 => &[1, 0x7fffff, 0x800000, 0x7f7fffff, 0xff7fffff, 0x80000001],
                FloatType::F64 => &[
                    1,
                    0x000f_ffff_ffff_ffff,
                    0x0010_0000_0000_0000,
                    0x7fef_ffff_ffff_ffff,
                    0xffef_ffff_ffff_ffff,
                    0x8000_0000_0000_0001,
                ],
            };
            v.extend(bits.iter().map(|&b| from_bits(t, b)));
            v
        }
    }
}

fn random(t: PrimType, rng: &mut StdRng) -> Scalar {
    match t {
        PrimType::Bool => Scalar::Bool(rng.gen()),
        PrimType::Int(it) => {
            let v: i128 = match rng.gen_range(0..4) {
                0 | 1 => rng.gen::<u64>() as i128,
                2 => rng.gen_range(-300..300),
                _ => {
                    let m = (rng.gen::<u64>() >> rng.gen_range(0..64)) as i128;
                    if rng.gen() {
                        m
                    } else {
                        -m
                    }
                }
            };
            Scalar::from_int(it, v)
        }
        PrimType::Float(ft) => {
            let x: f64 = match rng.gen_range(0..6) {
                0 => return from_bits(t, rng.gen()),
                1 => rng.gen_range(-10.0..10.0),
                2 => rng.gen_range(-1000i32..1000) as f64 * 0.5,
                3 => rng.gen_range(-1.0..1.0),
                4 => rng.gen_range(-200.0..200.0),
                _ => {
                    let e = rng.gen_range(-80..80);
                    rng.gen_range(-1.0..1.0) * 2f64.powi(e)
                }
            };
            Scalar::from_float(ft, x)
        }
    }
}

/// Inputs for a case: all edge tuples for unary and binary operators, and
/// random tuples (drawn from edge and random values) for every operator.
fn inputs(c: &Case, rng: &mut StdRng) -> Vec<Vec<Scalar>> {
    let e: Vec<Vec<Scalar>> = c.args.iter().map(|&t| edges(t)).collect();
    let mut v = vec![];
    match e.len() {
        1 => v.extend(e[0].iter().map(|&x| vec![x])),
        2 => {
            for &x in &e[0] {
                v.extend(e[1].iter().map(|&y| vec![x, y]));
            }
        }
        _ => {}
    }
    let n = if c.args.len() == 3 { 3000 } else { 600 };
    for _ in 0..n {
        let t: Vec<Scalar> = c
            .args
            .iter()
            .zip(&e)
            .map(|(&t, es)| {
                if rng.gen_bool(0.3) {
                    es[rng.gen_range(0..es.len())]
                } else {
                    random(t, rng)
                }
            })
            .collect();
        v.push(t);
    }
    v
}

/// The C test driver: reads `case a b c` lines (operands as bits in hex),
/// prints each result's bits.
fn driver(cases: &[Case]) -> String {
    let mut s = String::from(parad_cgen::RUNTIME);
    s.push_str("\n/* ---- test driver ---- */\n");
    for t in PrimType::all() {
        let (i, o) = match t {
            PrimType::Bool => ("a != 0".to_string(), "(u64)r".to_string()),
            PrimType::Int(it) => {
                let u = format!("u{}", it.bits());
                (format!("({t})({u})a"), format!("(u64)({u})r"))
            }
            PrimType::Float(ft) => {
                let (u, n) = (format!("u{}", ft.bits()), ft.bits() / 8);
                (
                    format!("({{ {u} b = ({u})a; {t} r; memcpy(&r, &b, {n}); r; }})"),
                    format!("({{ {u} b; memcpy(&b, &r, {n}); (u64)b; }})"),
                )
            }
        };
        writeln!(s, "static {t} in_{t}(u64 a) {{ return {i}; }}").unwrap();
        writeln!(s, "static u64 out_{t}({t} r) {{ return {o}; }}").unwrap();
    }
    s.push_str(
        "int main(void) {\n  unsigned k;\n  unsigned long long a, b, c;\n  \
         while (scanf(\"%u %llx %llx %llx\", &k, &a, &b, &c) == 4) {\n    u64 r;\n    \
         switch (k) {\n",
    );
    for (k, c) in cases.iter().enumerate() {
        let args: Vec<String> = c
            .args
            .iter()
            .zip(["a", "b", "c"])
            .map(|(t, v)| format!("in_{t}({v})"))
            .collect();
        writeln!(
            s,
            "    case {k}: r = out_{}({}({})); break;",
            c.ret,
            c.c_name(),
            args.join(", ")
        )
        .unwrap();
    }
    s.push_str(
        "    default: return 2;\n    }\n    printf(\"%llx\\n\", (unsigned long long)r);\n  }\n  \
         return 0;\n}\n",
    );
    s
}

/// Distance in units in the last place between two finite floats of a type.
fn ulps(t: FloatType, a: f64, b: f64) -> u64 {
    let key = |x: f64| -> i64 {
        let (bits, sign) = match t {
            FloatType::F16 => {
                let b = f16::from_f64(x).to_bits();
                ((b & 0x7fff) as i64, b >> 15 == 1)
            }
            FloatType::F32 => {
                let b = (x as f32).to_bits();
                ((b & 0x7fff_ffff) as i64, b >> 31 == 1)
            }
            FloatType::F64 => {
                let b = x.to_bits();
                ((b & 0x7fff_ffff_ffff_ffff) as i64, b >> 63 == 1)
            }
        };
        if sign {
            -bits
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}

fn float_val(s: Scalar) -> Option<(FloatType, f64)> {
    match s {
        Scalar::F16(x) => Some((FloatType::F16, x.to_f64())),
        Scalar::F32(x) => Some((FloatType::F32, x as f64)),
        Scalar::F64(x) => Some((FloatType::F64, x)),
        _ => None,
    }
}

/// Whether the C result matches the interpreter's: exactly (any NaN
/// matches any NaN), or within the tolerance for approximate operators.
fn matches(c: &Case, want: Scalar, got: Scalar) -> bool {
    let (Some((ft, w)), Some((_, g))) = (float_val(want), float_val(got)) else {
        return want == got;
    };
    if w.is_nan() || g.is_nan() {
        return w.is_nan() && g.is_nan();
    }
    if to_bits(want) == to_bits(got) {
        return true;
    }
    if !c.approximate() || w.is_infinite() || g.is_infinite() {
        return false;
    }
    let (rel, max_ulps) = match ft {
        FloatType::F16 => (0.0, 1),
        FloatType::F32 => (1e-5, 4),
        FloatType::F64 => (1e-12, 4),
    };
    (w - g).abs() <= rel * w.abs().max(g.abs()) || ulps(ft, w, g) <= max_ulps
}

#[test]
fn operators_match_the_interpreter() {
    if !have_cc() {
        return;
    }
    let cases = all_cases();
    let dir = work_dir("ops");
    let src = driver(&cases);
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let mut lines = std::io::BufWriter::new(std::fs::File::create(dir.join("in.txt")).unwrap());
    let mut queries = vec![];
    for (k, c) in cases.iter().enumerate() {
        for args in inputs(c, &mut rng) {
            let mut b = [0u64; 3];
            for (i, &a) in args.iter().enumerate() {
                b[i] = to_bits(a);
            }
            writeln!(lines, "{k} {:x} {:x} {:x}", b[0], b[1], b[2]).unwrap();
            queries.push((k, args));
        }
    }
    lines.flush().unwrap();
    drop(lines);
    let mut builds = vec![("opt", compile(&dir, "ops_opt", &src, OPT_FLAGS, false))];
    builds.push(("sanitized", compile(&dir, "ops_san", &src, SAN_FLAGS, true)));
    let mut exact_approx = 0usize;
    let mut total_approx = 0usize;
    let mut inexact: std::collections::BTreeMap<String, usize> = Default::default();
    for (what, exe) in builds {
        let Some(exe) = exe else { continue };
        let out = run(&exe, Some(&dir.join("in.txt")));
        let results: Vec<&str> = out.lines().collect();
        assert_eq!(results.len(), queries.len(), "{what}: missing results");
        let (mut checked, mut skipped, mut bad) = (0usize, 0usize, vec![]);
        for ((k, args), r) in queries.iter().zip(&results) {
            let c = &cases[*k];
            let Ok(want) = c.oracle(args) else {
                skipped += 1;
                continue;
            };
            checked += 1;
            let got = from_bits(c.ret, u64::from_str_radix(r, 16).unwrap());
            if !matches(c, want, got) {
                bad.push(format!(
                    "{}{:?}: C {:?}, interpreter {:?}",
                    c.c_name(),
                    args,
                    got,
                    want
                ));
            } else if c.approximate() && what == "opt" && float_val(want).is_some() {
                total_approx += 1;
                if to_bits(want) == to_bits(got) || want != want {
                    exact_approx += 1;
                } else {
                    *inexact.entry(c.c_name()).or_default() += 1;
                }
            }
        }
        eprintln!(
            "{what}: {} functions, {checked} results compared, {skipped} inputs the interpreter rejects",
            cases.len()
        );
        assert!(
            bad.is_empty(),
            "{what}: {} mismatches, e.g.:\n{}",
            bad.len(),
            bad[..bad.len().min(40)].join("\n")
        );
    }
    eprintln!("approximate operators: {exact_approx} of {total_approx} results bit-exact");
    eprintln!("not bit-exact (within tolerance): {inexact:?}");
}

// ---- memory, errors, atomics ----------------------------------------------------

const MEM_TEST: &str = r#"
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "line %d: CHECK(%s) failed\n", __LINE__, #c); exit(1); } } while (0)

/* Loop bodies run by the pool of an 8-thread context. */
static void count_refs(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  pmem *g = env;
  for (int64_t t = start; t < end; t++)
    for (int i = 0; i < 1000; i++) {
      pmem l = PMEM_NULL;
      pmem_set(&l, *g);
      pmem_unref(&l);
    }
}

struct errors_env { struct parad_ctx *ctx; int round; };
static void many_errors(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  struct errors_env *e = env;
  for (int64_t i = start; i < end; i++)
    parad_error(e->ctx, i, "error %d in round %d: %s", (int)i, e->round, "index out of bounds");
}

struct atomics_env { i32 *ai; i8 *a8; u64 *au; f64 *ad; f32 *af; f16 *ah; };
static void atomics(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  struct atomics_env *e = env;
  for (int64_t i = start; i < end; i++) {
    p_atomic_add_i32(e->ai, 1);
    p_atomic_add_i8(e->a8, 1);
    p_atomic_add_u64(e->au, (u64)-1);
    p_atomic_add_f64(e->ad, 0.5);
    p_atomic_add_f32(e->af, 1.0f);
    if (i < 1000) p_atomic_add_f16(e->ah, (f16)1);
  }
}

int main(void) {
  int checks = 0;
  CHECK(parad_abi_version() == 1);
  /* zero-byte and aligned allocations */
  pmem m = PMEM_NULL;
  CHECK(pmem_alloc(&m, 0) == 0 && m.data != NULL && m.rc != NULL);
  CHECK(((uintptr_t)m.data & 63) == 0 && pmem_unique(m));
  /* reuse when unique and large enough */
  CHECK(pmem_alloc(&m, 100) == 0);
  unsigned char *d = m.data;
  memset(m.data, 7, 100);
  CHECK(pmem_alloc(&m, 50) == 0 && m.data == d && *m.rc == 1);
  CHECK(pmem_alloc(&m, 128) == 0 && m.data == d); /* capacity rounds to 64 */
  CHECK(pmem_alloc(&m, 4096) == 0 && ((uintptr_t)m.data & 63) == 0);
  memset(m.data, 1, 4096);
  /* no reuse when shared */
  pmem s = PMEM_NULL;
  pmem_set(&s, m);
  CHECK(s.data == m.data && *m.rc == 2 && !pmem_unique(m) && !pmem_unique(s));
  CHECK(pmem_alloc(&m, 10) == 0 && m.data != s.data);
  CHECK(*m.rc == 1 && *s.rc == 1 && s.data[4095] == 1);
  /* set to the same block, set replacing another block */
  pmem_set(&s, s);
  CHECK(*s.rc == 1);
  pmem_set(&s, m);
  CHECK(s.data == m.data && *m.rc == 2);
  pmem_unref(&s);
  CHECK(s.data == NULL && s.rc == NULL && *m.rc == 1);
  pmem_unref(&s); /* unref of a null reference is a no-op */
  /* move */
  pmem c = PMEM_NULL;
  pmem_move(&c, &m);
  CHECK(m.data == NULL && m.rc == NULL && *c.rc == 1);
  pmem_move(&c, &c);
  CHECK(c.data != NULL && *c.rc == 1);
  pmem e = PMEM_NULL;
  pmem_set(&e, c);
  pmem_move(&e, &c); /* two references to the same block */
  CHECK(c.rc == NULL && *e.rc == 1);
  pmem f = PMEM_NULL;
  CHECK(pmem_alloc(&f, 8) == 0);
  pmem_move(&e, &f); /* frees e's block */
  CHECK(f.rc == NULL && *e.rc == 1);
  /* borrowed references are never counted or freed */
  pmem b = pmem_borrow(e);
  CHECK(b.data == e.data && b.rc == NULL && !pmem_unique(b));
  pmem b2 = PMEM_NULL;
  pmem_set(&b2, b);
  CHECK(b2.data == e.data && b2.rc == NULL && *e.rc == 1);
  pmem_unref(&b2);
  CHECK(*e.rc == 1);
  pmem_move(&e, &b); /* a borrow of e's own block */
  CHECK(b.data == NULL && *e.rc == 1);
  b = pmem_borrow(e);
  CHECK(pmem_alloc(&b, 16) == 0 && b.data != e.data && *b.rc == 1 && *e.rc == 1);
  pmem_unref(&b);
  /* out of memory */
  CHECK(pmem_alloc(&e, INT64_MAX) == 1 && e.data == NULL && e.rc == NULL);
  CHECK(pmem_alloc(&e, -1) == 1 && e.data == NULL);
  CHECK(pmem_alloc(&e, (int64_t)1 << 62) == 1 && e.data == NULL);
  CHECK(pmem_alloc(&e, 1) == 0);
  pmem_unref(&e);
  /* shared counting across threads */
  struct parad_ctx *ctx8 = parad_ctx_new(8);
  CHECK(ctx8 != NULL && ctx8->nthreads == 8);
  pmem g = PMEM_NULL;
  CHECK(pmem_alloc(&g, 64) == 0);
  parad_par_for(ctx8, 8, count_refs, &g);
  CHECK(*g.rc == 1);
  pmem_unref(&g);

  /* the context and errors */
  struct parad_ctx *ctx = parad_ctx_new(0);
  CHECK(ctx != NULL && ctx->nthreads >= 1 && ctx->nthreads == (int)sysconf(_SC_NPROCESSORS_ONLN));
  CHECK(parad_ctx_error(ctx) == NULL && parad_ctx_error_span(ctx) == -1);
  for (int round = 0; round < 3; round++) {
    parad_ctx_reset(ctx);
    CHECK(parad_ctx_error(ctx) == NULL && !ctx->failed);
    struct errors_env e = {ctx, round};
    parad_par_for(ctx8, 1000, many_errors, &e);
    const char *msg = parad_ctx_error(ctx);
    int64_t span = parad_ctx_error_span(ctx);
    CHECK(parad_has_failed(ctx) && msg != NULL && span >= 0 && span < 1000);
    char want[100];
    snprintf(want, sizeof want, "error %d in round %d: %s", (int)span, round,
             "index out of bounds");
    CHECK(strcmp(msg, want) == 0);
  }
  parad_ctx_free(ctx);
  ctx = parad_ctx_new(3);
  CHECK(ctx->nthreads == 3);
  parad_error(ctx, 5, "%s", "x");
  parad_error(ctx, 6, "%s", "y");
  CHECK(strcmp(parad_ctx_error(ctx), "x") == 0 && parad_ctx_error_span(ctx) == 5);
  parad_ctx_free(ctx);
  parad_free(NULL);
  parad_free(malloc(10));

  /* atomics */
  i32 ai = 0; i8 a8 = 0; u64 au = 0; f64 ad = 0; f32 af = 0; f16 ah = 0;
  struct atomics_env ae = {&ai, &a8, &au, &ad, &af, &ah};
  parad_par_for(ctx8, 8000, atomics, &ae);
  parad_ctx_free(ctx8);
  CHECK(ai == 8000 && a8 == (i8)(8000 % 256) && au == (u64)0 - 8000);
  CHECK(ad == 4000.0 && af == 8000.0f && (float)ah == 1000.0f);
  CHECK(p_atomic_load_i32(&ai) == 8000 && p_atomic_load_f16(&ah) == (f16)1000);
  f64 x = NAN, ex = NAN;
  CHECK(p_cas_f64(&x, &ex, 1.0) && x == 1.0);
  x = 0.0; ex = -0.0;
  CHECK(!p_cas_f64(&x, &ex, 2.0) && x == 0.0 && !signbit(ex));
  f16 h = (f16)-0.0, eh = (f16)0.0;
  CHECK(!p_cas_f16(&h, &eh, (f16)1) && signbit((float)eh));
  CHECK(p_cas_f16(&h, &eh, (f16)1) && h == (f16)1);
  bool bb = false, eb = false;
  CHECK(p_cas_bool(&bb, &eb, true) && p_atomic_load_bool(&bb));
  CHECK(!p_cas_bool(&bb, &eb, true) && eb);
  u8 u = 3, eu = 3;
  CHECK(p_cas_u8(&u, &eu, 9) && p_atomic_load_u8(&u) == 9);
  (void)checks;
  printf("ok\n");
  return 0;
}
"#;

#[test]
fn memory_errors_and_atomics() {
    if !have_cc() {
        return;
    }
    let dir = work_dir("mem");
    let src = format!("{}\n{MEM_TEST}", parad_cgen::RUNTIME);
    let opt = compile(&dir, "mem_opt", &src, OPT_FLAGS, false).unwrap();
    assert_eq!(run(&opt, None), "ok\n");
    if let Some(san) = compile(&dir, "mem_san", &src, SAN_FLAGS, true) {
        assert_eq!(run(&san, None), "ok\n");
    }
}

/// The runtime compiles as the backend compiles it: a shared library
/// exporting the ABI helpers.
#[test]
fn runtime_compiles_as_a_shared_library() {
    if !have_cc() {
        return;
    }
    let dir = work_dir("so");
    let c = dir.join("rt.c");
    std::fs::write(&c, parad_cgen::RUNTIME).unwrap();
    let out = Command::new("cc")
        .args(OPT_FLAGS)
        .args(["-shared", "-fPIC", "-Wall", "-Wextra", "-Werror"])
        .arg(&c)
        .arg("-o")
        .arg(dir.join("rt.so"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
