//! Array operations, accumulators, and sharing.

use parad_base::{IntType, PrimType};
use parad_core::types::I64;
use parad_core::*;
use parad_interp::Interp;
use parad_values::{ArrayData, ArrayValue, Scalar, Value};

const PI64: PrimType = PrimType::Int(IntType::I64);

fn arr(shape: &[usize], xs: &[i64]) -> Value {
    Value::Array(ArrayValue {
        shape: shape.to_vec(),
        data: ArrayData::I64(xs.to_vec()),
    })
}

/// Runs a one-argument function `main(xs: [..]i64)` built by `f`,
/// returning its results and the number of array copies made.
fn eval(
    rank: usize,
    xs: Value,
    f: impl FnOnce(&mut builder::Builder, VName) -> Vec<Operand>,
) -> (Vec<Value>, u64) {
    let mut pb = ProgramBuilder::new();
    let p = pb.param("xs", Type::array(PI64, vec![Dim::Ext; rank]));
    let xv = p.name;
    let mut ret = vec![];
    let fun = pb.function("main", vec![p], vec![], |b| {
        let r = f(b, xv);
        ret = r.iter().map(|&o| b.type_of(o).erase_dims()).collect();
        r
    });
    let mut prog = pb.finish();
    prog.funs[0].ret = ret;
    let results = prog.funs[0]
        .ret
        .iter()
        .map(|t| EntryType::of_type(t, false).unwrap())
        .collect();
    prog.entries.push(EntryPoint {
        name: "main".into(),
        fun,
        params: vec![EntryType {
            elem: PI64,
            rank,
            unique: false,
        }],
        results,
    });
    check_program(&prog).unwrap_or_else(|e| panic!("{e}\n{prog}"));
    let mut it = Interp::new(&prog);
    let r = it
        .run_entry(&prog, "main", vec![xs])
        .unwrap_or_else(|e| panic!("{e}\n{prog}"));
    (r, it.copy_count())
}

#[test]
fn transpose_concat_reverse_rotate() {
    let m = arr(&[2, 3], &[1, 2, 3, 4, 5, 6]);
    let (r, _) = eval(2, m.clone(), |b, xs| vec![b.transpose(xs).into()]);
    assert_eq!(r, vec![arr(&[3, 2], &[1, 4, 2, 5, 3, 6])]);
    let (r, _) = eval(2, m.clone(), |b, xs| vec![b.concat(vec![xs, xs]).into()]);
    assert_eq!(r, vec![arr(&[4, 3], &[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6])]);
    let (r, _) = eval(2, m.clone(), |b, xs| vec![b.reverse(xs).into()]);
    assert_eq!(r, vec![arr(&[2, 3], &[4, 5, 6, 1, 2, 3])]);
    let (r, _) = eval(1, arr(&[4], &[1, 2, 3, 4]), |b, xs| {
        vec![b.rotate(Operand::i64(-1), xs).into()]
    });
    assert_eq!(r, vec![arr(&[4], &[4, 1, 2, 3])]);
    let (r, _) = eval(2, m.clone(), |b, xs| vec![b.flatten(xs).into()]);
    assert_eq!(r, vec![arr(&[6], &[1, 2, 3, 4, 5, 6])]);
    let (r, _) = eval(2, m, |b, xs| {
        let col = DimIndex::Slice {
            start: Operand::i64(2),
            len: Operand::i64(3),
            stride: Operand::i64(-1),
        };
        vec![b
            .slice(xs, vec![DimIndex::Fix(Operand::i64(1)), col])
            .into()]
    });
    assert_eq!(r, vec![arr(&[3], &[6, 5, 4])]);
}

#[test]
fn update_of_a_row_and_replicate_of_an_array() {
    let m = arr(&[2, 2], &[1, 2, 3, 4]);
    let (r, copies) = eval(2, m, |b, xs| {
        let row = b.iota(Operand::i64(2));
        let c = b.copy(xs);
        let u = b.update(c, &[Operand::i64(0)], row);
        let rep = b.replicate(Operand::i64(2), row);
        vec![u.into(), rep.into()]
    });
    assert_eq!(
        r,
        vec![arr(&[2, 2], &[0, 1, 3, 4]), arr(&[2, 2], &[0, 1, 0, 1])]
    );
    assert_eq!(copies, 1);
}

