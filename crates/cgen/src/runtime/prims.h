/* parad C runtime, part 1: scalar types and every scalar operator with
 * the semantics of the reference interpreter (crates/interp/src/prim.rs).
 *
 * Naming (used blindly by the code generator):
 *   p_<unop>_<t>(x), p_<binop>_<t>(x, y), p_<ternop>_<t>(x, y, z),
 *   p_<cmpop>_<t>(x, y) -> bool, p_cast_<from>_<to>(x), p_bitcast_<from>_<to>(x).
 *
 * No operator has undefined behaviour on any input: integer arithmetic is
 * done on unsigned types (wrapping), division by zero gives 0 (the
 * generated code checks it before the call), float->int casts are guarded.
 * Narrowing unsigned->signed conversions are implementation-defined
 * (modular on every compiler we support), never undefined. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getattr_np */
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdarg.h>
#include <math.h>

/* The interpreter never fuses a*b+c into one rounding; GCC in gnu modes
 * contracts by default. Turn contraction off for the rest of the program. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef int8_t i8;
typedef int16_t i16;
typedef int32_t i32;
typedef int64_t i64;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
__extension__ typedef _Float16 f16;
typedef float f32;
typedef double f64;

/* Thread-safe lgamma (POSIX names; declared here too in case the headers
 * hide them in a strict standard mode). */
extern double lgamma_r(double, int *);
extern float lgammaf_r(float, int *);

#define P_PI_F64 3.14159265358979323846
#define P_PI_F32 3.14159265358979323846f

/* ---- integers ------------------------------------------------------------
 * X(t, ut, st, uw, w): the type, its unsigned and signed types of the same
 * width, the unsigned type arithmetic is done in (never promoted to int),
 * and the width in bits. */
#define P_SINTS(X)                                                             \
  X(i8, u8, i8, u32, 8)                                                        \
  X(i16, u16, i16, u32, 16) X(i32, u32, i32, u32, 32) X(i64, u64, i64, u64, 64)
#define P_UINTS(X)                                                             \
  X(u8, u8, i8, u32, 8)                                                        \
  X(u16, u16, i16, u32, 16) X(u32, u32, i32, u32, 32) X(u64, u64, i64, u64, 64)
#define P_INTS(X) P_SINTS(X) P_UINTS(X)

/* Upper half of the unsigned product, per width. */
static inline u8 p__umulhi8(u8 x, u8 y) {
  return (u8)(((u32)x * (u32)y) >> 8);
}
static inline u16 p__umulhi16(u16 x, u16 y) {
  return (u16)(((u32)x * (u32)y) >> 16);
}
static inline u32 p__umulhi32(u32 x, u32 y) { return (u32)(((u64)x * (u64)y) >> 32); }
static inline u64 p__umulhi64(u64 x, u64 y) {
  __extension__ typedef unsigned __int128 p_u128;
  return (u64)(((p_u128)x * (p_u128)y) >> 64);
}

/* Operators common to signed and unsigned integers. Shift amounts are
 * values of the operand type; negative or >= width give 0 (shl, lshr) or
 * a shift by width-1 (ashr, which reads the bits as signed). */
