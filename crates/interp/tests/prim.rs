//! Futhark semantics of scalar operations, checked against tables.

use parad_base::{FloatType, IntType, PrimType};
use parad_core::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
use parad_interp::prim::{binop, cmp, convert, mk_int, ternop, unop};
use parad_values::Scalar;

fn int_bin(op: BinOp, t: IntType, x: i128, y: i128) -> Result<Scalar, String> {
    binop(op, PrimType::Int(t), mk_int(t, x), mk_int(t, y))
}

const SIGNED: [IntType; 4] = [IntType::I8, IntType::I16, IntType::I32, IntType::I64];

#[test]
fn signed_division_rounds_down_and_quot_truncates() {
    // (x, y, x/y, x%y, x//y, x%%y)
    let table = [
        (7, 2, 3, 1, 3, 1),
        (-7, 2, -4, 1, -3, -1),
        (7, -2, -4, -1, -3, 1),
        (-7, -2, 3, -1, 3, -1),
        (6, 3, 2, 0, 2, 0),
        (-6, 3, -2, 0, -2, 0),
    ];
    for t in SIGNED {
        for (x, y, d, m, q, r) in table {
            assert_eq!(
                int_bin(BinOp::Div, t, x, y),
                Ok(mk_int(t, d)),
                "{t} {x}/{y}"
            );
            assert_eq!(
                int_bin(BinOp::Mod, t, x, y),
                Ok(mk_int(t, m)),
                "{t} {x}%{y}"
            );
            assert_eq!(
                int_bin(BinOp::Quot, t, x, y),
                Ok(mk_int(t, q)),
                "{t} {x}//{y}"
            );
            assert_eq!(
                int_bin(BinOp::Rem, t, x, y),
                Ok(mk_int(t, r)),
                "{t} {x}%%{y}"
            );
        }
    }
}

#[test]
fn unsigned_division() {
    for t in [IntType::U8, IntType::U16, IntType::U32, IntType::U64] {
        let max = (1i128 << t.bits()) - 1;
        assert_eq!(int_bin(BinOp::Div, t, max, 2), Ok(mk_int(t, max / 2)));
        assert_eq!(int_bin(BinOp::Mod, t, max, 10), Ok(mk_int(t, max % 10)));
    }
}

#[test]
fn division_by_zero_is_an_error() {
    for t in IntType::ALL {
        for op in [BinOp::Div, BinOp::Mod, BinOp::Quot, BinOp::Rem] {
            assert_eq!(
                int_bin(op, t, 5, 0),
                Err("division by zero".to_string()),
                "{t} {op}"
            );
        }
    }
}

#[test]
fn arithmetic_wraps() {
    assert_eq!(
        int_bin(BinOp::Add, IntType::I8, 127, 1),
        Ok(Scalar::I8(-128))
    );
    assert_eq!(int_bin(BinOp::Sub, IntType::U8, 0, 1), Ok(Scalar::U8(255)));
    assert_eq!(
        int_bin(BinOp::Mul, IntType::I16, 300, 300),
        Ok(Scalar::I16(90000i32 as i16))
    );
    assert_eq!(
        int_bin(BinOp::Mul, IntType::I64, i64::MAX as i128, 2),
        Ok(Scalar::I64(-2))
    );
    assert_eq!(
        int_bin(BinOp::Add, IntType::U64, u64::MAX as i128, 2),
        Ok(Scalar::U64(1))
    );
    assert_eq!(
        int_bin(BinOp::Div, IntType::I32, i32::MIN as i128, -1),
        Ok(Scalar::I32(i32::MIN))
    );
    assert_eq!(int_bin(BinOp::Pow, IntType::I32, 3, 4), Ok(Scalar::I32(81)));
    assert_eq!(int_bin(BinOp::Pow, IntType::U8, 2, 8), Ok(Scalar::U8(0)));
    assert!(int_bin(BinOp::Pow, IntType::I32, 2, -1).is_err());
    assert_eq!(
        unop(UnOp::Neg, PrimType::Int(IntType::I8), Scalar::I8(-128)),
        Ok(Scalar::I8(-128))
    );
    assert_eq!(
        unop(UnOp::Abs, PrimType::Int(IntType::I8), Scalar::I8(-128)),
        Ok(Scalar::I8(-128))
    );
    assert_eq!(
        unop(UnOp::Abs, PrimType::Int(IntType::I32), Scalar::I32(-5)),
        Ok(Scalar::I32(5))
    );
    assert_eq!(
        unop(UnOp::Signum, PrimType::Int(IntType::I64), Scalar::I64(-9)),
        Ok(Scalar::I64(-1))
    );
    assert_eq!(
        unop(UnOp::Signum, PrimType::Int(IntType::U8), Scalar::U8(9)),
        Ok(Scalar::U8(1))
    );
}

