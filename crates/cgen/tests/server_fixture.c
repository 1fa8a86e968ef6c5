/* Test fixture for runtime/main.h and runtime/server.h (driven by
 * tests/server_c.rs): a small hand-written stand-in for what the C
 * generator produces (configuration, context, a few types and entry
 * points with the type and entry tables), followed by runtime/options.h
 * and the executable's or the server's `main`.
 *
 * Built with -DFX_SERVER for the server, without for the executable,
 * with -DFX_MULTICORE as the multicore backend (else the c backend),
 * and with -DPARAD_HAVE_VALUES_H when runtime/values.h exists (otherwise
 * a minimal stand-in of the pv_* functions that main.h/server.h use).
 *
 * Every object the fake API makes is counted; the context reports the
 * number still alive on stderr when it is freed ("fixture: N live
 * objects"), so the tests can check that nothing was leaked. */

#define _GNU_SOURCE
#ifdef FX_MULTICORE
#define FUTHARK_BACKEND_multicore
#else
#define FUTHARK_BACKEND_c
#endif
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PARAD_HAVE_VALUES_H
#include "values.h"
#else

/* ---- stand-in for values.h: text and binary values, no comments ---- */

enum pv_prim { PV_I8, PV_I16, PV_I32, PV_I64, PV_U8, PV_U16, PV_U32, PV_U64,
               PV_F16, PV_F32, PV_F64, PV_BOOL };

static const char *const fx_prim_names[] = {"i8", "i16", "i32", "i64", "u8", "u16",
                                            "u32", "u64", "f16", "f32", "f64", "bool"};
static const char *const fx_bin_names[] = {"  i8", " i16", " i32", " i64", "  u8", " u16",
                                           " u32", " u64", " f16", " f32", " f64", "bool"};
static const size_t fx_prim_sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1};

/* The name of a primitive type. */
__attribute__((unused)) static const char *pv_prim_name(int prim) { return fx_prim_names[prim]; }

/* The bytes of one element. */
__attribute__((unused)) static size_t pv_prim_size(int prim) { return fx_prim_sizes[prim]; }

struct pv_reader {
  FILE *f;
};

/* Starts reading values from f. */
__attribute__((unused)) static void pv_reader_init(struct pv_reader *r, FILE *f) { r->f = f; }

/* Skips white space; the next character (left unread) or EOF. */
static int fx_peek(struct pv_reader *r) {
  int c;
  while ((c = getc(r->f)) != EOF && isspace(c)) {
  }
  if (c != EOF) ungetc(c, r->f);
  return c;
}

/* 1 when only white space is left. */
__attribute__((unused)) static int pv_at_end(struct pv_reader *r) { return fx_peek(r) == EOF; }

/* Reads n raw bytes; 1 when the input ends first. */
__attribute__((unused)) static int pv_read_bytes(struct pv_reader *r, void *p, size_t n) {
  return fread(p, 1, n, r->f) != n;
}

/* A malloc'd message. */
static char *fx_msg(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return strdup(buf);
}

/* Reads one scalar literal of type prim into dst. */
static int fx_read_scalar(struct pv_reader *r, int prim, unsigned char *dst, char **err) {
  char tok[128];
  int n = 0, c;
  fx_peek(r);
  while ((c = getc(r->f)) != EOF && (isalnum(c) || c == '.' || c == '-' || c == '+' || c == '_')) {
    if (n < 127) tok[n++] = (char)c;
  }
  if (c != EOF) ungetc(c, r->f);
  tok[n] = '\0';
  if (n == 0) {
    *err = fx_msg("expected a %s literal", pv_prim_name(prim));
    return 1;
  }
  const char *name = pv_prim_name(prim);
  if (prim == PV_BOOL) {
    if (strcmp(tok, "true") != 0 && strcmp(tok, "false") != 0) {
      *err = fx_msg("expected a bool literal, got %s", tok);
      return 1;
    }
    dst[0] = tok[0] == 't';
    return 0;
  }
  /* Strip a type suffix, which must be the expected one. */
  size_t len = strlen(tok);
  for (int p = 0; p < PV_BOOL; p++) {
    size_t sl = strlen(fx_prim_names[p]);
    if (len > sl && strcmp(tok + len - sl, fx_prim_names[p]) == 0 &&
        (isdigit((unsigned char)tok[len - sl - 1]) || tok[len - sl - 1] == '.')) {
      if (p != prim) {
        *err = fx_msg("expected a %s literal, got %s", name, tok);
        return 1;
      }
      tok[len - sl] = '\0';
      break;
    }
  }
  char *end;
  errno = 0;
  if (prim == PV_F64 || prim == PV_F32 || prim == PV_F16) {
    double d = strtod(tok, &end);
    if (*end != '\0' || end == tok) {
      *err = fx_msg("expected a %s literal, got %s", name, tok);
      return 1;
    }
    if (prim == PV_F64) memcpy(dst, &d, 8);
    else if (prim == PV_F32) {
      float f = (float)d;
      memcpy(dst, &f, 4);
    } else {
      uint16_t h = 0;
      memcpy(dst, &h, 2);
    }
    return 0;
  }
  long long v = strtoll(tok, &end, 10);
  if (*end != '\0' || end == tok || errno != 0) {
    *err = fx_msg("expected a %s literal, got %s", name, tok);
    return 1;
  }
  memcpy(dst, &v, pv_prim_size(prim)); /* little-endian host */
  return 0;
}

