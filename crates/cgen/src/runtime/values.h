/* parad C runtime: Futhark values in the text and the binary data format.
 *
 * pv_read_value reads one value of a given element type and rank from a
 * FILE*, in either format; pv_write_text and pv_write_binary write one.
 * Everything follows parad's Rust implementation (crates/values): the
 * same accepted text syntax (typed and untyped literals, hexadecimal and
 * binary integers, hexadecimal floats, `_` separators, `f32.nan`,
 * `-f64.inf`, `true`, character and string literals, `empty([0][3]i32)`,
 * `--` comments), the same messages for malformed input, the same binary
 * format, and byte for byte the same text output: floats are printed with
 * the fewest digits that read back to the same bits, as Rust's `{:?}`
 * prints them.
 *
 * Elements are kept in host byte order; f16 elements are their IEEE bits
 * (a uint16_t), bools one byte 0 or 1. Every function is static and uses
 * only C99's library (strtod and snprintf in the "C" locale, which is the
 * locale of a program that never calls setlocale).
 *
 * Errors never abort: a malformed value gives a malloc'd message that says
 * where (line and column for text, byte offset for binary, counted from
 * the reader's start) and what was expected. Messages for a value of the
 * wrong type read "expected <type>, but ..."; all others are those of the
 * Rust reader. */

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <math.h>

#if defined(__GNUC__) || defined(__clang__)
#define PV_UNUSED __attribute__((unused))
#define PV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PV_UNUSED
#define PV_PRINTF(f, a)
#endif

enum pv_prim { PV_I8, PV_I16, PV_I32, PV_I64, PV_U8, PV_U16, PV_U32, PV_U64,
               PV_F16, PV_F32, PV_F64, PV_BOOL };
#define PV_NPRIMS 12
/* The deepest nesting the binary format (one rank byte) can express. */
#define PV_MAX_RANK 255
/* Bytes read or decoded at a time from a binary value's elements. */
#define PV_CHUNK 65536

static const char *const pv__names[PV_NPRIMS] = {
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bool"};
static const char *const pv__binary_names[PV_NPRIMS] = {
    "  i8", " i16", " i32", " i64", "  u8", " u16", " u32", " u64", " f16", " f32", " f64", "bool"};
static const unsigned char pv__sizes[PV_NPRIMS] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1};

/* The type's name ("i32", "f16", "bool"), or "?" for no type. */
static PV_UNUSED const char *pv_prim_name(int prim) {
  return prim >= 0 && prim < PV_NPRIMS ? pv__names[prim] : "?";
}

/* Bytes of one element (bool is 1); 0 for no type. */
static PV_UNUSED size_t pv_prim_size(int prim) {
  return prim >= 0 && prim < PV_NPRIMS ? pv__sizes[prim] : 0;
}

static int pv__is_int(int prim) { return prim >= PV_I8 && prim <= PV_U64; }
static int pv__is_signed(int prim) { return prim >= PV_I8 && prim <= PV_I64; }
static int pv__is_float(int prim) { return prim >= PV_F16 && prim <= PV_F64; }

/* The type named by the n bytes at s, or -1. */
static int pv__prim_from_name(const char *s, size_t n) {
  for (int t = 0; t < PV_NPRIMS; t++) {
    if (strlen(pv__names[t]) == n && memcmp(pv__names[t], s, n) == 0) return t;
  }
  return -1;
}

/* 1 on a little-endian host. */
static int pv__little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* Reverses each element of `size` bytes in the n elements at p (host <->
 * little-endian on a big-endian host). */
static void pv__swap_elems(unsigned char *p, size_t n, size_t size) {
  if (size < 2) return;
  for (size_t i = 0; i < n; i++, p += size) {
    for (size_t a = 0, b = size - 1; a < b; a++, b--) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
  }
}

static uint64_t pv__get_le64(const unsigned char *p) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--) x = x << 8 | p[i];
  return x;
}

static void pv__put_le64(unsigned char *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(x >> (8 * i));
}

/* ---- f16 <-> f32 in software ------------------------------------------------ */

/* The f32 value of the f16 with bits h (exact). */
static float pv__f16_to_f32(uint16_t h) {
  uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
  if (e == 0x1f) {
    bits = s | 0x7f800000u | (m << 13);
  } else if (e != 0) {
    bits = s | ((e + 112) << 23) | (m << 13);
  } else if (m == 0) {
    bits = s;
  } else {
    e = 113;
    while (!(m & 0x400u)) {
      m <<= 1;
      e--;
    }
    bits = s | (e << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* The f16 bits nearest to f (ties to even), as the F16C instructions round;
 * NaN stays NaN (quiet, keeping the payload's top bits). */
static uint16_t pv__f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t s = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 0xff) return (uint16_t)(s | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
  int32_t ue = (int32_t)e - 112; /* the f16 biased exponent */
  if (ue >= 0x1f) return (uint16_t)(s | 0x7c00u);
  uint32_t q, rem, half;
  if (ue <= 0) {
    /* Subnormal (or zero): units of 2^-24. */
    uint32_t shift = (uint32_t)(14 - ue);
    if (e == 0 || shift > 24) return (uint16_t)s;
    uint32_t mm = m | 0x800000u;
    q = mm >> shift;
    rem = mm & ((1u << shift) - 1);
    half = 1u << (shift - 1);
  } else {
    q = ((uint32_t)ue << 10) | (m >> 13);
    rem = m & 0x1fffu;
    half = 0x1000u;
  }
  if (rem > half || (rem == half && (q & 1))) q++; /* may carry into the exponent: right */
  return (uint16_t)(s | q);
}

/* f64 -> f16 as parad's Rust code converts on x86-64 with F16C (through
 * f32: the `half` crate's f16::from_f64 there). */
static uint16_t pv__f64_to_f16(double d) { return pv__f32_to_f16((float)d); }

/* ---- messages ----------------------------------------------------------------- */

/* A malloc'd formatted string, or NULL when out of memory. */
static char *pv__vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) n = 0;
  char *s = malloc((size_t)n + 1);
  if (s == NULL) return NULL;
  if (vsnprintf(s, (size_t)n + 1, fmt, ap) < 0) s[0] = 0;
  return s;
}

static PV_UNUSED PV_PRINTF(1, 2) char *pv__format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = pv__vformat(fmt, ap);
  va_end(ap);
  return s;
}

/* Sets *err to "<where>: <message>" (where: "line L, column C" when
 * line > 0, else "byte B"); NULL when not even that can be allocated.
 * Returns 1. */
static int pv__verr(char **err, int64_t line, int64_t col, int64_t byte, const char *fmt,
                    va_list ap) {
  char *msg = pv__vformat(fmt, ap);
  if (msg == NULL) {
    *err = pv__format("out of memory");
    return 1;
  }
  if (line > 0) {
    *err = pv__format("line %lld, column %lld: %s", (long long)line, (long long)col, msg);
  } else {
    *err = pv__format("byte %lld: %s", (long long)byte, msg);
  }
  if (*err == NULL) *err = pv__format("out of memory");
  free(msg);
  return 1;
}

/* An error at a text position. Returns 1. */
static PV_PRINTF(4, 5) int pv__err_at(char **err, int64_t line, int64_t col, const char *fmt,
                                      ...) {
  va_list ap;
  va_start(ap, fmt);
  pv__verr(err, line, col, 0, fmt, ap);
  va_end(ap);
  return 1;
}

/* An error at a byte offset of binary input. Returns 1. */
static PV_PRINTF(3, 4) int pv__err_byte(char **err, int64_t byte, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pv__verr(err, 0, 0, byte, fmt, ap);
  va_end(ap);
  return 1;
}

/* Writes a type such as "[][]f32" (rank <= PV_MAX_RANK) to out, which has
 * room for 2 * PV_MAX_RANK + 8 bytes. */
static void pv__type_name(char *out, int prim, int rank) {
  int n = 0;
  for (int i = 0; i < rank && i < PV_MAX_RANK; i++) {
    out[n++] = '[';
    out[n++] = ']';
  }
  strcpy(out + n, pv_prim_name(prim));
}

/* A malloc'd "[d1][d2]..." for a shape (NULL when out of memory). */
static char *pv__shape_text(int rank, const int64_t *shape) {
  char *s = malloc((size_t)rank * 24 + 1);
  if (s == NULL) return NULL;
  size_t n = 0;
  for (int i = 0; i < rank; i++) n += (size_t)sprintf(s + n, "[%lld]", (long long)shape[i]);
  s[n] = 0;
  return s;
}

/* Keeps quoted words short, as the Rust reader does: the first 40
 * characters and "..." (out has room for 44 bytes). */
static void pv__truncate(char *out, const char *w) {
  size_t n = strlen(w);
  if (n > 40) {
    memcpy(out, w, 40);
    strcpy(out + 40, "...");
  } else {
    strcpy(out, w);
  }
}

/* The length of the UTF-8 character at s (n bytes available), or 0 when
 * the bytes there are not one valid character; *cp gets the code point. */
static size_t pv__utf8(const unsigned char *s, size_t n, uint32_t *cp) {
  if (n == 0) return 0;
  unsigned c = s[0];
  size_t len;
  unsigned lo = 0x80, hi = 0xbf;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
    *cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    *cp = c & 0x0f;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    *cp = c & 0x07;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    unsigned b = s[i];
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbf)) return 0;
    *cp = *cp << 6 | (b & 0x3f);
  }
  return len;
}

