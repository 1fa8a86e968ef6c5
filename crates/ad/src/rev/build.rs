//! IR-building helpers shared by the reverse-mode rules: constants,
//! scalar selects, zeros, elementwise addition, bounds tests, exclusive
//! scans and inlined operator calls.

use parad_base::{IntType, PrimType};
use parad_core::pexp::{le, lt};
use parad_core::rename::Renamer;
use parad_core::subst::Subst;
use parad_core::types::{BOOL, I64};
use parad_core::*;
use rustc_hash::FxHashSet;

pub use crate::linear::{is_diff, is_float, select, zero_elem, zeros_like};

pub fn prim(b: &Builder, o: impl Into<Operand>) -> PrimType {
    let o = o.into();
    b.type_of(o)
        .as_prim()
        .unwrap_or_else(|| panic!("rev: {o} is not a scalar"))
}

/// `if` with declared result types `ret` (callers pass types that are in
/// scope outside the branches).
pub fn if_(
    b: &mut Builder,
    c: impl Into<Operand>,
    ret: Vec<Type>,
    then_f: impl FnOnce(&mut Builder) -> Vec<Operand>,
    else_f: impl FnOnce(&mut Builder) -> Vec<Operand>,
) -> Vec<VName> {
    let then_br = b.body(then_f);
    let else_br = b.body(else_f);
    b.emit(Exp::If(If {
        cond: c.into(),
        then_br,
        else_br,
        ret,
    }))
}

/// `map f arrs` of width `w`.
pub fn map(
    b: &mut Builder,
    w: Operand,
    arrs: &[VName],
    f: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
) -> Vec<VName> {
    b.map_w(w, arrs, f)
}

/// Elementwise adjoint addition `x + y` for scalars and arrays of any
/// rank (`||` on booleans).
pub fn add_values(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    let t = b.type_of(x);
    if t.rank() == 0 {
        return crate::linear::add(b, x, y);
    }
    let (Operand::Var(xv), Operand::Var(yv)) = (x, y) else {
        panic!("rev: array operands must be variables")
    };
    let w = b.width(xv);
    map(b, w, &[xv, yv], |b, r| {
        vec![add_values(b, r[0].into(), r[1].into())]
    })[0]
        .into()
}

/// `x * s` for an array or scalar `x` and a scalar `s`.
pub fn scale(b: &mut Builder, x: Operand, s: Operand) -> Operand {
    let t = b.type_of(x);
    if t.rank() == 0 {
        return crate::linear::mul(b, x, s);
    }
    let xv = x.var().expect("rev: array operand");
    let w = b.width(xv);
    map(b, w, &[xv], |b, r| vec![scale(b, r[0].into(), s)])[0].into()
}

/// The elementwise sum of the rows of `arr` (zeros of the row type when
/// `arr` is empty).
pub fn sum_rows(b: &mut Builder, arr: VName) -> Operand {
    let w = b.width(arr);
    let ne = zeros_row(b, arr);
    let op = plus_op(b, ne);
    b.emit1(Reduce {
        w,
        comm: true,
        op,
        arrs: vec![arr],
    })
    .into()
}

/// The adjoint `+` (see [`add_values`]) on values shaped like `zero`,
/// with `zero` as its neutral element.
pub fn plus_op(b: &mut Builder, zero: Operand) -> AccOp {
    let tys = vec![b.type_of(zero)];
    let lam = b.op_lambda(tys, |b, x, y| vec![add_values(b, x[0].into(), y[0].into())]);
    AccOp {
        lam,
        neutral: vec![zero],
    }
}

/// Zeros shaped like one row of `arr`.
pub fn zeros_row(b: &mut Builder, arr: VName) -> Operand {
    zero_elem(b, arr, 1)
}

/// `0 <= i < n` for `i64` operands.
pub fn in_bounds(b: &mut Builder, i: Operand, n: Operand) -> VName {
    let ok = b.expr(le(0, i) & lt(i, n));
    ok.var().expect("a comparison")
}

/// Whether the indices `inds` of the outer dimensions of `arr` are all in
/// bounds (`true` for no indices).
pub fn all_in_bounds(b: &mut Builder, arr: VName, inds: &[Operand]) -> Operand {
    let mut ok: Option<VName> = None;
    for (k, &i) in inds.iter().enumerate() {
        let n = b.dim(arr, k);
        let c = in_bounds(b, i, n);
        ok = Some(match ok {
            None => c,
            Some(p) => b.binop(BinOp::And, p, c),
        });
    }
    ok.map_or(Operand::bool(true), Operand::Var)
}