/* Reads nested brackets at depth d of a text array. */
static int fx_read_rows(struct pv_reader *r, int prim, int rank, int d, int64_t *shape, int *seen,
                        unsigned char **buf, size_t *n, size_t *cap, char **err) {
  if (fx_peek(r) != '[') {
    *err = fx_msg("expected '[' in a value of rank %d", rank);
    return 1;
  }
  getc(r->f);
  int64_t count = 0;
  if (fx_peek(r) == ']') {
    getc(r->f);
  } else {
    for (;;) {
      if (d == rank - 1) {
        size_t size = pv_prim_size(prim);
        if ((*n + 1) * size > *cap) {
          *cap = (*cap + size) * 2;
          *buf = realloc(*buf, *cap);
        }
        if (fx_read_scalar(r, prim, *buf + *n * size, err)) return 1;
        (*n)++;
      } else if (fx_read_rows(r, prim, rank, d + 1, shape, seen, buf, n, cap, err)) {
        return 1;
      }
      count++;
      int c = fx_peek(r);
      getc(r->f);
      if (c == ']') break;
      if (c != ',') {
        *err = fx_msg("expected ',' or ']' in an array");
        return 1;
      }
    }
  }
  if (!seen[d]) {
    shape[d] = count;
    seen[d] = 1;
  } else if (shape[d] != count) {
    *err = fx_msg("irregular array");
    return 1;
  }
  return 0;
}

/* Reads a value of element type prim and rank rank, text or binary. */
__attribute__((unused)) static int pv_read_value(struct pv_reader *r, int prim, int rank,
                                                 void **data, int64_t *shape, char **err) {
  int c = fx_peek(r);
  size_t size = pv_prim_size(prim);
  if (c == EOF) {
    *err = fx_msg("unexpected end of input, expected a value of element type %s",
                  pv_prim_name(prim));
    return 1;
  }
  if (c == 'b') {
    unsigned char head[7];
    if (fread(head, 1, 7, r->f) != 7 || head[1] != 2) {
      *err = fx_msg("invalid binary header");
      return 1;
    }
    if (head[2] != rank) {
      *err = fx_msg("expected a value of rank %d but the binary value has rank %d", rank, head[2]);
      return 1;
    }
    if (memcmp(head + 3, fx_bin_names[prim], 4) != 0) {
      *err = fx_msg("expected a binary %s value, got %.4s", pv_prim_name(prim), (char *)head + 3);
      return 1;
    }
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
      if (fread(&shape[i], 8, 1, r->f) != 1) {
        *err = fx_msg("truncated binary value");
        return 1;
      }
      n *= shape[i];
    }
    *data = malloc(n * size > 0 ? (size_t)n * size : 1);
    if (fread(*data, size, (size_t)n, r->f) != (size_t)n) {
      free(*data);
      *err = fx_msg("truncated binary value");
      return 1;
    }
    return 0;
  }
  if (rank == 0) {
    *data = malloc(8);
    if (fx_read_scalar(r, prim, *data, err)) {
      free(*data);
      return 1;
    }
    return 0;
  }
  if (c == 'e') {
    char word[6] = {0};
    if (fread(word, 1, 5, r->f) != 5 || strcmp(word, "empty") != 0 || fx_peek(r) != '(') {
      *err = fx_msg("expected an array");
      return 1;
    }
    getc(r->f);
    for (int i = 0; i < rank; i++) {
      long long d;
      if (fscanf(r->f, " [%lld]", &d) != 1) {
        *err = fx_msg("bad empty array");
        return 1;
      }
      shape[i] = d;
    }
    char tn[16];
    if (fscanf(r->f, " %15[a-z0-9]", tn) != 1 || strcmp(tn, pv_prim_name(prim)) != 0 ||
        fx_peek(r) != ')') {
      *err = fx_msg("bad empty array");
      return 1;
    }
    getc(r->f);
    *data = malloc(1);
    return 0;
  }
  int seen[8] = {0};
  size_t n = 0, cap = 0;
  unsigned char *buf = NULL;
  if (fx_read_rows(r, prim, rank, 0, shape, seen, &buf, &n, &cap, err)) {
    free(buf);
    return 1;
  }
  for (int i = 0; i < rank; i++)
    if (!seen[i]) shape[i] = 0;
  *data = buf != NULL ? buf : malloc(1);
  return 0;
}

/* Prints one scalar in the text format. */
static void fx_write_scalar(FILE *f, int prim, const unsigned char *p) {
  int64_t i = 0;
  uint64_t u = 0;
  switch (prim) {
  case PV_I8: i = *(const int8_t *)p; break;
  case PV_I16: i = *(const int16_t *)p; break;
  case PV_I32: i = *(const int32_t *)p; break;
  case PV_I64: i = *(const int64_t *)p; break;
  case PV_U8: u = *(const uint8_t *)p; break;
  case PV_U16: u = *(const uint16_t *)p; break;
  case PV_U32: u = *(const uint32_t *)p; break;
  case PV_U64: u = *(const uint64_t *)p; break;
  case PV_BOOL: fputs(p[0] ? "true" : "false", f); return;
  case PV_F16: fputs("0.0f16", f); return;
  default: {
    double d = prim == PV_F64 ? *(const double *)p : (double)*(const float *)p;
    const char *name = pv_prim_name(prim);
    if (isnan(d)) {
      fprintf(f, "%s.nan", name);
      return;
    }
    if (isinf(d)) {
      fprintf(f, "%s%s.inf", d < 0 ? "-" : "", name);
      return;
    }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(buf, sizeof buf, "%.*g", prec, d);
      double back = strtod(buf, NULL);
      if (prim == PV_F64 ? back == d : (float)back == (float)d) break;
    }
    if (strpbrk(buf, ".e") == NULL) strcat(buf, ".0");
    fprintf(f, "%s%s", buf, name);
    return;
  }
  }
  if (prim <= PV_I64) fprintf(f, "%lld%s", (long long)i, pv_prim_name(prim));
  else fprintf(f, "%llu%s", (unsigned long long)u, pv_prim_name(prim));
}

/* Prints rows of an array from depth d; returns the next element. */
static const unsigned char *fx_write_rows(FILE *f, int prim, int rank, int d,
                                          const unsigned char *p, const int64_t *shape) {
  fputc('[', f);
  for (int64_t i = 0; i < shape[d]; i++) {
    if (i > 0) fputs(", ", f);
    if (d == rank - 1) {
      fx_write_scalar(f, prim, p);
      p += pv_prim_size(prim);
    } else {
      p = fx_write_rows(f, prim, rank, d + 1, p, shape);
    }
  }
  fputc(']', f);
  return p;
}