#[test]
fn shifts() {
    let t = IntType::I8;
    assert_eq!(int_bin(BinOp::Shl, t, 1, 7), Ok(Scalar::I8(-128)));
    assert_eq!(int_bin(BinOp::Shl, t, 1, 8), Ok(Scalar::I8(0)));
    assert_eq!(int_bin(BinOp::AShr, t, -128, 7), Ok(Scalar::I8(-1)));
    assert_eq!(int_bin(BinOp::AShr, t, -128, 100), Ok(Scalar::I8(-1)));
    assert_eq!(int_bin(BinOp::AShr, t, 64, 100), Ok(Scalar::I8(0)));
    assert_eq!(int_bin(BinOp::LShr, t, -128, 7), Ok(Scalar::I8(1)));
    assert_eq!(int_bin(BinOp::LShr, t, -1, 8), Ok(Scalar::I8(0)));
    assert_eq!(int_bin(BinOp::Shl, t, 1, -1), Ok(Scalar::I8(0)));
    // `>>` on unsigned types shifts in the top bit, as Futhark's does.
    assert_eq!(
        int_bin(BinOp::AShr, IntType::U8, 0x80, 1),
        Ok(Scalar::U8(0xC0))
    );
    assert_eq!(
        int_bin(BinOp::LShr, IntType::U8, 0x80, 1),
        Ok(Scalar::U8(0x40))
    );
    assert_eq!(
        int_bin(BinOp::Shl, IntType::U64, 1, 63),
        Ok(Scalar::U64(1 << 63))
    );
    assert_eq!(int_bin(BinOp::Shl, IntType::I64, 3, 64), Ok(Scalar::I64(0)));
}

#[test]
fn bit_counting_and_high_multiplication() {
    let i32t = PrimType::Int(IntType::I32);
    assert_eq!(unop(UnOp::Popc, i32t, Scalar::I32(-1)), Ok(Scalar::I32(32)));
    assert_eq!(unop(UnOp::Clz, i32t, Scalar::I32(1)), Ok(Scalar::I32(31)));
    assert_eq!(unop(UnOp::Clz, i32t, Scalar::I32(0)), Ok(Scalar::I32(32)));
    assert_eq!(unop(UnOp::Ctz, i32t, Scalar::I32(8)), Ok(Scalar::I32(3)));
    assert_eq!(
        unop(UnOp::Ctz, PrimType::Int(IntType::U16), Scalar::U16(0)),
        Ok(Scalar::I32(16))
    );
    assert_eq!(
        unop(UnOp::Popc, PrimType::Int(IntType::I8), Scalar::I8(-128)),
        Ok(Scalar::I32(1))
    );
    assert_eq!(
        unop(
            UnOp::Complement,
            PrimType::Int(IntType::U8),
            Scalar::U8(0x0F)
        ),
        Ok(Scalar::U8(0xF0))
    );
    assert_eq!(
        int_bin(
            BinOp::MulHi,
            IntType::U64,
            u64::MAX as i128,
            u64::MAX as i128
        ),
        Ok(Scalar::U64(u64::MAX - 1))
    );
    assert_eq!(
        int_bin(BinOp::MulHi, IntType::I32, -1, 1),
        Ok(Scalar::I32(-1))
    );
    assert_eq!(
        int_bin(BinOp::MulHi, IntType::U8, 200, 200),
        Ok(Scalar::U8(156))
    );
    let u8t = PrimType::Int(IntType::U8);
    assert_eq!(
        ternop(
            TernOp::MadHi,
            u8t,
            Scalar::U8(200),
            Scalar::U8(200),
            Scalar::U8(100)
        ),
        Ok(Scalar::U8(0))
    );
    assert_eq!(int_bin(BinOp::Min, IntType::U8, 200, 3), Ok(Scalar::U8(3)));
    assert_eq!(int_bin(BinOp::Max, IntType::I8, -100, 3), Ok(Scalar::I8(3)));
}

#[test]
fn comparisons() {
    assert_eq!(
        cmp(CmpOp::Lt, Scalar::U8(200), Scalar::U8(3)),
        Ok(Scalar::Bool(false))
    );
    assert_eq!(
        cmp(CmpOp::Lt, Scalar::I8(-56), Scalar::I8(3)),
        Ok(Scalar::Bool(true))
    );
    assert_eq!(
        cmp(CmpOp::Eq, Scalar::F64(f64::NAN), Scalar::F64(f64::NAN)),
        Ok(Scalar::Bool(false))
    );
    assert_eq!(
        cmp(CmpOp::Ne, Scalar::F64(f64::NAN), Scalar::F64(f64::NAN)),
        Ok(Scalar::Bool(true))
    );
    assert_eq!(
        cmp(CmpOp::Le, Scalar::F32(-0.0), Scalar::F32(0.0)),
        Ok(Scalar::Bool(true))
    );
    assert_eq!(
        cmp(CmpOp::Lt, Scalar::Bool(false), Scalar::Bool(true)),
        Ok(Scalar::Bool(true))
    );
}

