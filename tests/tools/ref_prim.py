"""Reference implementations for tests/prim."""
import math
import struct
from fut import (wrap, fdiv, fmod, quot, rem, f32, conv, popc, clz, ctz,
                 mul_hi, unsigned, sgn, fsgn, INT_BITS)


def ops(t):
    return lambda a, b: (wrap(a + b, t), wrap(a - b, t), wrap(a * b, t), wrap(-a, t))


def divs(t):
    return lambda a, b: (wrap(fdiv(a, b), t), wrap(fmod(a, b), t),
                         wrap(quot(a, b), t), wrap(rem(a, b), t))


def shifts(t):
    def f(x, s):
        left = wrap(x << s, t)
        right = x >> s  # Python >> is arithmetic; unsigned values are >= 0
        return left, wrap(right, t)
    return f


def fdivide(a, b):
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def fmul(a, b):
    if (math.isinf(a) and b == 0.0) or (math.isinf(b) and a == 0.0):
        return math.nan
    return a * b


def fsub(a, b):
    if math.isinf(a) and math.isinf(b) and (a > 0) == (b > 0):
        return math.nan
    return a - b


def fadd(a, b):
    if math.isinf(a) and math.isinf(b) and (a > 0) != (b > 0):
        return math.nan
    return a + b


def unary(r):
    return lambda x: tuple(r(v) for v in (
        math.sqrt(x), math.exp(x), math.log(x), math.sin(x), math.cos(x),
        math.tan(x), math.atan(x), math.cbrt(x), math.log1p(x), math.expm1(x)))


def unit(r):
    return lambda x: tuple(r(v) for v in (
        math.asin(x), math.acos(x), math.sinh(x), math.cosh(x), math.tanh(x),
        math.erf(x), math.erfc(x)))


def special(r):
    return lambda x: tuple(r(v) for v in (
        math.lgamma(x), math.gamma(x), math.log2(x), math.log10(x)))


def binary(r):
    return lambda x, y: tuple(r(v) for v in (
        math.atan2(x, y), math.hypot(x, y), x * y + 1.0, x ** y, min(x, y),
        max(x, y)))


def ident(x):
    return x


def prod(xs, t):
    r = 1
    for x in xs:
        r = wrap(r * x, t)
    return r


def fprod(xs):
    r = 1.0
    for x in xs:
        r = f32(r * x)
    return r


def bits32(x):
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return b, struct.unpack("<f", struct.pack("<I", b + 1))[0]


def bits64(x):
    b = struct.unpack("<Q", struct.pack("<d", x))[0]
    return b, struct.unpack("<d", struct.pack("<Q", b - 1))[0]