/* The byte length of a UTF-8 character starting with byte c (1 for bytes
 * that cannot start one). */
static size_t pv__utf8_len(int c) {
  if (c >= 0xc2 && c <= 0xdf) return 2;
  if (c >= 0xe0 && c <= 0xef) return 3;
  if (c >= 0xf0 && c <= 0xf4) return 4;
  return 1;
}

/* ---- the reader --------------------------------------------------------------- */

/* A reader over a FILE*, keeping the position for messages. Bytes looked
 * at but not consumed are kept in `la`; each pv_ function hands them back
 * to the stream (ungetc, one byte) before it returns, but for a '-' that
 * pv_at_end found not to start a comment, which stays here. */
struct pv_reader {
  FILE *f;
  int la[2];    /* looked-at bytes (EOF as EOF) */
  int nla;      /* how many */
  int64_t off;  /* bytes consumed since pv_reader_init */
  int64_t line; /* 1-based line of the next byte */
  int64_t col;  /* 1-based column of the next byte, in UTF-8 characters */
  int text;     /* text (or a comment) seen: see pv__count */
};

/* Starts reading f at its current position. */
static PV_UNUSED void pv_reader_init(struct pv_reader *r, FILE *f) {
  r->f = f;
  r->nla = 0;
  r->off = 0;
  r->line = 1;
  r->col = 1;
  r->text = 0;
}

/* The next byte (EOF at the end) without consuming it. */
static int pv__peek(struct pv_reader *r) {
  if (r->nla == 0) {
    r->la[0] = getc(r->f);
    r->nla = 1;
  }
  return r->la[0];
}

/* The byte after the next one, without consuming either. */
static int pv__peek2(struct pv_reader *r) {
  if (pv__peek(r) == EOF) return EOF;
  if (r->nla == 1) {
    r->la[1] = getc(r->f);
    r->nla = 2;
  }
  return r->la[1];
}

/* Counts the n bytes at p as consumed. Columns count UTF-8 characters,
 * but binary values read before any text count a column per byte, as the
 * Rust reader's positions do (it streams binary values until the first
 * text, then reads the rest into memory). */
static void pv__count(struct pv_reader *r, const unsigned char *p, size_t n) {
  r->off += (int64_t)n;
  unsigned char cont = r->text ? 0xc0 : 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '\n') {
      r->line++;
      r->col = 1;
    } else if ((p[i] & cont) != 0x80) {
      r->col++;
    }
  }
}

/* Consumes the next byte and returns it (EOF at the end). */
static int pv__next(struct pv_reader *r) {
  int b = pv__peek(r);
  if (b == EOF) return EOF;
  r->la[0] = r->la[1];
  r->nla--;
  unsigned char u = (unsigned char)b;
  pv__count(r, &u, 1);
  return b;
}

/* Reads up to n bytes (fewer only at the end of the input) into p,
 * consuming them; returns how many. */
static size_t pv__read_bytes(struct pv_reader *r, unsigned char *p, size_t n) {
  size_t got = 0;
  while (got < n && r->nla > 0) {
    int b = r->la[0];
    r->la[0] = r->la[1];
    r->nla--;
    if (b == EOF) {
      r->nla = 0;
      pv__count(r, p, got);
      return got;
    }
    p[got++] = (unsigned char)b;
  }
  if (got < n) got += fread(p + got, 1, n - got, r->f);
  pv__count(r, p, got);
  return got;
}

/* Hands looked-at bytes back to the stream, so that it is positioned just
 * after what was consumed (but for a kept '-', see struct pv_reader). */
static void pv__release(struct pv_reader *r) {
  if (r->nla == 2) {
    if (r->la[1] != EOF) ungetc(r->la[1], r->f);
    r->nla = 1;
    if (r->la[0] == EOF) r->nla = 0;
    return;
  }
  if (r->nla == 1 && r->la[0] != EOF) ungetc(r->la[0], r->f);
  r->nla = 0;
}

