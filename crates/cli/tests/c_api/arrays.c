/* Primitive values (rank 0) and arrays of primitives of ranks 1 to 3. */
#include "check.h"

static struct futhark_context *ctx;

static void scalars(void) {
  int8_t i8 = 0;
  OK(futhark_entry_neg_i8(ctx, &i8, 5));
  CHECK(i8 == -5);
  OK(futhark_entry_neg_i8(ctx, &i8, -128)); /* wraps */
  CHECK(i8 == -128);
  uint16_t u16 = 0;
  OK(futhark_entry_inc_u16(ctx, &u16, 65535));
  CHECK(u16 == 0);
  OK(futhark_entry_inc_u16(ctx, &u16, 41));
  CHECK(u16 == 42);
  uint16_t h = 0;
  OK(futhark_entry_half_f16(ctx, &h, 0x4000)); /* 2.0 / 2 */
  CHECK(h == 0x3C00);
  OK(futhark_entry_half_f16(ctx, &h, 0xC400)); /* -4.0 / 2 */
  CHECK(h == 0xC000);
  bool b = true;
  OK(futhark_entry_not_bool(ctx, &b, true));
  CHECK(b == false);
  OK(futhark_entry_not_bool(ctx, &b, false));
  CHECK(b == true);
  double d = 0;
  OK(futhark_entry_scale(ctx, &d, -0.25, 8));
  CHECK(d == -2.0);
  uint64_t u64 = 1;
  OK(futhark_entry_wrap_u64(ctx, &u64, UINT64_MAX));
  CHECK(u64 == 0);
  OK(futhark_entry_wrap_u64(ctx, &u64, (uint64_t)1 << 63));
  CHECK(u64 == ((uint64_t)1 << 63) + 1);
  OK(futhark_context_sync(ctx));
}

static void rank1(void) {
  /* f32: new, shape, values, index in and out of bounds. */
  float xs[16];
  for (int i = 0; i < 16; i++) xs[i] = (float)i * 0.5f;
  struct futhark_f32_1d *a = NN(futhark_new_f32_1d(ctx, xs, 16));
  xs[0] = 100; /* the array has its own copy */
  struct futhark_f32_1d *b = NULL;
  OK(futhark_entry_add1(ctx, &b, a));
  OK(futhark_context_sync(ctx));
  CHECK(futhark_shape_f32_1d(ctx, b)[0] == 16);
  CHECK(futhark_shape_f32_1d(ctx, a)[0] == 16);
  float ys[16];
  OK(futhark_values_f32_1d(ctx, b, ys));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 16; i++) CHECK(ys[i] == (float)i * 0.5f + 1);
  float y = -1;
  OK(futhark_index_f32_1d(ctx, &y, a, 0));
  CHECK(y == 0);
  OK(futhark_index_f32_1d(ctx, &y, b, 15));
  OK(futhark_context_sync(ctx));
  CHECK(y == 8.5f);
  y = -1;
  FAILS(futhark_index_f32_1d(ctx, &y, b, 16), NULL);
  FAILS(futhark_index_f32_1d(ctx, &y, b, -1), NULL);
  FAILS(futhark_index_f32_1d(ctx, &y, b, INT64_MIN), NULL);
  CHECK(y == -1);
  OK(futhark_free_f32_1d(ctx, a));
  OK(futhark_free_f32_1d(ctx, b));

  /* i8 with its extremes. */
  int8_t bs[5] = {-128, -1, 0, 1, 127}, rs[5];
  struct futhark_i8_1d *c = NN(futhark_new_i8_1d(ctx, bs, 5)), *r = NULL;
  OK(futhark_entry_rev_i8(ctx, &r, c));
  OK(futhark_values_i8_1d(ctx, r, rs));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 5; i++) CHECK(rs[i] == bs[4 - i]);
  int8_t e8 = 0;
  OK(futhark_index_i8_1d(ctx, &e8, r, 4));
  CHECK(e8 == -128);
  OK(futhark_free_i8_1d(ctx, r));
  OK(futhark_free_i8_1d(ctx, c));

  /* f16 as its bits. */
  uint16_t hs[4] = {0x3C00, 0xC000, 0x0000, 0x7C00}, hr[4];
  struct futhark_f16_1d *h = NN(futhark_new_f16_1d(ctx, hs, 4)), *hn = NULL;
  OK(futhark_entry_neg_f16(ctx, &hn, h));
  OK(futhark_values_f16_1d(ctx, hn, hr));
  OK(futhark_context_sync(ctx));
  CHECK(hr[0] == 0xBC00 && hr[1] == 0x4000 && hr[2] == 0x8000 && hr[3] == 0xFC00);
  uint16_t h1 = 0;
  OK(futhark_index_f16_1d(ctx, &h1, hn, 1));
  CHECK(h1 == 0x4000);
  OK(futhark_free_f16_1d(ctx, h));
  OK(futhark_free_f16_1d(ctx, hn));

  /* u32 wrapping sum. */
  uint32_t us[2] = {4000000000u, 500000000u}, s = 0;
  struct futhark_u32_1d *u = NN(futhark_new_u32_1d(ctx, us, 2));
  OK(futhark_entry_sum_u32(ctx, &s, u));
  OK(futhark_context_sync(ctx));
  CHECK(s == (uint32_t)(4000000000u + 500000000u));
  OK(futhark_free_u32_1d(ctx, u));

  /* u8 results, large and empty. */
  struct futhark_u8_1d *v = NULL;
  OK(futhark_entry_iota_u8(ctx, &v, 300));
  CHECK(futhark_shape_u8_1d(ctx, v)[0] == 300);
  uint8_t vs[300];
  OK(futhark_values_u8_1d(ctx, v, vs));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 300; i++) CHECK(vs[i] == (uint8_t)i);
  uint8_t v1 = 0;
  OK(futhark_index_u8_1d(ctx, &v1, v, 299));
  CHECK(v1 == 43);
  OK(futhark_free_u8_1d(ctx, v));
  OK(futhark_entry_iota_u8(ctx, &v, 0));
  CHECK(futhark_shape_u8_1d(ctx, v)[0] == 0);
  OK(futhark_values_u8_1d(ctx, v, vs));
  FAILS(futhark_index_u8_1d(ctx, &v1, v, 0), NULL);
  OK(futhark_free_u8_1d(ctx, v));

  /* An empty input (NULL data is fine for no elements). */
  struct futhark_u32_1d *ue = NN(futhark_new_u32_1d(ctx, NULL, 0));
  s = 7;
  OK(futhark_entry_sum_u32(ctx, &s, ue));
  OK(futhark_context_sync(ctx));
  CHECK(s == 0);
  OK(futhark_free_u32_1d(ctx, ue));
}

