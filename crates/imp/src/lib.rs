//! The imperative IR.
