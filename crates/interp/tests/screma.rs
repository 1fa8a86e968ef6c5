//! `screma` against the separate `map`, `scan` and `reduce` it stands
//! for. Each case builds both programs from the same lambda and operator
//! generators and runs them, and the fused program split by
//! `parad_core::screma::split_all`, on the same random inputs of several
//! widths (0 included): the results must be identical (same operations
//! in the same order, so floats agree bit for bit).

use parad_base::{FloatType, IntType, PrimType};
use parad_core::types::{F64, I64};
use parad_core::*;
use parad_interp::run;
use parad_values::{random_value, ArrayData, ArrayValue, Scalar, Value};
use rand::rngs::StdRng;
use rand::SeedableRng;

const PF64: PrimType = PrimType::Float(FloatType::F64);
const PI64: PrimType = PrimType::Int(IntType::I64);

/// One input: an array of `n` rows of shape `row` (`[]` for scalars).
#[derive(Clone, Copy)]
struct Input {
    elem: PrimType,
    row: &'static [usize],
}

const XS: Input = Input {
    elem: PF64,
    row: &[],
};
const IS: Input = Input {
    elem: PI64,
    row: &[],
};

type Gen = dyn Fn(&mut Builder, &[VName]) -> Vec<Operand>;

/// A fused program and its separate counterpart, with the same inputs
/// and result types.
struct Case {
    inputs: Vec<Input>,
    ret: Vec<Type>,
    fused: Box<Gen>,
    separate: Box<Gen>,
}

impl Case {
    fn program(&self) -> Program {
        let mut pb = ProgramBuilder::new();
        for (name, gen) in [("fused", &self.fused), ("separate", &self.separate)] {
            let params: Vec<Param> = self
                .inputs
                .iter()
                .map(|i| pb.param("in", array_type(i)))
                .collect();
            let names: Vec<VName> = params.iter().map(|p| p.name).collect();
            let f = pb.function(name, params, self.ret.clone(), |b| gen(b, &names));
            pb.entry(name, f);
        }
        let p = pb.finish();
        check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
        let screma = |s: &Stm| matches!(s.exp, Exp::Soac(Soac::Screma(_)));
        assert_eq!(walk::count(&fused_only(&p), screma), 1, "{p}");
        p
    }

    /// Runs every entry on the same random inputs of each width.
    fn check(&self) {
        let p = self.program();
        let mut split = p.clone();
        screma::split_all(&mut split);
        check_program(&split).unwrap_or_else(|e| panic!("{e}\n{split}"));
        let screma = |s: &Stm| matches!(s.exp, Exp::Soac(Soac::Screma(_)));
        assert_eq!(walk::count(&split, screma), 0, "{split}");
        let mut rng = StdRng::seed_from_u64(5);
        for n in [0, 1, 2, 7, 31] {
            for _ in 0..3 {
                let args: Vec<Value> = self.inputs.iter().map(|i| random(&mut rng, n, i)).collect();
                let fused = run(&p, "fused", args.clone()).unwrap();
                let separate = run(&p, "separate", args.clone()).unwrap();
                let split =
                    run(&split, "fused", args.clone()).unwrap_or_else(|e| panic!("{e:?}\n{split}"));
                assert_eq!(fused, separate, "width {n}, inputs {args:?}\n{p}");
                assert_eq!(split, separate, "width {n}, inputs {args:?}");
            }
        }
    }
}

/// `p` with only its first function (the fused one).
fn fused_only(p: &Program) -> Program {
    Program {
        funs: p.funs[..1].to_vec(),
        entries: vec![],
        names: p.names.clone(),
        frames: vec![],
    }
}

fn array_type(i: &Input) -> Type {
    let dims = std::iter::once(Dim::Ext)
        .chain(i.row.iter().map(|&d| Dim::Const(d as i64)))
        .collect();
    Type::array(i.elem, dims)
}

fn row_types(b: &Builder, arrs: &[VName]) -> Vec<Type> {
    arrs.iter()
        .map(|&a| b.type_of(a).row().expect("array"))
        .collect()
}

/// Random arrays of `n` rows like `i` (see [`random_value`] for ranges).
fn random(rng: &mut StdRng, n: usize, i: &Input) -> Value {
    let shape: Vec<usize> = std::iter::once(n).chain(i.row.iter().copied()).collect();
    random_value(&shape, i.elem, rng)
}

fn arr(t: Type) -> Type {
    Type::array(t.as_prim().expect("scalar"), vec![Dim::Ext])
}

// ---- operators, each built afresh for every use ----

fn plus(b: &mut Builder, t: Type) -> AccOp {
    let lam = b.binop_lambda(BinOp::Add, vec![t.clone()]);
    let zero = match t.as_prim() {
        Some(PF64) => Operand::f64(0.0),
        _ => Operand::i64(0),
    };
    AccOp {
        lam,
        neutral: vec![zero],
    }
}

fn fmax(b: &mut Builder) -> AccOp {
    AccOp {
        lam: b.binop_lambda(BinOp::Max, vec![F64]),
        neutral: vec![Operand::f64(f64::NEG_INFINITY)],
    }
}