/* Prints a value in the text format. */
__attribute__((unused)) static int pv_write_text(FILE *f, int prim, int rank, const void *data,
                                                 const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= shape[i];
  if (rank == 0) {
    fx_write_scalar(f, prim, data);
  } else if (n == 0) {
    fputs("empty(", f);
    for (int i = 0; i < rank; i++) fprintf(f, "[%lld]", (long long)shape[i]);
    fprintf(f, "%s)", pv_prim_name(prim));
  } else {
    fx_write_rows(f, prim, rank, 0, data, shape);
  }
  return ferror(f);
}

/* Prints a value in the binary format (little-endian host). */
__attribute__((unused)) static int pv_write_binary(FILE *f, int prim, int rank, const void *data,
                                                   const int64_t *shape) {
  int64_t n = 1;
  fputc('b', f);
  fputc(2, f);
  fputc(rank, f);
  fputs(fx_bin_names[prim], f);
  for (int i = 0; i < rank; i++) {
    fwrite(&shape[i], 8, 1, f);
    n *= shape[i];
  }
  fwrite(data, pv_prim_size(prim), (size_t)n, f);
  return ferror(f);
}

#endif /* PARAD_HAVE_VALUES_H */

/* ---- the interface's generic types (api.h) ---- */

enum p_kind { P_KIND_PRIM, P_KIND_ARRAY, P_KIND_RECORD, P_KIND_SUM, P_KIND_OPAQUE };
struct futhark_context;
struct p_type;
struct p_field {
  const char *name;
  const struct p_type *type;
  int (*project)(struct futhark_context *ctx, void *out, const void *obj);
};
struct p_variant {
  const char *name;
  int npayload;
  const struct p_type *const *payload;
  int (*construct)(struct futhark_context *ctx, void **out, const void *const *payload);
  int (*destruct)(struct futhark_context *ctx, void *const *outs, const void *obj);
};
struct p_type {
  const char *name;
  enum p_kind kind;
  int prim;
  int rank;
  int (*free)(struct futhark_context *, void *obj);
  int (*store)(struct futhark_context *, const void *obj, void **p, size_t *n);
  void *(*restore)(struct futhark_context *, const void *p);
  const int64_t *(*shape)(struct futhark_context *, void *arr);
  void *(*new_array)(struct futhark_context *, const void *data, const int64_t *shape);
  int (*values)(struct futhark_context *, void *arr, void *data);
  int nfields;
  const struct p_field *fields;
  int (*new_record)(struct futhark_context *, void **out, const void *const *fields);
  int nvariants;
  const struct p_variant *variants;
  int (*variant)(struct futhark_context *, const void *obj);
  const struct p_type *elem;
  int (*index)(struct futhark_context *, void *out, void *arr, const int64_t *is);
  int (*set)(struct futhark_context *, void *arr, const void *elem, const int64_t *is);
  int (*zip)(struct futhark_context *, void **out, const void *const *fields);
  void *(*new_raw)(struct futhark_context *, const void *data, const int64_t *shape);
  int (*new_elems)(struct futhark_context *, void **out, const void *const *elems,
                   const int64_t *shape);
};
struct p_entry {
  const char *name;
  int (*call)(struct futhark_context *, void *out, const void *const *ins);
  int nin;
  const struct p_type *const *in_types;
  const int *in_unique;
  const struct p_type *out_type;
  int out_unique;
  int nattrs;
  const char *const *attrs;
  int ntuning;
  const char *const *tuning;
};

/* ---- fake configuration and context ---- */

#define FX_NPARAMS 3
static const char *const fx_param_names[FX_NPARAMS] = {"main.threshold", "main.tile", "fail_init"};
static const char *const fx_param_classes[FX_NPARAMS] = {"threshold", "tile_size", "threshold"};

struct futhark_context_config {
  int debugging, logging, profiling, num_threads;
  int64_t params[FX_NPARAMS];
  char *cache_file;
};

struct futhark_context {
  struct futhark_context_config *cfg;
  char *error;
  int paused;
  int64_t live, calls, profiled_calls, clears;
};

int futhark_get_tuning_param_count(void) { return FX_NPARAMS; }
const char *futhark_get_tuning_param_name(int i) { return fx_param_names[i]; }
const char *futhark_get_tuning_param_class(int i) { return fx_param_classes[i]; }

struct futhark_context_config *futhark_context_config_new(void) {
  return calloc(1, sizeof(struct futhark_context_config));
}
void futhark_context_config_free(struct futhark_context_config *cfg) {
  free(cfg->cache_file);
  free(cfg);
}
void futhark_context_config_set_debugging(struct futhark_context_config *cfg, int flag) {
  cfg->debugging = flag;
}
void futhark_context_config_set_logging(struct futhark_context_config *cfg, int flag) {
  cfg->logging = flag;
}
void futhark_context_config_set_profiling(struct futhark_context_config *cfg, int flag) {
  cfg->profiling = flag;
}
void futhark_context_config_set_num_threads(struct futhark_context_config *cfg, int n) {
  cfg->num_threads = n;
}
int futhark_context_config_set_tuning_param(struct futhark_context_config *cfg,
                                            const char *name, size_t value) {
  for (int i = 0; i < FX_NPARAMS; i++)
    if (strcmp(fx_param_names[i], name) == 0) {
      cfg->params[i] = (int64_t)value;
      return 0;
    }
  return 1;
}
void futhark_context_config_set_cache_file(struct futhark_context_config *cfg, const char *f) {
  free(cfg->cache_file);
  cfg->cache_file = f != NULL ? strdup(f) : NULL;
}

