//! The prelude: Futhark source checked before every program, defining the
//! user-visible library on top of [`crate::intrinsics`]. Files are listed
//! in dependency order.

pub const FILES: &[(&str, &str)] = &[
    ("zip.fut", include_str!("../prelude/zip.fut")),
    ("soacs.fut", include_str!("../prelude/soacs.fut")),
    ("array.fut", include_str!("../prelude/array.fut")),
    ("functional.fut", include_str!("../prelude/functional.fut")),
    ("ad.fut", include_str!("../prelude/ad.fut")),
    ("misc.fut", include_str!("../prelude/misc.fut")),
    ("math.fut", include_str!("../prelude/math.fut")),
];
