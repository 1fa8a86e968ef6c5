/* index copies an element out of an array of opaque values (Futhark's
 * "copy a single element"): a later set of that row of the array leaves
 * the element as it was. Elements with array leaves (counter.t is [2]i64)
 * and with scalar leaves only (pt). */
#include "check.h"

int main(void) {
  struct futhark_context_config *cfg;
  struct futhark_context *ctx = new_context(&cfg);

  /* an abstract type whose values are arrays */
  struct futhark_opaque_arr1d_ctr *cs = NULL;
  struct futhark_opaque_ctr *e1 = NULL, *e2 = NULL;
  int64_t g = 0;
  OK(futhark_entry_ctrs(ctx, &cs, 3));
  OK(futhark_index_opaque_arr1d_ctr(ctx, &e1, cs, 1)); /* [1, 1] */
  OK(futhark_index_opaque_arr1d_ctr(ctx, &e2, cs, 2)); /* [2, 4] */
  OK(futhark_set_opaque_arr1d_ctr(ctx, cs, e2, 1));
  OK(futhark_entry_getctr(ctx, &g, e1));
  OK(futhark_context_sync(ctx));
  if (g != 2) fprintf(stderr, "getctr e1 = %lld, want 2 (e1 changed by set)\n", (long long)g);
  CHECK(g == 2);
  OK(futhark_entry_ctr_total(ctx, &g, cs));
  OK(futhark_context_sync(ctx));
  CHECK(g == 0 + 6 + 6);
  OK(futhark_free_opaque_ctr(ctx, e1));
  OK(futhark_free_opaque_ctr(ctx, e2));
  OK(futhark_free_opaque_arr1d_ctr(ctx, cs));

  /* records of scalars */
  struct futhark_opaque_arr1d_pt *ps = NULL;
  struct futhark_opaque_pt *p = NULL, *q = NULL;
  double xs[2] = {1, 2};
  struct futhark_f64_1d *x = NN(futhark_new_f64_1d(ctx, xs, 2));
  OK(futhark_entry_pts(ctx, &ps, x, x));
  OK(futhark_index_opaque_arr1d_pt(ctx, &p, ps, 0));
  OK(futhark_new_opaque_pt(ctx, &q, 7, 7));
  OK(futhark_set_opaque_arr1d_pt(ctx, ps, q, 0));
  double v = 0;
  OK(futhark_project_opaque_pt_x(ctx, &v, p));
  OK(futhark_context_sync(ctx));
  CHECK(v == 1);
  OK(futhark_free_opaque_pt(ctx, p));
  OK(futhark_free_opaque_pt(ctx, q));
  OK(futhark_free_opaque_arr1d_pt(ctx, ps));
  OK(futhark_free_f64_1d(ctx, x));

  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
