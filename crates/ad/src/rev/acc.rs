//! Accumulators.
use super::adjenv::Rev;
use crate::{AdError, Result};
use parad_core::*;

pub fn rev(_r: &mut Rev, _b: &mut Builder, s: &Stm) -> Result<()> {
    Err(AdError::new(s.span, "acc: todo"))
}
