//! Typed scalar constants for IR-building code: the zero, one, lowest and
//! highest value of each primitive type, and integers and floats
//! converted to a given type.
//!
//! Integers are built from `i128`, which holds every value of every
//! integer type, so no constant takes a detour through `f64`: going
//! through a float used to turn `u64.highest` into `i64.highest`, a wrong
//! neutral element for `u64.min`. Floats are only rounded where a float
//! type is asked for.

use parad_base::Scalar;
use parad_base::{FloatType, PrimType};

/// `n` at type `t`: integer types wrap modulo 2^bits (so `-1` is the
/// all-ones value of an unsigned type, as in Futhark's wrapping
/// arithmetic), float types round to the nearest value, `bool` is `n ≠ 0`.
pub fn int(t: PrimType, n: i128) -> Scalar {
    match t {
        PrimType::Int(it) => Scalar::from_int(it, n),
        // Directly from i128: through f64 would round twice.
        PrimType::Float(FloatType::F32) => Scalar::F32(n as f32),
        PrimType::Float(ft) => Scalar::from_float(ft, n as f64),
        PrimType::Bool => Scalar::Bool(n != 0),
    }
}

/// `x` at type `t`: float types round to the nearest value; integer types
/// take only integral `x` (exactly, wrapping as [`int`] does); `bool` is
/// `x ≠ 0`. A fractional `x` for an integer type is a bug in the caller.
pub fn float(t: PrimType, x: f64) -> Scalar {
    match t {
        PrimType::Float(ft) => Scalar::from_float(ft, x),
        PrimType::Int(_) => {
            assert!(
                x.fract() == 0.0 && x.abs() < 2f64.powi(127),
                "consts: {x} is not an integer of type {t}"
            );
            int(t, x as i128)
        }
        PrimType::Bool => Scalar::Bool(x != 0.0),
    }
}

/// The zero of `t` (`false` for `bool`).
pub fn zero(t: PrimType) -> Scalar {
    int(t, 0)
}

/// The one of `t` (`true` for `bool`).
pub fn one(t: PrimType) -> Scalar {
    int(t, 1)
}

/// The least value of `t`, Futhark's `t.lowest`: the neutral element of
/// `max` (`-inf` for floats, `false` for `bool`).
pub fn lowest(t: PrimType) -> Scalar {
    match t {
        PrimType::Int(it) => int(t, it.bounds().0),
        PrimType::Float(ft) => Scalar::from_float(ft, f64::NEG_INFINITY),
        PrimType::Bool => Scalar::Bool(false),
    }
}

/// The greatest value of `t`, Futhark's `t.highest`: the neutral element
/// of `min` (`inf` for floats, `true` for `bool`).
pub fn highest(t: PrimType) -> Scalar {
    match t {
        PrimType::Int(it) => int(t, it.bounds().1),
        PrimType::Float(ft) => Scalar::from_float(ft, f64::INFINITY),
        PrimType::Bool => Scalar::Bool(true),
    }
}

/// The neutral element of `min` (`highest`) or of `max` (`lowest`).
pub fn extreme(t: PrimType, min: bool) -> Scalar {
    if min {
        highest(t)
    } else {
        lowest(t)
    }
}

/// Whether `c` is the zero of its type (`-0.0` included).
pub fn is_zero(c: Scalar) -> bool {
    c == zero(c.prim_type())
}

/// Whether `c` is the one of its type.
pub fn is_one(c: Scalar) -> bool {
    c == one(c.prim_type())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_base::IntType;

    const U64: PrimType = PrimType::Int(IntType::U64);
    const I64: PrimType = PrimType::Int(IntType::I64);
    const I8: PrimType = PrimType::Int(IntType::I8);
    const U8: PrimType = PrimType::Int(IntType::U8);
    const F32: PrimType = PrimType::Float(FloatType::F32);
    const F16: PrimType = PrimType::Float(FloatType::F16);

    #[test]
    fn extremes_are_exact() {
        assert_eq!(highest(U64), Scalar::U64(u64::MAX));
        assert_eq!(lowest(U64), Scalar::U64(0));
        assert_eq!(highest(I64), Scalar::I64(i64::MAX));
        assert_eq!(lowest(I64), Scalar::I64(i64::MIN));
        assert_eq!(highest(I8), Scalar::I8(i8::MAX));
        assert_eq!(lowest(I8), Scalar::I8(i8::MIN));
        assert_eq!(highest(U8), Scalar::U8(u8::MAX));
        assert_eq!(lowest(U8), Scalar::U8(0));
        assert_eq!(highest(F32), Scalar::F32(f32::INFINITY));
        assert_eq!(lowest(F32), Scalar::F32(f32::NEG_INFINITY));
        assert_eq!(highest(PrimType::Bool), Scalar::Bool(true));
        assert_eq!(extreme(U64, true), highest(U64));
        assert_eq!(extreme(U64, false), lowest(U64));
        for it in IntType::ALL {
            let t = PrimType::Int(it);
            let (lo, hi) = it.bounds();
            assert_eq!(int(t, lo), lowest(t), "{t}");
            assert_eq!(int(t, hi), highest(t), "{t}");
            // One past either end wraps around to the other.
            assert_eq!(int(t, hi + 1), lowest(t), "{t}");
        }
    }

    #[test]
    fn integers_are_exact() {
        assert_eq!(int(U64, u64::MAX as i128), Scalar::U64(u64::MAX));
        assert_eq!(int(U64, -1), Scalar::U64(u64::MAX));
        assert_eq!(int(I64, i64::MIN as i128), Scalar::I64(i64::MIN));
        assert_eq!(int(U8, 300), Scalar::U8(44));
        assert_eq!(float(U64, -1.0), Scalar::U64(u64::MAX));
        assert_eq!(float(I8, -128.0), Scalar::I8(-128));
        // Just above half an f32 ulp: rounds up, where a detour through
        // f64 would drop the 1 and then round the tie to even (down).
        let n = (1i128 << 60) + (1 << 36) + 1;
        assert_eq!(int(F32, n), Scalar::F32(2f32.powi(60) + 2f32.powi(37)));
    }

    #[test]
    fn zeros_ones_and_floats() {
        for t in PrimType::all() {
            assert!(is_zero(zero(t)), "{t}");
            assert!(is_one(one(t)), "{t}");
            assert!(!is_zero(one(t)), "{t}");
        }
        assert!(is_zero(Scalar::F64(-0.0)));
        assert_eq!(float(F32, 0.1), Scalar::F32(0.1f32));
        assert_eq!(float(PrimType::Bool, 2.0), Scalar::Bool(true));
        assert_eq!(int(F16, 1), one(F16));
        assert_eq!(float(F16, 65536.0), highest(F16));
    }

    #[test]
    #[should_panic(expected = "not an integer")]
    fn fractions_are_not_integers() {
        float(I64, 0.5);
    }
}
