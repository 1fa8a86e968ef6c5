/* parad OpenCL prelude: the scalar types and operators that GPU kernels are
 * printed against. Names and semantics mirror the C runtime's
 * crates/cgen/src/runtime/prims.h (the same code generator prints both), in
 * OpenCL C 1.2; atomics take __global pointers. f16 exists only where the
 * device has cl_khr_fp16; 64-bit atomics need cl_khr_int64_base_atomics.
 * Exact float results need -cl-fp32-correctly-rounded-divide-sqrt and no
 * fast-math options. */

#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
#ifdef cl_khr_int64_extended_atomics
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#endif
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

typedef char i8;
typedef short i16;
typedef int i32;
typedef long i64;
typedef uchar u8;
typedef ushort u16;
typedef uint u32;
typedef ulong u64;
#ifdef cl_khr_fp16
typedef half f16;
#endif
typedef float f32;
typedef double f64;

#define P_PI_F64 3.14159265358979323846
#define P_PI_F32 3.14159265358979323846f
/* C's NAN, a positive quiet NaN (some devices' NAN has other bits). */
#define P_NAN as_float(0x7fc00000u)

/* ---- integers ------------------------------------------------------------
 * X(t, ut, st, uw, w): the type, its unsigned and signed types of the same
 * width, the unsigned type arithmetic is done in, and the width in bits. */
#define P_SINTS(X)                                                             \
  X(i8, u8, i8, u32, 8)                                                        \
  X(i16, u16, i16, u32, 16) X(i32, u32, i32, u32, 32) X(i64, u64, i64, u64, 64)
#define P_UINTS(X)                                                             \
  X(u8, u8, i8, u32, 8)                                                        \
  X(u16, u16, i16, u32, 16) X(u32, u32, i32, u32, 32) X(u64, u64, i64, u64, 64)
#define P_INTS(X) P_SINTS(X) P_UINTS(X)

/* Shift amounts are values of the operand type; negative or >= width give
 * 0 (shl, lshr) or a shift by width-1 (ashr, which reads the bits as
 * signed). */
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
  static inline i32 p_popc_##t(t x) { return (i32)popcount((ut)x); }           \
  static inline i32 p_clz_##t(t x) { return x == 0 ? w : (i32)clz((ut)x); }    \
  static inline i32 p_ctz_##t(t x) {                                           \
    return x == 0 ? w : (i32)popcount((ut)(~(ut)x & (ut)((ut)x - 1)));         \
  }                                                                            \
  static inline t p_mul_hi_##t(t x, t y) { return mul_hi(x, y); }              \
  static inline t p_mad_hi_##t(t x, t y, t z) {                                \
    return p_add_##t(mul_hi(x, y), z);                                         \
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
  }
P_SINTS(P_SINT_OPS)

#define P_UINT_OPS(t, ut, st, uw, w)                                           \
  static inline t p_abs_##t(t x) { return x; }                                 \
  static inline t p_signum_##t(t x) { return (t)(x != 0); }                    \
  static inline t p_quot_##t(t x, t y) { return y == 0 ? (t)0 : (t)(x / y); }  \
  static inline t p_rem_##t(t x, t y) { return y == 0 ? (t)0 : (t)(x % y); }   \
  static inline t p_div_##t(t x, t y) { return p_quot_##t(x, y); }             \
  static inline t p_mod_##t(t x, t y) { return p_rem_##t(x, y); }
P_UINTS(P_UINT_OPS)

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
 * The built-ins are overloaded, so one definition serves both widths.
 * sinpi etc. are sin(pi*x); rsqrt is 1/sqrt; round is half-to-even; min and
 * max return the other operand when one is NaN, and the first when they
 * compare equal. X's third argument is the |x| above which tanh rounds to
 * +-1, returned directly since some devices' tanh never reaches it. */
#define P_FLOATS(X) X(f32, P_PI_F32, 9.1f) X(f64, P_PI_F64, 19.1)

#define P_F1(t, name, e)                                                       \
  static inline t p_##name##_##t(t x) { return e; }
#define P_F2(t, name, e)                                                       \
  static inline t p_##name##_##t(t x, t y) { return e; }