#define P_INT_COMMON(t, ut, st, uw, w)                                         \
  static inline t p_add_##t(t x, t y) { return (t)((uw)x + (uw)y); }           \
  static inline t p_sub_##t(t x, t y) { return (t)((uw)x - (uw)y); }           \
  static inline t p_mul_##t(t x, t y) { return (t)((uw)x * (uw)y); }           \
  static inline t p_neg_##t(t x) { return (t)((uw)0 - (uw)x); }                \
  static inline t p_complement_##t(t x) { return (t)(~(uw)x); }                \
  static inline t p_and_##t(t x, t y) { return (t)(x & y); }                   \
  static inline t p_or_##t(t x, t y) { return (t)(x | y); }                    \
  static inline t p_xor_##t(t x, t y) { return (t)(x ^ y); }                   \
  static inline t p_min_##t(t x, t y) { return x < y ? x : y; }                \
  static inline t p_max_##t(t x, t y) { return x < y ? y : x; }                \
  static inline t p_pow_##t(t x, t y) {                                        \
    uw r = 1, b = (uw)x;                                                       \
    ut e = (ut)y; /* a negative exponent is checked by the caller */           \
    while (e != 0) {                                                           \
      if (e & 1) r = r * b;                                                    \
      b = b * b;                                                               \
      e = (ut)(e >> 1);                                                        \
    }                                                                          \
    return (t)r;                                                               \
  }                                                                            \
  static inline t p_shl_##t(t x, t y) {                                        \
    return (ut)y >= w ? (t)0 : (t)((uw)x << (ut)y);                            \
  }                                                                            \
  static inline t p_lshr_##t(t x, t y) {                                       \
    return (ut)y >= w ? (t)0 : (t)((ut)x >> (ut)y);                            \
  }                                                                            \
  static inline t p_ashr_##t(t x, t y) {                                       \
    int k = (ut)y >= w ? w - 1 : (int)(ut)y;                                   \
    st s = (st)x;                                                              \
    return s < 0 ? (t)(st)(~(~s >> k)) : (t)(st)(s >> k);                      \
  }                                                                            \
  static inline i32 p_popc_##t(t x) {                                          \
    return __builtin_popcountll((u64)(ut)x);                                   \
  }                                                                            \
  static inline i32 p_clz_##t(t x) {                                           \
    return x == 0 ? w : __builtin_clzll((u64)(ut)x) - (64 - w);                \
  }                                                                            \
  static inline i32 p_ctz_##t(t x) {                                           \
    return x == 0 ? w : __builtin_ctzll((u64)(ut)x);                           \
  }                                                                            \
  static inline bool p_eq_##t(t x, t y) { return x == y; }                     \
  static inline bool p_ne_##t(t x, t y) { return x != y; }                     \
  static inline bool p_lt_##t(t x, t y) { return x < y; }                      \
  static inline bool p_le_##t(t x, t y) { return x <= y; }                     \
  static inline bool p_gt_##t(t x, t y) { return x > y; }                      \
  static inline bool p_ge_##t(t x, t y) { return x >= y; }
P_INTS(P_INT_COMMON)

/* Signed: div/mod round towards negative infinity, quot/rem towards zero;
 * MIN / -1 wraps; a zero divisor gives 0. */
#define P_SINT_OPS(t, ut, st, uw, w)                                           \
  static inline t p_abs_##t(t x) { return x < 0 ? p_neg_##t(x) : x; }          \
  static inline t p_signum_##t(t x) { return (t)((x > 0) - (x < 0)); }         \
  static inline t p_quot_##t(t x, t y) {                                       \
    if (y == 0) return 0;                                                      \
    if (y == -1) return p_neg_##t(x);                                          \
    return (t)(x / y);                                                         \
  }                                                                            \
  static inline t p_rem_##t(t x, t y) {                                        \
    if (y == 0 || y == -1) return 0;                                           \
    return (t)(x % y);                                                         \
  }                                                                            \
  static inline t p_div_##t(t x, t y) {                                        \
    if (y == 0) return 0;                                                      \
    if (y == -1) return p_neg_##t(x);                                          \
    t q = (t)(x / y);                                                          \
    return (x % y != 0 && ((x < 0) != (y < 0))) ? (t)(q - 1) : q;              \
  }                                                                            \
  static inline t p_mod_##t(t x, t y) {                                        \
    if (y == 0 || y == -1) return 0;                                           \
    t r = (t)(x % y);                                                          \
    return (r != 0 && ((r < 0) != (y < 0))) ? (t)(r + y) : r;                  \
  }                                                                            \
  static inline t p_mul_hi_##t(t x, t y) {                                     \
    ut h = p__umulhi##w((ut)x, (ut)y);                                         \
    h = (ut)(h - (x < 0 ? (ut)y : (ut)0));                                     \
    h = (ut)(h - (y < 0 ? (ut)x : (ut)0));                                     \
    return (t)h;                                                               \
  }
P_SINTS(P_SINT_OPS)

