//! Reverse-mode AD by redundant execution.

use crate::{AdError, Result};
use parad_base::Span;
use parad_core::builder::Ctx;
use parad_core::{Lambda, Operand, Stm};

/// Statements computing `lam(primals)` and the adjoints of its parameters
/// given the adjoints of its results; the operands are the lambda's
/// results followed by the parameters' adjoints.
pub fn vjp(
    _ctx: &mut Ctx,
    _lam: &Lambda,
    _primals: &[Operand],
    _adjoints: &[Operand],
    span: Span,
) -> Result<(Vec<Stm>, Vec<Operand>)> {
    Err(AdError::new(span, "reverse-mode AD is not implemented yet"))
}
