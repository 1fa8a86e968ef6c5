//! Iotas that only SOACs read are never stored.
//!
//! `map f (iota n)`, `iota n |> reduce (+) 0`: element `i` of
//! `iota(n, start, step)` is `start + i * step`, so a SOAC over it can
//! compute its elements instead of reading them from memory. An iota
//! bound in a body whose every use, in that body and everything nested
//! in it, is as an input array of a `screma` (or `map`, `reduce`, `scan`)
//! statement of that same body is *virtual*: its statement emits the
//! range check and no allocation, and the SOACs get an [`Iota`] input.
//! This saves the memory traffic of writing and reading `n` integers, and
//! makes programs whose iota would not fit in memory run
//! (`iota 11e9 |> reduce (+) 0`).
//!
//! Uses anywhere else (a `scatter` or `hist` input, a lambda's free
//! variable, an index, a result) keep the iota stored: this is a purely
//! local decision, so no other part of the lowering ever sees a virtual
//! iota.

use super::{Lower, Result};
use crate::ir::{ErrorArg, Exp, I64};
use parad_base::{PrimType, Span};
use parad_core::{BasicOp, BinOp, Body, ConvOp, Exp as CoreExp, Operand, Soac, Stm, VName};
use rustc_hash::{FxHashMap, FxHashSet};

/// A virtual iota: element `i` is `start + i * step`, of type `t`.
#[derive(Clone, Debug)]
pub(crate) struct Iota {
    pub n: Exp,
    pub start: Exp,
    pub step: Exp,
    pub t: PrimType,
}

impl Iota {
    /// Element `i` (an `i64` index).
    pub(crate) fn at(&self, i: Exp) -> Exp {
        let i = Exp::Conv(ConvOp::Cast, I64, self.t, Box::new(i));
        Exp::Bin(
            BinOp::Add,
            self.t,
            Box::new(self.start.clone()),
            Box::new(Exp::Bin(
                BinOp::Mul,
                self.t,
                Box::new(i),
                Box::new(self.step.clone()),
            )),
        )
    }
}

/// The arrays of a statement that a screma reads row by row.
fn soac_inputs(s: &Stm) -> &[VName] {
    match &s.exp {
        CoreExp::Soac(Soac::Screma(x)) => &x.arrs,
        CoreExp::Soac(Soac::Map(x)) => &x.arrs,
        CoreExp::Soac(Soac::Reduce(x)) => &x.arrs,
        CoreExp::Soac(Soac::Scan(x)) => &x.arrs,
        _ => &[],
    }
}

/// The iotas bound in `b` that can be virtual: one-dimensional, and used
/// only as input arrays of SOAC statements of `b` itself.
pub(crate) fn virtual_iotas(b: &Body) -> FxHashSet<VName> {
    let mut candidates: FxHashMap<VName, u32> = b
        .stms
        .iter()
        .filter(|s| matches!(s.exp, CoreExp::Basic(BasicOp::Iota { .. })) && s.pat.len() == 1)
        .map(|s| (s.pat[0].name, 0))
        .collect();
    if candidates.is_empty() {
        return FxHashSet::default();
    }
    // Uses as inputs count down, every use counts up: a candidate whose
    // count ends at zero (with at least one use) is read only by SOACs.
    let mut read = FxHashSet::default();
    for s in &b.stms {
        for a in soac_inputs(s) {
            if let Some(c) = candidates.get_mut(a) {
                *c = c.wrapping_sub(1);
                read.insert(*a);
            }
        }
    }
    parad_core::free::body_uses(b, &mut |v| {
        if let Some(c) = candidates.get_mut(&v) {
            *c = c.wrapping_add(1);
        }
    });
    candidates
        .into_iter()
        .filter(|(v, c)| *c == 0 && read.contains(v))
        .map(|(v, _)| v)
        .collect()
}

impl Lower {
    /// `let v = iota(n, start, step)` as a virtual iota: the range check,
    /// no array.
    pub(crate) fn virtual_iota(&mut self, v: VName, op: &BasicOp, span: Span) -> Result<()> {
        let BasicOp::Iota { n, start, step, it } = op else {
            return super::unsupported("internal error: a virtual iota that is not an iota");
        };
        let n = self.operand(n)?;
        let n = self.name_exp("n", I64, n);
        self.check_iota_size(&n, start, step, span)?;
        let t = PrimType::Int(*it);
        let start = self.operand(start)?;
        let step = self.operand(step)?;
        self.env.remove(&v);
        self.iotas.insert(v, Iota { n, start, step, t });
        Ok(())
    }

    /// The check of `iota`'s size, stored or not: `iota n` is the range
    /// `0..1..<n`, as Futhark reports it.
    pub(crate) fn check_iota_size(
        &mut self,
        n: &Exp,
        start: &Operand,
        step: &Operand,
        span: Span,
    ) -> Result<()> {
        let (start, step) = (self.operand(start)?, self.operand(step)?);
        if start.as_i64() == Some(0) && step.as_i64() == Some(1) {
            let c = Exp::lt(n.clone(), Exp::i64(0));
            let msg = "Range 0..1..<{} is invalid.";
            self.fail_if(
                c,
                span,
                msg,
                vec![ErrorArg {
                    exp: n.clone(),
                    ty: I64,
                }],
            );
        } else {
            self.check_size(n, "iota", span);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::virtual_iotas;
    use parad_core::parse::parse_body;

    fn names(text: &str) -> Vec<String> {
        let b = parse_body(text).expect("the test's IR parses");
        let mut out: Vec<String> = virtual_iotas(&b).iter().map(|v| v.to_string()).collect();
        out.sort();
        out
    }

    #[test]
    fn iotas_read_only_by_soacs_are_virtual() {
        let b = r"{
          let xs_1: [n_5]i64 = iota.i64(n_5, 0i64, 1i64)
          let ys_2: [n_5]i64 = iota.i64(n_5, 3i64, 2i64)
          let s_6: i64 = reduce(n_5, [xs_1], [0i64], \(a_7: i64, b_8: i64): i64 {
            let c_9: i64 = add.i64(a_7, b_8)
            in c_9
          })
          let zs_3: [n_5]i64 = map(n_5, [xs_1, ys_2], \(a_7: i64, b_8: i64): i64 {
            let c_9: i64 = mul.i64(a_7, b_8)
            in c_9
          })
          in (s_6, zs_3)
        }";
        assert_eq!(names(b), ["xs_1", "ys_2"]);
    }

    #[test]
    fn other_uses_keep_the_iota_stored() {
        // `xs` is a result, `ys` is free in a lambda, `zs` is indexed.
        let b = r"{
          let xs_1: [n_5]i64 = iota.i64(n_5, 0i64, 1i64)
          let ys_2: [n_5]i64 = iota.i64(n_5, 0i64, 1i64)
          let zs_3: [n_5]i64 = iota.i64(n_5, 0i64, 1i64)
          let ws_4: [n_5]i64 = map(n_5, [xs_1, zs_3], \(a_7: i64, b_8: i64): i64 {
            let c_9: i64 = ys_2[a_7]
            in c_9
          })
          let z_10: i64 = zs_3[0i64]
          in (xs_1, ws_4, z_10)
        }";
        assert!(names(b).is_empty());
    }
}