#define P_FLOAT_OPS(t, PI, SAT)                                                \
  P_F1(t, neg, -x)                                                             \
  P_F1(t, abs, fabs(x))                                                        \
  P_F1(t, signum, x > 0 ? (t)1 : x < 0 ? (t)-1 : x)                            \
  P_F1(t, sqrt, sqrt(x))                                                       \
  P_F1(t, rsqrt, (t)1 / sqrt(x))                                               \
  P_F1(t, cbrt, cbrt(x))                                                       \
  P_F1(t, exp, exp(x))                                                         \
  P_F1(t, expm1, expm1(x))                                                     \
  P_F1(t, log, log(x))                                                         \
  P_F1(t, log2, log2(x))                                                       \
  P_F1(t, log10, log10(x))                                                     \
  P_F1(t, log1p, log1p(x))                                                     \
  P_F1(t, sin, sin(x))                                                         \
  P_F1(t, cos, cos(x))                                                         \
  P_F1(t, tan, tan(x))                                                         \
  P_F1(t, sinpi, sin(PI * x))                                                  \
  P_F1(t, cospi, cos(PI * x))                                                  \
  P_F1(t, tanpi, tan(PI * x))                                                  \
  P_F1(t, asin, asin(x))                                                       \
  P_F1(t, acos, acos(x))                                                       \
  P_F1(t, atan, atan(x))                                                       \
  P_F1(t, asinpi, asin(x) / PI)                                                \
  P_F1(t, acospi, acos(x) / PI)                                                \
  P_F1(t, atanpi, atan(x) / PI)                                                \
  P_F1(t, sinh, sinh(x))                                                       \
  P_F1(t, cosh, cosh(x))                                                       \
  P_F1(t, tanh, fabs(x) > SAT ? copysign((t)1, x) : tanh(x))                 \
  static inline t p_asinh_##t(t x) {                                           \
    t ax = fabs(x), ix = (t)1 / ax;                                            \
    return copysign(log1p(ax + ax / (hypot((t)1, ix) + ix)), x);               \
  }                                                                            \
  static inline t p_acosh_##t(t x) {                                           \
    if (x < (t)1) return (t)P_NAN;                                             \
    return log(x + sqrt(x - (t)1) * sqrt(x + (t)1));                           \
  }                                                                            \
  P_F1(t, atanh, (t)0.5 * log1p(((t)2 * x) / ((t)1 - x)))                      \
  P_F1(t, gamma, tgamma(x))                                                    \
  P_F1(t, lgamma, lgamma(x))                                                   \
  P_F1(t, erf, erf(x))                                                         \
  P_F1(t, erfc, erfc(x))                                                       \
  P_F1(t, ceil, ceil(x))                                                       \
  P_F1(t, floor, floor(x))                                                     \
  P_F1(t, trunc, trunc(x))                                                     \
  P_F1(t, round, rint(x))                                                      \
  static inline bool p_isinf_##t(t x) { return isinf(x) != 0; }                \
  static inline bool p_isnan_##t(t x) { return x != x; }                       \
  P_F2(t, add, x + y)                                                          \
  P_F2(t, sub, x - y)                                                          \
  P_F2(t, mul, x * y)                                                          \
  P_F2(t, div, x / y)                                                          \
  P_F2(t, mod, fmod(x, y))                                                     \
  P_F2(t, pow, pow(x, y))                                                      \
  P_F2(t, min, (y < x || x != x) ? y : x)                                      \
  P_F2(t, max, (y > x || x != x) ? y : x)                                      \
  P_F2(t, atan2, atan2(x, y))                                                  \
  P_F2(t, atan2pi, atan2(x, y) / PI)                                           \
  P_F2(t, hypot, hypot(x, y))                                                  \
  P_F2(t, copysign, copysign(x, y))                                            \
  P_F2(t, nextafter, nextafter(x, y))                                          \
  static inline t p_ldexp_##t(t x, i32 n) { return ldexp(x, n); }              \
  static inline t p_fma_##t(t x, t y, t z) { return fma(x, y, z); }           \
  static inline t p_mad_##t(t x, t y, t z) { return x * y + z; }              \
  static inline t p_lerp_##t(t x, t y, t z) { return x + (y - x) * z; }        \
  static inline bool p_eq_##t(t x, t y) { return x == y; }                     \
  static inline bool p_ne_##t(t x, t y) { return x != y; }                     \
  static inline bool p_lt_##t(t x, t y) { return x < y; }                      \
  static inline bool p_le_##t(t x, t y) { return x <= y; }                     \
  static inline bool p_gt_##t(t x, t y) { return x > y; }                      \
  static inline bool p_ge_##t(t x, t y) { return x >= y; }
