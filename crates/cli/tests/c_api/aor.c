/* Arrays of records and tuples, and arrays of an abstract type. */
#include "check.h"

static struct futhark_context *ctx;

static void points(void) {
  double xs[3] = {1, 2, 3}, ys[3] = {4, 5, 6}, r[3];
  struct futhark_f64_1d *x = NN(futhark_new_f64_1d(ctx, xs, 3));
  struct futhark_f64_1d *y = NN(futhark_new_f64_1d(ctx, ys, 3));
  struct futhark_opaque_arr1d_pt *ps = NULL, *z = NULL;
  OK(futhark_entry_pts(ctx, &ps, x, y));
  CHECK(futhark_shape_opaque_arr1d_pt(ctx, ps)[0] == 3);
  double code = 0;
  OK(futhark_entry_pts_code(ctx, &code, ps));
  OK(futhark_context_sync(ctx));
  CHECK(code == 10 + 20 + 30 + 4 + 5 + 6);

  /* index */
  struct futhark_opaque_pt *p = NULL;
  double px = 0, py = 0;
  OK(futhark_index_opaque_arr1d_pt(ctx, &p, ps, 1));
  OK(futhark_project_opaque_pt_x(ctx, &px, p));
  OK(futhark_project_opaque_pt_y(ctx, &py, p));
  OK(futhark_context_sync(ctx));
  CHECK(px == 2 && py == 5);
  struct futhark_opaque_pt *keep = p;
  FAILS(futhark_index_opaque_arr1d_pt(ctx, &p, ps, 3), NULL);
  FAILS(futhark_index_opaque_arr1d_pt(ctx, &p, ps, -1), NULL);
  CHECK(p == keep);

  /* project */
  struct futhark_f64_1d *fx = NULL;
  OK(futhark_project_opaque_arr1d_pt_y(ctx, &fx, ps));
  OK(futhark_values_f64_1d(ctx, fx, r));
  OK(futhark_context_sync(ctx));
  CHECK(r[0] == 4 && r[1] == 5 && r[2] == 6);
  OK(futhark_free_f64_1d(ctx, fx));

  /* zip of matching sizes: the fields may go first */
  OK(futhark_zip_opaque_arr1d_pt(ctx, &z, y, x)); /* x = ys, y = xs */
  OK(futhark_entry_pts_code(ctx, &code, z));
  OK(futhark_context_sync(ctx));
  CHECK(code == 40 + 50 + 60 + 1 + 2 + 3);
  OK(futhark_project_opaque_arr1d_pt_x(ctx, &fx, z));
  OK(futhark_values_f64_1d(ctx, fx, r));
  OK(futhark_context_sync(ctx));
  CHECK(r[0] == 4 && r[2] == 6);
  OK(futhark_free_f64_1d(ctx, fx));

  /* zip of mismatching sizes */
  struct futhark_f64_1d *two = NN(futhark_new_f64_1d(ctx, xs, 2));
  struct futhark_opaque_arr1d_pt *bad = (struct futhark_opaque_arr1d_pt *)&keep;
  FAILS(futhark_zip_opaque_arr1d_pt(ctx, &bad, x, two), NULL);
  FAILS(futhark_zip_opaque_arr1d_pt(ctx, &bad, two, y), NULL);
  CHECK(bad == (struct futhark_opaque_arr1d_pt *)&keep);
  OK(futhark_free_f64_1d(ctx, two));
  OK(futhark_free_f64_1d(ctx, x));
  OK(futhark_free_f64_1d(ctx, y));
  OK(futhark_entry_pts_code(ctx, &code, z));
  CHECK(code == 40 + 50 + 60 + 1 + 2 + 3);

  /* new from elements, then set */
  struct futhark_opaque_pt *e[2] = {NULL, NULL}, *q = NULL;
  OK(futhark_new_opaque_pt(ctx, &e[0], 1, 1));
  OK(futhark_new_opaque_pt(ctx, &e[1], 2, 2));
  struct futhark_opaque_arr1d_pt *n = NULL;
  OK(futhark_new_opaque_arr1d_pt(ctx, &n, e, 2));
  OK(futhark_free_opaque_pt(ctx, e[0]));
  OK(futhark_free_opaque_pt(ctx, e[1]));
  CHECK(futhark_shape_opaque_arr1d_pt(ctx, n)[0] == 2);
  OK(futhark_entry_pts_code(ctx, &code, n));
  OK(futhark_context_sync(ctx));
  CHECK(code == 10 + 1 + 20 + 2);
  OK(futhark_new_opaque_pt(ctx, &q, 5, 0));
  OK(futhark_set_opaque_arr1d_pt(ctx, n, q, 0));
  FAILS(futhark_set_opaque_arr1d_pt(ctx, n, q, 2), NULL);
  OK(futhark_free_opaque_pt(ctx, q));
  OK(futhark_entry_pts_code(ctx, &code, n));
  OK(futhark_context_sync(ctx));
  CHECK(code == 50 + 0 + 20 + 2);
  OK(futhark_free_opaque_arr1d_pt(ctx, n));

  OK(futhark_free_opaque_pt(ctx, p));
  OK(futhark_free_opaque_arr1d_pt(ctx, z));
  OK(futhark_free_opaque_arr1d_pt(ctx, ps));
}

