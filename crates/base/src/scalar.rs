//! Primitive values: one scalar of each of Futhark's primitive types
//! (constants of the core IR, elements of data files).

use crate::prim::{FloatType, IntType, PrimType};
use half::f16;

/// One primitive value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F16(f16),
    F32(f32),
    F64(f64),
    Bool(bool),
}

impl Scalar {
    pub fn prim_type(&self) -> PrimType {
        match self {
            Scalar::I8(_) => PrimType::Int(IntType::I8),
            Scalar::I16(_) => PrimType::Int(IntType::I16),
            Scalar::I32(_) => PrimType::Int(IntType::I32),
            Scalar::I64(_) => PrimType::Int(IntType::I64),
            Scalar::U8(_) => PrimType::Int(IntType::U8),
            Scalar::U16(_) => PrimType::Int(IntType::U16),
            Scalar::U32(_) => PrimType::Int(IntType::U32),
            Scalar::U64(_) => PrimType::Int(IntType::U64),
            Scalar::F16(_) => PrimType::Float(FloatType::F16),
            Scalar::F32(_) => PrimType::Float(FloatType::F32),
            Scalar::F64(_) => PrimType::Float(FloatType::F64),
            Scalar::Bool(_) => PrimType::Bool,
        }
    }

    /// The integer `v` of type `t`, wrapped to its width.
    pub fn from_int(t: IntType, v: i128) -> Scalar {
        match t {
            IntType::I8 => Scalar::I8(v as i8),
            IntType::I16 => Scalar::I16(v as i16),
            IntType::I32 => Scalar::I32(v as i32),
            IntType::I64 => Scalar::I64(v as i64),
            IntType::U8 => Scalar::U8(v as u8),
            IntType::U16 => Scalar::U16(v as u16),
            IntType::U32 => Scalar::U32(v as u32),
            IntType::U64 => Scalar::U64(v as u64),
        }
    }

    /// The float `x` rounded to type `t`.
    pub fn from_float(t: FloatType, x: f64) -> Scalar {
        match t {
            FloatType::F16 => Scalar::F16(f16::from_f64(x)),
            FloatType::F32 => Scalar::F32(x as f32),
            FloatType::F64 => Scalar::F64(x),
        }
    }

    /// The zero (or `false`) of a primitive type.
    pub fn zero(t: PrimType) -> Scalar {
        match t {
            PrimType::Int(IntType::I8) => Scalar::I8(0),
            PrimType::Int(IntType::I16) => Scalar::I16(0),
            PrimType::Int(IntType::I32) => Scalar::I32(0),
            PrimType::Int(IntType::I64) => Scalar::I64(0),
            PrimType::Int(IntType::U8) => Scalar::U8(0),
            PrimType::Int(IntType::U16) => Scalar::U16(0),
            PrimType::Int(IntType::U32) => Scalar::U32(0),
            PrimType::Int(IntType::U64) => Scalar::U64(0),
            PrimType::Float(FloatType::F16) => Scalar::F16(f16::ZERO),
            PrimType::Float(FloatType::F32) => Scalar::F32(0.0),
            PrimType::Float(FloatType::F64) => Scalar::F64(0.0),
            PrimType::Bool => Scalar::Bool(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_wrap_and_round() {
        assert_eq!(Scalar::from_int(IntType::I8, 300), Scalar::I8(44));
        assert_eq!(Scalar::from_int(IntType::U8, -1), Scalar::U8(255));
        assert_eq!(Scalar::from_int(IntType::I64, -5), Scalar::I64(-5));
        assert_eq!(Scalar::from_float(FloatType::F32, 0.1), Scalar::F32(0.1));
        assert_eq!(
            Scalar::from_float(FloatType::F16, 1.5),
            Scalar::F16(f16::from_f32(1.5))
        );
        for t in [
            PrimType::Int(IntType::U16),
            PrimType::Float(FloatType::F16),
            PrimType::Bool,
        ] {
            assert_eq!(Scalar::zero(t).prim_type(), t);
        }
    }
}