P_FLOATS(P_FLOAT_OPS)

/* ---- f16: computed in f32 and rounded once ------------------------------- */
#ifdef cl_khr_fp16
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
/* nextafter at half precision, on the bit pattern. */
static inline f16 p_nextafter_f16(f16 x, f16 y) {
  f32 a = (f32)x, b = (f32)y;
  if (a != a || b != b) return (f16)P_NAN;
  if (a == b) return y;
  if (a == 0) return as_half((u16)(b > 0 ? 0x0001 : 0x8001));
  u16 bits = as_ushort(x);
  bool away = (b > a) == (a > 0);
  return as_half((u16)(away ? bits + 1 : bits - 1));
}
#endif

/* ---- conversions ----------------------------------------------------------
 * float->int truncates; NaN and infinities give 0; otherwise the low bits
 * of the truncated value saturated to the 128-bit range, so out-of-range
 * values wrap. */
static inline u64 p__ftoi(f64 x) {
  if (x > -0x1p63 && x < 0x1p63) return (u64)(i64)x;
  if (x != x || isinf(x)) return 0;
  if (x >= 0x1p127) return (u64)0xffffffffffffffffUL; /* low bits of 2^127-1 */
  if (x <= -0x1p127) return 0;                          /* low bits of -2^127 */
  /* 2^63 <= |x| < 2^127 is an integer whose low 64 bits are exactly
   * representable: |x| - floor(|x| / 2^64) * 2^64 is computed without
   * rounding. */
  f64 a = fabs(x);
  f64 r = a - floor(a * 0x1p-64) * 0x1p64;
  u64 lo = r < 0x1p63 ? (u64)(i64)r : ((u64)(i64)(r - 0x1p63) | ((u64)1 << 63));
  return x < 0 ? (u64)0 - lo : lo;
}

#define P_CAST(f, t, e)                                                        \
  static inline t p_cast_##f##_##t(f x) { return e; }
/* To signed: the value wraps; to unsigned: zero-extended from the source
 * width, then truncated. */
#define P_CAST_FROM_INT(f, uf, st_, uw_, w_)                                   \
  P_CAST(f, i8, (i8)x) P_CAST(f, i16, (i16)x) P_CAST(f, i32, (i32)x)           \
  P_CAST(f, i64, (i64)x) P_CAST(f, u8, (u8)(uf)x) P_CAST(f, u16, (u16)(uf)x)   \
  P_CAST(f, u32, (u32)(uf)x) P_CAST(f, u64, (u64)(uf)x)                        \
  P_CAST(f, f32, (f32)x) P_CAST(f, f64, (f64)x) P_CAST(f, bool, x != 0)
P_INTS(P_CAST_FROM_INT)

#define P_CAST_FROM_FLOAT(f)                                                   \
  P_CAST(f, i8, (i8)(u8)p__ftoi(x)) P_CAST(f, i16, (i16)(u16)p__ftoi(x))       \
  P_CAST(f, i32, (i32)(u32)p__ftoi(x)) P_CAST(f, i64, (i64)p__ftoi(x))         \
  P_CAST(f, u8, (u8)p__ftoi(x)) P_CAST(f, u16, (u16)p__ftoi(x))                \
  P_CAST(f, u32, (u32)p__ftoi(x)) P_CAST(f, u64, p__ftoi(x))                   \
  P_CAST(f, f32, (f32)x) P_CAST(f, f64, (f64)x) P_CAST(f, bool, x != 0)
P_CAST_FROM_FLOAT(f32) P_CAST_FROM_FLOAT(f64)