static void rank2(void) {
  double m[6] = {1, 2, 3, 4, 5, 6}, t[6];
  struct futhark_f64_2d *a = NN(futhark_new_f64_2d(ctx, m, 2, 3)), *b = NULL;
  const int64_t *sa = futhark_shape_f64_2d(ctx, a);
  CHECK(sa[0] == 2 && sa[1] == 3);
  OK(futhark_entry_transp(ctx, &b, a));
  const int64_t *sb = futhark_shape_f64_2d(ctx, b);
  CHECK(sb[0] == 3 && sb[1] == 2);
  OK(futhark_values_f64_2d(ctx, b, t));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) CHECK(t[i * 2 + j] == m[j * 3 + i]);
  double x = 0;
  OK(futhark_index_f64_2d(ctx, &x, b, 2, 1));
  OK(futhark_context_sync(ctx));
  CHECK(x == 6);
  OK(futhark_index_f64_2d(ctx, &x, a, 1, 0));
  CHECK(x == 4);
  x = -7;
  FAILS(futhark_index_f64_2d(ctx, &x, b, 3, 0), NULL);
  FAILS(futhark_index_f64_2d(ctx, &x, b, 0, 2), NULL);
  FAILS(futhark_index_f64_2d(ctx, &x, b, -1, 1), NULL);
  CHECK(x == -7);
  OK(futhark_free_f64_2d(ctx, b));
  OK(futhark_free_f64_2d(ctx, a));

  bool bs[4] = {true, false, false, true}, rs[4];
  struct futhark_bool_2d *p = NN(futhark_new_bool_2d(ctx, bs, 2, 2)), *q = NULL;
  OK(futhark_entry_not2(ctx, &q, p));
  OK(futhark_values_bool_2d(ctx, q, rs));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 4; i++) CHECK(rs[i] == !bs[i]);
  bool e = true;
  OK(futhark_index_bool_2d(ctx, &e, q, 1, 0));
  CHECK(e == true);
  OK(futhark_free_bool_2d(ctx, p));
  OK(futhark_free_bool_2d(ctx, q));

  /* An empty row count with a non-zero row length. */
  struct futhark_f64_2d *z = NN(futhark_new_f64_2d(ctx, m, 0, 3)), *zt = NULL;
  OK(futhark_entry_transp(ctx, &zt, z));
  const int64_t *sz = futhark_shape_f64_2d(ctx, zt);
  CHECK(sz[0] == 3 && sz[1] == 0);
  OK(futhark_free_f64_2d(ctx, z));
  OK(futhark_free_f64_2d(ctx, zt));
}

