//! Futhark semantics of scalar operations on every primitive type.
//!
//! Integers wrap. Signed `div`/`mod` round towards negative infinity and
//! `quot`/`rem` towards zero; dividing by zero is an error. Shifts by an
//! amount at least the bit width (or negative) give 0, or the sign fill
//! for arithmetic right shifts. Float→int casts truncate and give 0 for
//! NaN and infinities. `f16` is computed in `f32` and rounded.

use half::f16;
use parad_base::{FloatType, IntType, PrimType};
use parad_core::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
use parad_values::Scalar;
use std::cmp::Ordering;

pub type PrimResult = Result<Scalar, String>;

/// An integer scalar, sign- or zero-extended according to its type.
fn int_of(s: Scalar) -> Option<(IntType, i128)> {
    Some(match s {
        Scalar::I8(x) => (IntType::I8, x as i128),
        Scalar::I16(x) => (IntType::I16, x as i128),
        Scalar::I32(x) => (IntType::I32, x as i128),
        Scalar::I64(x) => (IntType::I64, x as i128),
        Scalar::U8(x) => (IntType::U8, x as i128),
        Scalar::U16(x) => (IntType::U16, x as i128),
        Scalar::U32(x) => (IntType::U32, x as i128),
        Scalar::U64(x) => (IntType::U64, x as i128),
        _ => return None,
    })
}

/// The integer of type `t` with the low bits of `v` (wrapping).
pub fn mk_int(t: IntType, v: i128) -> Scalar {
    Scalar::from_int(t, v)
}

/// Re-extends `v` as a value of type `t` (applies wrapping).
fn wrap(t: IntType, v: i128) -> i128 {
    int_of(mk_int(t, v)).map_or(0, |(_, v)| v)
}

/// The bits of an integer, zero-extended.
fn bits(t: IntType, v: i128) -> u128 {
    (v as u128) & ((1u128 << t.bits()) - 1)
}

/// Interprets the low bits of `v` as a signed value of `t`'s width.
fn as_signed(t: IntType, v: i128) -> i128 {
    let w = t.bits();
    (v << (128 - w)) >> (128 - w)
}

fn float_of(s: Scalar) -> Option<f64> {
    match s {
        Scalar::F16(x) => Some(x.to_f64()),
        Scalar::F32(x) => Some(x as f64),
        Scalar::F64(x) => Some(x),
        _ => None,
    }
}

/// A float of type `t` from an `f64` (rounding once).
pub fn mk_float(t: FloatType, x: f64) -> Scalar {
    Scalar::from_float(t, x)
}

fn type_err(what: &str, t: PrimType) -> String {
    format!("{what} is not defined on {t}")
}

/// The float operations, written once for `f32` and `f64` so that each
/// type is computed at its own precision (as compiled code would).
macro_rules! float_ops {
    ($m:ident, $t:ty, $pi:expr, $tgamma:path, $lgamma:path, $erf:path, $erfc:path,
     $nextafter:path, $ldexp:path) => {
        mod $m {
            use super::*;
            pub fn un(op: UnOp, x: $t) -> Result<Result<$t, bool>, String> {
                use UnOp::*;
                Ok(Ok(match op {
                    Neg => -x,
                    Abs => x.abs(),
                    Signum => {
                        if x > 0.0 {
                            1.0
                        } else if x < 0.0 {
                            -1.0
                        } else {
                            x
                        }
                    }
                    Sqrt => x.sqrt(),
                    Rsqrt => 1.0 / x.sqrt(),
                    Cbrt => x.cbrt(),
                    Exp => x.exp(),
                    Expm1 => x.exp_m1(),
                    Log => x.ln(),
                    Log2 => x.log2(),
                    Log10 => x.log10(),
                    Log1p => x.ln_1p(),
                    Sin => x.sin(),
                    Cos => x.cos(),
                    Tan => x.tan(),
                    SinPi => ($pi * x).sin(),
                    CosPi => ($pi * x).cos(),
                    TanPi => ($pi * x).tan(),
                    Asin => x.asin(),
                    Acos => x.acos(),
                    Atan => x.atan(),
                    AsinPi => x.asin() / $pi,
                    AcosPi => x.acos() / $pi,
                    AtanPi => x.atan() / $pi,
                    Sinh => x.sinh(),
                    Cosh => x.cosh(),
                    Tanh => x.tanh(),
                    Asinh => x.asinh(),
                    Acosh => x.acosh(),
                    Atanh => x.atanh(),
                    Gamma => $tgamma(x),
                    Lgamma => $lgamma(x),
                    Erf => $erf(x),
                    Erfc => $erfc(x),
                    Ceil => x.ceil(),
                    Floor => x.floor(),
                    Trunc => x.trunc(),
                    Round => x.round_ties_even(),
                    IsInf => return Ok(Err(x.is_infinite())),
                    IsNan => return Ok(Err(x.is_nan())),
                    Not | Complement | Popc | Clz | Ctz => return Err(op.name().into()),
                }))
            }
            pub fn bin(op: BinOp, x: $t, y: $t) -> Result<$t, String> {
                use BinOp::*;
                Ok(match op {
                    Add => x + y,
                    Sub => x - y,
                    Mul => x * y,
                    Div => x / y,
                    Mod => x % y,
                    Pow => x.powf(y),
                    Min => x.min(y),
                    Max => x.max(y),
                    Atan2 => x.atan2(y),
                    Atan2Pi => x.atan2(y) / $pi,
                    Hypot => x.hypot(y),
                    CopySign => x.copysign(y),
                    NextAfter => $nextafter(x, y),
                    _ => return Err(op.name().into()),
                })
            }
            pub fn ldexp(x: $t, n: i32) -> $t {
                $ldexp(x, n)
            }
            pub fn tern(op: TernOp, a: $t, b: $t, c: $t) -> Result<$t, String> {
                Ok(match op {
                    TernOp::Fma => a.mul_add(b, c),
                    TernOp::Mad => a * b + c,
                    TernOp::Lerp => a + (b - a) * c,
                    TernOp::MadHi => return Err(op.name().into()),
                })
            }
        }
    };
}