struct futhark_context *futhark_context_new(struct futhark_context_config *cfg) {
  struct futhark_context *ctx = calloc(1, sizeof *ctx);
  ctx->cfg = cfg;
  if (cfg->params[2] != 0) ctx->error = strdup("fake initialisation failure\n");
  return ctx;
}
void futhark_context_free(struct futhark_context *ctx) {
  fprintf(stderr, "fixture: %lld live objects\n", (long long)ctx->live);
  free(ctx->error);
  free(ctx);
}
int futhark_context_sync(struct futhark_context *ctx) {
  (void)ctx;
  return 0;
}
char *futhark_context_get_error(struct futhark_context *ctx) {
  char *e = ctx->error;
  ctx->error = NULL;
  return e;
}
int futhark_context_clear_caches(struct futhark_context *ctx) {
  ctx->clears++;
  return 0;
}
void futhark_context_pause_profiling(struct futhark_context *ctx) { ctx->paused = 1; }
void futhark_context_unpause_profiling(struct futhark_context *ctx) { ctx->paused = 0; }
char *futhark_context_report(struct futhark_context *ctx) {
  char buf[512];
  snprintf(buf, sizeof buf,
           "{\"calls\": %lld, \"profiled_calls\": %lld, \"clears\": %lld, \"debugging\": %d, "
           "\"logging\": %d, \"profiling\": %d, \"threshold\": %lld, \"threads\": %d, "
           "\"cache_file\": \"%s\"}",
           (long long)ctx->calls, (long long)ctx->profiled_calls, (long long)ctx->clears,
           ctx->cfg->debugging, ctx->cfg->logging, ctx->cfg->profiling,
           (long long)ctx->cfg->params[0], ctx->cfg->num_threads,
           ctx->cfg->cache_file != NULL ? ctx->cfg->cache_file : "");
  return strdup(buf);
}

/* Sets the context's error message; returns 1 (the failure code). */
static int fx_error(struct futhark_context *ctx, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  free(ctx->error);
  ctx->error = strdup(buf);
  return 1;
}

/* An object allocation, counted. */
static void *fx_alloc(struct futhark_context *ctx, size_t n) {
  ctx->live++;
  return calloc(1, n);
}
static void fx_release(struct futhark_context *ctx, void *p) {
  ctx->live--;
  free(p);
}

/* Counts an entry-point call (and whether it was profiled). */
static void fx_count_call(struct futhark_context *ctx) {
  ctx->calls++;
  if (ctx->cfg->profiling && !ctx->paused) ctx->profiled_calls++;
}

/* ---- arrays of primitives ([]i32, []f64, [][]f64) ---- */

struct fx_array {
  int prim, rank;
  int64_t shape[2];
  unsigned char *data;
};

static int64_t fx_array_len(const struct fx_array *a) {
  int64_t n = 1;
  for (int i = 0; i < a->rank; i++) n *= a->shape[i];
  return n;
}
static struct fx_array *fx_array_new(struct futhark_context *ctx, int prim, int rank,
                                     const void *data, const int64_t *shape) {
  struct fx_array *a = fx_alloc(ctx, sizeof *a);
  a->prim = prim;
  a->rank = rank;
  for (int i = 0; i < rank; i++) a->shape[i] = shape[i];
  size_t bytes = (size_t)fx_array_len(a) * pv_prim_size(prim);
  a->data = malloc(bytes > 0 ? bytes : 1);
  if (bytes > 0) memcpy(a->data, data, bytes);
  return a;
}
static struct fx_array *fx_array_copy(struct futhark_context *ctx, const struct fx_array *a) {
  return fx_array_new(ctx, a->prim, a->rank, a->data, a->shape);
}
static int fx_array_free(struct futhark_context *ctx, void *obj) {
  struct fx_array *a = obj;
  free(a->data);
  fx_release(ctx, a);
  return 0;
}
static const int64_t *fx_array_shape(struct futhark_context *ctx, void *obj) {
  (void)ctx;
  return ((struct fx_array *)obj)->shape;
}
static int fx_array_values(struct futhark_context *ctx, void *obj, void *data) {
  (void)ctx;
  struct fx_array *a = obj;
  memcpy(data, a->data, (size_t)fx_array_len(a) * pv_prim_size(a->prim));
  return 0;
}
static void *fx_new_i32_1d(struct futhark_context *ctx, const void *data, const int64_t *shape) {
  return fx_array_new(ctx, PV_I32, 1, data, shape);
}
static void *fx_new_f64_1d(struct futhark_context *ctx, const void *data, const int64_t *shape) {
  return fx_array_new(ctx, PV_F64, 1, data, shape);
}
static void *fx_new_f64_2d(struct futhark_context *ctx, const void *data, const int64_t *shape) {
  if (shape[0] * shape[1] > 1000000) {
    fx_error(ctx, "array too large for the fixture");
    return NULL;
  }
  return fx_array_new(ctx, PV_F64, 2, data, shape);
}
static int fx_index_i32_1d(struct futhark_context *ctx, void *out, void *arr, const int64_t *is) {
  struct fx_array *a = arr;
  if (is[0] < 0 || is[0] >= a->shape[0]) return fx_error(ctx, "index out of bounds");
  memcpy(out, a->data + 4 * is[0], 4);
  return 0;
}
static int fx_set_i32_1d(struct futhark_context *ctx, void *arr, const void *elem,
                         const int64_t *is) {
  struct fx_array *a = arr;
  if (is[0] < 0 || is[0] >= a->shape[0]) return fx_error(ctx, "index out of bounds");
  memcpy(a->data + 4 * is[0], elem, 4);
  return 0;
}

/* ---- opaque byte format: PARADOPQ, length, name hash, leaves, 0 ---- */

static uint64_t fx_fnv(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return h;
}
/* Stores header + payload (the caller's bytes) as the API's store does. */
static int fx_store(const char *tname, const void *payload, size_t n, void **p, size_t *np) {
  size_t total = 32 + n;
  *np = total;
  if (p == NULL) return 0;
  if (*p == NULL) *p = malloc(total);
  unsigned char *b = *p;
  uint64_t len = total, hash = fx_fnv(tname);
  uint32_t leaves = 1, zero = 0;
  memcpy(b, "PARADOPQ", 8);
  memcpy(b + 8, &len, 8);
  memcpy(b + 16, &hash, 8);
  memcpy(b + 24, &leaves, 4);
  memcpy(b + 28, &zero, 4);
  memcpy(b + 32, payload, n);
  return 0;
}
/* The payload of stored bytes of type tname, or NULL (error set). */
static const unsigned char *fx_restore(struct futhark_context *ctx, const char *tname,
                                       const void *p, size_t *n) {
  const unsigned char *b = p;
  uint64_t len, hash;
  memcpy(&len, b + 8, 8);
  memcpy(&hash, b + 16, 8);
  if (memcmp(b, "PARADOPQ", 8) != 0 || hash != fx_fnv(tname) || len < 32) {
    fx_error(ctx, "restore: the bytes are not a stored value of type %s", tname);
    return NULL;
  }
  *n = (size_t)len - 32;
  return b + 32;
}

