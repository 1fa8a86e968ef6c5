//! Forward-mode AD: every value gets a tangent of the same type.

use crate::{AdError, Result};
use parad_base::Span;
use parad_core::builder::Ctx;
use parad_core::{Lambda, Operand, Stm};

/// Statements computing `lam(primals)` and its directional derivative
/// along `tangents`; the operands are the lambda's results followed by
/// their tangents.
pub fn jvp(
    _ctx: &mut Ctx,
    _lam: &Lambda,
    _primals: &[Operand],
    _tangents: &[Operand],
    span: Span,
) -> Result<(Vec<Stm>, Vec<Operand>)> {
    Err(AdError::new(span, "forward-mode AD is not implemented yet"))
}