#[test]
fn conversions() {
    let i32t = PrimType::Int(IntType::I32);
    let u8t = PrimType::Int(IntType::U8);
    let f32t = PrimType::Float(FloatType::F32);
    let c = |to, x| convert(ConvOp::Cast, to, x).unwrap();
    assert_eq!(c(i32t, Scalar::F64(-3.9)), Scalar::I32(-3));
    assert_eq!(c(i32t, Scalar::F64(f64::NAN)), Scalar::I32(0));
    assert_eq!(c(i32t, Scalar::F32(f32::INFINITY)), Scalar::I32(0));
    assert_eq!(c(u8t, Scalar::I32(-1)), Scalar::U8(255));
    assert_eq!(
        c(PrimType::Int(IntType::I64), Scalar::U32(u32::MAX)),
        Scalar::I64(u32::MAX as i64)
    );
    assert_eq!(
        c(PrimType::Int(IntType::I64), Scalar::I8(-2)),
        Scalar::I64(-2)
    );
    assert_eq!(c(f32t, Scalar::U64(u64::MAX)), Scalar::F32(u64::MAX as f32));
    assert_eq!(
        c(f32t, Scalar::I64((1 << 53) + 1)),
        Scalar::F32(((1i64 << 53) + 1) as f32)
    );
    assert_eq!(c(PrimType::Bool, Scalar::I32(7)), Scalar::Bool(true));
    assert_eq!(c(PrimType::Bool, Scalar::F32(0.0)), Scalar::Bool(false));
    assert_eq!(c(i32t, Scalar::Bool(true)), Scalar::I32(1));
    let bits = convert(
        ConvOp::Bitcast,
        PrimType::Int(IntType::U32),
        Scalar::F32(1.0),
    )
    .unwrap();
    assert_eq!(bits, Scalar::U32(0x3f80_0000));
    let back = convert(ConvOp::Bitcast, f32t, bits).unwrap();
    assert_eq!(back, Scalar::F32(1.0));
    assert!(convert(ConvOp::Bitcast, f32t, Scalar::I64(0)).is_err());
}

fn f64un(op: UnOp, x: f64) -> f64 {
    match unop(op, PrimType::Float(FloatType::F64), Scalar::F64(x)) {
        Ok(Scalar::F64(r)) => r,
        r => panic!("{op}: {r:?}"),
    }
}