/* Blanks as the Rust reader counts them (no vertical tab). */
static int pv__is_space(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

static int pv__is_digit(int c) { return c >= '0' && c <= '9'; }

static int pv__is_hex(int c) {
  return pv__is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Letters, digits, '_' and '.': the bytes of a literal word. */
static int pv__is_word(int c) {
  return pv__is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '.';
}

/* Skips blanks and `--` comments. */
static void pv__skip_blank(struct pv_reader *r) {
  for (;;) {
    int c = pv__peek(r);
    if (pv__is_space(c)) {
      pv__next(r);
    } else if (c == '-' && pv__peek2(r) == '-') {
      r->text = 1;
      while ((c = pv__peek(r)) != EOF && c != '\n') pv__next(r);
    } else {
      return;
    }
  }
}

/* Skips white space and `--` comments; 1 when nothing but those is left. */
static PV_UNUSED int pv_at_end(struct pv_reader *r) {
  pv__skip_blank(r);
  int end = pv__peek(r) == EOF;
  pv__release(r);
  return end;
}

/* Reads n raw bytes into p through the reader, counting them in its
 * position (byte offset, line, column) as the bytes of a binary value;
 * for data in no value format, such as the bytes of a stored opaque
 * value. 0, or 1 when the input ends first (what there was is read). */
static PV_UNUSED int pv_read_bytes(struct pv_reader *r, void *p, size_t n) {
  size_t got = pv__read_bytes(r, (unsigned char *)p, n);
  pv__release(r);
  return got < n;
}

/* Describes the input at the reader's position for "found ..." messages
 * ("end of input", "')'", "byte 0x80"), as the Rust reader does. May
 * consume the character: only for messages. out has room for 16 bytes. */
static void pv__found(struct pv_reader *r, char *out) {
  int c = pv__peek(r);
  if (c == EOF) {
    strcpy(out, "end of input");
  } else if (c == '\n') {
    strcpy(out, "end of line");
  } else if (pv__is_space(c)) {
    strcpy(out, "whitespace");
  } else {
    unsigned char u[4];
    size_t want = pv__utf8_len(c), n = 0;
    while (n < want && pv__peek(r) != EOF) u[n++] = (unsigned char)pv__next(r);
    uint32_t cp = 0;
    size_t len = pv__utf8(u, n, &cp);
    int control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
    if (len > 0 && !control) {
      sprintf(out, "'%.*s'", (int)len, (const char *)u);
    } else {
      sprintf(out, "byte 0x%02x", (unsigned)c);
    }
  }
}

/* ---- reading text --------------------------------------------------------------- */

/* A growable byte buffer. */
struct pv__buf {
  unsigned char *p;
  size_t n, cap;
};

/* Makes room for `more` bytes; 1 when out of memory. */
static int pv__reserve(struct pv__buf *b, size_t more) {
  if (b->cap - b->n >= more) return 0;
  if (more > SIZE_MAX / 2 - b->n) return 1;
  size_t cap = b->cap < 64 ? 64 : b->cap;
  while (cap - b->n < more) cap *= 2;
  unsigned char *p = realloc(b->p, cap);
  if (p == NULL) return 1;
  b->p = p;
  b->cap = cap;
  return 0;
}

/* Appends n bytes; 1 when out of memory. */
static int pv__append(struct pv__buf *b, const void *x, size_t n) {
  if (pv__reserve(b, n)) return 1;
  memcpy(b->p + b->n, x, n);
  b->n += n;
  return 0;
}

/* What a text value is being read as, and the buffers it is read into. */
struct pv__ctx {
  struct pv_reader *r;
  int prim, rank;
  char **err;
  char tname[2 * PV_MAX_RANK + 8]; /* the expected type, "[][]f32" */
  struct pv__buf word;             /* the current literal's word */
  struct pv__buf data;             /* the elements read so far */
};

/* How a literal was written, before its type is fixed. */
enum { PV__INT, PV__DEC, PV__HEX, PV__INF, PV__NAN, PV__BOOL, PV__CHAR };

struct pv__lit {
  int kind;
  int neg;           /* preceded by '-' */
  int typed;         /* the type given by a suffix or the literal itself, or -1 */
  uint64_t wrapped;  /* PV__INT: the value modulo 2^64; PV__CHAR: the code point */
  int overflow;      /* PV__INT: the value needs more than 64 bits */
  const char *text;  /* PV__DEC, decimal PV__INT: the digits without '_' (else NULL) */
  double hex;        /* PV__HEX: the value */
  int b;             /* PV__BOOL */
  int64_t line, col; /* where the literal starts */
};

/* The literal's own type, with Futhark's defaults for unsuffixed numbers. */
static int pv__own_type(const struct pv__lit *l) {
  if (l->typed >= 0) return l->typed;
  if (l->kind == PV__INT || l->kind == PV__CHAR) return PV_I32;
  if (l->kind == PV__BOOL) return PV_BOOL;
  return PV_F64;
}

static const char *pv__describe(const struct pv__lit *l) {
  switch (l->kind) {
  case PV__INT:
    return "an integer literal";
  case PV__BOOL:
    return "a boolean literal";
  case PV__CHAR:
    return "a character literal";
  default:
    return "a floating-point literal";
  }
}

/* Flips the sign of the float of type t at out. */
static void pv__negate(int t, unsigned char *out) {
  if (t == PV_F16) {
    uint16_t h;
    memcpy(&h, out, 2);
    h ^= 0x8000u;
    memcpy(out, &h, 2);
  } else if (t == PV_F32) {
    uint32_t u;
    memcpy(&u, out, 4);
    u ^= 0x80000000u;
    memcpy(out, &u, 4);
  } else {
    uint64_t u;
    memcpy(&u, out, 8);
    u ^= (uint64_t)1 << 63;
    memcpy(out, &u, 8);
  }
}

/* The NaN Rust's f16/f32/f64::NAN (and conversions of f64::NAN) have. */
static void pv__store_nan(int t, unsigned char *out) {
  if (t == PV_F16) {
    uint16_t h = 0x7e00u;
    memcpy(out, &h, 2);
  } else if (t == PV_F32) {
    uint32_t u = 0x7fc00000u;
    memcpy(out, &u, 4);
  } else {
    uint64_t u = (uint64_t)0x7ff8 << 48;
    memcpy(out, &u, 8);
  }
}

/* Stores x rounded to the float type t (a NaN keeps its sign and the top
 * of its payload, as Rust's `as f32` and the F16C conversion do). */
static void pv__store_float(int t, double x, unsigned char *out) {
  if (t == PV_F16) {
    uint16_t h = pv__f64_to_f16(x);
    memcpy(out, &h, 2);
  } else if (t == PV_F32) {
    float f = (float)x;
    memcpy(out, &f, 4);
  } else {
    memcpy(out, &x, 8);
  }
}

/* Parses decimal text (digits, '.', an exponent; no sign), rounding once
 * to t (f16 through f64 and f32, as the Rust reader does); NaN when the
 * text is no number (an exponent without digits), as there. */
static void pv__parse_float(int t, const char *text, unsigned char *out) {
  size_t n = strlen(text);
  char *end;
  if (t == PV_F32) {
    float f = strtof(text, &end);
    if (end != text + n) {
      pv__store_nan(t, out);
    } else {
      memcpy(out, &f, 4);
    }
  } else {
    double d = strtod(text, &end);
    if (end != text + n) {
      pv__store_nan(t, out);
    } else {
      pv__store_float(t, d, out);
    }
  }
}

/* The integer `mag` (negated if the literal is) as integer type t at out,
 * wrapped to t's width when the literal has a suffix; else (and always
 * when it needs more than 64 bits) an out-of-range message in msg and 1. */
static int pv__int_value(const struct pv__lit *l, int t, uint64_t mag, int overflow,
                         unsigned char *out, char *msg) {
  int bits = (int)pv__sizes[t] * 8, sgn = pv__is_signed(t);
  uint64_t top = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  /* The largest magnitude that fits, positive and negative. */
  uint64_t pos_max = sgn ? top >> 1 : top, neg_max = sgn ? (top >> 1) + 1 : 0;
  int fits = l->neg ? mag <= neg_max : mag <= pos_max;
  if (overflow || !(l->typed >= 0 || fits)) {
    char shown[32], lo[32], hi[32];
    if (overflow) {
      strcpy(shown, "this integer");
    } else {
      sprintf(shown, "%s%llu", l->neg && mag != 0 ? "-" : "", (unsigned long long)mag);
    }
    if (sgn) {
      sprintf(lo, "-%llu", (unsigned long long)neg_max);
    } else {
      strcpy(lo, "0");
    }
    sprintf(hi, "%llu", (unsigned long long)pos_max);
    sprintf(msg, "%s does not fit in %s %s (%s to %s)", shown,
            l->typed >= 0 ? "its type" : "the expected type", pv__names[t], lo, hi);
    return 1;
  }
  uint64_t v = l->neg ? (uint64_t)0 - mag : mag;
  switch (bits) {
  case 8: {
    uint8_t x = (uint8_t)v;
    memcpy(out, &x, 1);
    break;
  }
  case 16: {
    uint16_t x = (uint16_t)v;
    memcpy(out, &x, 2);
    break;
  }
  case 32: {
    uint32_t x = (uint32_t)v;
    memcpy(out, &x, 4);
    break;
  }
  default:
    memcpy(out, &v, 8);
  }
  return 0;
}

/* The literal's value at type t, stored at out in host byte order; 1
 * with a message in msg (256 bytes) when it cannot have that type. */
static int pv__lit_value(const struct pv__lit *l, int t, unsigned char *out, char *msg) {
  if (pv__is_int(t) && l->kind == PV__INT) {
    return pv__int_value(l, t, l->wrapped, l->overflow, out, msg);
  }
  if (pv__is_int(t) && l->kind == PV__CHAR) return pv__int_value(l, t, l->wrapped, 0, out, msg);
  if (pv__is_float(t)) {
    switch (l->kind) {
    case PV__INT:
      if (l->text != NULL) {
        pv__parse_float(t, l->text, out);
      } else {
        pv__store_float(t, (double)l->wrapped, out);
      }
      break;
    case PV__DEC:
      pv__parse_float(t, l->text, out);
      break;
    case PV__HEX:
      pv__store_float(t, l->hex, out);
      break;
    case PV__INF:
      pv__store_float(t, HUGE_VAL, out);
      break;
    case PV__NAN:
      pv__store_nan(t, out);
      return 0; /* `-f32.nan` is f32.nan */
    default:
      goto mismatch;
    }
    if (l->neg) pv__negate(t, out);
    return 0;
  }
  if (t == PV_BOOL && l->kind == PV__BOOL) {
    out[0] = (unsigned char)l->b;
    return 0;
  }
mismatch:
  sprintf(msg, "expected a value of type %s, found %s", pv__names[t], pv__describe(l));
  return 1;
}

/* Rust's 2f64.powi(n) (compiler-rt's __powidf2): 2^n, but 0 from n =
 * -1024 down (the reciprocal of an overflowed power) and inf from 1024. */
static double pv__pow2i(int n) {
  if (n >= 1024) return HUGE_VAL;
  if (n <= -1024) return 0.0;
  return ldexp(1.0, n);
}

static int pv__hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* `0x<int>.<frac>p<exp>` as f64, computed as the Rust reader does (digits
 * accumulated in f64, the scaling split in two). */
static double pv__hex_float(const char *w, size_t i0, size_t i1, size_t f0, size_t f1,
                            int32_t exp) {
  double mant = 0;
  int64_t shift = exp;
  for (size_t i = i0; i < i1; i++) {
    int d = pv__hex_digit(w[i]);
    if (d >= 0) mant = mant * 16.0 + d;
  }
  for (size_t i = f0; i < f1; i++) {
    int d = pv__hex_digit(w[i]);
    if (d >= 0) {
      mant = mant * 16.0 + d;
      shift -= 4;
    }
  }
  if (shift < -5000) shift = -5000;
  if (shift > 5000) shift = 5000;
  int half = (int)shift / 2;
  return mant * pv__pow2i(half) * pv__pow2i((int)shift - half);
}

/* The value of the digits in w[i0..i1) (skipping '_') in the radix, modulo
 * 2^64; *overflow when it needs more than 64 bits. */
static uint64_t pv__radix_value(const char *w, size_t i0, size_t i1, int radix, int *overflow) {
  uint64_t acc = 0;
  *overflow = 0;
  for (size_t i = i0; i < i1; i++) {
    int d = pv__hex_digit(w[i]);
    if (d < 0 || d >= radix) continue;
    if (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)radix) *overflow = 1;
    acc = acc * (uint64_t)radix + (uint64_t)d;
  }
  return acc;
}

/* The index after the digits (accepted by ok) and '_' from i on. */
static size_t pv__digits_end(const char *w, size_t n, size_t i, int (*ok)(int)) {
  while (i < n && (ok((unsigned char)w[i]) || w[i] == '_')) i++;
  return i;
}

static int pv__is_bin(int c) { return c == '0' || c == '1'; }

/* w[i] in lower case, 0 past the end. */
static int pv__lower_at(const char *w, size_t n, size_t i) {
  if (i >= n) return 0;
  int c = (unsigned char)w[i];
  return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Removes the '_' from w[0..n), in place, and ends it with a NUL. */
static void pv__strip(char *w, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (w[i] != '_') w[k++] = w[i];
  }
  w[k] = 0;
}

/* Parses an exponent's text w[i0..i1) (a sign, digits and '_') as Rust's
 * i32 parser does after removing the '_'; 1 when that fails. */
static int pv__parse_exp(const char *w, size_t i0, size_t i1, int32_t *out) {
  int neg = 0, any = 0;
  size_t i = i0;
  int64_t v = 0;
  if (i < i1 && (w[i] == '+' || w[i] == '-')) neg = w[i++] == '-';
  for (; i < i1; i++) {
    if (w[i] == '_') continue;
    any = 1;
    v = v * 10 + (w[i] - '0');
    if (v > (int64_t)INT32_MAX + 1) return 1;
  }
  if (!any) return 1;
  if (neg) v = -v;
  if (v > INT32_MAX || v < INT32_MIN) return 1;
  *out = (int32_t)v;
  return 0;
}

/* Parses the numeric word (starting with a digit) in x->word, which starts
 * at line/col, into l. Returns 0, or 1 with the message set. */
static int pv__parse_number(struct pv__ctx *x, struct pv__lit *l, int64_t line, int64_t col) {
  char *w = (char *)x->word.p;
  size_t n = x->word.n, suffix_at, text_end = 0;
  int is_float = 0, decimal = 0;
  char **err = x->err;
  if (n > 1 && w[0] == '0' && pv__lower_at(w, n, 1) == 'x') {
    size_t int_end = pv__digits_end(w, n, 2, pv__is_hex), i = int_end, f0 = 2, f1 = 2;
    if (i < n && w[i] == '.') {
      f0 = i + 1;
      f1 = pv__digits_end(w, n, f0, pv__is_hex);
      i = f1;
    }
    if (int_end == 2 && f0 == f1) {
      return pv__err_at(err, line, col, "expected hexadecimal digits after '0x'");
    }
    if (pv__lower_at(w, n, i) == 'p') {
      size_t e0 = i + 1, j = e0;
      if (j < n && (w[j] == '+' || w[j] == '-')) j++;
      size_t e1 = pv__digits_end(w, n, j, pv__is_digit);
      if (e1 == j) {
        return pv__err_at(err, line, col + (int64_t)j, "expected exponent digits after 'p'");
      }
      int32_t exp;
      if (pv__parse_exp(w, e0, e1, &exp)) exp = w[e0] == '-' ? -100000 : 100000;
      l->kind = PV__HEX;
      l->hex = pv__hex_float(w, 2, int_end, f0, f1, exp);
      suffix_at = e1;
      is_float = 1;
    } else if (f0 != f1 || (int_end < n && w[int_end] == '.')) {
      return pv__err_at(err, line, col, "hexadecimal float needs a 'p' exponent");
    } else {
      l->kind = PV__INT;
      l->wrapped = pv__radix_value(w, 2, int_end, 16, &l->overflow);
      suffix_at = int_end;
    }
  } else if (n > 1 && w[0] == '0' && pv__lower_at(w, n, 1) == 'b') {
    size_t end = pv__digits_end(w, n, 2, pv__is_bin);
    if (end == 2) return pv__err_at(err, line, col, "expected binary digits after '0b'");
    l->kind = PV__INT;
    l->wrapped = pv__radix_value(w, 2, end, 2, &l->overflow);
    suffix_at = end;
  } else {
    size_t i = pv__digits_end(w, n, 0, pv__is_digit);
    if (i < n && w[i] == '.') {
      size_t f1 = pv__digits_end(w, n, i + 1, pv__is_digit);
      if (f1 == i + 1) {
        return pv__err_at(err, line, col + (int64_t)i + 1, "expected digits after '.'");
      }
      i = f1;
      is_float = 1;
    }
    if (pv__lower_at(w, n, i) == 'e') {
      size_t j = i + 1;
      if (j < n && (w[j] == '+' || w[j] == '-')) j++;
      size_t e1 = pv__digits_end(w, n, j, pv__is_digit);
      if (e1 == j) {
        return pv__err_at(err, line, col + (int64_t)j, "expected exponent digits after 'e'");
      }
      i = e1;
      is_float = 1;
    }
    l->kind = is_float ? PV__DEC : PV__INT;
    if (!is_float) l->wrapped = pv__radix_value(w, 0, i, 10, &l->overflow);
    decimal = 1;
    suffix_at = text_end = i;
  }
  if (suffix_at < n) {
    int t = pv__prim_from_name(w + suffix_at, n - suffix_at);
    if (pv__is_float(t) || (pv__is_int(t) && !is_float)) {
      l->typed = t;
    } else if (pv__is_int(t)) {
      return pv__err_at(err, line, col + (int64_t)suffix_at,
                        "floating-point literal cannot have integer type suffix '%s'",
                        pv__names[t]);
    } else {
      char shown[48];
      pv__truncate(shown, w + suffix_at);
      return pv__err_at(err, line, col + (int64_t)suffix_at,
                        "invalid suffix '%s' on numeric literal", shown);
    }
  }
  if (decimal) {
    pv__strip(w, text_end);
    l->text = w;
  }
  return 0;
}

/* Reads one character of a string or character literal: *cp and its UTF-8
 * bytes (appended to out, if given), or *closed at the closing quote
 * (which is not consumed). Returns 0, or 1 with the message set. */
static int pv__read_string_char(struct pv__ctx *x, int quote, uint32_t *cp, int *closed,
                                struct pv__buf *out) {
  struct pv_reader *r = x->r;
  int64_t line = r->line, col = r->col;
  int c = pv__peek(r);
  *closed = 0;
  if (c == EOF || c == '\n') return pv__err_at(x->err, line, col, "unterminated literal");
  if (c == quote) {
    *closed = 1;
    return 0;
  }
  unsigned char u[4];
  size_t len;
  if (c == '\\') {
    pv__next(r);
    int e;
    switch (pv__peek(r)) {
    case 'n':
      e = '\n';
      break;
    case 't':
      e = '\t';
      break;
    case 'r':
      e = '\r';
      break;
    case '0':
      e = 0;
      break;
    case '\\':
      e = '\\';
      break;
    case '\'':
      e = '\'';
      break;
    case '"':
      e = '"';
      break;
    default: {
      char found[16];
      pv__found(r, found);
      return pv__err_at(x->err, line, col, "unknown escape '\\%s'", found);
    }
    }
    pv__next(r);
    u[0] = (unsigned char)e;
    len = 1;
    *cp = (uint32_t)e;
  } else {
    size_t want = pv__utf8_len(c), n = 0;
    while (n < want && pv__peek(r) != EOF) u[n++] = (unsigned char)pv__next(r);
    len = pv__utf8(u, n, cp);
    if (len == 0) return pv__err_at(x->err, line, col, "invalid UTF-8 in literal");
  }
  if (out != NULL && pv__append(out, u, len)) {
    return pv__err_at(x->err, line, col, "out of memory: cannot store the string's bytes");
  }
  return 0;
}

/* Reads a character literal at the reader's position (a quote). */
static int pv__read_char(struct pv__ctx *x, struct pv__lit *l) {
  struct pv_reader *r = x->r;
  int64_t line = r->line, col = r->col;
  uint32_t cp = 0;
  int closed;
  pv__next(r);
  if (pv__read_string_char(x, '\'', &cp, &closed, NULL)) return 1;
  if (closed) return pv__err_at(x->err, line, col, "empty character literal");
  if (pv__peek(r) != '\'') {
    return pv__err_at(x->err, r->line, r->col, "expected ' to end the character literal");
  }
  pv__next(r);
  l->kind = PV__CHAR;
  l->wrapped = cp;
  return 0;
}

/* Reads a scalar literal, possibly preceded by '-', into l. Returns 0, 1
 * with the message set, or 2 when the word is `empty` (not negated). */
static int pv__read_literal(struct pv__ctx *x, struct pv__lit *l) {
  struct pv_reader *r = x->r;
  memset(l, 0, sizeof *l);
  l->typed = -1;
  l->line = r->line;
  l->col = r->col;
  l->neg = pv__peek(r) == '-';
  if (l->neg) pv__next(r);
  if (pv__peek(r) == '\'') return pv__read_char(x, l);
  /* A word runs over letters, digits, '_' and '.', and over a sign right
   * after an exponent marker when it starts with a digit (1e-3, 0x1p+4). */
  int64_t line = r->line, col = r->col;
  struct pv__buf *w = &x->word;
  w->n = 0;
  for (;;) {
    int c = pv__peek(r);
    int prev = w->n > 0 ? w->p[w->n - 1] : 0;
    int exp_sign = (c == '+' || c == '-') && w->n > 0 && pv__is_digit(w->p[0]) &&
                   (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
    if (!pv__is_word(c) && !exp_sign) break;
    unsigned char u = (unsigned char)c;
    if (pv__append(w, &u, 1)) {
      return pv__err_at(x->err, line, col, "out of memory: literal too long");
    }
    pv__next(r);
  }
  if (w->n == 0) {
    char found[16];
    int64_t fl = r->line, fc = r->col;
    pv__found(r, found);
    return pv__err_at(x->err, fl, fc, "expected %s, found %s",
                      l->neg ? "a number after '-'" : "a value", found);
  }
  unsigned char nul = 0;
  if (pv__append(w, &nul, 1)) {
    return pv__err_at(x->err, line, col, "out of memory: literal too long");
  }
  w->n--;
  const char *s = (const char *)w->p;
  if (pv__is_digit(s[0])) return pv__parse_number(x, l, line, col);
  if (!l->neg && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)) {
    l->kind = PV__BOOL;
    l->typed = PV_BOOL;
    l->b = s[0] == 't';
    return 0;
  }
  if (!l->neg && strcmp(s, "empty") == 0) return 2;
  const char *dot = strchr(s, '.');
  if (dot != NULL) {
    int t = pv__prim_from_name(s, (size_t)(dot - s));
    if (pv__is_float(t) && (strcmp(dot + 1, "inf") == 0 || strcmp(dot + 1, "nan") == 0)) {
      l->kind = dot[1] == 'i' ? PV__INF : PV__NAN;
      l->typed = t;
      return 0;
    }
  }
  char shown[48];
  pv__truncate(shown, s);
  return pv__err_at(x->err, line, col, "expected a value, found '%s'", shown);
}

/* Appends one element (x->prim's size, at p) to x->data. */
static int pv__push(struct pv__ctx *x, const unsigned char *p, const struct pv__lit *l) {
  if (pv__append(&x->data, p, pv__sizes[x->prim])) {
    return pv__err_at(x->err, l->line, l->col, "out of memory: cannot store the array's elements");
  }
  return 0;
}

/* Takes a literal read as a scalar (in_array 0) or as an array element
 * (first: the array's first), with the Rust reader's typing: a literal
 * without a suffix gets the expected element type (unless that is bool),
 * and an array's elements all have the type of its first one. A value of
 * another type than expected is an error. */
static int pv__take_literal(struct pv__ctx *x, const struct pv__lit *l, int in_array, int first) {
  char msg[256];
  unsigned char v[8];
  int prim = x->prim, untyped = l->typed < 0;
  int64_t line = l->line, col = l->col;
  if (in_array && !first) {
    /* The first element had type prim. */
    if (!untyped && l->typed != prim) {
      return pv__err_at(x->err, line, col,
                        "array element has type %s, but the first element has type %s",
                        pv__names[l->typed], pv__names[prim]);
    }
    if (pv__lit_value(l, prim, v, msg)) {
      return pv__err_at(x->err, line, col, "%s%s", msg,
                        untyped && prim == PV_BOOL ? " (the type of the first element)" : "");
    }
    return pv__push(x, v, l);
  }
  int expect_elem = (in_array || x->rank == 0) && prim != PV_BOOL;
  int own = untyped && expect_elem ? prim : pv__own_type(l);
  if (own != prim || (!in_array && x->rank != 0)) {
    /* Wrong type, but report what the Rust reader finds first. */
    if (pv__lit_value(l, own, v, msg)) {
      return pv__err_at(x->err, line, col, "%s%s", msg,
                        in_array && untyped ? " (the type of the first element)" : "");
    }
    if (!in_array && x->rank != 0) {
      return pv__err_at(x->err, line, col, "expected %s, but the value is a scalar of type %s",
                        x->tname, pv__names[own]);
    }
    if (in_array) {
      return pv__err_at(x->err, line, col, "expected %s, but the elements have type %s", x->tname,
                        pv__names[own]);
    }
    return pv__err_at(x->err, line, col, "expected %s, but the value has type %s", x->tname,
                      pv__names[own]);
  }
  if (pv__lit_value(l, prim, v, msg)) return pv__err_at(x->err, line, col, "%s", msg);
  return pv__push(x, v, l);
}

/* Reads a type such as `[100][3]f32` (blanks allowed between the parts)
 * into shape[0..*rank) (room for PV_MAX_RANK + 1) and *prim. */
static int pv__read_type(struct pv__ctx *x, int64_t *shape, int *rank, int *prim) {
  struct pv_reader *r = x->r;
  struct pv__buf *w = &x->word;
  char found[16];
  *rank = 0;
  while (pv__peek(r) == '[') {
    pv__next(r);
    pv__skip_blank(r);
    int64_t line = r->line, col = r->col;
    w->n = 0;
    int c;
    while ((c = pv__peek(r)) != EOF && (pv__is_digit(c) || c == '_')) {
      unsigned char u = (unsigned char)c;
      if (pv__append(w, &u, 1)) {
        return pv__err_at(x->err, line, col, "out of memory: size too long");
      }
      pv__next(r);
    }
    if (w->n == 0) {
      pv__found(r, found);
      return pv__err_at(x->err, line, col, "expected an array size, found %s", found);
    }
    if (w->p[0] == '_') return pv__err_at(x->err, line, col, "expected an array size, found '_'");
    unsigned char nul = 0;
    if (pv__append(w, &nul, 1)) {
      return pv__err_at(x->err, line, col, "out of memory: size too long");
    }
    uint64_t d = 0;
    int big = 0;
    for (size_t i = 0; i < w->n - 1; i++) {
      if (w->p[i] == '_') continue;
      unsigned digit = (unsigned)(w->p[i] - '0');
      if (d > (UINT64_MAX - digit) / 10) big = 1;
      d = d * 10 + digit;
    }
    /* Sizes are int64_t here (usize in the Rust reader). */
    if (big || d > (uint64_t)INT64_MAX) {
      return pv__err_at(x->err, line, col, "array size %s is too large", (const char *)w->p);
    }
    pv__skip_blank(r);
    if (pv__peek(r) != ']') {
      line = r->line;
      col = r->col;
      pv__found(r, found);
      return pv__err_at(x->err, line, col, "expected ']' after array size, found %s", found);
    }
    shape[(*rank)++] = (int64_t)d;
    if (*rank > PV_MAX_RANK) {
      return pv__err_at(x->err, r->line, r->col, "arrays of rank above %d are not supported",
                        PV_MAX_RANK);
    }
    pv__next(r);
    pv__skip_blank(r);
  }
  int64_t line = r->line, col = r->col;
  w->n = 0;
  int c;
  while (pv__is_word(c = pv__peek(r))) {
    unsigned char u = (unsigned char)c;
    if (pv__append(w, &u, 1)) return pv__err_at(x->err, line, col, "out of memory: type too long");
    pv__next(r);
  }
  if (w->n == 0) {
    pv__found(r, found);
    return pv__err_at(x->err, line, col, "expected a primitive type, found %s", found);
  }
  *prim = pv__prim_from_name((const char *)w->p, w->n);
  if (*prim < 0) {
    char shown[48];
    unsigned char nul = 0;
    if (pv__append(w, &nul, 1)) {
      return pv__err_at(x->err, line, col, "out of memory: type too long");
    }
    pv__truncate(shown, (const char *)w->p);
    return pv__err_at(x->err, line, col, "unknown primitive type '%s'", shown);
  }
  return 0;
}

/* Reads the rest of `empty(<dims><type>)` after the word `empty`. */
static int pv__read_empty(struct pv__ctx *x, int64_t *shape) {
  struct pv_reader *r = x->r;
  char found[16];
  int64_t dims[PV_MAX_RANK + 1];
  int rank = 0, prim = 0;
  pv__skip_blank(r);
  if (pv__peek(r) != '(') {
    int64_t line = r->line, col = r->col;
    pv__found(r, found);
    return pv__err_at(x->err, line, col, "expected '(' after 'empty', found %s", found);
  }
  pv__next(r);
  pv__skip_blank(r);
  int64_t tline = r->line, tcol = r->col;
  if (pv__read_type(x, dims, &rank, &prim)) return 1;
  pv__skip_blank(r);
  if (pv__peek(r) != ')') {
    int64_t line = r->line, col = r->col;
    pv__found(r, found);
    return pv__err_at(x->err, line, col, "expected ')' after the type in empty(...), found %s",
                      found);
  }
  pv__next(r);
  int zero = 0;
  for (int i = 0; i < rank; i++) zero |= dims[i] == 0;
  if (!zero) {
    return pv__err_at(x->err, tline, tcol,
                      "empty(...) needs an array type with at least one zero dimension, e.g. "
                      "empty([0]i32)");
  }
  if (rank != x->rank || prim != x->prim) {
    char *shown = pv__shape_text(rank, dims);
    pv__err_at(x->err, tline, tcol, "expected %s, but the value has type %s%s", x->tname,
               shown ? shown : "", pv__names[prim]);
    free(shown);
    return 1;
  }
  memcpy(shape, dims, (size_t)rank * sizeof(int64_t));
  return 0;
}

/* Reads `"..."` as a [n]u8 array of its UTF-8 bytes. */
static int pv__read_string(struct pv__ctx *x, int64_t *shape) {
  struct pv_reader *r = x->r;
  int64_t line = r->line, col = r->col;
  pv__next(r);
  for (;;) {
    uint32_t cp;
    int closed;
    if (pv__read_string_char(x, '"', &cp, &closed, &x->data)) return 1;
    if (closed) break;
  }
  pv__next(r);
  if (x->prim != PV_U8 || x->rank != 1) {
    return pv__err_at(x->err, line, col, "expected %s, but the value is a string, of type [%llu]u8",
                      x->tname, (unsigned long long)x->data.n);
  }
  shape[0] = (int64_t)x->data.n;
  return 0;
}

/* Reads a bracketed array literal of rank x->rank >= 1 (the reader is at
 * its '['), with the Rust reader's checks of regularity. Iterative. */
static int pv__read_array(struct pv__ctx *x, int64_t *shape) {
  struct pv_reader *r = x->r;
  char **err = x->err;
  char found[16];
  int R = x->rank;
  int64_t start_line = r->line, start_col = r->col;
  /* Per open bracket: elements so far, where it is. */
  int64_t cnt[PV_MAX_RANK + 1], oline[PV_MAX_RANK + 1], ocol[PV_MAX_RANK + 1];
  /* The size seen at each depth (-1: none yet). */
  int64_t dims[PV_MAX_RANK + 1];
  int nopen = 0, deepest = 0, arank = -1;
  for (int i = 0; i <= PV_MAX_RANK; i++) dims[i] = -1;
  for (;;) {
    /* Expecting an element (or ']' right after '['). */
    pv__skip_blank(r);
    int c = pv__peek(r);
    int64_t line = r->line, col = r->col;
    if (c == '[') {
      if (arank == nopen) {
        return pv__err_at(err, line, col,
                          "irregular array: this element is nested deeper than the first element");
      }
      if (nopen >= PV_MAX_RANK) {
        return pv__err_at(err, line, col, "arrays of rank above %d are not supported", PV_MAX_RANK);
      }
      if (nopen >= R) {
        return pv__err_at(err, line, col, "expected %s, but the value has a higher rank", x->tname);
      }
      cnt[nopen] = 0;
      oline[nopen] = line;
      ocol[nopen] = col;
      nopen++;
      if (nopen > deepest) deepest = nopen;
      pv__next(r);
      continue;
    }
    if (c == ']' && nopen > 0 && cnt[nopen - 1] == 0) {
      /* An empty array: closed below. */
    } else if (c == ']') {
      return pv__err_at(err, line, col, "expected an array element after ','");
    } else {
      int depth = nopen;
      if (arank < 0) {
        if (deepest > depth) {
          return pv__err_at(err, line, col,
                            "irregular array: this element is less nested than an earlier array");
        }
        if (depth != R) {
          return pv__err_at(err, line, col, "expected %s, but the value has rank %d", x->tname,
                            depth);
        }
        arank = depth;
      } else if (arank != depth) {
        return pv__err_at(err, line, col,
                          "irregular array: this element is less nested than the first element");
      }
      if (c == '"') return pv__err_at(err, line, col, "string literals cannot be array elements");
      struct pv__lit l;
      int rc = pv__read_literal(x, &l);
      if (rc == 2) {
        return pv__err_at(err, line, col,
                          "empty(...) cannot be an array element; give the whole array as "
                          "empty(...)");
      }
      if (rc) return 1;
      if (pv__take_literal(x, &l, 1, x->data.n == 0)) return 1;
      cnt[nopen - 1]++;
    }
    /* After an element (or at the ']' of an empty array): ',' or ']'. */
    for (;;) {
      pv__skip_blank(r);
      c = pv__peek(r);
      if (c == ',' && nopen > 0 && cnt[nopen - 1] > 0) {
        pv__next(r);
        break;
      }
      if (c == ']') {
        nopen--;
        int64_t n = cnt[nopen];
        if (dims[nopen] < 0) {
          dims[nopen] = n;
        } else if (dims[nopen] != n) {
          return pv__err_at(err, oline[nopen], ocol[nopen],
                            "irregular array: this array has %lld element%s, but an earlier one "
                            "at the same depth has %lld",
                            (long long)n, n == 1 ? "" : "s", (long long)dims[nopen]);
        }
        pv__next(r);
        if (nopen == 0) {
          if (arank < 0) {
            return pv__err_at(err, start_line, start_col,
                              "an empty array literal has no element type; write it as "
                              "empty([0]t), e.g. empty([0]i32)");
          }
          memcpy(shape, dims, (size_t)R * sizeof(int64_t));
          return 0;
        }
        cnt[nopen - 1]++;
        continue;
      }
      line = r->line;
      col = r->col;
      pv__found(r, found);
      return pv__err_at(err, line, col, "expected ']' or ',' after array element, found %s", found);
    }
  }
}

/* Reads one text value (the reader is at its first byte). */
static int pv__read_text(struct pv__ctx *x, int64_t *shape) {
  struct pv_reader *r = x->r;
  int c = pv__peek(r);
  if (c == '[') {
    if (x->rank == 0) {
      return pv__err_at(x->err, r->line, r->col, "expected %s, but the value is an array",
                        x->tname);
    }
    return pv__read_array(x, shape);
  }
  if (c == '"') return pv__read_string(x, shape);
  struct pv__lit l;
  int rc = pv__read_literal(x, &l);
  if (rc == 2) return pv__read_empty(x, shape);
  if (rc) return 1;
  return pv__take_literal(x, &l, 0, 1);
}

/* Escapes bytes as Rust's escape_ascii does, into out (4 bytes per byte + 1). */
static void pv__escape_ascii(char *out, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned c = p[i];
    if (c == '\t') {
      out += sprintf(out, "\\t");
    } else if (c == '\r') {
      out += sprintf(out, "\\r");
    } else if (c == '\n') {
      out += sprintf(out, "\\n");
    } else if (c == '\\' || c == '\'' || c == '"') {
      out += sprintf(out, "\\%c", c);
    } else if (c >= 0x20 && c < 0x7f) {
      *out++ = (char)c;
    } else {
      out += sprintf(out, "\\x%02x", c);
    }
  }
  *out = 0;
}