static void points2(void) {
  struct futhark_opaque_arr2d_pt *ps = NULL, *z = NULL, *bad = NULL;
  OK(futhark_entry_pts2(ctx, &ps, 2, 3));
  const int64_t *s = futhark_shape_opaque_arr2d_pt(ctx, ps);
  CHECK(s[0] == 2 && s[1] == 3);
  struct futhark_opaque_pt *p = NULL;
  double px = -1, py = -1;
  OK(futhark_index_opaque_arr2d_pt(ctx, &p, ps, 1, 2));
  OK(futhark_project_opaque_pt_x(ctx, &px, p));
  OK(futhark_project_opaque_pt_y(ctx, &py, p));
  OK(futhark_context_sync(ctx));
  CHECK(px == 1 && py == 2);
  OK(futhark_free_opaque_pt(ctx, p));
  p = NULL;
  FAILS(futhark_index_opaque_arr2d_pt(ctx, &p, ps, 0, 3), NULL);
  FAILS(futhark_index_opaque_arr2d_pt(ctx, &p, ps, 2, 0), NULL);
  CHECK(p == NULL);
  struct futhark_f64_2d *fy = NULL, *fx = NULL;
  OK(futhark_project_opaque_arr2d_pt_y(ctx, &fy, ps));
  OK(futhark_project_opaque_arr2d_pt_x(ctx, &fx, ps));
  OK(futhark_free_opaque_arr2d_pt(ctx, ps));
  double v[6];
  OK(futhark_values_f64_2d(ctx, fy, v));
  OK(futhark_context_sync(ctx));
  CHECK(v[0] == 0 && v[1] == 1 && v[2] == 2 && v[3] == 0 && v[5] == 2);
  const int64_t *sy = futhark_shape_f64_2d(ctx, fy);
  CHECK(sy[0] == 2 && sy[1] == 3);
  OK(futhark_zip_opaque_arr2d_pt(ctx, &z, fy, fx)); /* x = j, y = i */
  double code = 0;
  OK(futhark_entry_pts2_code(ctx, &code, z));
  OK(futhark_context_sync(ctx));
  /* sum over i < 2, j < 3 of 10 j + i */
  CHECK(code == 10 * (0 + 1 + 2) * 2 + (0 + 1) * 3);
  /* zip of 2x3 with 3x2: same element count, different shapes */
  double w[6] = {0};
  struct futhark_f64_2d *t = NN(futhark_new_f64_2d(ctx, w, 3, 2));
  FAILS(futhark_zip_opaque_arr2d_pt(ctx, &bad, fx, t), NULL);
  CHECK(bad == NULL);
  OK(futhark_free_f64_2d(ctx, t));
  OK(futhark_free_f64_2d(ctx, fx));
  OK(futhark_free_f64_2d(ctx, fy));
  OK(futhark_free_opaque_arr2d_pt(ctx, z));
}

