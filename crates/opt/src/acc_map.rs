//! Accumulators written once per element become maps.
//!
//! After the accumulator → reduction rewrite ([`crate::acc_red`]), the
//! adjoint of a matrix product is a `withacc` over an array of zeros whose
//! function is a map nest over `iota`s that updates each element exactly
//! once:
//!
//! ```text
//! withacc({[n][p], [replicate(n, replicate(p, 0))], +, 0},
//!   \acc -> map(n, [.., iota n, acc], \(.., i, acc) ->
//!             map(p, [.., iota p, acc], \(.., j, acc) ->
//!               let v = reduce (+) 0 …
//!               upd(acc, [i, j], [v]))))
//! ```
//!
//! Element `(i, j)` of the result is then `0 ⊕ v(i, j)`, and the nest is
//! a plain map producing `v`: no accumulator, no per-thread copies or
//! atomics, and a map-reduce nest the C backend's matrix-multiply kernel
//! recognises.
//!
//! Conditions (all checked; otherwise the statement stays):
//! - one accumulator input with one array, which is a `replicate` (at
//!   every level) of the operator's neutral element, and a function
//!   returning just the map nest's result;
//! - at each level, one map whose only result is the accumulator, with an
//!   input that is `iota(w, 0, 1)` of the map's width; the widths equal
//!   the accumulator's shape (the same operand, or sizes asserted equal);
//! - innermost, one `upd` at exactly those iota elements, outermost
//!   first, the accumulator used nowhere else, so that each element is
//!   updated exactly once;
//! - `neutral ⊕ v = v` bit for bit: an integer `+` with 0, or a float `+`
//!   with +0 where `v` is itself a `+`-reduction from +0 (which is never
//!   −0, the one value for which `0 + v ≠ v`).

use parad_base::{PrimType, Scalar};
use parad_core::walk;
use parad_core::*;
use rustc_hash::FxHashMap;

/// Rewrites every matching `withacc` of `prog`.
pub fn acc_map_program(prog: &mut Program) {
    for f in &mut prog.funs {
        let facts = Facts::of(&f.body);
        walk::rewrite_stms(&mut f.body, &mut |s, out| match rewrite(&s, &facts) {
            Some(new) => out.extend(new),
            None => out.push(s),
        });
    }
}

/// What is known about the names of a function (they are unique).
#[derive(Default)]
struct Facts {
    defs: FxHashMap<VName, Exp>,
    /// Sizes asserted equal: each name's representative.
    same: FxHashMap<VName, VName>,
}

impl Facts {
    fn of(body: &Body) -> Facts {
        let mut f = Facts::default();
        let mut eqs = vec![];
        walk::body_stms(body, |s| {
            if let [p] = s.pat.as_slice() {
                f.defs.insert(p.name, s.exp.clone());
            }
            if let Exp::Basic(BasicOp::Assert {
                cond: Operand::Var(c),
                ..
            }) = &s.exp
            {
                eqs.push(*c);
            }
        });
        for c in eqs {
            if let Some(Exp::Basic(BasicOp::Cmp(
                CmpOp::Eq,
                PrimType::Int(_),
                Operand::Var(a),
                Operand::Var(b),
            ))) = f.defs.get(&c)
            {
                let (ra, rb) = (f.root(*a), f.root(*b));
                if ra != rb {
                    f.same.insert(ra, rb);
                }
            }
        }
        f
    }

    fn root(&self, mut v: VName) -> VName {
        while let Some(&n) = self.same.get(&v) {
            v = n;
        }
        v
    }

    fn equal(&self, a: Operand, b: Operand) -> bool {
        match (a, b) {
            (Operand::Var(x), Operand::Var(y)) => self.root(x) == self.root(y),
            _ => a == b,
        }
    }

    /// Whether `v` is `replicate`s (at any depth) of the constant `c`.
    fn replicates(&self, v: VName, c: Operand) -> bool {
        match self.defs.get(&v) {
            Some(Exp::Basic(BasicOp::Replicate { value, .. })) => match value {
                Operand::Var(inner) => self.replicates(*inner, c),
                k => *k == c,
            },
            _ => false,
        }
    }