P_CAST(bool, i8, (i8)x) P_CAST(bool, i16, (i16)x) P_CAST(bool, i32, (i32)x)
P_CAST(bool, i64, (i64)x) P_CAST(bool, u8, (u8)x) P_CAST(bool, u16, (u16)x)
P_CAST(bool, u32, (u32)x) P_CAST(bool, u64, (u64)x)
P_CAST(bool, f32, (f32)x) P_CAST(bool, f64, (f64)x) P_CAST(bool, bool, x)

#ifdef cl_khr_fp16
#define P_CAST_INT_F16(t, ut, st, uw, w) P_CAST(t, f16, (f16)(f64)x)
P_INTS(P_CAST_INT_F16)
P_CAST_FROM_FLOAT(f16)
P_CAST(f16, f16, x) P_CAST(f32, f16, (f16)x) P_CAST(f64, f16, (f16)x)
P_CAST(bool, f16, (f16)x)
#endif

/* Bitcasts between integer and float types of the same width. */
#define P_BITCAST(f, t, as)                                                    \
  static inline t p_bitcast_##f##_##t(f x) { return as(x); }
P_BITCAST(i32, f32, as_float) P_BITCAST(u32, f32, as_float)
P_BITCAST(f32, i32, as_int) P_BITCAST(f32, u32, as_uint)
P_BITCAST(i64, f64, as_double) P_BITCAST(u64, f64, as_double)
P_BITCAST(f64, i64, as_long) P_BITCAST(f64, u64, as_ulong)
#ifdef cl_khr_fp16
P_BITCAST(i16, f16, as_half) P_BITCAST(u16, f16, as_half)
P_BITCAST(f16, i16, as_short) P_BITCAST(f16, u16, as_ushort)
#endif

/* ---- atomics on __global memory ---------------------------------------------
 * p_atomic_load_<t>(p), p_atomic_add_<t>(p, v) returning the old value, and
 * p_cas_<t>(p, &expected, desired), a strong compare-and-swap that on
 * failure stores the value found into *expected. Floats are compared by
 * their bits and added by a CAS loop. 8- and 16-bit values (and bool, one
 * byte) go through a CAS on the aligned 32-bit word that holds them. */

/* Position of a 1- or 2-byte value inside its 32-bit word. */
#ifdef __ENDIAN_LITTLE__
#define P__SHIFT(a, bytes) ((u32)((a) & 3) * 8)
#else
#define P__SHIFT(a, bytes) ((u32)(4 - (bytes) - ((a) & 3)) * 8)
#endif

/* CAS of the low `bytes` bytes at p; *expected and desired hold the value's
 * bits zero-extended. */
static inline bool p__cas_narrow(__global void *p, u32 bytes, u32 *expected,
                                 u32 desired) {
  uintptr_t a = (uintptr_t)p;
  volatile __global u32 *wp = (volatile __global u32 *)(a & ~(uintptr_t)3);
  u32 sh = P__SHIFT(a, bytes);
  u32 mask = (bytes == 1 ? 0xffu : 0xffffu) << sh;
  u32 e = (*expected << sh) & mask, d = (desired << sh) & mask;
  u32 cur = *wp;
  for (;;) {
    if ((cur & mask) != e) {
      *expected = (cur & mask) >> sh;
      return false;
    }
    u32 want = (cur & ~mask) | e;
    u32 old = atomic_cmpxchg(wp, want, (cur & ~mask) | d);
    if (old == want) return true;
    cur = old;
  }
}

/* Wrapping add of v to the low `bytes` bytes at p; returns the old bits. */
static inline u32 p__add_narrow(__global void *p, u32 bytes, u32 v) {
  uintptr_t a = (uintptr_t)p;
  volatile __global u32 *wp = (volatile __global u32 *)(a & ~(uintptr_t)3);
  u32 sh = P__SHIFT(a, bytes);
  u32 mask = (bytes == 1 ? 0xffu : 0xffffu) << sh;
  u32 cur = *wp;
  for (;;) {
    u32 val = (cur & mask) >> sh;
    u32 next = (cur & ~mask) | (((val + v) << sh) & mask);
    u32 old = atomic_cmpxchg(wp, cur, next);
    if (old == cur) return val;
    cur = old;
  }
}

