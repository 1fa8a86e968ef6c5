//! When two SOAC widths are equal. Names are unique in a function, so
//! facts gathered anywhere in it hold wherever the names are in scope:
//!
//! - `let n = size(x, 0)` where `x` has as many rows as a known width
//!   (a SOAC's mapped or scanned result, `iota`, `replicate`): `n` is
//!   that width;
//! - two `size(x, 0)` of one array are equal;
//! - `let a: i64 = b`: `a` is `b`;
//! - `assert(t)` with `let t = eq.i64(a, b)`: `a = b` after the
//!   assertion only, so the caller passes the assertions it has passed.

use parad_base::{IntType, PrimType};
use parad_core::walk;
use parad_core::*;
use rustc_hash::FxHashMap;
use std::ops::Range;

/// Width facts of one function.
#[derive(Default)]
pub struct Widths {
    /// Arrays whose number of rows is the operand.
    rows: FxHashMap<VName, Operand>,
    /// `n = size(x, 0)`.
    size_of: FxHashMap<VName, VName>,
    /// The first `n` seen with `n = size(x, 0)`, by `x`.
    first_size: FxHashMap<VName, VName>,
    /// `a = b` on `i64`.
    copies: FxHashMap<VName, Operand>,
    /// `t = eq.i64(a, b)`.
    eq_defs: FxHashMap<VName, (Operand, Operand)>,
}

const I64: PrimType = PrimType::Int(IntType::I64);

impl Widths {
    pub fn of_fun(f: &FunDef) -> Widths {
        let mut w = Widths::default();
        walk::body_stms(&f.body, |s| w.record(s));
        w
    }

    fn record(&mut self, s: &Stm) {
        if let Some((w, no_rows)) = rows_of_results(s) {
            for (k, p) in s.pat.iter().enumerate() {
                if !no_rows.contains(&k) && !p.ty.is_acc() {
                    self.rows.insert(p.name, w);
                }
            }
        }
        let [p] = &s.pat[..] else { return };
        match &s.exp {
            Exp::Basic(BasicOp::Size { arr, dim: 0 }) => {
                self.size_of.insert(p.name, *arr);
                self.first_size.entry(*arr).or_insert(p.name);
            }
            Exp::Basic(BasicOp::Atom(o)) if p.ty == Type::Prim(I64) => {
                self.copies.insert(p.name, *o);
            }
            Exp::Basic(BasicOp::Cmp(CmpOp::Eq, t, a, b)) if *t == I64 => {
                self.eq_defs.insert(p.name, (*a, *b));
            }
            _ => {}
        }
    }

    /// The equality `s` asserts, if it asserts one of widths.
    pub fn asserted(&self, s: &Stm) -> Option<(Operand, Operand)> {
        match &s.exp {
            Exp::Basic(BasicOp::Assert {
                cond: Operand::Var(t),
                ..
            }) => self.eq_defs.get(t).copied(),
            _ => None,
        }
    }

    /// `o` with copies and sizes of known arrays followed.
    fn canon(&self, mut o: Operand) -> Operand {
        // Bounded: a chain of definitions is finite, this only guards
        // against a malformed program.
        for _ in 0..64 {
            let Operand::Var(v) = o else { return o };
            if let Some(c) = self.copies.get(&v) {
                o = *c;
            } else if let Some(x) = self.size_of.get(&v) {
                // Sizes of one array are equal; a SOAC's rows are its width.
                match (self.rows.get(x), self.first_size[x]) {
                    (Some(w), _) => o = *w,
                    (None, n) if n != v => o = Operand::Var(n),
                    _ => return o,
                }
            } else {
                return o;
            }
        }
        o
    }

    /// Whether `a = b` follows from the facts and the equalities `eqs`.
    pub fn equal(&self, a: &Operand, b: &Operand, eqs: &[(Operand, Operand)]) -> bool {
        let (a, b) = (self.canon(*a), self.canon(*b));
        if a == b {
            return true;
        }
        let eqs: Vec<(Operand, Operand)> = eqs
            .iter()
            .map(|(x, y)| (self.canon(*x), self.canon(*y)))
            .collect();
        // The class of `a` under the equalities, to a fixed point.
        let mut class = vec![a];
        let mut grown = true;
        while grown {
            grown = false;
            for (x, y) in &eqs {
                for (u, v) in [(x, y), (y, x)] {
                    if class.contains(u) && !class.contains(v) {
                        class.push(*v);
                        grown = true;
                    }
                }
            }
        }
        class.contains(&b)
    }
}

/// The number of rows of `s`'s results, and the results (by position)
/// without rows: a `screma`'s reduction values.
fn rows_of_results(s: &Stm) -> Option<(Operand, Range<usize>)> {
    match &s.exp {
        Exp::Soac(Soac::Map(Map { w, .. })) | Exp::Soac(Soac::Scan(Scan { w, .. })) => {
            Some((*w, 0..0))
        }
        Exp::Soac(Soac::Screma(sc)) => {
            let (ns, nr) = (sc.scan_arity(), sc.red_arity());
            Some((sc.w, ns..ns + nr))
        }
        Exp::Basic(BasicOp::Iota { n, .. }) | Exp::Basic(BasicOp::Replicate { n, .. }) => {
            Some((*n, 0..0))
        }
        _ => None,
    }
}

/// Replaces `size(x, 0)` of an array `x` bound earlier in `b` by a SOAC
/// by the SOAC's width, so that the size no longer
/// depends on the statement computing `x` (which fusion may delay).
pub fn sizes_of_results(b: &mut Body) {
    let mut rows: FxHashMap<VName, Operand> = FxHashMap::default();
    for s in &mut b.stms {
        if let Exp::Basic(BasicOp::Size { arr, dim: 0 }) = &s.exp {
            if let Some(w) = rows.get(arr) {
                s.exp = Exp::Basic(BasicOp::Atom(*w));
                continue;
            }
        }
        // SOAC widths are `i64`, like sizes (an `iota`'s length may not be).
        let soac = matches!(s.exp, Exp::Soac(_));
        if let Some((w, no_rows)) = rows_of_results(s).filter(|_| soac) {
            for (k, p) in s.pat.iter().enumerate() {
                if !no_rows.contains(&k) && !p.ty.is_acc() {
                    rows.insert(p.name, w);
                }
            }
        }
    }
}