    /// Whether `v` is `iota(w, 0, 1)` with `w` equal to `width`.
    fn iota_of(&self, v: VName, width: Operand) -> bool {
        matches!(self.defs.get(&v), Some(Exp::Basic(BasicOp::Iota { n, start, step, .. }))
            if self.equal(*n, width) && is_int(*start, 0) && is_int(*step, 1))
    }
}

fn is_int(o: Operand, k: i64) -> bool {
    matches!(o, Operand::Const(s) if int_value(s) == Some(k as i128))
}

fn int_value(s: Scalar) -> Option<i128> {
    Some(match s {
        Scalar::I8(x) => x.into(),
        Scalar::I16(x) => x.into(),
        Scalar::I32(x) => x.into(),
        Scalar::I64(x) => x.into(),
        Scalar::U8(x) => x.into(),
        Scalar::U16(x) => x.into(),
        Scalar::U32(x) => x.into(),
        Scalar::U64(x) => x.into(),
        _ => return None,
    })
}

/// Whether `s` uses `v` (at any depth).
fn mentions(s: &Stm, v: VName) -> bool {
    let mut hit = false;
    parad_core::free::stm_uses(s, &mut |u| hit |= u == v);
    hit
}

/// The operator's binary operation if it is `x ⊕ y` of its two parameters
/// (in either order).
fn binop_of(op: &AccOp) -> Option<(BinOp, PrimType)> {
    let l = &op.lam;
    let ([x, y], [st], [Operand::Var(r)]) = (
        l.params.as_slice(),
        l.body.stms.as_slice(),
        l.body.result.as_slice(),
    ) else {
        return None;
    };
    match (&st.exp, st.pat.as_slice()) {
        (Exp::Basic(BasicOp::BinOp(b, t, Operand::Var(a), Operand::Var(c))), [p])
            if p.name == *r
                && ((*a == x.name && *c == y.name) || (*a == y.name && *c == x.name)) =>
        {
            Some((*b, *t))
        }
        _ => None,
    }
}

/// Whether `neutral ⊕ v` is exactly `v` (see the module documentation).
fn absorbs(op: &AccOp, v: Operand, facts: &Facts) -> bool {
    let Some((BinOp::Add, t)) = binop_of(op) else {
        return false;
    };
    let [Operand::Const(n)] = op.neutral.as_slice() else {
        return false;
    };
    match t {
        PrimType::Int(_) => int_value(*n) == Some(0),
        PrimType::Float(_) => {
            let positive_zero = matches!(n, Scalar::F64(z) if z.to_bits() == 0)
                || matches!(n, Scalar::F32(z) if z.to_bits() == 0);
            let Operand::Var(v) = v else { return false };
            positive_zero
                && match facts.defs.get(&v) {
                    Some(Exp::Soac(Soac::Screma(sc))) => {
                        sc.scans.is_empty()
                            && matches!(sc.reds.as_slice(), [r] if r.op.neutral == op.neutral
                                && binop_of(&r.op) == Some((BinOp::Add, t)))
                            && sc.lam.ret.len() == 1
                    }
                    Some(Exp::Soac(Soac::Reduce(r))) => {
                        r.op.neutral == op.neutral && binop_of(&r.op) == Some((BinOp::Add, t))
                    }
                    _ => false,
                }
        }
        _ => false,
    }
}

