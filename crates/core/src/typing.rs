//! Result types of expressions, computed from the types of the variables
//! they use. This does not validate operands (that is `check`'s job); it
//! fails only when a result type cannot be formed at all.

use crate::ir::*;
use crate::names::{Symbol, VName};
use crate::types::{Dim, Type, BOOL, I64};
use parad_base::PrimType;

/// What type inference needs to know about its surroundings.
pub trait TypeEnv {
    fn var_type(&self, v: VName) -> Option<Type>;
    fn fun_ret(&self, f: Symbol) -> Option<Vec<Type>>;
}

pub fn operand_type(env: &dyn TypeEnv, o: &Operand) -> Result<Type, String> {
    match o {
        Operand::Const(s) => Ok(Type::Prim(s.prim_type())),
        Operand::Var(v) => env
            .var_type(*v)
            .ok_or_else(|| format!("unknown variable {v}")),
    }
}

fn array_type(env: &dyn TypeEnv, v: VName) -> Result<(PrimType, Vec<Dim>), String> {
    match env.var_type(v) {
        Some(Type::Array { elem, shape }) => Ok((elem, shape)),
        Some(t) => Err(format!("{v} has type {t}, expected an array")),
        None => Err(format!("unknown variable {v}")),
    }
}

/// The type of `arr[slice]`.
pub fn index_type(env: &dyn TypeEnv, arr: VName, slice: &[DimIndex]) -> Result<Type, String> {
    let (elem, shape) = array_type(env, arr)?;
    if slice.len() > shape.len() {
        return Err(format!(
            "{} indices for {arr} of rank {}",
            slice.len(),
            shape.len()
        ));
    }
    let mut out = vec![];
    for d in slice {
        if let DimIndex::Slice { len, .. } = d {
            out.push(Dim::from_operand(len));
        }
    }
    out.extend_from_slice(&shape[slice.len()..]);
    Ok(Type::array(elem, out))
}

fn prod(a: Dim, b: Dim) -> Dim {
    match (a, b) {
        (Dim::Const(x), Dim::Const(y)) => Dim::Const(x.wrapping_mul(y)),
        _ => Dim::Ext,
    }
}

/// The types of the values `e` produces.
pub fn result_types(env: &dyn TypeEnv, e: &Exp) -> Result<Vec<Type>, String> {
    match e {
        Exp::Basic(b) => basic_types(env, b),
        Exp::Apply(Apply { fun, .. }) => env
            .fun_ret(*fun)
            .ok_or_else(|| format!("unknown function {fun}")),
        Exp::If(If { ret, .. }) => Ok(ret.clone()),
        Exp::Loop(Loop { params, .. }) => Ok(params.iter().map(|(p, _)| p.ty.clone()).collect()),
        Exp::Soac(s) => soac_types(env, s),
        Exp::Ad(AdOp::Jvp(Jvp { lam, .. })) => {
            Ok(lam.ret.iter().chain(&lam.ret).cloned().collect())
        }
        Exp::Ad(AdOp::WithVjp(WithVjp { lam, .. })) => Ok(lam.ret.clone()),
        Exp::Ad(AdOp::Vjp(Vjp { lam, .. })) => Ok(lam
            .ret
            .iter()
            .cloned()
            .chain(lam.params.iter().map(|p| p.ty.clone()))
            .collect()),
    }
}