/* Checks a binary header h (7 bytes, at byte offset `at`) against the
 * expected type: sets *rank and *prim, or returns 1 with the message. */
static int pv__binary_header(const unsigned char *h, int64_t at, int prim, int rank, int *hrank,
                             int *hprim, char **err) {
  if (h[0] != 'b') return pv__err_byte(err, at, "binary value must start with 'b'");
  if (h[1] != 2) {
    return pv__err_byte(err, at + 1, "unsupported binary format version %d (expected 2)", h[1]);
  }
  *hrank = h[2];
  *hprim = -1;
  for (int t = 0; t < PV_NPRIMS; t++) {
    if (memcmp(h + 3, pv__binary_names[t], 4) == 0) *hprim = t;
  }
  if (*hprim < 0) {
    char shown[20];
    pv__escape_ascii(shown, h + 3, 4);
    return pv__err_byte(err, at + 3, "unknown binary element type \"%s\"", shown);
  }
  if (*hrank != rank || *hprim != prim) {
    char want[2 * PV_MAX_RANK + 8], got[2 * PV_MAX_RANK + 8];
    pv__type_name(want, prim, rank);
    pv__type_name(got, *hprim, *hrank);
    return pv__err_byte(err, at, "expected %s, but the binary value has type %s", want, got);
  }
  return 0;
}