#[test]
fn loop_over_a_shared_array_copies_once() {
    // `xs` stays alive after the loop, so the loop starts from a copy (a
    // use after consumption is ill-formed, `parad_core::consume`); the
    // updates are in place.
    let (r, copies) = eval(1, arr(&[3], &[5, 5, 5]), |b, xs| {
        let n = b.width(xs);
        let own = b.copy(xs);
        let out = b.loop_for(&[own.into()], n, |b, i, p| {
            vec![b.update(p[0], &[i.into()], i).into()]
        });
        vec![out[0].into(), xs.into()]
    });
    assert_eq!(r, vec![arr(&[3], &[0, 1, 2]), arr(&[3], &[5, 5, 5])]);
    assert_eq!(copies, 1);
}

#[test]
fn withacc_and_upd_accumulate_in_place() {
    // Adds 1 at the index given by each element, through an accumulator
    // threaded through a map.
    let (r, copies) = eval(1, arr(&[5], &[0, 2, 2, 9, -1]), |b, is| {
        let dest = b.replicate(Operand::i64(3), Operand::i64(0));
        let plus = b.binop_lambda(BinOp::Add, vec![I64]);
        let input = AccInput {
            ispace: vec![Operand::i64(3)],
            arrs: vec![dest],
            op: Some(AccOp {
                lam: plus,
                neutral: vec![Operand::i64(0)],
            }),
        };
        let res = b.withacc(vec![input], |b, accs| {
            let out = b.map(&[is, accs[0]], |b, p| {
                vec![b.upd(p[1], vec![p[0].into()], vec![Operand::i64(1)]).into()]
            });
            vec![out[0].into()]
        });
        vec![res[0].into()]
    });
    assert_eq!(r, vec![arr(&[3], &[1, 0, 2])]);
    assert_eq!(copies, 0);
}

#[test]
fn two_dimensional_scatter() {
    let (r, _) = eval(1, arr(&[3], &[0, 1, 5]), |b, is| {
        let dest = b.scratch(PI64, vec![Operand::i64(2), Operand::i64(2)]);
        let vs = b.map(&[is], |b, x| vec![b.add(x[0], Operand::i64(10)).into()]);
        let w = b.width(is);
        let d = ScatterDest {
            arr: dest,
            inds: vec![is, is],
            vals: vs[0],
        };
        vec![b
            .emit1(Exp::Soac(Soac::Scatter(Scatter { w, dests: vec![d] })))
            .into()]
    });
    assert_eq!(r, vec![arr(&[2, 2], &[10, 0, 0, 11])]);
}

#[test]
fn size_and_iota_with_stride() {
    let (r, _) = eval(2, arr(&[2, 3], &[0; 6]), |b, xs| {
        let n = b.size(xs, 1);
        let io = b.emit1(Exp::Basic(BasicOp::Iota {
            n: n.into(),
            start: Operand::i64(10),
            step: Operand::i64(-2),
            it: IntType::I64,
        }));
        vec![io.into()]
    });
    assert_eq!(r, vec![arr(&[3], &[10, 8, 6])]);
    let _ = Scalar::I64(0);
}

/// A strided slice of a transposition of a reversal, reversed again:
/// every view composes its index function with its operand's.
fn nested_views(b: &mut builder::Builder, xs: VName) -> VName {
    let rev = b.reverse(xs);
    let t = b.transpose(rev);
    let every_other = DimIndex::Slice {
        start: Operand::i64(3),
        len: Operand::i64(2),
        stride: Operand::i64(-2),
    };
    let all = DimIndex::Slice {
        start: Operand::i64(0),
        len: Operand::i64(3),
        stride: Operand::i64(1),
    };
    let s = b.slice(t, vec![every_other, all]);
    b.reverse(s)
}

