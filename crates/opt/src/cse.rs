//! Common-subexpression elimination of cheap pure expressions (scalar
//! operations, `size`, copies of operands) and of repeated assertions of
//! the same condition. Lowering inlines every call, so the same size is
//! read and checked many times; this removes the repeats.

use parad_core::subst::{self, Subst};
use parad_core::{visit, BasicOp};
use parad_core::{Body, Exp, FunDef};
use rustc_hash::FxHashMap;

/// Expressions available in scope, by their printed form.
type Avail = FxHashMap<String, parad_core::VName>;

pub fn cse_fun(f: &mut FunDef) {
    let mut s = Subst::default();
    cse_body(&mut f.body, &Avail::default(), &mut s);
    f.ret.iter_mut().for_each(|t| subst::ty(t, &s));
}

fn key(e: &Exp) -> Option<String> {
    match e {
        Exp::Basic(BasicOp::UnOp(..))
        | Exp::Basic(BasicOp::BinOp(..))
        | Exp::Basic(BasicOp::TernOp(..))
        | Exp::Basic(BasicOp::Cmp(..))
        | Exp::Basic(BasicOp::Conv(..))
        | Exp::Basic(BasicOp::Size { .. }) => Some(format!("{e:?}")),
        // An assertion of a condition already asserted cannot fail,
        // whatever its message.
        Exp::Basic(BasicOp::Assert { cond, .. }) => Some(format!("assert {cond:?}")),
        _ => None,
    }
}

fn cse_body(b: &mut Body, outer: &Avail, s: &mut Subst) {
    let mut avail = outer.clone();
    let stms = std::mem::take(&mut b.stms);
    for mut st in stms {
        st.pat.iter_mut().for_each(|p| subst::ty(&mut p.ty, s));
        subst::exp(&mut st.exp, s);
        cse_nested(&mut st.exp, &avail, s);
        // `x == x` on integers holds, and so does an assertion of it.
        if let Exp::Basic(BasicOp::Cmp(parad_core::CmpOp::Eq, parad_base::PrimType::Int(_), a, b)) =
            &st.exp
        {
            if a == b {
                if let [p] = st.pat.as_slice() {
                    avail.insert(
                        format!("assert {:?}", parad_core::Operand::Var(p.name)),
                        p.name,
                    );
                }
            }
        }
        if let Some(k) = key(&st.exp) {
            match (avail.get(&k), st.pat.as_slice()) {
                (Some(&prev), [p]) => {
                    s.set(p.name, prev);
                    continue;
                }
                (Some(_), []) => continue, // the same assertion again
                (None, [p]) => {
                    avail.insert(k, p.name);
                }
                (None, []) => {
                    avail.insert(k, st.pat.first().map_or(dummy(), |p| p.name));
                }
                _ => {}
            }
        }
        b.stms.push(st);
    }
    b.result.iter_mut().for_each(|o| *o = s.operand(*o));
}

/// A name that stands for "seen" in the table (assertions bind nothing).
fn dummy() -> parad_core::VName {
    parad_core::NameSource::new().fresh("assert")
}

fn cse_nested(e: &mut Exp, avail: &Avail, s: &mut Subst) {
    visit::each_body_mut(e, |b| cse_body(b, avail, s))
}
