//! Every run-time error is reported with its message and the span of the
//! statement that failed.

use parad_base::{FileId, IntType, PrimType, Span};
use parad_core::builder::Builder;
use parad_core::types::{F32, I64};
use parad_core::*;
use parad_interp::{run, RunError};
use parad_values::{ArrayData, ArrayValue, Scalar, Value};

const SPAN: Span = Span {
    file: FileId(0),
    start: 5,
    end: 9,
    frame: 0,
};
const PI64: PrimType = PrimType::Int(IntType::I64);

/// A program `main(xs: []i64, k: i64)` whose body `f` builds with the
/// statements it emits at `SPAN`.
fn prog(f: impl FnOnce(&mut Builder, VName, VName) -> Vec<Operand>) -> Program {
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("xs", Type::array(PI64, vec![Dim::Ext]));
    let k = pb.param("k", I64);
    let (xv, kv) = (xs.name, k.name);
    let mut ret = None;
    let fun = pb.function("main", vec![xs, k], vec![], |b| {
        b.set_span(SPAN);
        let r = f(b, xv, kv);
        ret = Some(
            r.iter()
                .map(|&o| b.type_of(o).erase_dims())
                .collect::<Vec<_>>(),
        );
        r
    });
    let mut p = pb.finish();
    p.funs[0].ret = ret.unwrap_or_default();
    let results = p.funs[0]
        .ret
        .iter()
        .map(|t| EntryType::of_type(t, false).unwrap())
        .collect();
    p.entries.push(EntryPoint {
        name: "main".into(),
        fun,
        params: vec![
            EntryType {
                elem: PI64,
                rank: 1,
                unique: false,
            },
            EntryType {
                elem: PI64,
                rank: 0,
                unique: false,
            },
        ],
        results,
    });
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    p
}

fn fail(p: &Program, xs: &[i64], k: i64) -> RunError {
    let xs = Value::Array(ArrayValue {
        shape: vec![xs.len()],
        data: ArrayData::I64(xs.to_vec()),
    });
    let e = run(p, "main", vec![xs, Value::Scalar(Scalar::I64(k))]).unwrap_err();
    assert_eq!(e.span, Some(SPAN), "{}", e.message);
    e
}

#[test]
fn index_out_of_bounds() {
    let p = prog(|b, xs, k| vec![b.index(xs, &[k.into()]).into()]);
    assert_eq!(
        fail(&p, &[1, 2, 3], 5).message,
        "Index [5] out of bounds for array of shape [3]"
    );
    assert_eq!(
        fail(&p, &[1, 2, 3], -1).message,
        "Index [-1] out of bounds for array of shape [3]"
    );
}

#[test]
fn slice_out_of_bounds() {
    let p = prog(|b, xs, k| {
        let s = DimIndex::Slice {
            start: Operand::i64(1),
            len: k.into(),
            stride: Operand::i64(1),
        };
        vec![b.slice(xs, vec![s]).into()]
    });
    assert_eq!(
        fail(&p, &[1, 2, 3], 3).message,
        "Index [1:4] out of bounds for array of shape [3]"
    );
    assert_eq!(
        fail(&p, &[1, 2, 3], -1).message,
        "Index [1:0] out of bounds for array of shape [3]"
    );
}

#[test]
fn update_out_of_bounds() {
    let p = prog(|b, xs, k| {
        let c = b.copy(xs);
        vec![b.update(c, &[k.into()], Operand::i64(0)).into()]
    });
    assert_eq!(
        fail(&p, &[1, 2], 2).message,
        "Index [2] out of bounds for array of shape [2]"
    );
}

#[test]
fn map_over_arrays_of_different_sizes() {
    let p = prog(|b, xs, k| {
        let ys = b.iota(k);
        let w = b.width(xs);
        let lam = b.lambda(vec![I64, I64], |b, p| vec![b.add(p[0], p[1]).into()]);
        vec![b.map_lambda(w, lam, vec![xs, ys])[0].into()]
    });
    assert_eq!(
        fail(&p, &[1, 2, 3], 2).message,
        "Sizes do not match: map of width 3 over an array of shape [2]"
    );
}

#[test]
fn reshape_to_wrong_size() {
    let p = prog(|b, xs, k| vec![b.unflatten(xs, k, k).into()]);
    assert_eq!(
        fail(&p, &[1, 2, 3, 4], -2).message,
        "Cannot unflatten array of shape [4] to shape [-2][-2]"
    );
    let p = prog(|b, xs, k| vec![b.reshape(xs, vec![k.into(), Operand::i64(2)]).into()]);
    assert_eq!(
        fail(&p, &[1, 2, 3], 2).message,
        "Cannot reshape array of shape [3] to shape [2][2]"
    );
}

#[test]
fn failed_assertion() {
    let p = prog(|b, _, k| {
        let c = b.cmp(CmpOp::Gt, k, Operand::i64(0));
        b.assert(c, "k must be positive");
        vec![k.into()]
    });
    assert_eq!(fail(&p, &[], 0).message, "k must be positive");
}

#[test]
fn integer_division_by_zero() {
    let p = prog(|b, _, k| vec![b.binop(BinOp::Mod, Operand::i64(7), k).into()]);
    assert_eq!(fail(&p, &[], 0).message, "division by zero");
}

#[test]
fn negative_sizes() {
    let p = prog(|b, _, k| vec![b.iota(k).into()]);
    assert_eq!(fail(&p, &[], -3).message, "Range 0..1..<-3 is invalid.");
    let p = prog(|b, _, k| vec![b.replicate(k, Operand::f32(1.0)).into()]);
    assert_eq!(
        fail(&p, &[], -1).message,
        "Cannot replicate with negative size -1"
    );
}

#[test]
fn error_inside_a_lambda_has_the_inner_span() {
    let p = prog(|b, xs, k| {
        let r = b.map(&[xs], |b, x| vec![b.div(x[0], k).into()]);
        vec![r[0].into()]
    });
    assert_eq!(fail(&p, &[1], 0).message, "division by zero");
}

#[test]
fn jvp_must_be_expanded_first() {
    let p = prog(|b, _, _| {
        let lam = b.lambda(vec![F32], |_, p| vec![p[0].into()]);
        let r = b.emit(Exp::Ad(AdOp::Jvp(Jvp {
            lam,
            primals: vec![Operand::f32(1.0)],
            tangents: vec![Operand::f32(1.0)],
        })));
        vec![r[0].into()]
    });
    assert!(fail(&p, &[], 0).message.contains("AD pass"));
}
