//! Small IR-building helpers shared by the forward rules.

pub use crate::linear::{is_diff, zeros_like};
use parad_core::*;

/// `x * y`, where `None` stands for a static zero.
pub fn mul(b: &mut Builder, x: Operand, y: Option<Operand>) -> Option<Operand> {
    Some(crate::linear::mul(b, x, y?))
}

/// `x + y`, where `None` stands for a static zero.
pub fn add(b: &mut Builder, x: Option<Operand>, y: Option<Operand>) -> Option<Operand> {
    match (x, y) {
        (Some(x), Some(y)) => Some(crate::linear::add(b, x, y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// `x - y`, where `None` stands for a static zero.
pub fn sub(b: &mut Builder, x: Option<Operand>, y: Option<Operand>) -> Option<Operand> {
    match (x, y) {
        (Some(x), Some(y)) => Some(crate::linear::sub(b, x, y)),
        (x, None) => x,
        (None, Some(y)) => Some(crate::linear::neg(b, y)),
    }
}