/* Reads rank dimensions (8 bytes each, little-endian) at p, at byte offset
 * `at`, into shape; 1 with the message for a negative one. */
static int pv__binary_shape(const unsigned char *p, int64_t at, int rank, int64_t *shape,
                            char **err) {
  for (int i = 0; i < rank; i++) {
    int64_t d = (int64_t)pv__get_le64(p + 8 * i);
    if (d < 0) {
      return pv__err_byte(err, at + 8 * i, "invalid array dimension %lld in binary value",
                          (long long)d);
    }
    shape[i] = d;
  }
  return 0;
}

/* The element count and byte size of a shape; 1 when they overflow. */
static int pv__payload(int prim, int rank, const int64_t *shape, uint64_t *count, uint64_t *bytes) {
  uint64_t c = 1;
  for (int i = 0; i < rank; i++) {
    uint64_t d = (uint64_t)shape[i];
    if (d != 0 && c > UINT64_MAX / d) return 1;
    c *= d;
  }
  if (c > UINT64_MAX / pv__sizes[prim]) return 1;
  *count = c;
  *bytes = c * pv__sizes[prim];
  return 0;
}

/* Checks bool bytes (n at p, the first at byte offset at): 1 with the
 * message for one that is not 0 or 1. */
static int pv__check_bools(const unsigned char *p, size_t n, int64_t at, char **err) {
  for (size_t i = 0; i < n; i++) {
    if (p[i] > 1) {
      return pv__err_byte(err, at + (int64_t)i, "invalid bool byte %d (must be 0 or 1)", p[i]);
    }
  }
  return 0;
}

