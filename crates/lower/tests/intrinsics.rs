//! Lowering implements exactly the intrinsics of the table in
//! `parad_types::intrinsics`, with the table's arities; an intrinsic
//! missing from the table is an internal error, never a default.

use parad_core::{BinOp, CmpOp, TernOp, UnOp};
use parad_lower::{lower_typed, ErrorKind};
use parad_types::intrinsics::TABLE;
use parad_types::tast::TExpKind;

/// The source of lowering's dispatch on intrinsics.
const LOWERING: &str = include_str!("../src/intrinsics.rs");

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `src` mentions `word` as a whole token.
fn mentions(src: &str, word: &str) -> bool {
    src.match_indices(word).any(|(at, _)| {
        let before = src[..at].chars().next_back();
        let after = src[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The number of operands of the core operator named `name`, if any.
fn core_op_arity(name: &str) -> Option<usize> {
    if UnOp::from_name(name).is_some() {
        Some(1)
    } else if BinOp::from_name(name).is_some() || CmpOp::from_name(name).is_some() {
        Some(2)
    } else if TernOp::from_name(name).is_some() {
        Some(3)
    } else {
        None
    }
}

/// Lowering dispatches on the `Intrinsic` enum only: no string literal
/// `"__…"` (an intrinsic's name) is left in its source to drift from the
/// table.
#[test]
fn lowering_names_no_intrinsic_by_string() {
    for (k, piece) in LOWERING.split('"').enumerate() {
        // Odd pieces are inside string literals.
        let named = k % 2 == 1 && piece.starts_with("__") && piece.chars().all(is_ident);
        assert!(!named, "lowering compares with the string '{piece}'");
    }
}

/// Every intrinsic of the table has a case in lowering (`I::Name`) or is
/// a scalar intrinsic that becomes the core operator of the same name,
/// which then takes as many operands as the table's arity.
#[test]
fn every_intrinsic_is_lowered_with_its_arity() {
    for row in TABLE {
        let i = row.intrinsic;
        assert_eq!(i.arity(), row.arity);
        assert_eq!(i.name(), row.name);
        let case = mentions(LOWERING, &format!("I::{i:?}"));
        let op = core_op_arity(row.name);
        if let Some(n) = op {
            assert_eq!(
                n, row.arity,
                "'{}' has arity {} in the table but its core operator takes {n}",
                row.name, row.arity
            );
        }
        assert!(
            case || (op.is_some() && !i.is_array()),
            "lowering has no case for intrinsic '{}'",
            row.name
        );
    }
}

/// A typed program naming an intrinsic that is not in the table (the
/// checker never builds one) fails to lower with an internal error.
#[test]
fn unknown_intrinsics_are_internal_errors() {
    let (_, checked) = parad_types::check_source("test.fut", "entry main (x: f32) = x * x");
    let mut typed = checked.unwrap_or_else(|_| panic!("type error")).typed;
    let main = typed
        .funs
        .iter_mut()
        .rev()
        .find(|f| f.name == "main")
        .unwrap();
    let TExpKind::Apply(f, _) = &mut main.body.kind else {
        panic!("main is not an application: {:?}", main.body.kind)
    };
    let TExpKind::Intrinsic(name, _) = &mut f.kind else {
        panic!("main does not apply an intrinsic: {:?}", f.kind)
    };
    assert_eq!(*name, "mul");
    *name = "__nosuch";
    let e = lower_typed(&typed).expect_err("an unknown intrinsic lowered");
    assert_eq!(e.kind, ErrorKind::Bug);
    assert!(
        e.message.contains("unknown intrinsic '__nosuch'"),
        "{}",
        e.message
    );
}