#[test]
fn views_of_views() {
    let m = arr(&[3, 4], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    let (r, copies) = eval(2, m.clone(), |b, xs| {
        let v = nested_views(b, xs);
        let row = b.index(v, &[Operand::i64(1)]);
        let x = b.index(v, &[Operand::i64(1), Operand::i64(2)]);
        let flat = b.flatten(v);
        vec![v.into(), row.into(), x.into(), flat.into(), xs.into()]
    });
    assert_eq!(
        r,
        vec![
            arr(&[2, 3], &[10, 6, 2, 12, 8, 4]),
            arr(&[3], &[12, 8, 4]),
            Value::Scalar(Scalar::I64(4)),
            arr(&[6], &[10, 6, 2, 12, 8, 4]),
            arr(&[3, 4], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
        ]
    );
    assert_eq!(copies, 0);
    // An update of a view writes to a copy of its elements.
    let (r, copies) = eval(2, m, |b, xs| {
        let own = b.copy(xs);
        let v = nested_views(b, own);
        let u = b.update(v, &[Operand::i64(0), Operand::i64(2)], Operand::i64(0));
        vec![u.into(), xs.into()]
    });
    assert_eq!(
        r,
        vec![
            arr(&[2, 3], &[10, 6, 0, 12, 8, 4]),
            arr(&[3, 4], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
        ]
    );
    assert_eq!(copies, 2);
}

#[test]
fn empty_and_out_of_bounds_views() {
    let xs = arr(&[3], &[1, 2, 3]);
    let (r, _) = eval(1, xs.clone(), |b, xs| {
        let empty = DimIndex::Slice {
            start: Operand::i64(3),
            len: Operand::i64(0),
            stride: Operand::i64(-1),
        };
        let e = b.slice(xs, vec![empty]);
        let re = b.reverse(e);
        vec![re.into()]
    });
    assert_eq!(r, vec![arr(&[0], &[])]);
}

/// The number of elements of the big array in `views_cost_no_memory`.
const BIG: usize = 8 << 20;

/// Sums `reverse xs` and `xs[BIG-1::-2]` for an `xs` of `BIG` i64s
/// (64 MiB); run by `views_cost_no_memory` with little room to spare.
#[test]
#[ignore = "run by views_cost_no_memory under a memory limit"]
fn sum_of_views_of_a_big_array() {
    let xs = Value::Array(ArrayValue {
        shape: vec![BIG],
        data: ArrayData::I64((0..BIG as i64).collect()),
    });
    let (r, _) = eval(1, xs, |b, xs| {
        let rev = b.reverse(xs);
        let every_other = DimIndex::Slice {
            start: Operand::i64(BIG as i64 - 1),
            len: Operand::i64(BIG as i64 / 2),
            stride: Operand::i64(-2),
        };
        let odd = b.slice(xs, vec![every_other]);
        let s = b.reduce_op(BinOp::Add, &[rev], vec![Operand::i64(0)]);
        let t = b.reduce_op(BinOp::Add, &[odd], vec![Operand::i64(0)]);
        vec![s[0].into(), t[0].into()]
    });
    let n = BIG as i64;
    let half = n / 2;
    assert_eq!(
        r,
        vec![
            Value::Scalar(Scalar::I64(n * (n - 1) / 2)),
            Value::Scalar(Scalar::I64(half * half)),
        ]
    );
}

/// A reversal or a strided slice is a view of its operand's elements,
/// which costs no memory per element (where a vector of offsets, or a
/// copy, would not fit in the address space allowed).
#[test]
fn views_cost_no_memory() {
    let exe = std::env::current_exe().unwrap();
    // Room for the program and the array (64 MiB), with 100 MiB to
    // spare: not enough for a vector of 8-byte offsets per element and a
    // copy of the elements (128 MiB for the reversal).
    let limit_kib = 100 * 1024 + BIG * 8 / 1024;
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {limit_kib} && exec \"$0\" --exact sum_of_views_of_a_big_array \
             --ignored --test-threads=1"
        ))
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