static void tuples(void) {
  struct futhark_opaque_arr1d_tup2_i32_f32 *ts = NULL;
  OK(futhark_entry_tups(ctx, &ts, 4));
  CHECK(futhark_shape_opaque_arr1d_tup2_i32_f32(ctx, ts)[0] == 4);
  struct futhark_i32_1d *f0 = NULL;
  struct futhark_f32_1d *f1 = NULL;
  OK(futhark_project_opaque_arr1d_tup2_i32_f32_0(ctx, &f0, ts));
  OK(futhark_project_opaque_arr1d_tup2_i32_f32_1(ctx, &f1, ts));
  int32_t a[4];
  float b[4];
  OK(futhark_values_i32_1d(ctx, f0, a));
  OK(futhark_values_f32_1d(ctx, f1, b));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 4; i++) CHECK(a[i] == i && b[i] == (float)i / 2);
  struct futhark_opaque_tup2_i32_f32 *t = NULL;
  OK(futhark_index_opaque_arr1d_tup2_i32_f32(ctx, &t, ts, 3));
  int32_t t0 = 0;
  float t1 = 0;
  OK(futhark_project_opaque_tup2_i32_f32_0(ctx, &t0, t));
  OK(futhark_project_opaque_tup2_i32_f32_1(ctx, &t1, t));
  OK(futhark_context_sync(ctx));
  CHECK(t0 == 3 && t1 == 1.5f);
  /* zip back, in numeric field order */
  struct futhark_opaque_arr1d_tup2_i32_f32 *z = NULL;
  OK(futhark_zip_opaque_arr1d_tup2_i32_f32(ctx, &z, f0, f1));
  OK(futhark_free_opaque_arr1d_tup2_i32_f32(ctx, ts));
  OK(futhark_free_opaque_tup2_i32_f32(ctx, t));
  OK(futhark_index_opaque_arr1d_tup2_i32_f32(ctx, &t, z, 2));
  OK(futhark_project_opaque_tup2_i32_f32_1(ctx, &t1, t));
  CHECK(t1 == 1.0f);
  OK(futhark_free_opaque_tup2_i32_f32(ctx, t));
  OK(futhark_free_i32_1d(ctx, f0));
  OK(futhark_free_f32_1d(ctx, f1));
  OK(futhark_free_opaque_arr1d_tup2_i32_f32(ctx, z));
}