fn basic_types(env: &dyn TypeEnv, e: &BasicOp) -> Result<Vec<Type>, String> {
    let one = |t: Type| Ok(vec![t]);
    match e {
        BasicOp::Atom(o) => one(operand_type(env, o)?),
        BasicOp::UnOp(op, t, _) => match op.result_type(*t) {
            Some(r) => one(Type::Prim(r)),
            None => Err(format!("{op} is not defined on {t}")),
        },
        BasicOp::BinOp(_, t, ..) | BasicOp::TernOp(_, t, ..) => one(Type::Prim(*t)),
        BasicOp::Cmp(..) => one(BOOL),
        BasicOp::Conv(_, _, to, _) => one(Type::Prim(*to)),
        BasicOp::Index { arr, slice } => one(index_type(env, *arr, slice)?),
        BasicOp::Update { arr, .. }
        | BasicOp::Copy { arr }
        | BasicOp::Reverse { arr }
        | BasicOp::Rotate { arr, .. } => {
            let (elem, shape) = array_type(env, *arr)?;
            one(Type::array(elem, shape))
        }
        BasicOp::Reshape { arr, shape } => {
            let (elem, _) = array_type(env, *arr)?;
            one(Type::array(
                elem,
                shape.iter().map(Dim::from_operand).collect(),
            ))
        }
        BasicOp::Flatten { arr } => {
            let (elem, shape) = array_type(env, *arr)?;
            if shape.len() < 2 {
                return Err(format!("cannot flatten {arr} of rank {}", shape.len()));
            }
            let mut out = vec![prod(shape[0], shape[1])];
            out.extend_from_slice(&shape[2..]);
            one(Type::array(elem, out))
        }
        BasicOp::Unflatten { arr, n, m } => {
            let (elem, shape) = array_type(env, *arr)?;
            let mut out = vec![Dim::from_operand(n), Dim::from_operand(m)];
            out.extend_from_slice(&shape[1..]);
            one(Type::array(elem, out))
        }
        BasicOp::Rearrange { arr, perm } => {
            let (elem, shape) = array_type(env, *arr)?;
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            if sorted != (0..shape.len()).collect::<Vec<_>>() {
                return Err(format!(
                    "{perm:?} is not a permutation of the dimensions of {arr}"
                ));
            }
            one(Type::array(elem, perm.iter().map(|&i| shape[i]).collect()))
        }
        BasicOp::Iota { n, it, .. } => {
            one(Type::array(PrimType::Int(*it), vec![Dim::from_operand(n)]))
        }
        BasicOp::Replicate { n, value } => {
            let t = operand_type(env, value)?;
            t.array_of(Dim::from_operand(n))
                .map(|t| vec![t])
                .ok_or_else(|| "cannot replicate an accumulator".to_string())
        }
        BasicOp::Scratch { elem, shape } => one(Type::array(
            *elem,
            shape.iter().map(Dim::from_operand).collect(),
        )),
        BasicOp::Concat { arrs } => {
            let first = arrs.first().ok_or("concat of no arrays")?;
            let (elem, mut shape) = array_type(env, *first)?;
            let mut outer = Some(0i64);
            for a in arrs {
                let (_, s) = array_type(env, *a)?;
                outer = match (outer, s[0]) {
                    (Some(x), Dim::Const(y)) => Some(x.wrapping_add(y)),
                    _ => None,
                };
            }
            shape[0] = outer.map_or(Dim::Ext, Dim::Const);
            one(Type::array(elem, shape))
        }
        BasicOp::Size { .. } | BasicOp::UserParam { .. } => one(I64),
        BasicOp::Assert { .. } => Ok(vec![]),
        BasicOp::Upd { acc, .. } => one(operand_type(env, &Operand::Var(*acc))?),
    }
}

fn soac_types(env: &dyn TypeEnv, e: &Soac) -> Result<Vec<Type>, String> {
    let rows = |w: &Operand, ts: &[Type]| -> Result<Vec<Type>, String> {
        ts.iter()
            .map(|t| match t {
                Type::Acc(_) => Ok(t.clone()),
                _ => t
                    .array_of(Dim::from_operand(w))
                    .ok_or_else(|| "bad map result".into()),
            })
            .collect()
    };
    match e {
        Soac::Map(Map { w, lam, .. }) => rows(w, &lam.ret),
        Soac::Reduce(Reduce { op, .. }) => Ok(op.lam.ret.clone()),
        Soac::Scan(Scan { w, op, .. }) => op
            .lam
            .ret
            .iter()
            .map(|t| {
                t.array_of(Dim::from_operand(w))
                    .ok_or_else(|| "bad scan operator".into())
            })
            .collect(),
        Soac::Hist(Hist { dests, .. }) => dests
            .iter()
            .map(|v| operand_type(env, &Operand::Var(*v)))
            .collect(),
        Soac::Scatter(Scatter { dests, .. }) => dests
            .iter()
            .map(|d| operand_type(env, &Operand::Var(d.arr)))
            .collect(),
        Soac::WithAcc(WithAcc { inputs, lam }) => {
            let mut out = vec![];
            for i in inputs {
                for a in &i.arrs {
                    out.push(operand_type(env, &Operand::Var(*a))?);
                }
            }
            out.extend(lam.ret.iter().skip(inputs.len()).cloned());
            Ok(out)
        }
        Soac::Screma(s) => {
            let (ns, nr) = (s.scan_arity(), s.red_arity());
            let mut out = rows(&s.w, &s.lam.ret[..ns.min(s.lam.ret.len())])?;
            out.extend(s.lam.ret.iter().skip(ns).take(nr).cloned());
            out.extend(rows(&s.w, s.lam.ret.get(ns + nr..).unwrap_or(&[]))?);
            Ok(out)
        }
    }
}