/// Composition of affine maps, `(a1, b1) ∘ (a2, b2) = (a2·a1, a2·b1 + b2)`:
/// a tuple operator that is neither componentwise nor commutative.
fn affine(b: &mut Builder) -> AccOp {
    let lam = b.op_lambda(vec![F64, F64], |b, x, y| {
        let a = b.mul(y[0], x[0]);
        let t = b.mul(y[0], x[1]);
        let c = b.add(t, y[1]);
        vec![a.into(), c.into()]
    });
    AccOp {
        lam,
        neutral: vec![Operand::f64(1.0), Operand::f64(0.0)],
    }
}

/// The first maximum and its index: `(v1, i1) ⊙ (v2, i2)` keeps the left
/// pair unless `v2 > v1`.
fn argmax(b: &mut Builder) -> AccOp {
    let lam = b.op_lambda(vec![F64, I64], |b, x, y| {
        let gt = b.cmp(CmpOp::Gt, y[0], x[0]);
        let (l, r) = (x.to_vec(), y.to_vec());
        b.if_(
            gt,
            |_| r.iter().map(|&v| v.into()).collect(),
            |_| l.iter().map(|&v| v.into()).collect(),
        )
        .into_iter()
        .map(Operand::Var)
        .collect()
    });
    AccOp {
        lam,
        neutral: vec![Operand::f64(f64::NEG_INFINITY), Operand::i64(-1)],
    }
}

fn screma(
    b: &mut Builder,
    arrs: &[VName],
    scans: Vec<AccOp>,
    reds: Vec<Reduction>,
    f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
) -> Vec<Operand> {
    let w = b.width(arrs[0]);
    let rows = row_types(b, arrs);
    let lam = b.lambda(rows, f);
    let sc = Screma {
        w,
        arrs: arrs.to_vec(),
        scans,
        reds,
        lam,
    };
    b.emit(sc).into_iter().map(Operand::Var).collect()
}

fn scan_of(b: &mut Builder, op: AccOp, arrs: &[VName]) -> Vec<VName> {
    let w = b.width(arrs[0]);
    let arrs = arrs.to_vec();
    b.emit(Scan { w, op, arrs })
}

fn reduce_of(b: &mut Builder, comm: bool, op: AccOp, arrs: &[VName]) -> Vec<VName> {
    let w = b.width(arrs[0]);
    let arrs = arrs.to_vec();
    b.emit(Reduce { w, comm, op, arrs })
}

fn vars(vs: impl IntoIterator<Item = VName>) -> Vec<Operand> {
    vs.into_iter().map(Operand::Var).collect()
}

// ---- the cases ----

/// `(x·f64(i), i + 1)`.
fn map_fn(b: &mut Builder, r: &[VName]) -> Vec<Operand> {
    let c = b.cast(PF64, r[1]);
    let s = b.mul(r[0], c);
    let t = b.add(r[1], Operand::i64(1));
    vec![s.into(), t.into()]
}

#[test]
fn map_only() {
    Case {
        inputs: vec![XS, IS],
        ret: vec![arr(F64), arr(I64)],
        fused: Box::new(|b, p| screma(b, p, vec![], vec![], map_fn)),
        separate: Box::new(|b, p| vars(b.map(p, map_fn))),
    }
    .check()
}

/// Inputs of `+` (x), of the affine scan (x, y), then mapped (x·y, x - y).
fn scan_fn(b: &mut Builder, r: &[VName]) -> Vec<Operand> {
    let xy = b.mul(r[0], r[1]);
    let d = b.sub(r[0], r[1]);
    vec![r[0].into(), r[0].into(), r[1].into(), xy.into(), d.into()]
}

#[test]
fn scans_with_mapped_outputs() {
    Case {
        inputs: vec![XS, XS],
        ret: vec![arr(F64); 5],
        fused: Box::new(|b, p| {
            let scans = vec![plus(b, F64), affine(b)];
            screma(b, p, scans, vec![], scan_fn)
        }),
        separate: Box::new(|b, p| {
            let m = b.map(p, scan_fn);
            let (s, op) = (&m[..1], plus(b, F64));
            let mut out = scan_of(b, op, s);
            let op = affine(b);
            out.extend(scan_of(b, op, &m[1..3]));
            out.extend(&m[3..]);
            vars(out)
        }),
    }
    .check()
}

/// Inputs of the scan (x), of argmax (x, i), of the sum of squares
/// (x²), of the affine reduction (x, 1/2), of max (x), then mapped (i·2).
fn red_fn(b: &mut Builder, r: &[VName]) -> Vec<Operand> {
    let sq = b.mul(r[0], r[0]);
    let twice = b.mul(r[1], Operand::i64(2));
    vec![
        r[0].into(),
        r[0].into(),
        r[1].into(),
        sq.into(),
        r[0].into(),
        Operand::f64(0.5),
        r[0].into(),
        twice.into(),
    ]
}