fn rewrite(s: &Stm, facts: &Facts) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::WithAcc(wa)) = &s.exp else {
        return None;
    };
    let ([input], [acc_param], [Operand::Var(res)], [pat]) = (
        wa.inputs.as_slice(),
        wa.lam.params.as_slice(),
        wa.lam.body.result.as_slice(),
        s.pat.as_slice(),
    ) else {
        return None;
    };
    let (Some(op), [arr]) = (&input.op, input.arrs.as_slice()) else {
        return None;
    };
    let [neutral] = op.neutral.as_slice() else {
        return None;
    };
    if !facts.replicates(*arr, *neutral) {
        return None;
    }
    let elem = pat.ty.elem()?;
    // The map nest is the statement binding the function's result; the
    // accumulator parameter is used by it alone.
    let body = &wa.lam.body;
    let at = body
        .stms
        .iter()
        .position(|st| st.pat.iter().any(|p| p.name == *res))?;
    let uses = body
        .stms
        .iter()
        .filter(|st| mentions(st, acc_param.name))
        .count();
    if uses != 1 {
        return None;
    }
    let map = unwrap_nest(
        &body.stms[at],
        acc_param.name,
        &input.ispace,
        &[],
        op,
        facts,
        elem,
    )?;
    let mut out: Vec<Stm> = body.stms[..at].to_vec();
    let mut map_stm = map;
    map_stm.pat = vec![pat.clone()];
    out.push(map_stm);
    Some(out)
}

/// The map nest at `s` (a map over `acc`, at depth `outer.len()` of the
/// accumulator's `ispace`) without its accumulator: the maps return the
/// updated values instead. `outer` are the iota parameters of the
/// enclosing levels, outermost first.
fn unwrap_nest(
    s: &Stm,
    acc: VName,
    ispace: &[Operand],
    outer: &[VName],
    op: &AccOp,
    facts: &Facts,
    elem: PrimType,
) -> Option<Stm> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let depth = outer.len();
    let width = *ispace.get(depth)?;
    if !facts.equal(m.w, width) || m.lam.body.result.len() != 1 || s.pat.len() != 1 {
        return None;
    }
    let acc_pos = m.arrs.iter().position(|a| *a == acc)?;
    if m.arrs.iter().filter(|a| **a == acc).count() != 1 {
        return None;
    }
    let inner_acc = m.lam.params[acc_pos].name;
    let iota_pos = m.arrs.iter().position(|a| facts.iota_of(*a, m.w))?;
    let i = m.lam.params[iota_pos].name;
    let mut idx = outer.to_vec();
    idx.push(i);
    let b = &m.lam.body;
    let Operand::Var(r) = b.result[0] else {
        return None;
    };
    let at = b
        .stms
        .iter()
        .position(|st| st.pat.iter().any(|p| p.name == r))?;
    let mentions = b.stms.iter().filter(|st| mentions(st, inner_acc)).count();
    if mentions != 1 {
        return None;
    }
    let mut stms = b.stms.clone();
    let (result, ret) = match &b.stms[at].exp {
        Exp::Basic(BasicOp::Upd { acc: a, inds, vals }) if *a == inner_acc => {
            let want: Vec<Operand> = idx.iter().map(|v| Operand::Var(*v)).collect();
            if depth + 1 != ispace.len() || *inds != want {
                return None;
            }
            let [v] = vals.as_slice() else { return None };
            if !absorbs(op, *v, facts) {
                return None;
            }
            stms.remove(at);
            (*v, Type::Prim(elem))
        }
        Exp::Soac(Soac::Map(_)) => {
            let inner = unwrap_nest(&b.stms[at], inner_acc, ispace, &idx, op, facts, elem)?;
            let ty = inner.pat[0].ty.clone();
            stms[at] = inner;
            (Operand::Var(r), ty)
        }
        _ => return None,
    };
    let mut params = m.lam.params.clone();
    params.remove(acc_pos);
    let mut arrs = m.arrs.clone();
    arrs.remove(acc_pos);
    let dim = match m.w {
        Operand::Var(v) => Dim::Var(v),
        Operand::Const(c) => int_value(c)
            .and_then(|k| i64::try_from(k).ok())
            .map_or(Dim::Ext, Dim::Const),
    };
    let pat_ty = ret.array_of(dim)?;
    let new_map = Map {
        w: m.w,
        lam: Lambda {
            params,
            ret: vec![ret],
            body: Body::new(stms, vec![result]),
        },
        arrs,
    };
    Some(Stm {
        pat: vec![Param::new(s.pat[0].name, pat_ty)],
        exp: new_map.into(),
        span: s.span,
        attrs: s.attrs.clone(),
    })
}
