/* store/restore round trips; restoring garbage or another type's bytes. */
#include "check.h"

static struct futhark_context *ctx;

/* Stores `obj` of opaque type T with the three ways of passing `p` (NULL:
 * the size only; *p NULL: malloc'd for us; our buffer), checks that they
 * agree, and sets `out` to the malloc'd bytes and *np to their size. */
#define STORE(T, obj, out, np)                                      \
  do {                                                              \
    size_t n1_ = 0, n2_ = 0, n3_ = 0;                               \
    void *a_ = NULL, *b_ = NULL, *bp_ = NULL;                       \
    OK(futhark_store_opaque_##T(ctx, (obj), NULL, &n1_));           \
    CHECK(n1_ > 0);                                                 \
    OK(futhark_store_opaque_##T(ctx, (obj), &a_, &n2_));            \
    CHECK(a_ != NULL && n2_ == n1_);                                \
    b_ = malloc(n1_);                                               \
    CHECK(b_ != NULL);                                              \
    bp_ = b_;                                                       \
    OK(futhark_store_opaque_##T(ctx, (obj), &bp_, &n3_));           \
    CHECK(bp_ == b_ && n3_ == n1_);                                 \
    OK(futhark_context_sync(ctx));                                  \
    CHECK(memcmp(a_, b_, n1_) == 0);                                \
    free(b_);                                                       \
    *(np) = n1_;                                                    \
    (out) = a_;                                                     \
  } while (0)

static void round_trips(void) {
  size_t n = 0, n2 = 0;
  void *bytes, *again;

  /* a record */
  struct futhark_opaque_pt *p = NULL, *p2 = NULL;
  OK(futhark_entry_mkpt(ctx, &p, 1.25, -3));
  STORE(pt, p, bytes, &n);
  OK(futhark_free_opaque_pt(ctx, p));
  p2 = NN(futhark_restore_opaque_pt(ctx, bytes));
  free(bytes);
  double x = 0, y = 0;
  OK(futhark_project_opaque_pt_x(ctx, &x, p2));
  OK(futhark_project_opaque_pt_y(ctx, &y, p2));
  OK(futhark_context_sync(ctx));
  CHECK(x == 1.25 && y == -3);
  OK(futhark_free_opaque_pt(ctx, p2));

  /* a record with arrays: the restored value stores to the same bytes */
  float ws[3] = {1, 2, 3};
  int32_t ls[3] = {4, 5, 6};
  struct futhark_f32_1d *w = NN(futhark_new_f32_1d(ctx, ws, 3));
  struct futhark_i32_1d *l = NN(futhark_new_i32_1d(ctx, ls, 3));
  struct futhark_opaque_obs *o = NULL, *o2 = NULL;
  OK(futhark_entry_mkobs(ctx, &o, w, l));
  OK(futhark_free_f32_1d(ctx, w));
  OK(futhark_free_i32_1d(ctx, l));
  STORE(obs, o, bytes, &n);
  o2 = NN(futhark_restore_opaque_obs(ctx, bytes));
  STORE(obs, o2, again, &n2);
  CHECK(n2 == n && memcmp(bytes, again, n) == 0);
  free(again);
  free(bytes);
  float total = 0;
  OK(futhark_entry_obs_total(ctx, &total, o2));
  OK(futhark_context_sync(ctx));
  CHECK(total == 1 * 4 + 2 * 5 + 3 * 6 + 3);
  OK(futhark_free_opaque_obs(ctx, o2));
  OK(futhark_free_opaque_obs(ctx, o));

  /* a tuple of eleven */
  struct futhark_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32 *t = NULL, *t2 = NULL;
  OK(futhark_entry_eleven(ctx, &t, 7));
  STORE(tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32, t, bytes, &n);
  t2 = NN(futhark_restore_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32(ctx, bytes));
  free(bytes);
  int32_t code = 0;
  OK(futhark_entry_eleven_code(ctx, &code, t2));
  OK(futhark_context_sync(ctx));
  CHECK(code == 7 + 2 * 8 + 3 * 17);
  OK(futhark_free_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32(ctx, t));
  OK(futhark_free_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32(ctx, t2));

  /* sums: each variant */
  for (int k = 0; k < 3; k++) {
    struct futhark_opaque_shape *s = NULL, *s2 = NULL;
    OK(futhark_entry_mkshape(ctx, &s, k, 2, 5));
    STORE(shape, s, bytes, &n);
    s2 = NN(futhark_restore_opaque_shape(ctx, bytes));
    free(bytes);
    CHECK(futhark_variant_opaque_shape(ctx, s2) == futhark_variant_opaque_shape(ctx, s));
    double a1 = -1, a2 = -2;
    OK(futhark_entry_area(ctx, &a1, s));
    OK(futhark_entry_area(ctx, &a2, s2));
    OK(futhark_context_sync(ctx));
    CHECK(a1 == a2);
    OK(futhark_free_opaque_shape(ctx, s));
    OK(futhark_free_opaque_shape(ctx, s2));
  }
  int32_t xs[4] = {1, 2, 3, 4};
  struct futhark_i32_1d *xa = NN(futhark_new_i32_1d(ctx, xs, 4));
  struct futhark_opaque_opt *op = NULL, *op2 = NULL;
  OK(futhark_entry_mk_some(ctx, &op, xa));
  OK(futhark_free_i32_1d(ctx, xa));
  STORE(opt, op, bytes, &n);
  OK(futhark_free_opaque_opt(ctx, op));
  op2 = NN(futhark_restore_opaque_opt(ctx, bytes));
  free(bytes);
  int32_t sum = 0;
  OK(futhark_entry_opt_sum(ctx, &sum, op2));
  OK(futhark_context_sync(ctx));
  CHECK(sum == 10 && futhark_variant_opaque_opt(ctx, op2) == 1);
  OK(futhark_free_opaque_opt(ctx, op2));

  /* arrays of records, of rank 1 and 2 */
  struct futhark_opaque_arr2d_pt *g = NULL, *g2 = NULL;
  OK(futhark_entry_pts2(ctx, &g, 3, 2));
  STORE(arr2d_pt, g, bytes, &n);
  OK(futhark_free_opaque_arr2d_pt(ctx, g));
  g2 = NN(futhark_restore_opaque_arr2d_pt(ctx, bytes));
  free(bytes);
  const int64_t *sh = futhark_shape_opaque_arr2d_pt(ctx, g2);
  CHECK(sh[0] == 3 && sh[1] == 2);
  double c = 0;
  OK(futhark_entry_pts2_code(ctx, &c, g2));
  OK(futhark_context_sync(ctx));
  CHECK(c == 10 * (0 + 1 + 2) * 2 + (0 + 1) * 3);
  OK(futhark_free_opaque_arr2d_pt(ctx, g2));

  /* an empty array of records */
  double none[1] = {0};
  struct futhark_f64_1d *e = NN(futhark_new_f64_1d(ctx, none, 0));
  struct futhark_opaque_arr1d_pt *ep = NULL, *ep2 = NULL;
  OK(futhark_entry_pts(ctx, &ep, e, e));
  OK(futhark_free_f64_1d(ctx, e));
  STORE(arr1d_pt, ep, bytes, &n);
  ep2 = NN(futhark_restore_opaque_arr1d_pt(ctx, bytes));
  free(bytes);
  CHECK(futhark_shape_opaque_arr1d_pt(ctx, ep2)[0] == 0);
  OK(futhark_entry_pts_code(ctx, &c, ep2));
  CHECK(c == 0);
  OK(futhark_free_opaque_arr1d_pt(ctx, ep));
  OK(futhark_free_opaque_arr1d_pt(ctx, ep2));

  /* the abstract type and arrays of it */
  struct futhark_opaque_ctr *k = NULL, *k2 = NULL;
  OK(futhark_entry_mkctr(ctx, &k, 9));
  STORE(ctr, k, bytes, &n);
  k2 = NN(futhark_restore_opaque_ctr(ctx, bytes));
  free(bytes);
  int64_t v = 0;
  OK(futhark_entry_getctr(ctx, &v, k2));
  OK(futhark_context_sync(ctx));
  CHECK(v == 9 + 81);
  OK(futhark_free_opaque_ctr(ctx, k2));
  OK(futhark_free_opaque_ctr(ctx, k));
  struct futhark_opaque_arr2d_ctr *cs = NULL, *cs2 = NULL;
  OK(futhark_entry_ctrs2(ctx, &cs, 2, 2));
  STORE(arr2d_ctr, cs, bytes, &n);
  OK(futhark_free_opaque_arr2d_ctr(ctx, cs));
  cs2 = NN(futhark_restore_opaque_arr2d_ctr(ctx, bytes));
  free(bytes);
  OK(futhark_entry_ctr_total2(ctx, &v, cs2));
  OK(futhark_context_sync(ctx));
  CHECK(v == (0 + 1 + 10 + 11) + (0 + 1 + 100 + 121));
  OK(futhark_free_opaque_arr2d_ctr(ctx, cs2));
}

static void bad_bytes(void) {
  size_t n = 0;
  /* garbage */
  unsigned char junk[256];
  for (int i = 0; i < 256; i++) junk[i] = (unsigned char)(i * 37 + 11);
  CHECK(futhark_restore_opaque_pt(ctx, junk) == NULL);
  char *e = futhark_context_get_error(ctx);
  CHECK(e != NULL && strlen(e) > 0);
  free(e);
  CHECK(futhark_context_get_error(ctx) == NULL);
  memset(junk, 0, sizeof junk);
  CHECK(futhark_restore_opaque_arr1d_ctr(ctx, junk) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  memset(junk, 0xff, sizeof junk);
  CHECK(futhark_restore_opaque_shape(ctx, junk) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);

  /* another type's bytes: pt (two f64) as a tuple (i32, bool), as an order
   * (three i32), as a []pt; an opt as a shape; []ctr as [][]ctr */
  struct futhark_opaque_pt *p = NULL;
  OK(futhark_entry_mkpt(ctx, &p, 1, 2));
  void *bytes = NULL;
  STORE(pt, p, bytes, &n);
  CHECK(futhark_restore_opaque_tup2_i32_bool(ctx, bytes) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  CHECK(futhark_restore_opaque_order(ctx, bytes) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  CHECK(futhark_restore_opaque_arr1d_pt(ctx, bytes) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  free(bytes);
  OK(futhark_free_opaque_pt(ctx, p));

  struct futhark_opaque_opt *o = NULL;
  OK(futhark_new_opaque_opt_none(ctx, &o));
  STORE(opt, o, bytes, &n);
  CHECK(futhark_restore_opaque_shape(ctx, bytes) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  free(bytes);
  OK(futhark_free_opaque_opt(ctx, o));

  struct futhark_opaque_arr1d_ctr *cs = NULL;
  OK(futhark_entry_ctrs(ctx, &cs, 4));
  STORE(arr1d_ctr, cs, bytes, &n);
  CHECK(futhark_restore_opaque_arr2d_ctr(ctx, bytes) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  CHECK(futhark_restore_opaque_ctr(ctx, bytes) == NULL);
  e = futhark_context_get_error(ctx);
  CHECK(e != NULL);
  free(e);
  /* the right bytes still restore */
  struct futhark_opaque_arr1d_ctr *cs2 = NN(futhark_restore_opaque_arr1d_ctr(ctx, bytes));
  int64_t v = 0;
  OK(futhark_entry_ctr_total(ctx, &v, cs2));
  OK(futhark_context_sync(ctx));
  CHECK(v == (0 + 1 + 2 + 3) + (0 + 1 + 4 + 9));
  free(bytes);
  OK(futhark_free_opaque_arr1d_ctr(ctx, cs2));
  OK(futhark_free_opaque_arr1d_ctr(ctx, cs));
  CHECK(futhark_context_get_error(ctx) == NULL);
}

/* Copies of a stored []pt with one byte changed: restore either fails with
 * a message or gives a value that works (index, project, an entry point).
 * Run under AddressSanitizer, this checks restore reads nothing outside
 * the bytes. Bytes 8 to 15 hold the total length (parad's format): restore
 * has no size argument, so it cannot catch a length longer than the
 * buffer. */
static void corrupted(void) {
  double xs[3] = {1, 2, 3};
  struct futhark_f64_1d *x = NN(futhark_new_f64_1d(ctx, xs, 3));
  struct futhark_opaque_arr1d_pt *ps = NULL;
  OK(futhark_entry_pts(ctx, &ps, x, x));
  void *bytes = NULL;
  size_t n = 0;
  STORE(arr1d_pt, ps, bytes, &n);
  int failed = 0, restored = 0;
  for (size_t i = 0; i < n; i++) {
    if (i >= 8 && i < 16) continue;
    for (int v = 0; v < 3; v++) {
      unsigned char *c = malloc(n);
      CHECK(c != NULL);
      memcpy(c, bytes, n);
      c[i] = v == 0 ? (unsigned char)(c[i] ^ 0xff) : v == 1 ? 0x7f : 0;
      struct futhark_opaque_arr1d_pt *r = futhark_restore_opaque_arr1d_pt(ctx, c);
      free(c);
      if (r == NULL) {
        char *e = futhark_context_get_error(ctx);
        CHECK(e != NULL);
        free(e);
        failed++;
        continue;
      }
      restored++;
      const int64_t *sh = futhark_shape_opaque_arr1d_pt(ctx, r);
      for (int64_t k = 0; k < sh[0] && k < 8; k++) {
        struct futhark_opaque_pt *p = NULL;
        double y = 0;
        OK(futhark_index_opaque_arr1d_pt(ctx, &p, r, k));
        OK(futhark_project_opaque_pt_y(ctx, &y, p));
        OK(futhark_free_opaque_pt(ctx, p));
      }
      double code = 0;
      if (futhark_entry_pts_code(ctx, &code, r) != 0) free(futhark_context_get_error(ctx));
      OK(futhark_free_opaque_arr1d_pt(ctx, r));
    }
  }
  CHECK(failed > 0);
  printf("corrupted copies: %d failed to restore, %d restored\n", failed, restored);
  free(bytes);
  OK(futhark_free_opaque_arr1d_pt(ctx, ps));
  OK(futhark_free_f64_1d(ctx, x));
  CHECK(futhark_context_get_error(ctx) == NULL);
}

int main(void) {
  struct futhark_context_config *cfg;
  ctx = new_context(&cfg);
  round_trips();
  bad_bytes();
  corrupted();
  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