float_ops!(
    f32ops,
    f32,
    std::f32::consts::PI,
    libm::tgammaf,
    libm::lgammaf,
    libm::erff,
    libm::erfcf,
    libm::nextafterf,
    libm::ldexpf
);
float_ops!(
    f64ops,
    f64,
    std::f64::consts::PI,
    libm::tgamma,
    libm::lgamma,
    libm::erf,
    libm::erfc,
    libm::nextafter,
    libm::ldexp
);

/// `nextafter` at half precision, on the bit pattern.
fn nextafter16(x: f16, y: f16) -> f16 {
    if x.is_nan() || y.is_nan() {
        return f16::NAN;
    }
    if x == y {
        return y;
    }
    if x.to_f32() == 0.0 {
        let tiny = f16::from_bits(1);
        return if y.to_f32() > 0.0 { tiny } else { -tiny };
    }
    let b = x.to_bits();
    // Moving away from zero increases the magnitude bits.
    let away = (y.to_f32() > x.to_f32()) == (x.to_f32() > 0.0);
    f16::from_bits(if away { b + 1 } else { b - 1 })
}

pub fn unop(op: UnOp, t: PrimType, x: Scalar) -> PrimResult {
    let bad = || type_err(op.name(), t);
    match (t, x) {
        (PrimType::Bool, Scalar::Bool(b)) if op == UnOp::Not => Ok(Scalar::Bool(!b)),
        (PrimType::Int(it), _) => {
            let (_, v) = int_of(x).ok_or_else(bad)?;
            let w = it.bits();
            let b = bits(it, v);
            Ok(match op {
                UnOp::Neg => mk_int(it, v.wrapping_neg()),
                UnOp::Abs => mk_int(it, v.abs()),
                UnOp::Signum => mk_int(it, v.signum()),
                UnOp::Complement => mk_int(it, !v),
                UnOp::Popc => Scalar::I32(b.count_ones() as i32),
                UnOp::Clz => Scalar::I32((b.leading_zeros() - (128 - w)) as i32),
                UnOp::Ctz => Scalar::I32(if b == 0 {
                    w as i32
                } else {
                    b.trailing_zeros() as i32
                }),
                _ => return Err(bad()),
            })
        }
        (PrimType::Float(ft), _) => {
            let r = match (ft, x) {
                (FloatType::F32, Scalar::F32(v)) => f32ops::un(op, v)?.map(Scalar::F32),
                (FloatType::F64, Scalar::F64(v)) => f64ops::un(op, v)?.map(Scalar::F64),
                (FloatType::F16, Scalar::F16(v)) => {
                    f32ops::un(op, v.to_f32())?.map(|r| Scalar::F16(f16::from_f32(r)))
                }
                _ => return Err(bad()),
            };
            Ok(r.unwrap_or_else(Scalar::Bool))
        }
        _ => Err(bad()),
    }
}

/// Integer power by repeated squaring, wrapping at every step.
fn int_pow(t: IntType, mut x: i128, mut y: i128) -> Result<i128, String> {
    if y < 0 {
        return Err(format!("negative exponent {y} in integer power"));
    }
    let mut r = 1i128;
    while y > 0 {
        if y & 1 == 1 {
            r = wrap(t, r.wrapping_mul(x));
        }
        x = wrap(t, x.wrapping_mul(x));
        y >>= 1;
    }
    Ok(r)
}