/* ---- record (i32, []f64) ---- */

struct fx_tup {
  int32_t a;
  struct fx_array *b;
};
static int fx_tup_free(struct futhark_context *ctx, void *obj) {
  struct fx_tup *t = obj;
  fx_array_free(ctx, t->b);
  fx_release(ctx, t);
  return 0;
}
static int fx_tup_new(struct futhark_context *ctx, void **out, const void *const *fields) {
  struct fx_tup *t = fx_alloc(ctx, sizeof *t);
  memcpy(&t->a, fields[0], 4);
  t->b = fx_array_copy(ctx, fields[1]);
  *out = t;
  return 0;
}
static int fx_tup_project_0(struct futhark_context *ctx, void *out, const void *obj) {
  (void)ctx;
  memcpy(out, &((const struct fx_tup *)obj)->a, 4);
  return 0;
}
static int fx_tup_project_1(struct futhark_context *ctx, void *out, const void *obj) {
  *(void **)out = fx_array_copy(ctx, ((const struct fx_tup *)obj)->b);
  return 0;
}
static int fx_tup_store(struct futhark_context *ctx, const void *obj, void **p, size_t *n) {
  (void)ctx;
  const struct fx_tup *t = obj;
  int64_t len = t->b->shape[0];
  size_t bytes = 12 + 8 * (size_t)len;
  unsigned char *buf = malloc(bytes);
  memcpy(buf, &t->a, 4);
  memcpy(buf + 4, &len, 8);
  memcpy(buf + 12, t->b->data, 8 * (size_t)len);
  fx_store("(i32, []f64)", buf, bytes, p, n);
  free(buf);
  return 0;
}
static void *fx_tup_restore(struct futhark_context *ctx, const void *p) {
  size_t n;
  const unsigned char *b = fx_restore(ctx, "(i32, []f64)", p, &n);
  if (b == NULL) return NULL;
  struct fx_tup *t = fx_alloc(ctx, sizeof *t);
  int64_t len;
  memcpy(&t->a, b, 4);
  memcpy(&len, b + 4, 8);
  t->b = fx_array_new(ctx, PV_F64, 1, b + 12, &len);
  return t;
}

/* ---- record (i32, f64) and the array of them [](i32, f64) ---- */

struct fx_pair {
  int32_t x;
  double y;
};
static int fx_pair_free(struct futhark_context *ctx, void *obj) {
  fx_release(ctx, obj);
  return 0;
}
static int fx_pair_new(struct futhark_context *ctx, void **out, const void *const *fields) {
  struct fx_pair *p = fx_alloc(ctx, sizeof *p);
  memcpy(&p->x, fields[0], 4);
  memcpy(&p->y, fields[1], 8);
  *out = p;
  return 0;
}
static int fx_pair_project_0(struct futhark_context *ctx, void *out, const void *obj) {
  (void)ctx;
  memcpy(out, &((const struct fx_pair *)obj)->x, 4);
  return 0;
}
static int fx_pair_project_1(struct futhark_context *ctx, void *out, const void *obj) {
  (void)ctx;
  memcpy(out, &((const struct fx_pair *)obj)->y, 8);
  return 0;
}
static int fx_pair_store(struct futhark_context *ctx, const void *obj, void **p, size_t *n) {
  (void)ctx;
  const struct fx_pair *v = obj;
  unsigned char buf[12];
  memcpy(buf, &v->x, 4);
  memcpy(buf + 4, &v->y, 8);
  return fx_store("(i32, f64)", buf, 12, p, n);
}
static void *fx_pair_restore(struct futhark_context *ctx, const void *p) {
  size_t n;
  const unsigned char *b = fx_restore(ctx, "(i32, f64)", p, &n);
  if (b == NULL) return NULL;
  struct fx_pair *v = fx_alloc(ctx, sizeof *v);
  memcpy(&v->x, b, 4);
  memcpy(&v->y, b + 4, 8);
  return v;
}