/* counter.t is [2]i64 behind a module signature: x = [x, x*x]. */
static void abstract(void) {
  struct futhark_opaque_arr1d_ctr *cs = NULL, *n = NULL;
  OK(futhark_entry_ctrs(ctx, &cs, 5));
  CHECK(futhark_shape_opaque_arr1d_ctr(ctx, cs)[0] == 5);
  int64_t total = 0, g = 0;
  OK(futhark_entry_ctr_total(ctx, &total, cs));
  OK(futhark_context_sync(ctx));
  CHECK(total == (0 + 1 + 2 + 3 + 4) + (0 + 1 + 4 + 9 + 16));
  struct futhark_opaque_ctr *c = NULL, *e[2] = {NULL, NULL}, *k = NULL;
  OK(futhark_index_opaque_arr1d_ctr(ctx, &c, cs, 3));
  OK(futhark_entry_getctr(ctx, &g, c));
  OK(futhark_context_sync(ctx));
  CHECK(g == 3 + 9);
  struct futhark_opaque_ctr *keep = c;
  FAILS(futhark_index_opaque_arr1d_ctr(ctx, &c, cs, 5), NULL);
  CHECK(c == keep);

  OK(futhark_entry_mkctr(ctx, &e[0], 2));
  OK(futhark_entry_mkctr(ctx, &e[1], 3));
  OK(futhark_new_opaque_arr1d_ctr(ctx, &n, e, 2));
  CHECK(futhark_shape_opaque_arr1d_ctr(ctx, n)[0] == 2);
  OK(futhark_entry_ctr_total(ctx, &total, n));
  OK(futhark_context_sync(ctx));
  CHECK(total == 6 + 12);
  OK(futhark_entry_mkctr(ctx, &k, 4));
  OK(futhark_set_opaque_arr1d_ctr(ctx, n, k, 1));
  FAILS(futhark_set_opaque_arr1d_ctr(ctx, n, k, 2), NULL);
  FAILS(futhark_set_opaque_arr1d_ctr(ctx, n, k, -1), NULL);
  OK(futhark_entry_ctr_total(ctx, &total, n));
  OK(futhark_context_sync(ctx));
  CHECK(total == 6 + 20);
  /* the elements given to new are copies: unchanged by set */
  OK(futhark_entry_getctr(ctx, &g, e[1]));
  CHECK(g == 12);
  /* set into the array an entry point returned */
  OK(futhark_set_opaque_arr1d_ctr(ctx, cs, k, 0));
  OK(futhark_entry_ctr_total(ctx, &total, cs));
  OK(futhark_context_sync(ctx));
  CHECK(total == 40 + 20);
  /* (that an element taken by index is a copy, unchanged by a later set of
   * its row, is index_copy.c) */

  /* an empty array */
  struct futhark_opaque_arr1d_ctr *empty = NULL;
  OK(futhark_new_opaque_arr1d_ctr(ctx, &empty, e, 0));
  CHECK(futhark_shape_opaque_arr1d_ctr(ctx, empty)[0] == 0);
  FAILS(futhark_index_opaque_arr1d_ctr(ctx, &c, empty, 0), NULL);
  OK(futhark_free_opaque_arr1d_ctr(ctx, empty));

  /* rank 2: index, new, set */
  struct futhark_opaque_arr2d_ctr *c2 = NULL, *n2 = NULL;
  OK(futhark_entry_ctrs2(ctx, &c2, 2, 3));
  const int64_t *s = futhark_shape_opaque_arr2d_ctr(ctx, c2);
  CHECK(s[0] == 2 && s[1] == 3);
  OK(futhark_entry_ctr_total2(ctx, &total, c2));
  OK(futhark_context_sync(ctx));
  CHECK(total == (0 + 1 + 2 + 10 + 11 + 12) + (0 + 1 + 4 + 100 + 121 + 144));
  struct futhark_opaque_ctr *d = NULL;
  OK(futhark_index_opaque_arr2d_ctr(ctx, &d, c2, 1, 2));
  OK(futhark_entry_getctr(ctx, &g, d));
  OK(futhark_context_sync(ctx));
  CHECK(g == 12 + 144);
  OK(futhark_free_opaque_ctr(ctx, d));
  OK(futhark_index_opaque_arr2d_ctr(ctx, &d, c2, 0, 1));
  OK(futhark_entry_getctr(ctx, &g, d));
  CHECK(g == 1 + 1);
  OK(futhark_free_opaque_ctr(ctx, d));
  FAILS(futhark_index_opaque_arr2d_ctr(ctx, &d, c2, 0, 3), NULL);
  FAILS(futhark_index_opaque_arr2d_ctr(ctx, &d, c2, 2, 0), NULL);
  struct futhark_opaque_ctr *four[4] = {e[0], e[1], k, c};
  OK(futhark_new_opaque_arr2d_ctr(ctx, &n2, four, 2, 2));
  const int64_t *s2 = futhark_shape_opaque_arr2d_ctr(ctx, n2);
  CHECK(s2[0] == 2 && s2[1] == 2);
  OK(futhark_entry_ctr_total2(ctx, &total, n2));
  OK(futhark_context_sync(ctx));
  CHECK(total == 6 + 12 + 20 + 12);
  OK(futhark_set_opaque_arr2d_ctr(ctx, n2, e[0], 1, 1));
  FAILS(futhark_set_opaque_arr2d_ctr(ctx, n2, e[0], 1, 2), NULL);
  OK(futhark_entry_ctr_total2(ctx, &total, n2));
  OK(futhark_context_sync(ctx));
  CHECK(total == 6 + 12 + 20 + 6);
  OK(futhark_index_opaque_arr2d_ctr(ctx, &d, n2, 1, 0));
  OK(futhark_entry_getctr(ctx, &g, d));
  CHECK(g == 20);
  OK(futhark_free_opaque_ctr(ctx, d));

  OK(futhark_free_opaque_arr2d_ctr(ctx, n2));
  OK(futhark_free_opaque_arr2d_ctr(ctx, c2));
  OK(futhark_free_opaque_ctr(ctx, k));
  OK(futhark_free_opaque_ctr(ctx, e[0]));
  OK(futhark_free_opaque_ctr(ctx, e[1]));
  OK(futhark_free_opaque_ctr(ctx, c));
  OK(futhark_free_opaque_arr1d_ctr(ctx, n));
  OK(futhark_free_opaque_arr1d_ctr(ctx, cs));
}

int main(void) {
  struct futhark_context_config *cfg;
  ctx = new_context(&cfg);
  points();
  points2();
  tuples();
  abstract();
  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