fn int_binop(op: BinOp, t: IntType, x: i128, y: i128) -> PrimResult {
    use BinOp::*;
    let w = t.bits() as i128;
    let nonzero = || {
        if y == 0 {
            Err("division by zero".to_string())
        } else {
            Ok(())
        }
    };
    let v = match op {
        Add => x + y,
        Sub => x - y,
        Mul => x.wrapping_mul(y),
        Div => {
            nonzero()?;
            let q = x / y;
            if x % y != 0 && (x < 0) != (y < 0) {
                q - 1
            } else {
                q
            }
        }
        Mod => {
            nonzero()?;
            let r = x % y;
            if r != 0 && (r < 0) != (y < 0) {
                r + y
            } else {
                r
            }
        }
        Quot => {
            nonzero()?;
            x / y
        }
        Rem => {
            nonzero()?;
            x % y
        }
        Pow => int_pow(t, x, y)?,
        Min => x.min(y),
        Max => x.max(y),
        And => x & y,
        Or => x | y,
        Xor => x ^ y,
        Shl => {
            if y < 0 || y >= w {
                0
            } else {
                x << y
            }
        }
        AShr => as_signed(t, x) >> if y < 0 || y >= w { w - 1 } else { y },
        LShr => {
            if y < 0 || y >= w {
                0
            } else {
                (bits(t, x) >> y) as i128
            }
        }
        MulHi => {
            if t.signed() {
                (x * y) >> w
            } else {
                ((x as u128 * y as u128) >> w) as i128
            }
        }
        _ => return Err(type_err(op.name(), PrimType::Int(t))),
    };
    Ok(mk_int(t, v))
}

pub fn binop(op: BinOp, t: PrimType, x: Scalar, y: Scalar) -> PrimResult {
    let bad = || type_err(op.name(), t);
    match (t, x, y) {
        (PrimType::Int(it), _, _) => {
            let ((_, a), (_, b)) = (int_of(x).ok_or_else(bad)?, int_of(y).ok_or_else(bad)?);
            int_binop(op, it, a, b)
        }
        (PrimType::Bool, Scalar::Bool(a), Scalar::Bool(b)) => Ok(Scalar::Bool(match op {
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            _ => return Err(bad()),
        })),
        (PrimType::Float(_), _, Scalar::I32(n)) if op == BinOp::Ldexp => Ok(match x {
            Scalar::F16(a) => Scalar::F16(f16::from_f32(f32ops::ldexp(a.to_f32(), n))),
            Scalar::F32(a) => Scalar::F32(f32ops::ldexp(a, n)),
            Scalar::F64(a) => Scalar::F64(f64ops::ldexp(a, n)),
            _ => return Err(bad()),
        }),
        (PrimType::Float(_), Scalar::F16(a), Scalar::F16(b)) if op == BinOp::NextAfter => {
            Ok(Scalar::F16(nextafter16(a, b)))
        }
        (PrimType::Float(_), Scalar::F16(a), Scalar::F16(b)) => {
            let r = f32ops::bin(op, a.to_f32(), b.to_f32()).map_err(|_| bad())?;
            Ok(Scalar::F16(f16::from_f32(r)))
        }
        (PrimType::Float(_), Scalar::F32(a), Scalar::F32(b)) => {
            f32ops::bin(op, a, b).map(Scalar::F32).map_err(|_| bad())
        }
        (PrimType::Float(_), Scalar::F64(a), Scalar::F64(b)) => {
            f64ops::bin(op, a, b).map(Scalar::F64).map_err(|_| bad())
        }
        _ => Err(bad()),
    }
}

pub fn ternop(op: TernOp, t: PrimType, a: Scalar, b: Scalar, c: Scalar) -> PrimResult {
    let bad = || type_err(op.name(), t);
    match (t, a, b, c) {
        (PrimType::Int(it), _, _, _) if op == TernOp::MadHi => {
            let hi = binop(BinOp::MulHi, t, a, b)?;
            binop(BinOp::Add, PrimType::Int(it), hi, c)
        }
        (_, Scalar::F16(x), Scalar::F16(y), Scalar::F16(z)) => {
            let r = f32ops::tern(op, x.to_f32(), y.to_f32(), z.to_f32()).map_err(|_| bad())?;
            Ok(Scalar::F16(f16::from_f32(r)))
        }
        (_, Scalar::F32(x), Scalar::F32(y), Scalar::F32(z)) => f32ops::tern(op, x, y, z)
            .map(Scalar::F32)
            .map_err(|_| bad()),
        (_, Scalar::F64(x), Scalar::F64(y), Scalar::F64(z)) => f64ops::tern(op, x, y, z)
            .map(Scalar::F64)
            .map_err(|_| bad()),
        _ => Err(bad()),
    }
}