#define P_UINT_OPS(t, ut, st, uw, w)                                           \
  static inline t p_abs_##t(t x) { return x; }                                 \
  static inline t p_signum_##t(t x) { return (t)(x != 0); }                    \
  static inline t p_quot_##t(t x, t y) { return y == 0 ? (t)0 : (t)(x / y); }  \
  static inline t p_rem_##t(t x, t y) { return y == 0 ? (t)0 : (t)(x % y); }   \
  static inline t p_div_##t(t x, t y) { return p_quot_##t(x, y); }             \
  static inline t p_mod_##t(t x, t y) { return p_rem_##t(x, y); }              \
  static inline t p_mul_hi_##t(t x, t y) { return p__umulhi##w(x, y); }
P_UINTS(P_UINT_OPS)

#define P_MAD_HI(t, ut, st, uw, w)                                             \
  static inline t p_mad_hi_##t(t x, t y, t z) {                                \
    return p_add_##t(p_mul_hi_##t(x, y), z);                                   \
  }
P_INTS(P_MAD_HI)

/* ---- bool (false < true) ------------------------------------------------- */
static inline bool p_not_bool(bool x) { return !x; }
static inline bool p_and_bool(bool x, bool y) { return x && y; }
static inline bool p_or_bool(bool x, bool y) { return x || y; }
static inline bool p_xor_bool(bool x, bool y) { return x != y; }
static inline bool p_eq_bool(bool x, bool y) { return x == y; }
static inline bool p_ne_bool(bool x, bool y) { return x != y; }
static inline bool p_lt_bool(bool x, bool y) { return !x && y; }
static inline bool p_le_bool(bool x, bool y) { return !x || y; }
static inline bool p_gt_bool(bool x, bool y) { return x && !y; }
static inline bool p_ge_bool(bool x, bool y) { return x || !y; }

/* ---- f32 and f64 -----------------------------------------------------------
 * Each computed at its own precision with libm; sinpi etc. are sin(pi*x) as
 * in the interpreter; asinh/acosh/atanh use the interpreter's formulas;
 * round is half-to-even (rint in the default rounding mode). min/max return
 * the other operand when one is NaN, and the first when they compare equal
 * (min(0.0, -0.0) is 0.0), as the interpreter does. */
#define P_FLOATS(X) X(f32, f, P_PI_F32) X(f64, , P_PI_F64)

#define P_F1(t, name, e)                                                       \
  static inline t p_##name##_##t(t x) { return e; }
#define P_F2(t, name, e)                                                       \
  static inline t p_##name##_##t(t x, t y) { return e; }

