/* A hand-written library implementing the generated programs' ABI, for
 * crates/cgen/tests/build_load.rs.
 *
 * Entries:
 *   0  sum([]i64) -> i64
 *   1  fail(i64 k) -> i64: fails with span id k (no location when k < 0)
 *      when k != 100, else returns 100
 *   2  probe(i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, bool)
 *      -> [12]i64: each argument's bits (floats: f32 and f64 times 4,
 *      truncated; f16: its 16 bits; bool: its byte)
 *   3  threads() -> i64: the context's thread count
 *   4 + 4*t + r: identity on arrays of rank r of element type number t
 *      (i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 bool), t in 0..12.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct parad_value {
  void *data;
  int64_t *shape;
};

struct parad_ctx {
  int32_t nthreads;
  const char *error;
  int64_t error_span;
};

int64_t parad_abi_version(void) { return 1; }

struct parad_ctx *parad_ctx_new(int32_t nthreads) {
  struct parad_ctx *c = calloc(1, sizeof *c);
  if (c) {
    c->nthreads = nthreads;
    c->error_span = -1;
  }
  return c;
}

void parad_ctx_free(struct parad_ctx *c) { free(c); }

void parad_ctx_reset(struct parad_ctx *c) {
  c->error = NULL;
  c->error_span = -1;
}

const char *parad_ctx_error(struct parad_ctx *c) { return c->error; }

int64_t parad_ctx_error_span(struct parad_ctx *c) { return c->error_span; }

void parad_free(void *p) { free(p); }

static int scalar_i64(struct parad_value *r, int64_t x) {
  r->data = malloc(sizeof x);
  r->shape = NULL;
  if (!r->data)
    return 1;
  memcpy(r->data, &x, sizeof x);
  return 0;
}

static const size_t elem_size[12] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1};

int32_t parad_call(struct parad_ctx *c, int64_t entry,
                   const struct parad_value *args,
                   struct parad_value *results) {
  switch (entry) {
  case 0: {
    const int64_t *xs = args[0].data;
    int64_t n = args[0].shape[0], s = 0;
    for (int64_t i = 0; i < n; i++)
      s += xs[i];
    return scalar_i64(&results[0], s);
  }
  case 1: {
    int64_t k = *(const int64_t *)args[0].data;
    if (k != 100) {
      c->error = "index 7 out of bounds for array of shape [3]";
      c->error_span = k;
      return 1;
    }
    return scalar_i64(&results[0], k);
  }
  case 2: {
    int64_t *out = malloc(12 * sizeof *out);
    int64_t *shape = malloc(sizeof *shape);
    if (!out || !shape) {
      free(out);
      free(shape);
      return 1;
    }
    out[0] = *(const int8_t *)args[0].data;
    out[1] = *(const int16_t *)args[1].data;
    out[2] = *(const int32_t *)args[2].data;
    out[3] = *(const int64_t *)args[3].data;
    out[4] = *(const uint8_t *)args[4].data;
    out[5] = *(const uint16_t *)args[5].data;
    out[6] = *(const uint32_t *)args[6].data;
    out[7] = (int64_t) * (const uint64_t *)args[7].data;
    out[8] = *(const uint16_t *)args[8].data;
    out[9] = (int64_t)(*(const float *)args[9].data * 4);
    out[10] = (int64_t)(*(const double *)args[10].data * 4);
    out[11] = *(const uint8_t *)args[11].data;
    shape[0] = 12;
    results[0].data = out;
    results[0].shape = shape;
    return 0;
  }
  case 3:
    return scalar_i64(&results[0], c->nthreads);
  default: {
    int64_t k = entry - 4;
    if (k < 0 || k >= 48) {
      c->error = "no such entry";
      return 1;
    }
    size_t size = elem_size[k / 4];
    int rank = (int)(k % 4);
    size_t n = 1;
    for (int i = 0; i < rank; i++)
      n *= (size_t)args[0].shape[i];
    void *data = malloc(n * size + 1);
    int64_t *shape = rank ? malloc(rank * sizeof *shape) : NULL;
    if (!data || (rank && !shape)) {
      free(data);
      free(shape);
      c->error = "out of memory";
      return 1;
    }
    memcpy(data, args[0].data, n * size);
    if (rank)
      memcpy(shape, args[0].shape, rank * sizeof *shape);
    results[0].data = data;
    results[0].shape = shape;
    return 0;
  }
  }
}