struct fx_pairs {
  int64_t shape[1];
  int32_t *xs;
  double *ys;
};
static struct fx_pairs *fx_pairs_make(struct futhark_context *ctx, int64_t n, const void *xs,
                                      const void *ys) {
  struct fx_pairs *a = fx_alloc(ctx, sizeof *a);
  a->shape[0] = n;
  a->xs = malloc(4 * (size_t)n + 1);
  a->ys = malloc(8 * (size_t)n + 1);
  memcpy(a->xs, xs, 4 * (size_t)n);
  memcpy(a->ys, ys, 8 * (size_t)n);
  return a;
}
static int fx_pairs_free(struct futhark_context *ctx, void *obj) {
  struct fx_pairs *a = obj;
  free(a->xs);
  free(a->ys);
  fx_release(ctx, a);
  return 0;
}
static const int64_t *fx_pairs_shape(struct futhark_context *ctx, void *obj) {
  (void)ctx;
  return ((struct fx_pairs *)obj)->shape;
}
static int fx_pairs_zip(struct futhark_context *ctx, void **out, const void *const *fields) {
  const struct fx_array *xs = fields[0], *ys = fields[1];
  if (xs->shape[0] != ys->shape[0])
    return fx_error(ctx, "zip: the arrays differ in length (%lld and %lld)",
                    (long long)xs->shape[0], (long long)ys->shape[0]);
  *out = fx_pairs_make(ctx, xs->shape[0], xs->data, ys->data);
  return 0;
}
/* A new [](i32, f64) of shape[0] (i32, f64) elements (copied). */
static int fx_pairs_new_elems(struct futhark_context *ctx, void **out, const void *const *elems,
                              const int64_t *shape) {
  int64_t n = shape[0];
  int32_t *xs = malloc(4 * (size_t)n + 1);
  double *ys = malloc(8 * (size_t)n + 1);
  for (int64_t i = 0; i < n; i++) {
    const struct fx_pair *p = elems[i];
    xs[i] = p->x;
    ys[i] = p->y;
  }
  *out = fx_pairs_make(ctx, n, xs, ys);
  free(xs);
  free(ys);
  return 0;
}
static int fx_pairs_project_0(struct futhark_context *ctx, void *out, const void *obj) {
  const struct fx_pairs *a = obj;
  *(void **)out = fx_array_new(ctx, PV_I32, 1, a->xs, a->shape);
  return 0;
}
static int fx_pairs_project_1(struct futhark_context *ctx, void *out, const void *obj) {
  const struct fx_pairs *a = obj;
  *(void **)out = fx_array_new(ctx, PV_F64, 1, a->ys, a->shape);
  return 0;
}
static int fx_pairs_index(struct futhark_context *ctx, void *out, void *arr, const int64_t *is) {
  struct fx_pairs *a = arr;
  if (is[0] < 0 || is[0] >= a->shape[0]) return fx_error(ctx, "index out of bounds");
  struct fx_pair *p = fx_alloc(ctx, sizeof *p);
  p->x = a->xs[is[0]];
  p->y = a->ys[is[0]];
  *(void **)out = p;
  return 0;
}
static int fx_pairs_set(struct futhark_context *ctx, void *arr, const void *elem,
                        const int64_t *is) {
  struct fx_pairs *a = arr;
  const struct fx_pair *p = elem;
  if (is[0] < 0 || is[0] >= a->shape[0]) return fx_error(ctx, "index out of bounds");
  a->xs[is[0]] = p->x;
  a->ys[is[0]] = p->y;
  return 0;
}
static int fx_pairs_store(struct futhark_context *ctx, const void *obj, void **p, size_t *n) {
  (void)ctx;
  const struct fx_pairs *a = obj;
  size_t len = (size_t)a->shape[0], bytes = 8 + 12 * len;
  unsigned char *buf = malloc(bytes);
  memcpy(buf, a->shape, 8);
  memcpy(buf + 8, a->xs, 4 * len);
  memcpy(buf + 8 + 4 * len, a->ys, 8 * len);
  fx_store("[](i32, f64)", buf, bytes, p, n);
  free(buf);
  return 0;
}
static void *fx_pairs_restore(struct futhark_context *ctx, const void *p) {
  size_t n;
  const unsigned char *b = fx_restore(ctx, "[](i32, f64)", p, &n);
  if (b == NULL) return NULL;
  int64_t len;
  memcpy(&len, b, 8);
  return fx_pairs_make(ctx, len, b + 8, b + 8 + 4 * len);
}

/* ---- sum type opt = #none | #some i32 ---- */

struct fx_opt {
  int tag;
  int32_t v;
};
static int fx_opt_free(struct futhark_context *ctx, void *obj) {
  fx_release(ctx, obj);
  return 0;
}
static int fx_opt_variant(struct futhark_context *ctx, const void *obj) {
  (void)ctx;
  return ((const struct fx_opt *)obj)->tag;
}
static int fx_opt_new_none(struct futhark_context *ctx, void **out, const void *const *payload) {
  (void)payload;
  *out = fx_alloc(ctx, sizeof(struct fx_opt));
  return 0;
}
static int fx_opt_new_some(struct futhark_context *ctx, void **out, const void *const *payload) {
  struct fx_opt *o = fx_alloc(ctx, sizeof *o);
  o->tag = 1;
  memcpy(&o->v, payload[0], 4);
  *out = o;
  return 0;
}
static int fx_opt_destruct_none(struct futhark_context *ctx, void *const *outs, const void *obj) {
  (void)ctx, (void)outs, (void)obj;
  return 0;
}
static int fx_opt_destruct_some(struct futhark_context *ctx, void *const *outs, const void *obj) {
  (void)ctx;
  memcpy(outs[0], &((const struct fx_opt *)obj)->v, 4);
  return 0;
}
static int fx_opt_store(struct futhark_context *ctx, const void *obj, void **p, size_t *n) {
  (void)ctx;
  return fx_store("opt", obj, sizeof(struct fx_opt), p, n);
}
static void *fx_opt_restore(struct futhark_context *ctx, const void *p) {
  size_t n;
  const unsigned char *b = fx_restore(ctx, "opt", p, &n);
  if (b == NULL) return NULL;
  struct fx_opt *o = fx_alloc(ctx, sizeof *o);
  memcpy(o, b, sizeof *o);
  return o;
}

/* ---- abstract type state ---- */

struct fx_state {
  int64_t counter;
};
static int fx_state_free(struct futhark_context *ctx, void *obj) {
  fx_release(ctx, obj);
  return 0;
}
static int fx_state_store(struct futhark_context *ctx, const void *obj, void **p, size_t *n) {
  (void)ctx;
  return fx_store("state", obj, 8, p, n);
}
static void *fx_state_restore(struct futhark_context *ctx, const void *p) {
  size_t n;
  const unsigned char *b = fx_restore(ctx, "state", p, &n);
  if (b == NULL) return NULL;
  struct fx_state *st = fx_alloc(ctx, sizeof *st);
  memcpy(&st->counter, b, 8);
  return st;
}

/* ---- the type table ---- */

static const struct p_type fx_t_i32 = {.name = "i32", .kind = P_KIND_PRIM, .prim = PV_I32};
static const struct p_type fx_t_i64 = {.name = "i64", .kind = P_KIND_PRIM, .prim = PV_I64};
static const struct p_type fx_t_f64 = {.name = "f64", .kind = P_KIND_PRIM, .prim = PV_F64};
static const struct p_type fx_t_i32_1d = {
  .name = "[]i32", .kind = P_KIND_ARRAY, .prim = PV_I32, .rank = 1, .free = fx_array_free,
  .shape = fx_array_shape, .new_array = fx_new_i32_1d, .values = fx_array_values,
  .index = fx_index_i32_1d, .set = fx_set_i32_1d};