/// Inlines a copy of `lam` applied to `args`; returns its results.
pub fn apply_lambda(b: &mut Builder, lam: &Lambda, args: &[Operand]) -> Vec<Operand> {
    let mut subst = Subst::default();
    for (p, &a) in lam.params.iter().zip(args) {
        let ty = subst.ty(&p.ty);
        let v = b.bind_as(&p.name.base.to_string(), Exp::Basic(BasicOp::Atom(a)), ty);
        subst.set(p.name, v);
    }
    let body = Renamer {
        ctx: b.ctx,
        subst: &mut subst,
    }
    .body(&lam.body);
    for s in body.stms {
        b.add_stm(s);
    }
    body.result
}

/// Exclusive scan of `arrs` with operator `op` (inclusive scan, then a
/// shift by one that puts the neutral elements first).
pub fn scan_exclusive(b: &mut Builder, w: Operand, op: &AccOp, arrs: &[VName]) -> Vec<VName> {
    let op = rename_op(b, op, &op.neutral);
    let inc = b.emit_as(
        "scan",
        Exp::Soac(Soac::Scan(Scan {
            w,
            op: op.clone(),
            arrs: arrs.to_vec(),
        })),
    );
    let is = b.iota(w);
    let ret: Vec<Type> = inc
        .iter()
        .map(|&v| b.type_of(v).row().expect("row"))
        .collect();
    let ne = op.neutral.clone();
    map(b, w, &[is], |b, i| {
        let first = b.cmp(CmpOp::Eq, i[0], Operand::i64(0));
        let inc = inc.clone();
        let i0 = i[0];
        if_(
            b,
            first,
            ret,
            |_| ne,
            |b| {
                let j = b.sub(i0, Operand::i64(1));
                inc.iter()
                    .map(|&a| b.index(a, &[j.into()]).into())
                    .collect()
            },
        )
        .into_iter()
        .map(Operand::Var)
        .collect()
    })
}

pub fn i64_of(b: &mut Builder, o: Operand) -> Operand {
    match b.type_of(o) {
        t if t == I64 => o,
        _ => b.cast(PrimType::Int(IntType::I64), o).into(),
    }
}

pub fn not(b: &mut Builder, c: Operand) -> VName {
    debug_assert_eq!(b.type_of(c), BOOL);
    b.unop(UnOp::Not, c)
}

/// A renamed copy of operator `op` with neutral elements `ne` (an
/// operator copied into new IR must not rebind the original's names).
pub fn rename_op(b: &mut Builder, op: &AccOp, ne: &[Operand]) -> AccOp {
    let mut sub = Subst::default();
    let lam = Renamer {
        ctx: b.ctx,
        subst: &mut sub,
    }
    .lambda(&op.lam);
    AccOp {
        lam,
        neutral: ne.to_vec(),
    }
}

/// The statements of `body` that its results depend on, in order, less
/// reads of sizes and renamings (see [`unalias`]): what is left of an operator once its size checks
/// (assertions, which the primal computation performs anyway) and shape
/// bookkeeping are set aside. Used to recognise special operators.
pub fn essential_stms(body: &Body) -> Vec<&Stm> {
    let mut live: FxHashSet<VName> = body.result.iter().filter_map(|o| o.var()).collect();
    let mut keep = vec![];
    for s in body.stms.iter().rev() {
        if s.pat.iter().any(|p| live.contains(&p.name)) {
            parad_core::free::exp_uses(&s.exp, &mut |v| {
                live.insert(v);
            });
            keep.push(s);
        }
    }
    keep.reverse();
    keep.retain(|s| {
        !matches!(
            s.exp,
            Exp::Basic(BasicOp::Size { .. }) | Exp::Basic(BasicOp::Atom(Operand::Var(_)))
        )
    });
    keep
}

/// `v` with the renamings `let v = w` of `body` followed back.
pub fn unalias(body: &Body, mut v: VName) -> VName {
    while let Some(w) = body.stms.iter().find_map(|s| match s.exp {
        Exp::Basic(BasicOp::Atom(Operand::Var(w))) if s.pat[0].name == v => Some(w),
        _ => None,
    }) {
        v = w;
    }
    v
}