fn ordering(x: Scalar, y: Scalar) -> Option<Ordering> {
    match (x, y) {
        (Scalar::Bool(a), Scalar::Bool(b)) => Some(a.cmp(&b)),
        _ => match (int_of(x), int_of(y)) {
            (Some((_, a)), Some((_, b))) => Some(a.cmp(&b)),
            _ => float_of(x)?.partial_cmp(&float_of(y)?),
        },
    }
}

/// Comparisons; any comparison with NaN is false except `ne`.
pub fn cmp(op: CmpOp, x: Scalar, y: Scalar) -> PrimResult {
    if x.prim_type() != y.prim_type() {
        return Err(format!(
            "cannot compare {} with {}",
            x.prim_type(),
            y.prim_type()
        ));
    }
    let o = ordering(x, y);
    let r = match op {
        CmpOp::Eq => o == Some(Ordering::Equal),
        CmpOp::Ne => o != Some(Ordering::Equal),
        CmpOp::Lt => o == Some(Ordering::Less),
        CmpOp::Le => matches!(o, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => o == Some(Ordering::Greater),
        CmpOp::Ge => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
    };
    Ok(Scalar::Bool(r))
}

/// Truncates a float towards zero; NaN and infinities give 0.
fn float_to_int(t: IntType, x: f64) -> Scalar {
    if !x.is_finite() {
        return mk_int(t, 0);
    }
    mk_int(t, x.trunc() as i128)
}

pub fn convert(op: ConvOp, to: PrimType, x: Scalar) -> PrimResult {
    let from = x.prim_type();
    match op {
        ConvOp::Bitcast => bitcast(to, x).ok_or_else(|| format!("cannot bitcast {from} to {to}")),
        ConvOp::Cast => Ok(match (to, x) {
            (PrimType::Bool, Scalar::Bool(b)) => Scalar::Bool(b),
            (PrimType::Bool, _) => match int_of(x) {
                Some((_, v)) => Scalar::Bool(v != 0),
                None => Scalar::Bool(float_of(x).is_some_and(|f| f != 0.0)),
            },
            (PrimType::Int(it), Scalar::Bool(b)) => mk_int(it, b as i128),
            (PrimType::Float(ft), Scalar::Bool(b)) => mk_float(ft, b as u8 as f64),
            (PrimType::Int(it), _) => match int_of(x) {
                // To an unsigned type Futhark zero-extends from the
                // source's width, whatever its signedness.
                Some((ft, v)) if !it.signed() && v < 0 => mk_int(it, v + (1i128 << ft.bits())),
                Some((_, v)) => mk_int(it, v),
                None => float_to_int(it, float_of(x).unwrap_or(0.0)),
            },
            (PrimType::Float(ft), _) => match (int_of(x), ft) {
                // Round directly from the integer (no double rounding via f64).
                (Some((_, v)), FloatType::F32) => Scalar::F32(v as f32),
                (Some((_, v)), _) => mk_float(ft, v as f64),
                (None, FloatType::F32) => match x {
                    Scalar::F16(h) => Scalar::F32(h.to_f32()),
                    _ => Scalar::F32(float_of(x).unwrap_or(0.0) as f32),
                },
                (None, _) => mk_float(ft, float_of(x).unwrap_or(0.0)),
            },
        }),
    }
}

fn bitcast(to: PrimType, x: Scalar) -> Option<Scalar> {
    Some(match (to, x) {
        (PrimType::Float(FloatType::F16), _) => {
            let (it, v) = int_of(x)?;
            (it.bits() == 16).then(|| Scalar::F16(f16::from_bits(v as u16)))?
        }
        (PrimType::Float(FloatType::F32), _) => {
            let (it, v) = int_of(x)?;
            (it.bits() == 32).then(|| Scalar::F32(f32::from_bits(v as u32)))?
        }
        (PrimType::Float(FloatType::F64), _) => {
            let (it, v) = int_of(x)?;
            (it.bits() == 64).then(|| Scalar::F64(f64::from_bits(v as u64)))?
        }
        (PrimType::Int(it), Scalar::F16(f)) if it.bits() == 16 => mk_int(it, f.to_bits() as i128),
        (PrimType::Int(it), Scalar::F32(f)) if it.bits() == 32 => mk_int(it, f.to_bits() as i128),
        (PrimType::Int(it), Scalar::F64(f)) if it.bits() == 64 => mk_int(it, f.to_bits() as i128),
        _ => return None,
    })
}

/// The value of an integer scalar as `i64` (sizes and indices).
pub fn as_i64(s: Scalar) -> Option<i64> {
    int_of(s).map(|(_, v)| v as i64)
}

/// The zero of a type (`false` for `bool`).
pub fn zero(t: PrimType) -> Scalar {
    match t {
        PrimType::Int(it) => mk_int(it, 0),
        PrimType::Float(ft) => mk_float(ft, 0.0),
        PrimType::Bool => Scalar::Bool(false),
    }
}