/* Reads one binary value of the expected type from the reader (at its
 * 'b'), reading the elements straight into the result. */
static int pv__read_binary(struct pv_reader *r, int prim, int rank, void **data, int64_t *shape,
                           char **err) {
  int64_t start = r->off;
  unsigned char h[7], dims[8 * PV_MAX_RANK];
  size_t n = pv__read_bytes(r, h, 7);
  if (n < 7) {
    return pv__err_byte(err, start,
                        "truncated binary value: expected a 7-byte header, found %llu bytes",
                        (unsigned long long)n);
  }
  int hrank, hprim;
  if (pv__binary_header(h, start, prim, rank, &hrank, &hprim, err)) return 1;
  int64_t at = r->off;
  n = pv__read_bytes(r, dims, 8 * (size_t)rank);
  if (n < 8 * (size_t)rank) {
    return pv__err_byte(err, at,
                        "truncated binary value: expected %d bytes of shape for rank %d, "
                        "found %llu",
                        8 * rank, rank, (unsigned long long)n);
  }
  if (pv__binary_shape(dims, at, rank, shape, err)) return 1;
  at = r->off;
  uint64_t count, nbytes;
  if (pv__payload(prim, rank, shape, &count, &nbytes)) {
    char *shown = pv__shape_text(rank, shape);
    pv__err_byte(err, at, "binary value of shape %s is too large", shown ? shown : "");
    free(shown);
    return 1;
  }
  unsigned char *buf = NULL;
  if (nbytes <= (uint64_t)PTRDIFF_MAX && nbytes < (uint64_t)SIZE_MAX) {
    buf = malloc(nbytes ? (size_t)nbytes : 1);
  }
  if (buf == NULL) {
    char *shown = pv__shape_text(rank, shape);
    pv__err_byte(err, at,
                 "out of memory: cannot allocate %llu bytes for a binary value of type %s%s",
                 (unsigned long long)nbytes, shown ? shown : "", pv__names[prim]);
    free(shown);
    return 1;
  }
  /* A chunk at a time, as the Rust reader checks bools per chunk. */
  size_t done = 0, total = (size_t)nbytes;
  while (done < total) {
    size_t want = total - done < PV_CHUNK ? total - done : PV_CHUNK;
    int64_t base = r->off;
    size_t got = pv__read_bytes(r, buf + done, want);
    if (got < want) {
      free(buf);
      return pv__err_byte(err, at,
                          "truncated binary value: expected %llu bytes of %s data, found %llu",
                          (unsigned long long)nbytes, pv__names[prim],
                          (unsigned long long)(done + got));
    }
    if (prim == PV_BOOL && pv__check_bools(buf + done, want, base, err)) {
      free(buf);
      return 1;
    }
    done += want;
  }
  if (!pv__little_endian()) pv__swap_elems(buf, (size_t)count, pv__sizes[prim]);
  *data = buf;
  return 0;
}

