/* Records and tuples (new, project, fields in Futhark's order) and sums
 * (variant numbers in constructor-name order, construct, destruct). */
#include "check.h"

static struct futhark_context *ctx;

typedef struct futhark_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32 tup11;

static void records(void) {
  /* {y, x}: the fields are x then y. */
  struct futhark_opaque_pt *p = NULL, *q = NULL, *r = NULL;
  OK(futhark_entry_mkpt(ctx, &p, 1.5, -2));
  double x = 0, y = 0, n = 0;
  OK(futhark_project_opaque_pt_x(ctx, &x, p));
  OK(futhark_project_opaque_pt_y(ctx, &y, p));
  OK(futhark_context_sync(ctx));
  CHECK(x == 1.5 && y == -2);
  OK(futhark_new_opaque_pt(ctx, &q, 3, 4)); /* x = 3, y = 4 */
  OK(futhark_entry_norm(ctx, &n, q));
  OK(futhark_context_sync(ctx));
  CHECK(n == 25);
  OK(futhark_entry_swap(ctx, &r, q));
  OK(futhark_free_opaque_pt(ctx, q));
  OK(futhark_project_opaque_pt_x(ctx, &x, r));
  OK(futhark_project_opaque_pt_y(ctx, &y, r));
  OK(futhark_context_sync(ctx));
  CHECK(x == 4 && y == 3);
  OK(futhark_free_opaque_pt(ctx, r));
  OK(futhark_free_opaque_pt(ctx, p));

  /* {b, a10, a2}: alphabetic, so a10, a2, b. */
  struct futhark_opaque_order *o = NULL;
  OK(futhark_new_opaque_order(ctx, &o, 10, 2, 1));
  int32_t code = 0, a10 = 0, a2 = 0, b = 0;
  OK(futhark_entry_order_code(ctx, &code, o));
  OK(futhark_context_sync(ctx));
  CHECK(code == 10 * 100 + 2 * 10 + 1);
  OK(futhark_free_opaque_order(ctx, o));
  OK(futhark_entry_mkorder(ctx, &o, 5));
  OK(futhark_project_opaque_order_a10(ctx, &a10, o));
  OK(futhark_project_opaque_order_a2(ctx, &a2, o));
  OK(futhark_project_opaque_order_b(ctx, &b, o));
  OK(futhark_context_sync(ctx));
  CHECK(a10 == 15 && a2 == 7 && b == 5);
  OK(futhark_free_opaque_order(ctx, o));

  /* A record with array fields: count, labels, weights. */
  float ws[3] = {0.5f, 1.5f, 2};
  int32_t ls[3] = {2, 4, 6};
  struct futhark_f32_1d *w = NN(futhark_new_f32_1d(ctx, ws, 3));
  struct futhark_i32_1d *l = NN(futhark_new_i32_1d(ctx, ls, 3));
  struct futhark_opaque_obs *ob = NULL, *ob2 = NULL;
  OK(futhark_entry_mkobs(ctx, &ob, w, l));
  int64_t count = 0;
  OK(futhark_project_opaque_obs_count(ctx, &count, ob));
  CHECK(count == 3);
  struct futhark_i32_1d *pl = NULL;
  struct futhark_f32_1d *pw = NULL;
  OK(futhark_project_opaque_obs_labels(ctx, &pl, ob));
  OK(futhark_project_opaque_obs_weights(ctx, &pw, ob));
  OK(futhark_free_opaque_obs(ctx, ob)); /* the projections live on */
  int32_t lr[3];
  float wr[3];
  OK(futhark_values_i32_1d(ctx, pl, lr));
  OK(futhark_values_f32_1d(ctx, pw, wr));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 3; i++) CHECK(lr[i] == ls[i] && wr[i] == ws[i]);
  CHECK(futhark_shape_i32_1d(ctx, pl)[0] == 3);
  /* new takes count, labels, weights; the fields may be freed after. */
  OK(futhark_new_opaque_obs(ctx, &ob2, 3, l, w));
  OK(futhark_free_f32_1d(ctx, w));
  OK(futhark_free_i32_1d(ctx, l));
  float total = 0;
  OK(futhark_entry_obs_total(ctx, &total, ob2));
  OK(futhark_context_sync(ctx));
  CHECK(total == 0.5f * 2 + 1.5f * 4 + 2 * 6 + 3);
  OK(futhark_free_opaque_obs(ctx, ob2));
  OK(futhark_free_i32_1d(ctx, pl));
  OK(futhark_free_f32_1d(ctx, pw));
}

