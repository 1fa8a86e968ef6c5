/* Run-time errors: a non-zero code, a message that names the source file
 * and line (given as arguments: "capi.fut:LINE:" of oob, checked, pt_at,
 * dot, pts_dot and obs_total), outputs left untouched, and the context
 * working normally afterwards. */
#include "check.h"

static struct futhark_context *ctx;

/* The context still works: a scalar and an array entry point. */
static void still_works(void) {
  double d = 0;
  OK(futhark_entry_scale(ctx, &d, 3, 5));
  OK(futhark_context_sync(ctx));
  CHECK(d == 15);
  float xs[16];
  for (int i = 0; i < 16; i++) xs[i] = (float)i;
  struct futhark_f32_1d *a = NN(futhark_new_f32_1d(ctx, xs, 16)), *b = NULL;
  OK(futhark_entry_add1(ctx, &b, a));
  float y = 0;
  OK(futhark_index_f32_1d(ctx, &y, b, 15));
  OK(futhark_context_sync(ctx));
  CHECK(y == 16);
  OK(futhark_free_f32_1d(ctx, a));
  OK(futhark_free_f32_1d(ctx, b));
  CHECK(futhark_context_get_error(ctx) == NULL);
}

int main(int argc, char **argv) {
  CHECK(argc == 7);
  const char *at_oob = argv[1], *at_checked = argv[2], *at_pt_at = argv[3], *at_dot = argv[4],
             *at_pts_dot = argv[5], *at_obs_total = argv[6];
  struct futhark_context_config *cfg;
  ctx = new_context(&cfg);

  /* out of bounds, with a scalar result */
  int32_t is[3] = {1, 2, 3};
  struct futhark_i32_1d *a = NN(futhark_new_i32_1d(ctx, is, 3));
  int32_t out = -77;
  int rc = futhark_entry_oob(ctx, &out, a, 3);
  CHECK(rc == FUTHARK_PROGRAM_ERROR);
  FAILS(rc, at_oob);
  CHECK(out == -77);
  FAILS(futhark_entry_oob(ctx, &out, a, -1), at_oob);
  CHECK(out == -77);
  still_works();
  OK(futhark_entry_oob(ctx, &out, a, 2));
  CHECK(out == 3);

  /* a failed assert */
  rc = futhark_entry_checked(ctx, &out, 0);
  CHECK(rc == FUTHARK_PROGRAM_ERROR);
  FAILS(rc, at_checked);
  CHECK(out == 3);
  still_works();

  /* out of bounds with an opaque (record) result, and an array result */
  double ds[2] = {1, 2};
  struct futhark_f64_1d *d = NN(futhark_new_f64_1d(ctx, ds, 2));
  struct futhark_opaque_pt *p = (struct futhark_opaque_pt *)(void *)&out;
  FAILS(futhark_entry_pt_at(ctx, &p, d, 2), at_pt_at);
  CHECK(p == (struct futhark_opaque_pt *)(void *)&out);
  OK(futhark_entry_pt_at(ctx, &p, d, 1));
  double px = 0;
  OK(futhark_project_opaque_pt_x(ctx, &px, p));
  CHECK(px == 2);
  OK(futhark_free_opaque_pt(ctx, p));
  struct futhark_f64_1d *empty = NN(futhark_new_f64_1d(ctx, ds, 0));
  struct futhark_f64_1d *g = (struct futhark_f64_1d *)(void *)&out;
  CHECK(futhark_entry_cubes_grad(ctx, &g, empty) != 0); /* xs[0] of an empty array */
  char *e = futhark_context_get_error(ctx);
  CHECK(e != NULL && strstr(e, "capi.fut:") != NULL);
  free(e);
  CHECK(g == (struct futhark_f64_1d *)(void *)&out);
  still_works();

  /* sizes that disagree between two array inputs */
  double three[3] = {1, 2, 3};
  struct futhark_f64_1d *d3 = NN(futhark_new_f64_1d(ctx, three, 3));
  double dot = -1;
  FAILS(futhark_entry_dot(ctx, &dot, d, d3), at_dot);
  CHECK(dot == -1);
  OK(futhark_entry_dot(ctx, &dot, d3, d3));
  CHECK(dot == 14);
  still_works();

  /* sizes that disagree between two opaque inputs (arrays of records) */
  struct futhark_opaque_arr1d_pt *p2 = NULL, *p3 = NULL;
  OK(futhark_entry_pts(ctx, &p2, d, d));
  OK(futhark_entry_pts(ctx, &p3, d3, d3));
  dot = -1;
  FAILS(futhark_entry_pts_dot(ctx, &dot, p2, p3), at_pts_dot);
  CHECK(dot == -1);
  OK(futhark_entry_pts_dot(ctx, &dot, p3, p3));
  CHECK(dot == 28);
  still_works();

  /* a record whose fields disagree with its size parameter */
  float ws[2] = {1, 1};
  struct futhark_f32_1d *w = NN(futhark_new_f32_1d(ctx, ws, 2));
  struct futhark_opaque_obs *ob = NULL;
  OK(futhark_new_opaque_obs(ctx, &ob, 3, a, w));
  float total = -1;
  FAILS(futhark_entry_obs_total(ctx, &total, ob), at_obs_total);
  CHECK(total == -1);
  still_works();

  /* NULL inputs */
  FAILS(futhark_entry_add1(ctx, (struct futhark_f32_1d **)(void *)&g, NULL), NULL);
  FAILS(futhark_entry_pts_dot(ctx, &dot, p2, NULL), NULL);
  still_works();

  OK(futhark_free_opaque_obs(ctx, ob));
  OK(futhark_free_f32_1d(ctx, w));
  OK(futhark_free_opaque_arr1d_pt(ctx, p2));
  OK(futhark_free_opaque_arr1d_pt(ctx, p3));
  OK(futhark_free_f64_1d(ctx, d3));
  OK(futhark_free_f64_1d(ctx, empty));
  OK(futhark_free_f64_1d(ctx, d));
  OK(futhark_free_i32_1d(ctx, a));
  free_context(ctx, cfg);
  (void)at_obs_total;
  puts("ok");
  return 0;
}