/// The scan and reductions of [`red_fn`], fused or not.
fn reductions() -> Case {
    Case {
        inputs: vec![XS, IS],
        ret: vec![arr(F64), F64, I64, F64, F64, F64, F64, arr(I64)],
        fused: Box::new(|b, p| {
            let scans = vec![plus(b, F64)];
            let reds = vec![
                Reduction {
                    comm: false,
                    op: argmax(b),
                },
                Reduction {
                    comm: true,
                    op: plus(b, F64),
                },
                Reduction {
                    comm: false,
                    op: affine(b),
                },
                Reduction {
                    comm: true,
                    op: fmax(b),
                },
            ];
            screma(b, p, scans, reds, red_fn)
        }),
        separate: Box::new(|b, p| {
            let m = b.map(p, red_fn);
            let op = plus(b, F64);
            let mut out = scan_of(b, op, &m[..1]);
            let op = argmax(b);
            out.extend(reduce_of(b, false, op, &m[1..3]));
            let op = plus(b, F64);
            out.extend(reduce_of(b, true, op, &m[3..4]));
            let op = affine(b);
            out.extend(reduce_of(b, false, op, &m[4..6]));
            let op = fmax(b);
            out.extend(reduce_of(b, true, op, &m[6..7]));
            out.push(m[7]);
            vars(out)
        }),
    }
}

#[test]
fn several_reductions_with_tuples_and_a_scan() {
    reductions().check()
}

/// `(i, i)`: the same values to two reductions.
fn twice_fn(_: &mut Builder, r: &[VName]) -> Vec<Operand> {
    vec![r[0].into(), r[0].into()]
}

#[test]
fn commutative_flag_changes_no_result() {
    Case {
        inputs: vec![IS],
        ret: vec![I64, I64],
        fused: Box::new(|b, p| {
            let reds = vec![
                Reduction {
                    comm: true,
                    op: plus(b, I64),
                },
                Reduction {
                    comm: false,
                    op: plus(b, I64),
                },
            ];
            screma(b, p, vec![], reds, twice_fn)
        }),
        separate: Box::new(|b, p| {
            let op = plus(b, I64);
            let mut out = reduce_of(b, true, op, p);
            let op = plus(b, I64);
            out.extend(reduce_of(b, false, op, p));
            vars(out)
        }),
    }
    .check()
}

const ROWS: Input = Input {
    elem: PF64,
    row: &[3],
};

/// Rows of a `[n][3]` matrix: the row to a vector scan and a vector sum,
/// its sum mapped.
fn row_fn(b: &mut Builder, r: &[VName]) -> Vec<Operand> {
    let s = b.reduce_op(BinOp::Add, &[r[0]], vec![Operand::f64(0.0)]);
    vec![r[0].into(), r[0].into(), s[0].into()]
}

/// `+` on `[3]f64` vectors, with a zero vector as neutral element.
fn vec_plus(b: &mut Builder) -> AccOp {
    let t = Type::array(PF64, vec![Dim::Const(3)]);
    let lam = b.op_lambda(vec![t], |b, x, y| {
        vars(b.map(&[x[0], y[0]], |b, e| vec![b.add(e[0], e[1]).into()]))
    });
    let zero = b.replicate(Operand::i64(3), Operand::f64(0.0));
    AccOp {
        lam,
        neutral: vec![zero.into()],
    }
}

#[test]
fn array_rows_and_vector_operators() {
    let vec3 = Type::array(PF64, vec![Dim::Const(3)]);
    let mat = Type::array(PF64, vec![Dim::Ext, Dim::Const(3)]);
    Case {
        inputs: vec![ROWS],
        ret: vec![mat, vec3, arr(F64)],
        fused: Box::new(|b, p| {
            let scans = vec![vec_plus(b)];
            let reds = vec![Reduction {
                comm: true,
                op: vec_plus(b),
            }];
            screma(b, p, scans, reds, row_fn)
        }),
        separate: Box::new(|b, p| {
            let m = b.map(p, row_fn);
            let op = vec_plus(b);
            let mut out = scan_of(b, op, &m[..1]);
            let op = vec_plus(b);
            out.extend(reduce_of(b, true, op, &m[1..2]));
            out.push(m[2]);
            vars(out)
        }),
    }
    .check()
}

#[test]
fn empty_width_gives_neutral_elements_and_empty_arrays() {
    let case = reductions();
    let p = case.program();
    let args = case
        .inputs
        .iter()
        .map(|i| random(&mut StdRng::seed_from_u64(1), 0, i))
        .collect();
    let f64s = |xs: Vec<f64>| {
        Value::Array(ArrayValue {
            shape: vec![xs.len()],
            data: ArrayData::F64(xs),
        })
    };
    let f = |x: f64| Value::Scalar(Scalar::F64(x));
    assert_eq!(
        run(&p, "fused", args).unwrap(),
        vec![
            f64s(vec![]),
            f(f64::NEG_INFINITY),
            Value::Scalar(Scalar::I64(-1)),
            f(0.0),
            f(1.0),
            f(0.0),
            f(f64::NEG_INFINITY),
            Value::Array(ArrayValue {
                shape: vec![0],
                data: ArrayData::I64(vec![]),
            }),
        ]
    );
}