static void tuples(void) {
  struct futhark_opaque_tup2_i32_bool *t = NULL, *u = NULL;
  OK(futhark_entry_pair(ctx, &t, 7, true));
  int32_t a = 0;
  bool b = false;
  OK(futhark_project_opaque_tup2_i32_bool_0(ctx, &a, t));
  OK(futhark_project_opaque_tup2_i32_bool_1(ctx, &b, t));
  OK(futhark_context_sync(ctx));
  CHECK(a == 7 && b == true);
  OK(futhark_new_opaque_tup2_i32_bool(ctx, &u, -9, false));
  OK(futhark_project_opaque_tup2_i32_bool_0(ctx, &a, u));
  OK(futhark_project_opaque_tup2_i32_bool_1(ctx, &b, u));
  CHECK(a == -9 && b == false);
  OK(futhark_free_opaque_tup2_i32_bool(ctx, t));
  OK(futhark_free_opaque_tup2_i32_bool(ctx, u));

  /* Eleven fields: numeric order, 10 after 9. */
  tup11 *e = NULL, *f = NULL;
  OK(futhark_entry_eleven(ctx, &e, 100));
  int32_t v = 0;
  OK(futhark_project_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_10(ctx, &v, e));
  CHECK(v == 110);
  OK(futhark_project_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_2(ctx, &v, e));
  CHECK(v == 102);
  OK(futhark_project_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_9(ctx, &v, e));
  CHECK(v == 109);
  OK(futhark_new_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32(ctx, &f, 0, 1, 2, 3, 4,
                                                                         5, 6, 7, 8, 9, 10));
  int32_t code = 0;
  OK(futhark_entry_eleven_code(ctx, &code, f));
  OK(futhark_context_sync(ctx));
  CHECK(code == 0 + 2 * 1 + 3 * 10);
  OK(futhark_entry_eleven_code(ctx, &code, e));
  CHECK(code == 100 + 2 * 101 + 3 * 110);
  OK(futhark_free_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32(ctx, f));
  OK(futhark_free_opaque_tup11_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32_i32(ctx, e));
}

static void sums(void) {
  /* #rect | #circle | #empty: circle = 0, empty = 1, rect = 2. */
  struct futhark_opaque_shape *s = NULL;
  double a = 0, b = 0, area = 0;
  OK(futhark_entry_mkshape(ctx, &s, 0, 2, 0));
  CHECK(futhark_variant_opaque_shape(ctx, s) == 0);
  OK(futhark_destruct_opaque_shape_circle(ctx, &a, s));
  OK(futhark_context_sync(ctx));
  CHECK(a == 2);
  OK(futhark_free_opaque_shape(ctx, s));
  OK(futhark_entry_mkshape(ctx, &s, 1, 3, 4));
  CHECK(futhark_variant_opaque_shape(ctx, s) == 2);
  OK(futhark_destruct_opaque_shape_rect(ctx, &a, &b, s));
  OK(futhark_context_sync(ctx));
  CHECK(a == 3 && b == 4);
  OK(futhark_entry_area(ctx, &area, s));
  CHECK(area == 12);
  OK(futhark_free_opaque_shape(ctx, s));
  OK(futhark_entry_mkshape(ctx, &s, 2, 3, 4));
  CHECK(futhark_variant_opaque_shape(ctx, s) == 1);
  OK(futhark_destruct_opaque_shape_empty(ctx, s));
  OK(futhark_free_opaque_shape(ctx, s));

  OK(futhark_new_opaque_shape_circle(ctx, &s, 1));
  CHECK(futhark_variant_opaque_shape(ctx, s) == 0);
  OK(futhark_entry_area(ctx, &area, s));
  OK(futhark_context_sync(ctx));
  CHECK(area == 3);
  OK(futhark_free_opaque_shape(ctx, s));
  OK(futhark_new_opaque_shape_rect(ctx, &s, 2, 5));
  CHECK(futhark_variant_opaque_shape(ctx, s) == 2);
  OK(futhark_entry_area(ctx, &area, s));
  CHECK(area == 10);
  OK(futhark_free_opaque_shape(ctx, s));
  OK(futhark_new_opaque_shape_empty(ctx, &s));
  CHECK(futhark_variant_opaque_shape(ctx, s) == 1);
  area = -1;
  OK(futhark_entry_area(ctx, &area, s));
  CHECK(area == 0);
  OK(futhark_free_opaque_shape(ctx, s));

  /* A payload that is an array: #none = 0, #some = 1. */
  int32_t xs[3] = {1, 2, 3}, ys[3];
  struct futhark_i32_1d *x = NN(futhark_new_i32_1d(ctx, xs, 3)), *y = NULL;
  struct futhark_opaque_opt *o = NULL, *n = NULL, *m = NULL;
  OK(futhark_entry_mk_some(ctx, &o, x));
  CHECK(futhark_variant_opaque_opt(ctx, o) == 1);
  OK(futhark_destruct_opaque_opt_some(ctx, &y, o));
  OK(futhark_free_opaque_opt(ctx, o)); /* the payload lives on */
  OK(futhark_values_i32_1d(ctx, y, ys));
  OK(futhark_context_sync(ctx));
  CHECK(ys[0] == 1 && ys[1] == 2 && ys[2] == 3);
  CHECK(futhark_shape_i32_1d(ctx, y)[0] == 3);
  OK(futhark_new_opaque_opt_none(ctx, &n));
  CHECK(futhark_variant_opaque_opt(ctx, n) == 0);
  int32_t sum = 0;
  OK(futhark_entry_opt_sum(ctx, &sum, n));
  CHECK(sum == -1);
  OK(futhark_new_opaque_opt_some(ctx, &m, y));
  OK(futhark_free_i32_1d(ctx, y));
  OK(futhark_free_i32_1d(ctx, x));
  OK(futhark_entry_opt_sum(ctx, &sum, m));
  OK(futhark_context_sync(ctx));
  CHECK(sum == 6);
  CHECK(futhark_variant_opaque_opt(ctx, m) == 1);
  OK(futhark_free_opaque_opt(ctx, n));
  OK(futhark_free_opaque_opt(ctx, m));
}

int main(void) {
  struct futhark_context_config *cfg;
  ctx = new_context(&cfg);
  records();
  tuples();
  sums();
  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
