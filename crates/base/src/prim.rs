//! Futhark's primitive types.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatType {
    F16,
    F32,
    F64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimType {
    Int(IntType),
    Float(FloatType),
    Bool,
}

impl IntType {
    pub const ALL: [IntType; 8] = [
        IntType::I8,
        IntType::I16,
        IntType::I32,
        IntType::I64,
        IntType::U8,
        IntType::U16,
        IntType::U32,
        IntType::U64,
    ];

    pub fn bits(self) -> u32 {
        match self {
            IntType::I8 | IntType::U8 => 8,
            IntType::I16 | IntType::U16 => 16,
            IntType::I32 | IntType::U32 => 32,
            IntType::I64 | IntType::U64 => 64,
        }
    }

    pub fn signed(self) -> bool {
        matches!(
            self,
            IntType::I8 | IntType::I16 | IntType::I32 | IntType::I64
        )
    }

    /// The least and greatest values of the type (`i128` holds both for
    /// every integer type).
    pub fn bounds(self) -> (i128, i128) {
        let bits = self.bits();
        if self.signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            IntType::I8 => "i8",
            IntType::I16 => "i16",
            IntType::I32 => "i32",
            IntType::I64 => "i64",
            IntType::U8 => "u8",
            IntType::U16 => "u16",
            IntType::U32 => "u32",
            IntType::U64 => "u64",
        }
    }
}

impl FloatType {
    pub const ALL: [FloatType; 3] = [FloatType::F16, FloatType::F32, FloatType::F64];

    pub fn bits(self) -> u32 {
        match self {
            FloatType::F16 => 16,
            FloatType::F32 => 32,
            FloatType::F64 => 64,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FloatType::F16 => "f16",
            FloatType::F32 => "f32",
            FloatType::F64 => "f64",
        }
    }
}

impl PrimType {
    pub fn all() -> impl Iterator<Item = PrimType> {
        IntType::ALL
            .into_iter()
            .map(PrimType::Int)
            .chain(FloatType::ALL.into_iter().map(PrimType::Float))
            .chain(std::iter::once(PrimType::Bool))
    }

    pub fn name(self) -> &'static str {
        match self {
            PrimType::Int(t) => t.name(),
            PrimType::Float(t) => t.name(),
            PrimType::Bool => "bool",
        }
    }

    /// Parses a type name such as `i32` or `bool`.
    pub fn from_name(s: &str) -> Option<PrimType> {
        PrimType::all().find(|t| t.name() == s)
    }

    /// Size in bytes of one element.
    pub fn size(self) -> usize {
        match self {
            PrimType::Int(t) => t.bits() as usize / 8,
            PrimType::Float(t) => t.bits() as usize / 8,
            PrimType::Bool => 1,
        }
    }
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for FloatType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for PrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