#define P_ATOMIC_NARROW(t, ut, bytes)                                          \
  static inline t p_atomic_load_##t(__global t *p) {                           \
    return *(volatile __global t *)p;                                          \
  }                                                                            \
  static inline bool p_cas_##t(__global t *p, t *expected, t desired) {        \
    u32 e = (u32)(ut)*expected;                                                \
    bool ok = p__cas_narrow(p, bytes, &e, (u32)(ut)desired);                   \
    if (!ok) *expected = (t)(ut)e;                                             \
    return ok;                                                                 \
  }                                                                            \
  static inline t p_atomic_add_##t(__global t *p, t v) {                       \
    return (t)(ut)p__add_narrow(p, bytes, (u32)(ut)v);                         \
  }
P_ATOMIC_NARROW(i8, u8, 1) P_ATOMIC_NARROW(u8, u8, 1)
P_ATOMIC_NARROW(i16, u16, 2) P_ATOMIC_NARROW(u16, u16, 2)

static inline bool p_atomic_load_bool(__global bool *p) {
  return *(volatile __global u8 *)p != 0;
}
static inline bool p_cas_bool(__global bool *p, bool *expected, bool desired) {
  u32 e = *expected ? 1u : 0u;
  bool ok = p__cas_narrow(p, 1, &e, desired ? 1u : 0u);
  if (!ok) *expected = e != 0;
  return ok;
}

/* X(t, word type, atomic add, atomic compare-exchange, bits of, from bits):
 * the word-sized types. */
#define P_ATOMIC_WORD(t, wt, add, cmpxchg, bits, unbits)                       \
  static inline t p_atomic_load_##t(__global t *p) {                           \
    return *(volatile __global t *)p;                                          \
  }                                                                            \
  static inline bool p_cas_##t(__global t *p, t *expected, t desired) {        \
    wt e = bits(*expected);                                                    \
    wt old = cmpxchg((volatile __global wt *)p, e, bits(desired));             \
    if (old == e) return true;                                                 \
    *expected = unbits(old);                                                   \
    return false;                                                              \
  }                                                                            \
  P_ATOMIC_ADD_##add(t, wt)
#define P_ATOMIC_ADD_INT(t, wt)                                                \
  static inline t p_atomic_add_##t(__global t *p, t v) {                       \
    return atomic_add((volatile __global t *)p, v);                            \
  }
#define P_ATOMIC_ADD_INT64(t, wt)                                              \
  static inline t p_atomic_add_##t(__global t *p, t v) {                       \
    return atom_add((volatile __global t *)p, v);                              \
  }
#define P_ATOMIC_ADD_FLOAT(t, wt)                                              \
  static inline t p_atomic_add_##t(__global t *p, t v) {                       \
    t old = p_atomic_load_##t(p);                                              \
    while (!p_cas_##t(p, &old, p_add_##t(old, v))) {                           \
    }                                                                          \
    return old;                                                                \
  }
#define P_SAME(x) (x)
P_ATOMIC_WORD(i32, i32, INT, atomic_cmpxchg, P_SAME, P_SAME)
P_ATOMIC_WORD(u32, u32, INT, atomic_cmpxchg, P_SAME, P_SAME)
P_ATOMIC_WORD(f32, u32, FLOAT, atomic_cmpxchg, as_uint, as_float)
#ifdef cl_khr_int64_base_atomics
P_ATOMIC_WORD(i64, i64, INT64, atom_cmpxchg, P_SAME, P_SAME)
P_ATOMIC_WORD(u64, u64, INT64, atom_cmpxchg, P_SAME, P_SAME)
P_ATOMIC_WORD(f64, u64, FLOAT, atom_cmpxchg, as_ulong, as_double)
#endif

#ifdef cl_khr_fp16
static inline f16 p_atomic_load_f16(__global f16 *p) {
  return as_half(*(volatile __global u16 *)p);
}
static inline bool p_cas_f16(__global f16 *p, f16 *expected, f16 desired) {
  u32 e = (u32)as_ushort(*expected);
  bool ok = p__cas_narrow(p, 2, &e, (u32)as_ushort(desired));
  if (!ok) *expected = as_half((u16)e);
  return ok;
}
static inline f16 p_atomic_add_f16(__global f16 *p, f16 v) {
  f16 old = p_atomic_load_f16(p);
  while (!p_cas_f16(p, &old, p_add_f16(old, v))) {
  }
  return old;
}
#endif
