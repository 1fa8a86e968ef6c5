//! `parad test`: reads Futhark test blocks and runs them.