#define P_FLOAT_OPS(t, S, PI)                                                  \
  P_F1(t, neg, -x)                                                             \
  P_F1(t, abs, fabs##S(x))                                                     \
  P_F1(t, signum, x > 0 ? (t)1 : x < 0 ? (t)-1 : x)                            \
  P_F1(t, sqrt, sqrt##S(x))                                                    \
  P_F1(t, rsqrt, (t)1 / sqrt##S(x))                                            \
  P_F1(t, cbrt, cbrt##S(x))                                                    \
  P_F1(t, exp, exp##S(x))                                                      \
  P_F1(t, expm1, expm1##S(x))                                                  \
  P_F1(t, log, log##S(x))                                                      \
  P_F1(t, log2, log2##S(x))                                                    \
  P_F1(t, log10, log10##S(x))                                                  \
  P_F1(t, log1p, log1p##S(x))                                                  \
  P_F1(t, sin, sin##S(x))                                                      \
  P_F1(t, cos, cos##S(x))                                                      \
  P_F1(t, tan, tan##S(x))                                                      \
  P_F1(t, sinpi, sin##S(PI * x))                                               \
  P_F1(t, cospi, cos##S(PI * x))                                               \
  P_F1(t, tanpi, tan##S(PI * x))                                               \
  P_F1(t, asin, asin##S(x))                                                    \
  P_F1(t, acos, acos##S(x))                                                    \
  P_F1(t, atan, atan##S(x))                                                    \
  P_F1(t, asinpi, asin##S(x) / PI)                                             \
  P_F1(t, acospi, acos##S(x) / PI)                                             \
  P_F1(t, atanpi, atan##S(x) / PI)                                             \
  P_F1(t, sinh, sinh##S(x))                                                    \
  P_F1(t, cosh, cosh##S(x))                                                    \
  P_F1(t, tanh, tanh##S(x))                                                    \
  static inline t p_asinh_##t(t x) {                                           \
    t ax = fabs##S(x), ix = (t)1 / ax;                                         \
    return copysign##S(log1p##S(ax + ax / (hypot##S((t)1, ix) + ix)), x);      \
  }                                                                            \
  static inline t p_acosh_##t(t x) {                                           \
    if (x < (t)1) return (t)NAN;                                               \
    return log##S(x + sqrt##S(x - (t)1) * sqrt##S(x + (t)1));                  \
  }                                                                            \
  P_F1(t, atanh, (t)0.5 * log1p##S(((t)2 * x) / ((t)1 - x)))                   \
  P_F1(t, gamma, tgamma##S(x))                                                 \
  static inline t p_lgamma_##t(t x) {                                          \
    int sign;                                                                  \
    return lgamma##S##_r(x, &sign);                                            \
  }                                                                            \
  P_F1(t, erf, erf##S(x))                                                      \
  P_F1(t, erfc, erfc##S(x))                                                    \
  P_F1(t, ceil, ceil##S(x))                                                    \
  P_F1(t, floor, floor##S(x))                                                  \
  P_F1(t, trunc, trunc##S(x))                                                  \
  P_F1(t, round, rint##S(x))                                                   \
  static inline bool p_isinf_##t(t x) { return isinf(x) != 0; }                \
  static inline bool p_isnan_##t(t x) { return x != x; }                       \
  P_F2(t, add, x + y)                                                          \
  P_F2(t, sub, x - y)                                                          \
  P_F2(t, mul, x * y)                                                          \
  P_F2(t, div, x / y)                                                          \
  P_F2(t, mod, fmod##S(x, y))                                                  \
  P_F2(t, pow, pow##S(x, y))                                                   \
  P_F2(t, min, (y < x || x != x) ? y : x)                                      \
  P_F2(t, max, (y > x || x != x) ? y : x)                                      \
  P_F2(t, atan2, atan2##S(x, y))                                               \
  P_F2(t, atan2pi, atan2##S(x, y) / PI)                                        \
  P_F2(t, hypot, hypot##S(x, y))                                               \
  P_F2(t, copysign, copysign##S(x, y))                                         \
  P_F2(t, nextafter, nextafter##S(x, y))                                       \
  static inline t p_ldexp_##t(t x, i32 n) { return ldexp##S(x, n); }          \
  static inline t p_fma_##t(t x, t y, t z) { return fma##S(x, y, z); }         \
  static inline t p_mad_##t(t x, t y, t z) { return x * y + z; }              \
  static inline t p_lerp_##t(t x, t y, t z) { return x + (y - x) * z; }        \
  static inline bool p_eq_##t(t x, t y) { return x == y; }                     \
  static inline bool p_ne_##t(t x, t y) { return x != y; }                     \
  static inline bool p_lt_##t(t x, t y) { return x < y; }                      \
  static inline bool p_le_##t(t x, t y) { return x <= y; }                     \
  static inline bool p_gt_##t(t x, t y) { return x > y; }                      \
  static inline bool p_ge_##t(t x, t y) { return x >= y; }
P_FLOATS(P_FLOAT_OPS)

/* ---- f16: computed in f32 and rounded once, as the interpreter does ------- */
#define P_H1(name)                                                             \
  static inline f16 p_##name##_f16(f16 x) { return (f16)p_##name##_f32((f32)x); }
#define P_H2(name)                                                             \
  static inline f16 p_##name##_f16(f16 x, f16 y) {                             \
    return (f16)p_##name##_f32((f32)x, (f32)y);                                \
  }
#define P_H3(name)                                                             \
  static inline f16 p_##name##_f16(f16 x, f16 y, f16 z) {                      \
    return (f16)p_##name##_f32((f32)x, (f32)y, (f32)z);                        \
  }
#define P_HC(name)                                                             \
  static inline bool p_##name##_f16(f16 x, f16 y) {                            \
    return p_##name##_f32((f32)x, (f32)y);                                     \
  }
P_H1(neg) P_H1(abs) P_H1(signum) P_H1(sqrt) P_H1(rsqrt) P_H1(cbrt) P_H1(exp)
P_H1(expm1) P_H1(log) P_H1(log2) P_H1(log10) P_H1(log1p) P_H1(sin) P_H1(cos)
P_H1(tan) P_H1(sinpi) P_H1(cospi) P_H1(tanpi) P_H1(asin) P_H1(acos) P_H1(atan)
P_H1(asinpi) P_H1(acospi) P_H1(atanpi) P_H1(sinh) P_H1(cosh) P_H1(tanh)
P_H1(asinh) P_H1(acosh) P_H1(atanh) P_H1(gamma) P_H1(lgamma) P_H1(erf)
P_H1(erfc) P_H1(ceil) P_H1(floor) P_H1(trunc) P_H1(round)
P_H2(add) P_H2(sub) P_H2(mul) P_H2(div) P_H2(mod) P_H2(pow) P_H2(min) P_H2(max)
P_H2(atan2) P_H2(atan2pi) P_H2(hypot) P_H2(copysign)
P_H3(fma) P_H3(mad) P_H3(lerp)
P_HC(eq) P_HC(ne) P_HC(lt) P_HC(le) P_HC(gt) P_HC(ge)
static inline bool p_isinf_f16(f16 x) { return p_isinf_f32((f32)x); }
static inline bool p_isnan_f16(f16 x) { return p_isnan_f32((f32)x); }
static inline f16 p_ldexp_f16(f16 x, i32 n) { return (f16)p_ldexp_f32((f32)x, n); }
static inline u16 p__bits_f16(f16 x) { u16 b; memcpy(&b, &x, 2); return b; }
static inline f16 p__f16_of_bits(u16 b) { f16 x; memcpy(&x, &b, 2); return x; }
/* nextafter at half precision, on the bit pattern. */
static inline f16 p_nextafter_f16(f16 x, f16 y) {
  f32 a = (f32)x, b = (f32)y;
  if (a != a || b != b) return (f16)NAN;
  if (a == b) return y;
  if (a == 0) return p__f16_of_bits(b > 0 ? 0x0001 : 0x8001);
  u16 bits = p__bits_f16(x);
  bool away = (b > a) == (a > 0);
  return p__f16_of_bits((u16)(away ? bits + 1 : bits - 1));
}

/* ---- conversions ----------------------------------------------------------
 * float->int truncates; NaN and infinities give 0; otherwise the low bits
 * of the truncated value (saturated to the 128-bit range, as the
 * interpreter does), so out-of-range values wrap instead of being UB. */
static inline u64 p__ftoi(f64 x) {
  if (x > -0x1p63 && x < 0x1p63) return (u64)(i64)x;
  if (x != x || isinf(x)) return 0;
  if (x >= 0x1p127) return UINT64_MAX; /* low bits of 2^127 - 1 */
  if (x <= -0x1p127) return 0;         /* low bits of -2^127 */
  __extension__ typedef __int128 p_i128;
  __extension__ typedef unsigned __int128 p_u128;
  return (u64)(p_u128)(p_i128)x;
}

#define P_CAST(f, t, e)                                                        \
  static inline t p_cast_##f##_##t(f x) { return e; }
/* To signed: the value wraps; to unsigned: zero-extended from the source
 * width (as the interpreter does), then truncated. */
#define P_CAST_FROM_INT(f, uf, st_, uw_, w_)                                   \
  P_CAST(f, i8, (i8)x) P_CAST(f, i16, (i16)x) P_CAST(f, i32, (i32)x)           \
  P_CAST(f, i64, (i64)x) P_CAST(f, u8, (u8)(uf)x) P_CAST(f, u16, (u16)(uf)x)   \
  P_CAST(f, u32, (u32)(uf)x) P_CAST(f, u64, (u64)(uf)x)                        \
  P_CAST(f, f16, (f16)(f64)x) P_CAST(f, f32, (f32)x) P_CAST(f, f64, (f64)x)    \
  P_CAST(f, bool, x != 0)
#define P_CAST_FROM_INT_(t, ut, st, uw, w) P_CAST_FROM_INT(t, ut, st, uw, w)
P_INTS(P_CAST_FROM_INT_)

#define P_CAST_FROM_FLOAT(f)                                                   \
  P_CAST(f, i8, (i8)(u8)p__ftoi(x)) P_CAST(f, i16, (i16)(u16)p__ftoi(x))       \
  P_CAST(f, i32, (i32)(u32)p__ftoi(x)) P_CAST(f, i64, (i64)p__ftoi(x))         \
  P_CAST(f, u8, (u8)p__ftoi(x)) P_CAST(f, u16, (u16)p__ftoi(x))                \
  P_CAST(f, u32, (u32)p__ftoi(x)) P_CAST(f, u64, p__ftoi(x))                   \
  P_CAST(f, f16, (f16)x) P_CAST(f, f32, (f32)x) P_CAST(f, f64, (f64)x)         \
  P_CAST(f, bool, x != 0)
P_CAST_FROM_FLOAT(f16) P_CAST_FROM_FLOAT(f32) P_CAST_FROM_FLOAT(f64)

P_CAST(bool, i8, (i8)x) P_CAST(bool, i16, (i16)x) P_CAST(bool, i32, (i32)x)
P_CAST(bool, i64, (i64)x) P_CAST(bool, u8, (u8)x) P_CAST(bool, u16, (u16)x)
P_CAST(bool, u32, (u32)x) P_CAST(bool, u64, (u64)x) P_CAST(bool, f16, (f16)x)
P_CAST(bool, f32, (f32)x) P_CAST(bool, f64, (f64)x) P_CAST(bool, bool, x)

/* Bitcasts between integer and float types of the same width. */
#define P_BITCAST(f, t)                                                        \
  static inline t p_bitcast_##f##_##t(f x) {                                   \
    t r;                                                                       \
    memcpy(&r, &x, sizeof r);                                                  \
    return r;                                                                  \
  }
P_BITCAST(i16, f16) P_BITCAST(u16, f16) P_BITCAST(f16, i16) P_BITCAST(f16, u16)
P_BITCAST(i32, f32) P_BITCAST(u32, f32) P_BITCAST(f32, i32) P_BITCAST(f32, u32)
P_BITCAST(i64, f64) P_BITCAST(u64, f64) P_BITCAST(f64, i64) P_BITCAST(f64, u64)

/* ---- atomics (for reductions and scatter in parallel loops) ---------------
 * Floats are compared by their bits; a float add is a CAS loop. */
#define P_ATOMIC_LOAD_CAS(t)                                                   \
  static inline t p_atomic_load_##t(t *p) {                                    \
    t r;                                                                       \
    __atomic_load(p, &r, __ATOMIC_SEQ_CST);                                    \
    return r;                                                                  \
  }                                                                            \
  static inline bool p_cas_##t(t *p, t *expected, t desired) {                 \
    return __atomic_compare_exchange(p, expected, &desired, false,             \
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);      \
  }
#define P_ATOMIC_INT(t, ut, st, uw, w)                                         \
  P_ATOMIC_LOAD_CAS(t)                                                         \
  static inline t p_atomic_add_##t(t *p, t v) {                                \
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                         \
  }
P_INTS(P_ATOMIC_INT)
#define P_ATOMIC_FLOAT(t)                                                      \
  P_ATOMIC_LOAD_CAS(t)                                                         \
  static inline t p_atomic_add_##t(t *p, t v) {                                \
    t old = p_atomic_load_##t(p);                                              \
    while (!p_cas_##t(p, &old, p_add_##t(old, v))) {                           \
    }                                                                          \
    return old;                                                                \
  }
P_ATOMIC_FLOAT(f16) P_ATOMIC_FLOAT(f32) P_ATOMIC_FLOAT(f64)
P_ATOMIC_LOAD_CAS(bool)