static void rank3(void) {
  int64_t xs[24], ys[24];
  for (int i = 0; i < 24; i++) xs[i] = (int64_t)i * 1000000000000LL;
  struct futhark_i64_3d *a = NN(futhark_new_i64_3d(ctx, xs, 2, 3, 4)), *b = NULL;
  OK(futhark_entry_inc3(ctx, &b, a));
  const int64_t *s = futhark_shape_i64_3d(ctx, b);
  CHECK(s[0] == 2 && s[1] == 3 && s[2] == 4);
  OK(futhark_values_i64_3d(ctx, b, ys));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 24; i++) CHECK(ys[i] == xs[i] + 1);
  int64_t e = 0;
  OK(futhark_index_i64_3d(ctx, &e, b, 1, 2, 3));
  OK(futhark_context_sync(ctx));
  CHECK(e == xs[23] + 1);
  OK(futhark_index_i64_3d(ctx, &e, b, 1, 0, 2));
  CHECK(e == xs[12 + 2] + 1);
  e = 5;
  FAILS(futhark_index_i64_3d(ctx, &e, b, 0, 0, 4), NULL);
  FAILS(futhark_index_i64_3d(ctx, &e, b, 0, 3, 0), NULL);
  FAILS(futhark_index_i64_3d(ctx, &e, b, 2, 0, 0), NULL);
  CHECK(e == 5);
  OK(futhark_free_i64_3d(ctx, a));
  OK(futhark_free_i64_3d(ctx, b));

  int16_t hs[6] = {1, -2, 3, 30000, 30000, 10};
  struct futhark_i16_3d *h = NN(futhark_new_i16_3d(ctx, hs, 1, 2, 3));
  int16_t sum = 0;
  OK(futhark_entry_sum3(ctx, &sum, h));
  OK(futhark_context_sync(ctx));
  CHECK(sum == (int16_t)(1 - 2 + 3 + 30000 + 30000 + 10));
  OK(futhark_free_i16_3d(ctx, h));
  struct futhark_i16_3d *he = NN(futhark_new_i16_3d(ctx, hs, 2, 0, 3));
  OK(futhark_entry_sum3(ctx, &sum, he));
  CHECK(sum == 0);
  const int64_t *se = futhark_shape_i16_3d(ctx, he);
  CHECK(se[0] == 2 && se[1] == 0 && se[2] == 3);
  OK(futhark_free_i16_3d(ctx, he));
}

/* new_raw: a view of the caller's memory; values_raw: the elements. */
static void raw(void) {
  float buf[4] = {1, 2, 3, 4};
  struct futhark_f32_1d *a = NN(futhark_new_raw_f32_1d(ctx, (unsigned char *)buf, 4));
  CHECK(futhark_shape_f32_1d(ctx, a)[0] == 4);
  CHECK(futhark_values_raw_f32_1d(ctx, a) == (unsigned char *)buf);
  struct futhark_f32_1d *b = NULL;
  OK(futhark_entry_add1(ctx, &b, a));
  OK(futhark_context_sync(ctx));
  float *rb = (float *)(void *)futhark_values_raw_f32_1d(ctx, b);
  CHECK(rb != NULL);
  for (int i = 0; i < 4; i++) CHECK(rb[i] == buf[i] + 1);
  float x = 0;
  buf[2] = 30; /* the raw array sees the caller's memory */
  OK(futhark_index_f32_1d(ctx, &x, a, 2));
  CHECK(x == 30);
  OK(futhark_free_f32_1d(ctx, a));
  /* The caller's memory is not freed with the array. */
  CHECK(buf[2] == 30);
  OK(futhark_free_f32_1d(ctx, b));

  int64_t m[6] = {1, 2, 3, 4, 5, 6};
  struct futhark_i64_3d *c = NN(futhark_new_raw_i64_3d(ctx, (unsigned char *)m, 1, 2, 3)), *d = NULL;
  OK(futhark_entry_inc3(ctx, &d, c));
  int64_t *rd = (int64_t *)(void *)futhark_values_raw_i64_3d(ctx, d);
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 6; i++) CHECK(rd[i] == m[i] + 1);
  OK(futhark_free_i64_3d(ctx, d));
  OK(futhark_free_i64_3d(ctx, c));

  /* The result of an identity entry point, freed before its input. */
  int32_t is[3] = {7, 8, 9}, os[3];
  struct futhark_i32_1d *i = NN(futhark_new_i32_1d(ctx, is, 3)), *o = NULL;
  OK(futhark_entry_id_i32(ctx, &o, i));
  OK(futhark_free_i32_1d(ctx, o));
  OK(futhark_values_i32_1d(ctx, i, os));
  CHECK(os[0] == 7 && os[2] == 9);
  OK(futhark_free_i32_1d(ctx, i));
}

static void bad_new(void) {
  float x = 1;
  CHECK(futhark_new_f32_1d(ctx, &x, -1) == NULL);
  char *e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  CHECK(futhark_context_get_error(ctx) == NULL);
}

int main(void) {
  struct futhark_context_config *cfg;
  ctx = new_context(&cfg);
  scalars();
  rank1();
  rank2();
  rank3();
  raw();
  bad_new();
  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