REFS = {
    "prim/int_wrap.fut": {"ops_" + t: ops(t) for t in INT_BITS},
    "prim/division.fut": {"div_" + t: divs(t) for t in ("i32", "i64", "i8", "u32")},
    "prim/shifts.fut": {"sh_" + t: shifts(t) for t in ("i32", "u32", "i8", "u64")},
    "prim/bitwise.fut": {
        "ops_i32": lambda a, b: (a & b, a | b, a ^ b, ~a),
        "ops_u16": lambda a, b: (a & b, a | b, a ^ b, unsigned(~a, "u16")),
        "count_i32": lambda x: (popc(x, "i32"), clz(x, "i32"), ctz(x, "i32")),
        "count_u8": lambda x: (popc(x, "u8"), clz(x, "u8"), ctz(x, "u8")),
        "count_i64": lambda x: (popc(x, "i64"), clz(x, "i64"), ctz(x, "i64")),
        "bits_of": lambda x: [(unsigned(x, "i32") >> b) & 1 for b in (0, 1, 2, 31)],
    },
    "prim/float_special.fut": {
        "divs": lambda x: (fdivide(1.0, x), fdivide(-1.0, x), fdivide(x, x)),
        "preds": lambda x: (math.isnan(x), math.isinf(x), x == x, x < math.inf),
        "arith": lambda x: (fsub(x, x), fmul(x, 0.0), fadd(math.inf, x), True),
        "overflow": lambda x: (f32(x * x), x * x),
        "neg_zero": lambda x: (fdivide(1.0, -x * x), -x == x),
    },
    "prim/conversions.fut": {
        "f_to_i": lambda x: (wrap(int(x), "i32"), int(x), wrap(int(x), "i8"),
                             int(x)),
        "f_to_u": lambda x: (int(x), int(x), int(x)),
        "i_to_f": lambda x: (f32(float(x)), float(x), f32(float(wrap(x, "i32")))),
        "int_int": lambda x: tuple(conv(x, "i32", t) for t in
                                   ("u8", "i8", "i64", "u32", "u64", "i16")),
        "from_unsigned": lambda a, b: (conv(a, "u8", "i32"), conv(a, "u8", "i8"),
                                       conv(b, "u32", "i64"), b, float(b)),
        "floats": lambda x: (f32(x), f32(x)),
        "bools": lambda b, x: (int(b), float(b), x != 0, int(b)),
    },
    "prim/u8_overflow.fut": lambda a, b: (
        wrap(a + b, "u8"), wrap(a - b, "u8"), wrap(a * b, "u8"), a // b, a % b,
        wrap(a * a, "u8"), wrap(255 + a, "u8")),
    "prim/math_f64.fut": {"unary_f64": unary(ident), "unit_interval_f64": unit(ident),
                          "special_f64": special(ident), "binary_f64": binary(ident)},
    "prim/math_f32.fut": {"unary_f32": unary(f32), "unit_interval_f32": unit(f32),
                          "special_f32": special(f32), "binary_f32": binary(f32)},
    "prim/intfuncs.fut": {
        "funcs_i32": lambda a, b: (min(a, b), max(a, b), abs(a), sgn(a),
                                   mul_hi(a, b, "i32"),
                                   wrap(mul_hi(a, b, "i32") + 1, "i32")),
        "funcs_i64": lambda a, b: (min(a, b), abs(a), sgn(b), mul_hi(a, b, "i64"),
                                   wrap(mul_hi(a, b, "i64") - 1, "i64")),
        "funcs_u64": lambda a, b: (min(a, b), max(a, b), mul_hi(a, b, "u64"),
                                   wrap(mul_hi(a, b, "u64") + 5, "u64")),
        "funcs_u8": lambda a, b: (max(a, b), mul_hi(a, b, "u8"),
                                  wrap(mul_hi(a, b, "u8") + 250, "u8"), sgn(a)),
        "reductions": lambda xs: (wrap(sum(xs), "i32"), prod(xs, "i32"),
                                  max(xs, default=-2 ** 31),
                                  min(xs, default=2 ** 31 - 1)),
    },
    "prim/float_funcs.fut": {
        "rounding": lambda x: (float(math.floor(x)), float(math.ceil(x)),
                               float(round(x)), float(math.trunc(x)), abs(x),
                               fsgn(x)),
        "bits32": bits32,
        "bits64": bits64,
        "reductions": lambda xs: (f32(sum(xs)), fprod(xs), max(xs, default=-math.inf),
                                  min(xs, default=math.inf)),
    },
    "prim/comparisons.fut": {
        "cmp_u32": lambda a, b: (a < b, a <= b, a == b, a != b),
        "cmp_i8": lambda a, b: (a < b, a >= b, a == b, a > b),
        "cmp_f64": lambda a, b: (a < b, a >= b, a == b, a != b, a == a),
    },
    "prim/constants.fut": lambda k: (
        wrap(2 ** 31 - 1 - (k - 1), "i32"), -2 ** 31, 255, -2 ** 63, math.pi * k,
        f32(math.e), True, math.inf, wrap(-128 + k, "i8"), 2.220446049250313e-16),
    "prim/bool_ops.fut": {
        "logic": lambda a, b: (a and b, a or b, not a, a == b, a != b),
        "guarded_and": lambda xs, i: i < len(xs) and xs[i] > 0,
        "guarded_or": lambda xs, i: i >= len(xs) or xs[i] == 0,
    },
}