fn f64bin(op: BinOp, x: f64, y: f64) -> f64 {
    match binop(
        op,
        PrimType::Float(FloatType::F64),
        Scalar::F64(x),
        Scalar::F64(y),
    ) {
        Ok(Scalar::F64(r)) => r,
        r => panic!("{op}: {r:?}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

#[test]
fn float_functions() {
    use UnOp::*;
    let table: &[(UnOp, f64, f64)] = &[
        (Sqrt, 2.0, std::f64::consts::SQRT_2),
        (Rsqrt, 4.0, 0.5),
        (Cbrt, -27.0, -3.0),
        (Exp, 1.0, std::f64::consts::E),
        (Expm1, 1e-10, 1.00000000005e-10),
        (Log, std::f64::consts::E, 1.0),
        (Log2, 8.0, 3.0),
        (Log10, 1000.0, 3.0),
        (Log1p, 1e-10, 9.9999999995e-11),
        (Gamma, 5.0, 24.0),
        (Gamma, 0.5, 1.772_453_850_905_516),
        (Lgamma, 10.0, 12.801_827_480_081_469),
        (Erf, 1.0, 0.842_700_792_949_714_9),
        (Erfc, 1.0, 0.157_299_207_050_285_13),
        (Atan, 1.0, std::f64::consts::FRAC_PI_4),
        (AtanPi, 1.0, 0.25),
        (AcosPi, -1.0, 1.0),
        (Tanh, 0.5, 0.462_117_157_260_009_8),
        (Asinh, 1.0, 0.881_373_587_019_543),
        (Round, 2.5, 2.0),
        (Round, 3.5, 4.0),
        (Round, -2.5, -2.0),
        (Floor, -1.5, -2.0),
        (Ceil, -1.5, -1.0),
        (Trunc, -1.5, -1.0),
        (Signum, -3.0, -1.0),
        (Signum, 0.0, 0.0),
        (Abs, -0.5, 0.5),
    ];
    for &(op, x, want) in table {
        let got = f64un(op, x);
        assert!(close(got, want), "{op}({x}) = {got}, expected {want}");
    }
    assert!(f64un(Signum, f64::NAN).is_nan());
    assert!(f64un(Sqrt, -1.0).is_nan());
    assert_eq!(f64un(Log, 0.0), f64::NEG_INFINITY);
    assert_eq!(
        unop(
            IsNan,
            PrimType::Float(FloatType::F64),
            Scalar::F64(f64::NAN)
        ),
        Ok(Scalar::Bool(true))
    );
    assert_eq!(
        unop(
            IsInf,
            PrimType::Float(FloatType::F32),
            Scalar::F32(-f32::INFINITY)
        ),
        Ok(Scalar::Bool(true))
    );
    assert!(close(f64bin(BinOp::Hypot, 3.0, 4.0), 5.0));
    assert!(close(
        f64bin(BinOp::Atan2, 1.0, -1.0),
        3.0 * std::f64::consts::FRAC_PI_4
    ));
    assert!(close(f64bin(BinOp::Atan2Pi, 1.0, -1.0), 0.75));
    assert_eq!(f64bin(BinOp::Pow, 2.0, 10.0), 1024.0);
    assert_eq!(f64bin(BinOp::Mod, -7.5, 2.0), -1.5);
    assert_eq!(f64bin(BinOp::CopySign, 3.0, -0.0), -3.0);
    assert_eq!(f64bin(BinOp::NextAfter, 1.0, 2.0), 1.0 + f64::EPSILON);
    assert_eq!(f64bin(BinOp::Min, f64::NAN, 1.0), 1.0);
    assert_eq!(f64bin(BinOp::Div, 1.0, 0.0), f64::INFINITY);
    let ld = binop(
        BinOp::Ldexp,
        PrimType::Float(FloatType::F64),
        Scalar::F64(3.0),
        Scalar::I32(4),
    );
    assert_eq!(ld, Ok(Scalar::F64(48.0)));
    let f64t = PrimType::Float(FloatType::F64);
    let fma = ternop(
        TernOp::Fma,
        f64t,
        Scalar::F64(0.1),
        Scalar::F64(10.0),
        Scalar::F64(-1.0),
    );
    assert_eq!(fma, Ok(Scalar::F64(0.1f64.mul_add(10.0, -1.0))));
    assert_ne!(fma, Ok(Scalar::F64(0.0)), "fma must not round the product");
    let lerp = ternop(
        TernOp::Lerp,
        f64t,
        Scalar::F64(2.0),
        Scalar::F64(4.0),
        Scalar::F64(0.25),
    );
    assert_eq!(lerp, Ok(Scalar::F64(2.5)));
}

#[test]
fn f32_and_f16_are_computed_at_their_precision() {
    let f32t = PrimType::Float(FloatType::F32);
    assert_eq!(
        binop(BinOp::Add, f32t, Scalar::F32(16777216.0), Scalar::F32(1.0)),
        Ok(Scalar::F32(16777216.0))
    );
    assert_eq!(
        unop(UnOp::Gamma, f32t, Scalar::F32(5.0)),
        Ok(Scalar::F32(24.0))
    );
    let f16t = PrimType::Float(FloatType::F16);
    let h = |x: f32| Scalar::F16(half::f16::from_f32(x));
    assert_eq!(binop(BinOp::Add, f16t, h(2048.0), h(1.0)), Ok(h(2048.0)));
    assert_eq!(unop(UnOp::Sqrt, f16t, h(4.0)), Ok(h(2.0)));
    assert_eq!(
        binop(BinOp::NextAfter, f16t, h(1.0), h(2.0)),
        Ok(h(1.0 + 0.0009765625))
    );
    assert_eq!(
        binop(BinOp::NextAfter, f16t, h(0.0), h(-1.0)),
        Ok(Scalar::F16(-half::f16::from_bits(1)))
    );
}

#[test]
fn operators_on_wrong_types_are_errors() {
    assert!(unop(UnOp::Sqrt, PrimType::Int(IntType::I32), Scalar::I32(4)).is_err());
    assert!(binop(
        BinOp::Shl,
        PrimType::Float(FloatType::F32),
        Scalar::F32(1.0),
        Scalar::F32(1.0)
    )
    .is_err());
    assert!(binop(
        BinOp::Add,
        PrimType::Bool,
        Scalar::Bool(true),
        Scalar::Bool(true)
    )
    .is_err());
    assert_eq!(
        binop(
            BinOp::Xor,
            PrimType::Bool,
            Scalar::Bool(true),
            Scalar::Bool(true)
        ),
        Ok(Scalar::Bool(false))
    );
    assert_eq!(
        unop(UnOp::Not, PrimType::Bool, Scalar::Bool(true)),
        Ok(Scalar::Bool(false))
    );
}