static const struct p_type fx_t_f64_1d = {
  .name = "[]f64", .kind = P_KIND_ARRAY, .prim = PV_F64, .rank = 1, .free = fx_array_free,
  .shape = fx_array_shape, .new_array = fx_new_f64_1d, .values = fx_array_values};
static const struct p_type fx_t_f64_2d = {
  .name = "[][]f64", .kind = P_KIND_ARRAY, .prim = PV_F64, .rank = 2, .free = fx_array_free,
  .shape = fx_array_shape, .new_array = fx_new_f64_2d, .values = fx_array_values};

static const struct p_field fx_tup_fields[] = {
  {"0", &fx_t_i32, fx_tup_project_0}, {"1", &fx_t_f64_1d, fx_tup_project_1}};
static const struct p_type fx_t_tup = {
  .name = "(i32, []f64)", .kind = P_KIND_RECORD, .prim = -1, .free = fx_tup_free,
  .store = fx_tup_store, .restore = fx_tup_restore, .nfields = 2, .fields = fx_tup_fields,
  .new_record = fx_tup_new};

static const struct p_field fx_pair_fields[] = {
  {"0", &fx_t_i32, fx_pair_project_0}, {"1", &fx_t_f64, fx_pair_project_1}};
static const struct p_type fx_t_pair = {
  .name = "(i32, f64)", .kind = P_KIND_RECORD, .prim = -1, .free = fx_pair_free,
  .store = fx_pair_store, .restore = fx_pair_restore, .nfields = 2, .fields = fx_pair_fields,
  .new_record = fx_pair_new};

static const struct p_field fx_pairs_fields[] = {
  {"0", &fx_t_i32_1d, fx_pairs_project_0}, {"1", &fx_t_f64_1d, fx_pairs_project_1}};
static const struct p_type fx_t_pairs = {
  .name = "[](i32, f64)", .kind = P_KIND_OPAQUE, .prim = -1, .rank = 1, .free = fx_pairs_free,
  .store = fx_pairs_store, .restore = fx_pairs_restore, .shape = fx_pairs_shape, .nfields = 2,
  .fields = fx_pairs_fields, .elem = &fx_t_pair, .index = fx_pairs_index, .set = fx_pairs_set,
  .zip = fx_pairs_zip, .new_elems = fx_pairs_new_elems};

static const struct p_type *const fx_some_payload[] = {&fx_t_i32};
static const struct p_variant fx_opt_variants[] = {
  {"none", 0, NULL, fx_opt_new_none, fx_opt_destruct_none},
  {"some", 1, fx_some_payload, fx_opt_new_some, fx_opt_destruct_some}};
static const struct p_type fx_t_opt = {
  .name = "opt", .kind = P_KIND_SUM, .prim = -1, .free = fx_opt_free, .store = fx_opt_store,
  .restore = fx_opt_restore, .nvariants = 2, .variants = fx_opt_variants,
  .variant = fx_opt_variant};

static const struct p_type fx_t_state = {
  .name = "state", .kind = P_KIND_OPAQUE, .prim = -1, .free = fx_state_free,
  .store = fx_state_store, .restore = fx_state_restore};

static const struct p_type *const p_api_types[] = {
  &fx_t_i32, &fx_t_i64, &fx_t_f64, &fx_t_i32_1d, &fx_t_f64_1d, &fx_t_f64_2d,
  &fx_t_tup, &fx_t_pair, &fx_t_pairs, &fx_t_opt, &fx_t_state};
static const int p_api_ntypes = (int)(sizeof p_api_types / sizeof p_api_types[0]);

/* ---- entry points ---- */

/* main (xs: []i32) (s: f64): (i32, []f64) = (sum xs, map (* s) xs) */
static int fx_entry_main(struct futhark_context *ctx, void *out, const void *const *ins) {
  const struct fx_array *xs = ins[0];
  double s;
  memcpy(&s, ins[1], 8);
  fx_count_call(ctx);
  int64_t n = xs->shape[0];
  double *ys = malloc(8 * (size_t)n + 1);
  int32_t sum = 0;
  for (int64_t i = 0; i < n; i++) {
    int32_t x;
    memcpy(&x, xs->data + 4 * i, 4);
    sum += x;
    ys[i] = x * s;
  }
  struct fx_tup *t = fx_alloc(ctx, sizeof *t);
  t->a = sum;
  t->b = fx_array_new(ctx, PV_F64, 1, ys, &n);
  free(ys);
  *(void **)out = t;
  return 0;
}

/* sum2d (xss: [][]f64): f64 */
static int fx_entry_sum2d(struct futhark_context *ctx, void *out, const void *const *ins) {
  const struct fx_array *a = ins[0];
  fx_count_call(ctx);
  double sum = 0;
  for (int64_t i = 0; i < fx_array_len(a); i++) {
    double x;
    memcpy(&x, a->data + 8 * i, 8);
    sum += x;
  }
  memcpy(out, &sum, 8);
  return 0;
}

/* fail (x: i32): i32 = x + 1, failing when x < 0 */
static int fx_entry_fail(struct futhark_context *ctx, void *out, const void *const *ins) {
  int32_t x;
  memcpy(&x, ins[0], 4);
  fx_count_call(ctx);
  if (x < 0)
    return fx_error(ctx, "Error: negative input %d\n\nBacktrace:\n-> #0  fixture.fut:3:5\n", x);
  x += 1;
  memcpy(out, &x, 4);
  return 0;
}

/* consume (xs: *[]i32): *[]i32 = map (+1) xs, in place (the input is
 * changed, as a consumed array may be) */
static int fx_entry_consume(struct futhark_context *ctx, void *out, const void *const *ins) {
  struct fx_array *xs = (struct fx_array *)ins[0];
  fx_count_call(ctx);
  for (int64_t i = 0; i < xs->shape[0]; i++) {
    int32_t x;
    memcpy(&x, xs->data + 4 * i, 4);
    x += 1;
    memcpy(xs->data + 4 * i, &x, 4);
  }
  *(void **)out = fx_array_copy(ctx, xs);
  return 0;
}