/* Reads one value of element type `prim` and rank `rank`, in the text
 * format or the binary format (first non-blank byte 'b'). On success
 * returns 0, *data is a malloc'd buffer (never NULL) with the elements in
 * row-major order, host byte order (f16 as its bits, bool as bytes 0/1),
 * and shape[0..rank) holds the dimensions. On failure returns 1 and *err
 * is a malloc'd message (NULL only when even that cannot be allocated). */
static PV_UNUSED int pv_read_value(struct pv_reader *r, int prim, int rank, void **data,
                                   int64_t *shape, char **err) {
  *data = NULL;
  *err = NULL;
  if (prim < 0 || prim >= PV_NPRIMS || rank < 0 || rank > PV_MAX_RANK) {
    *err = pv__format("cannot read a value of element type %d and rank %d", prim, rank);
    return 1;
  }
  pv__skip_blank(r);
  int rc;
  if (pv__peek(r) == 'b') {
    rc = pv__read_binary(r, prim, rank, data, shape, err);
  } else {
    struct pv__ctx x;
    memset(&x, 0, sizeof x);
    r->text = 1;
    x.r = r;
    x.prim = prim;
    x.rank = rank;
    x.err = err;
    pv__type_name(x.tname, prim, rank);
    if (pv__peek(r) == EOF) {
      rc = pv__err_at(err, r->line, r->col, "expected %s, but found end of input", x.tname);
    } else {
      rc = pv__read_text(&x, shape);
    }
    free(x.word.p);
    if (rc == 0 && x.data.p == NULL) x.data.p = malloc(1);
    if (rc == 0 && x.data.p == NULL) rc = pv__err_at(err, r->line, r->col, "out of memory");
    if (rc == 0) {
      *data = x.data.p;
    } else {
      free(x.data.p);
    }
  }
  pv__release(r);
  return rc;
}

/* ---- writing text --------------------------------------------------------------- */

/* Tries the p-digit decimals nearest to x (finite, > 0): the correctly
 * rounded one, else its neighbour on x's other side. 1 when one reads back
 * (strtod, or strtof when single) to x; then its digits (p, no dot) are in
 * d and *e10 is its exponent (x ~ d[0].d[1..] * 10^e10). */
static int pv__try_digits(double x, int single, int p, char *d, int *e10) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*e", p - 1, x);
  int k = 0;
  const char *s = buf;
  while (*s && *s != 'e') {
    if (*s != '.') d[k++] = *s;
    s++;
  }
  d[k] = 0;
  *e10 = (int)strtol(s + 1, NULL, 10);
  for (int attempt = 0; attempt < 2; attempt++) {
    snprintf(buf, sizeof buf, "%c%s%se%d", d[0], p > 1 ? "." : "", d + 1, *e10);
    double back = single ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    if (back == x) return 1;
    if (attempt == 1) break;
    /* The neighbour on the other side of x, p digits too. */
    int i = p - 1;
    if (back > x) {
      while (i >= 0 && d[i] == '0') d[i--] = '9';
      d[i]--;
      if (d[0] == '0') {
        memset(d, '9', (size_t)p);
        (*e10)--;
      }
    } else {
      while (i >= 0 && d[i] == '9') d[i--] = '0';
      if (i < 0) {
        d[0] = '1';
        (*e10)++;
      } else {
        d[i]++;
      }
    }
  }
  return 0;
}

/* The shortest digits that read back to x (finite, > 0), the nearest to
 * x among those, ties away from zero (as Rust's shortest formatting): into
 * d (at most 17, no trailing zeros); returns their count, *e10 as above. */