/* consume_add (xs: *[]i32) (ys: []i32): *[]i32 = xs with ys added, in
 * place, for as many elements as both have */
static int fx_entry_consume_add(struct futhark_context *ctx, void *out, const void *const *ins) {
  struct fx_array *xs = (struct fx_array *)ins[0];
  const struct fx_array *ys = ins[1];
  fx_count_call(ctx);
  for (int64_t i = 0; i < xs->shape[0] && i < ys->shape[0]; i++) {
    int32_t x, y;
    memcpy(&x, xs->data + 4 * i, 4);
    memcpy(&y, ys->data + 4 * i, 4);
    x += y;
    memcpy(xs->data + 4 * i, &x, 4);
  }
  *(void **)out = fx_array_copy(ctx, xs);
  return 0;
}

/* mk_state (n: i64): state */
static int fx_entry_mk_state(struct futhark_context *ctx, void *out, const void *const *ins) {
  fx_count_call(ctx);
  struct fx_state *st = fx_alloc(ctx, sizeof *st);
  memcpy(&st->counter, ins[0], 8);
  *(void **)out = st;
  return 0;
}

/* get_state (s: state): i64 */
static int fx_entry_get_state(struct futhark_context *ctx, void *out, const void *const *ins) {
  fx_count_call(ctx);
  memcpy(out, &((const struct fx_state *)ins[0])->counter, 8);
  return 0;
}

/* from_tup (t: (i32, []f64)): f64 = f64.i32 t.0 + f64.sum t.1 */
static int fx_entry_from_tup(struct futhark_context *ctx, void *out, const void *const *ins) {
  const struct fx_tup *t = ins[0];
  fx_count_call(ctx);
  double sum = t->a;
  for (int64_t i = 0; i < t->b->shape[0]; i++) {
    double x;
    memcpy(&x, t->b->data + 8 * i, 8);
    sum += x;
  }
  memcpy(out, &sum, 8);
  return 0;
}

/* opt_get (o: opt): i32 = match o case #none -> -1 case #some v -> v */
static int fx_entry_opt_get(struct futhark_context *ctx, void *out, const void *const *ins) {
  const struct fx_opt *o = ins[0];
  fx_count_call(ctx);
  int32_t v = o->tag == 1 ? o->v : -1;
  memcpy(out, &v, 4);
  return 0;
}

/* pairs_sum (ps: [](i32, f64)): f64 */
static int fx_entry_pairs_sum(struct futhark_context *ctx, void *out, const void *const *ins) {
  const struct fx_pairs *a = ins[0];
  fx_count_call(ctx);
  double sum = 0;
  for (int64_t i = 0; i < a->shape[0]; i++) sum += a->xs[i] + a->ys[i];
  memcpy(out, &sum, 8);
  return 0;
}

static const struct p_type *const fx_main_ins[] = {&fx_t_i32_1d, &fx_t_f64};
static const int fx_main_unique[] = {0, 0};
static const char *const fx_main_attrs[] = {"fake_attr", "another(1)"};
static const char *const fx_main_tuning[] = {"main.threshold", "main.tile"};
static const struct p_type *const fx_sum2d_ins[] = {&fx_t_f64_2d};
static const struct p_type *const fx_i32_ins[] = {&fx_t_i32};
static const struct p_type *const fx_i64_ins[] = {&fx_t_i64};
static const struct p_type *const fx_consume_ins[] = {&fx_t_i32_1d};
static const int fx_one_unique[] = {1};
static const struct p_type *const fx_consume_add_ins[] = {&fx_t_i32_1d, &fx_t_i32_1d};
static const int fx_first_unique[] = {1, 0};
static const int fx_not_unique[] = {0};
static const struct p_type *const fx_state_ins[] = {&fx_t_state};
static const struct p_type *const fx_tup_ins[] = {&fx_t_tup};
static const struct p_type *const fx_opt_ins[] = {&fx_t_opt};
static const struct p_type *const fx_pairs_ins[] = {&fx_t_pairs};

static const struct p_entry p_api_entries[] = {
  {"main", fx_entry_main, 2, fx_main_ins, fx_main_unique, &fx_t_tup, 1, 2, fx_main_attrs, 2,
   fx_main_tuning},
  {"sum2d", fx_entry_sum2d, 1, fx_sum2d_ins, fx_not_unique, &fx_t_f64, 1, 0, NULL, 0, NULL},
  {"fail", fx_entry_fail, 1, fx_i32_ins, fx_not_unique, &fx_t_i32, 1, 0, NULL, 0, NULL},
  {"consume", fx_entry_consume, 1, fx_consume_ins, fx_one_unique, &fx_t_i32_1d, 1, 0, NULL, 0,
   NULL},
  {"consume_add", fx_entry_consume_add, 2, fx_consume_add_ins, fx_first_unique, &fx_t_i32_1d, 1,
   0, NULL, 0, NULL},
  {"mk_state", fx_entry_mk_state, 1, fx_i64_ins, fx_not_unique, &fx_t_state, 1, 0, NULL, 0, NULL},
  {"get_state", fx_entry_get_state, 1, fx_state_ins, fx_not_unique, &fx_t_i64, 1, 0, NULL, 0,
   NULL},
  {"from_tup", fx_entry_from_tup, 1, fx_tup_ins, fx_not_unique, &fx_t_f64, 1, 0, NULL, 0, NULL},
  {"opt_get", fx_entry_opt_get, 1, fx_opt_ins, fx_not_unique, &fx_t_i32, 1, 0, NULL, 0, NULL},
  {"pairs_sum", fx_entry_pairs_sum, 1, fx_pairs_ins, fx_not_unique, &fx_t_f64, 1, 0, NULL, 0,
   NULL},
};
static const int p_api_nentries = (int)(sizeof p_api_entries / sizeof p_api_entries[0]);

#include "options.h"
#ifdef FX_SERVER
#include "server.h"
#else
#include "main.h"
#endif