static int pv__shortest(double x, int single, char *d, int *e10) {
  int lo = 1, hi = single ? 9 : 17;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (pv__try_digits(x, single, mid, d, e10)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  pv__try_digits(x, single, lo, d, e10);
  /* Ties: x exactly halfway between two lo-digit decimals that both read
   * back: printf rounded to even, Rust takes the one above. */
  char buf[96];
  snprintf(buf, sizeof buf, "%.*e", lo + 40, x);
  char all[64] = {0};
  int k = 0;
  for (const char *s = buf; *s && *s != 'e'; s++) {
    if (*s != '.') all[k++] = *s;
  }
  int tie = all[lo] == '5';
  for (int i = lo + 1; i < k; i++) tie &= all[i] == '0';
  int all_e10 = (int)strtol(strchr(buf, 'e') + 1, NULL, 10);
  if (tie && memcmp(all, d, (size_t)lo) == 0 && all_e10 == *e10) {
    char up[24];
    int ue = *e10, i = lo - 1;
    memcpy(up, d, (size_t)lo);
    while (i >= 0 && up[i] == '9') up[i--] = '0';
    if (i < 0) {
      up[0] = '1';
      ue++;
    } else {
      up[i]++;
    }
    up[lo] = 0;
    char t[64];
    snprintf(t, sizeof t, "%c%s%se%d", up[0], lo > 1 ? "." : "", up + 1, ue);
    double back = single ? (double)strtof(t, NULL) : strtod(t, NULL);
    if (back == x) {
      memcpy(d, up, (size_t)lo + 1);
      *e10 = ue;
    }
  }
  int n = lo;
  while (n > 1 && d[n - 1] == '0') n--;
  d[n] = 0;
  return n;
}

/* Rust's `{:?}` of a finite f64 (single: of the f32 x): the shortest
 * round-trip digits, in decimal notation with at least one fractional
 * digit, or in exponential notation below 1e-4 and from 1e16 on. */
static void pv__rust_debug(char *out, double x, int single) {
  if (signbit(x)) {
    *out++ = '-';
    x = -x;
  }
  if (x == 0) {
    strcpy(out, "0.0");
    return;
  }
  char d[24];
  int e10;
  int n = pv__shortest(x, single, d, &e10);
  int expo = single ? ((float)x < 1e-4f || (float)x >= 1e16f) : (x < 1e-4 || x >= 1e16);
  if (expo) {
    sprintf(out, "%c%s%se%d", d[0], n > 1 ? "." : "", d + 1, e10);
    return;
  }
  int E = e10 + 1; /* x = 0.d * 10^E */
  if (E <= 0) {
    out += sprintf(out, "0.");
    for (int i = 0; i < -E; i++) *out++ = '0';
    strcpy(out, d);
  } else if (E < n) {
    memcpy(out, d, (size_t)E);
    out[E] = '.';
    strcpy(out + E + 1, d + E);
  } else {
    out += sprintf(out, "%s", d);
    for (int i = 0; i < E - n; i++) *out++ = '0';
    strcpy(out, ".0");
  }
}

/* An f16 (finite) as the Rust writer prints it: the shortest of Rust's
 * `{:.*e}` forms of its f32 value that reads back (through f64) to it,
 * printed as `{:?}` of that decimal as an f32 when that reads back too. */
static void pv__f16_digits(char *out, uint16_t h) {
  double wide = pv__f16_to_f32(h);
  for (int sig = 1; sig <= 5; sig++) {
    char c[48];
    snprintf(c, sizeof c, "%.*e", sig - 1, wide);
    double back = strtod(c, NULL);
    if (pv__f64_to_f16(back) != h) continue;
    char pretty[48];
    pv__rust_debug(pretty, (double)(float)back, 1);
    if (pv__f64_to_f16(strtod(pretty, NULL)) == h) {
      strcpy(out, pretty);
    } else {
      /* Rust's exponent: no '+', no leading zeros. */
      char *e = strchr(c, 'e');
      int ex = (int)strtol(e + 1, NULL, 10);
      sprintf(e, "e%d", ex);
      strcpy(out, c);
    }
    return;
  }
  pv__rust_debug(out, wide, 1);
}

/* Formats the element at p (host byte order) as the Rust writer does:
 * `-3i32`, `true`, `1.5f32`, `f64.nan`, `-f16.inf`. out: 64 bytes. */
static void pv__format_scalar(char *out, int prim, const unsigned char *p) {
  switch (prim) {
  case PV_I8: {
    int8_t v;
    memcpy(&v, p, 1);
    sprintf(out, "%di8", v);
    break;
  }
  case PV_I16: {
    int16_t v;
    memcpy(&v, p, 2);
    sprintf(out, "%di16", v);
    break;
  }
  case PV_I32: {
    int32_t v;
    memcpy(&v, p, 4);
    sprintf(out, "%ldi32", (long)v);
    break;
  }
  case PV_I64: {
    int64_t v;
    memcpy(&v, p, 8);
    sprintf(out, "%lldi64", (long long)v);
    break;
  }
  case PV_U8:
    sprintf(out, "%uu8", (unsigned)p[0]);
    break;
  case PV_U16: {
    uint16_t v;
    memcpy(&v, p, 2);
    sprintf(out, "%uu16", (unsigned)v);
    break;
  }
  case PV_U32: {
    uint32_t v;
    memcpy(&v, p, 4);
    sprintf(out, "%luu32", (unsigned long)v);
    break;
  }
  case PV_U64: {
    uint64_t v;
    memcpy(&v, p, 8);
    sprintf(out, "%lluu64", (unsigned long long)v);
    break;
  }
  case PV_BOOL:
    strcpy(out, p[0] ? "true" : "false");
    break;
  case PV_F16: {
    uint16_t h;
    memcpy(&h, p, 2);
    if ((h & 0x7c00u) == 0x7c00u) {
      strcpy(out, (h & 0x3ffu) ? "f16.nan" : (h & 0x8000u) ? "-f16.inf" : "f16.inf");
    } else {
      pv__f16_digits(out, h);
      strcat(out, "f16");
    }
    break;
  }
  case PV_F32: {
    float v;
    memcpy(&v, p, 4);
    if (isnan(v)) {
      strcpy(out, "f32.nan");
    } else if (isinf(v)) {
      strcpy(out, v < 0 ? "-f32.inf" : "f32.inf");
    } else {
      pv__rust_debug(out, v, 1);
      strcat(out, "f32");
    }
    break;
  }
  default: {
    double v;
    memcpy(&v, p, 8);
    if (isnan(v)) {
      strcpy(out, "f64.nan");
    } else if (isinf(v)) {
      strcpy(out, v < 0 ? "-f64.inf" : "f64.inf");
    } else {
      pv__rust_debug(out, v, 0);
      strcat(out, "f64");
    }
  }
  }
}

/* Writes a value in Futhark's text format exactly as parad's Rust writer
 * (crates/values text_write.rs) does, without a newline: `1i32`,
 * `[[1.0f32, 2.5f32], [3.0f32, -0.0f32]]`, `empty([0][3]i32)`. Returns 0,
 * or non-zero on an I/O error (or an invalid type). */
static PV_UNUSED int pv_write_text(FILE *f, int prim, int rank, const void *data,
                                   const int64_t *shape) {
  char buf[80];
  const unsigned char *p = data;
  if (prim < 0 || prim >= PV_NPRIMS || rank < 0) return 1;
  if (rank == 0) {
    pv__format_scalar(buf, prim, p);
    return fputs(buf, f) == EOF;
  }
  uint64_t n = 1;
  for (int i = 0; i < rank; i++) n *= (uint64_t)shape[i];
  if (n == 0) {
    if (fputs("empty(", f) == EOF) return 1;
    for (int i = 0; i < rank; i++) {
      if (fprintf(f, "[%lld]", (long long)shape[i]) < 0) return 1;
    }
    return fprintf(f, "%s)", pv__names[prim]) < 0;
  }
  /* Walk the elements, opening and closing brackets at row boundaries:
   * counter[i] is the index along dimension i. */
  int64_t *counter = calloc((size_t)rank, sizeof(int64_t));
  if (counter == NULL) return 1;
  size_t size = pv__sizes[prim];
  int rc = 0;
  for (uint64_t e = 0; e < n && !rc; e++) {
    /* A bracket opens for each sub-array that starts here: one per
     * trailing zero counter (all of them at the first element). */
    int opens = rank;
    if (e > 0) {
      int k = rank - 1;
      while (k > 0 && counter[k] == 0) k--;
      opens = rank - 1 - k;
    }
    if (e > 0 && fputs(", ", f) == EOF) rc = 1;
    for (int i = 0; i < opens && !rc; i++) rc = putc('[', f) == EOF;
    pv__format_scalar(buf, prim, p + e * size);
    if (!rc && fputs(buf, f) == EOF) rc = 1;
    /* Advance the counters; every dimension that wraps closes a bracket. */
    int closes = 0;
    for (int k = rank - 1; k >= 0; k--) {
      if (++counter[k] < shape[k]) break;
      counter[k] = 0;
      closes++;
    }
    for (int i = 0; i < closes && !rc; i++) rc = putc(']', f) == EOF;
  }
  free(counter);
  return rc;
}

/* ---- binary --------------------------------------------------------------------- */

/* Bytes of the binary encoding of a value: header, shape and elements. */
static PV_UNUSED size_t pv_binary_size(int prim, int rank, const int64_t *shape) {
  size_t n = 1;
  for (int i = 0; i < rank; i++) n *= (size_t)shape[i];
  return 7 + 8 * (size_t)rank + n * pv_prim_size(prim);
}

/* Writes the header and the shape of a binary value to p (7 + 8 * rank
 * bytes); returns the element count. */
static size_t pv__put_header(unsigned char *p, int prim, int rank, const int64_t *shape) {
  size_t n = 1;
  p[0] = 'b';
  p[1] = 2;
  p[2] = (unsigned char)rank;
  memcpy(p + 3, pv__binary_names[prim], 4);
  for (int i = 0; i < rank; i++) {
    pv__put_le64(p + 7 + 8 * i, (uint64_t)shape[i]);
    n *= (size_t)shape[i];
  }
  return n;
}

/* Copies n elements to little-endian bytes at out (bools as 0/1). */
static void pv__put_elems(unsigned char *out, int prim, const unsigned char *data, size_t n) {
  size_t size = pv__sizes[prim];
  if (prim == PV_BOOL) {
    for (size_t i = 0; i < n; i++) out[i] = data[i] != 0;
    return;
  }
  memcpy(out, data, n * size);
  if (!pv__little_endian()) pv__swap_elems(out, n, size);
}

/* Writes a value in the binary format at p (pv_binary_size bytes; rank at
 * most 255); returns p + size. */
static PV_UNUSED unsigned char *pv_binary_put(unsigned char *p, int prim, int rank,
                                              const void *data, const int64_t *shape) {
  size_t n = pv__put_header(p, prim, rank, shape);
  p += 7 + 8 * (size_t)rank;
  pv__put_elems(p, prim, data, n);
  return p + n * pv__sizes[prim];
}

/* Writes a value in Futhark's binary format. Returns 0, or non-zero on an
 * I/O error (or a rank above 255, which the format cannot express). */
static PV_UNUSED int pv_write_binary(FILE *f, int prim, int rank, const void *data,
                                     const int64_t *shape) {
  unsigned char head[7 + 8 * PV_MAX_RANK];
  if (prim < 0 || prim >= PV_NPRIMS || rank < 0 || rank > PV_MAX_RANK) return 1;
  size_t n = pv__put_header(head, prim, rank, shape), size = pv__sizes[prim];
  if (fwrite(head, 1, 7 + 8 * (size_t)rank, f) != 7 + 8 * (size_t)rank) return 1;
  if (prim != PV_BOOL && pv__little_endian()) return fwrite(data, size, n, f) != n;
  unsigned char *chunk = malloc(PV_CHUNK);
  if (chunk == NULL) return 1;
  const unsigned char *p = data;
  size_t per = PV_CHUNK / size;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i += per) {
    size_t m = n - i < per ? n - i : per;
    pv__put_elems(chunk, prim, p + i * size, m);
    rc = fwrite(chunk, size, m, f) != m;
  }
  free(chunk);
  return rc;
}

/* Parses one binary value at p (at most `avail` bytes) that must have
 * element type `prim` and rank `rank`: fills shape, sets *elems to the
 * first element byte inside p (little-endian) and *used to the bytes the
 * value takes. 0, or 1 with a malloc'd *err (offsets relative to p). */
static PV_UNUSED int pv_binary_get(const unsigned char *p, size_t avail, int prim, int rank,
                                   int64_t *shape, const unsigned char **elems, size_t *used,
                                   char **err) {
  *err = NULL;
  if (prim < 0 || prim >= PV_NPRIMS || rank < 0 || rank > PV_MAX_RANK) {
    *err = pv__format("cannot read a value of element type %d and rank %d", prim, rank);
    return 1;
  }
  if (avail < 7) {
    return pv__err_byte(err, 0,
                        "truncated binary value: expected a 7-byte header, found %llu bytes",
                        (unsigned long long)avail);
  }
  int hrank, hprim;
  if (pv__binary_header(p, 0, prim, rank, &hrank, &hprim, err)) return 1;
  size_t pos = 7;
  if (avail - pos < 8 * (size_t)rank) {
    return pv__err_byte(err, (int64_t)pos,
                        "truncated binary value: expected %d bytes of shape for rank %d, "
                        "found %llu",
                        8 * rank, rank, (unsigned long long)(avail - pos));
  }
  if (pv__binary_shape(p + pos, (int64_t)pos, rank, shape, err)) return 1;
  pos += 8 * (size_t)rank;
  uint64_t count, nbytes, left = avail - pos;
  if (pv__payload(prim, rank, shape, &count, &nbytes)) {
    char *shown = pv__shape_text(rank, shape);
    pv__err_byte(err, (int64_t)pos,
                 "truncated binary value: shape %s needs more than the %llu bytes left",
                 shown ? shown : "", (unsigned long long)left);
    free(shown);
    return 1;
  }
  if (nbytes > left) {
    return pv__err_byte(err, (int64_t)pos,
                        "truncated binary value: expected %llu bytes of %s data, found %llu",
                        (unsigned long long)nbytes, pv__names[prim], (unsigned long long)left);
  }
  if (prim == PV_BOOL && pv__check_bools(p + pos, (size_t)nbytes, (int64_t)pos, err)) return 1;
  *elems = p + pos;
  *used = pos + (size_t)nbytes;
  return 0;
}
