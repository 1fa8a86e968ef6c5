/* Every object has its own lifetime: inputs, results, projections, zips,
 * indexed elements, destructed payloads and restored values are freed
 * independently, in any order (run under AddressSanitizer by the
 * `sanitizers` test to catch double frees, uses after free and leaks). */
#include "check.h"

static struct futhark_context *ctx;

static int32_t sum_i32(struct futhark_i32_1d *a) {
  int64_t n = futhark_shape_i32_1d(ctx, a)[0];
  int32_t buf[64], s = 0;
  CHECK(n <= 64);
  OK(futhark_values_i32_1d(ctx, a, buf));
  OK(futhark_context_sync(ctx));
  for (int64_t i = 0; i < n; i++) s += buf[i];
  return s;
}

/* An identity entry point: its result and its input, each order. */
static void identity(void) {
  int32_t xs[5] = {1, 2, 3, 4, 5};
  for (int order = 0; order < 2; order++) {
    struct futhark_i32_1d *in = NN(futhark_new_i32_1d(ctx, xs, 5)), *o1 = NULL, *o2 = NULL;
    OK(futhark_entry_id_i32(ctx, &o1, in));
    OK(futhark_entry_id_i32(ctx, &o2, o1));
    if (order == 0) {
      OK(futhark_free_i32_1d(ctx, in));
      CHECK(sum_i32(o1) == 15);
      OK(futhark_free_i32_1d(ctx, o1));
      CHECK(sum_i32(o2) == 15);
      OK(futhark_free_i32_1d(ctx, o2));
    } else {
      OK(futhark_free_i32_1d(ctx, o2));
      OK(futhark_free_i32_1d(ctx, o1));
      CHECK(sum_i32(in) == 15);
      OK(futhark_free_i32_1d(ctx, in));
    }
  }
}

/* A consumed input may only be freed, before or after the result. */
static void consumed(void) {
  int32_t xs[4] = {1, 2, 3, 4};
  for (int order = 0; order < 2; order++) {
    struct futhark_i32_1d *in = NN(futhark_new_i32_1d(ctx, xs, 4)), *out = NULL;
    OK(futhark_entry_upd(ctx, &out, in));
    if (order == 0) OK(futhark_free_i32_1d(ctx, in));
    CHECK(sum_i32(out) == 100 + 2 + 3 + 4);
    OK(futhark_free_i32_1d(ctx, out));
    if (order == 1) OK(futhark_free_i32_1d(ctx, in));
  }
}

/* A chain a -> b -> c of results, freed in each of the six orders. */
static void chains(void) {
  static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  float xs[16];
  for (int i = 0; i < 16; i++) xs[i] = (float)i;
  for (int k = 0; k < 6; k++) {
    struct futhark_f32_1d *v[3] = {NULL, NULL, NULL};
    v[0] = NN(futhark_new_f32_1d(ctx, xs, 16));
    OK(futhark_entry_add1(ctx, &v[1], v[0]));
    OK(futhark_entry_add1(ctx, &v[2], v[1]));
    for (int j = 0; j < 3; j++) {
      int gone = orders[k][j];
      OK(futhark_free_f32_1d(ctx, v[gone]));
      v[gone] = NULL;
      for (int m = 0; m < 3; m++) {
        if (v[m] == NULL) continue;
        float y = -1;
        OK(futhark_index_f32_1d(ctx, &y, v[m], 15));
        OK(futhark_context_sync(ctx));
        CHECK(y == 15 + m);
      }
    }
  }
}

/* Records from fields and fields from records, zips and projections. */
static void views(void) {
  float ws[4] = {1, 2, 3, 4};
  int32_t ls[4] = {1, 1, 1, 1};
  struct futhark_f32_1d *w = NN(futhark_new_f32_1d(ctx, ws, 4)), *pw = NULL;
  struct futhark_i32_1d *l = NN(futhark_new_i32_1d(ctx, ls, 4)), *pl = NULL;
  struct futhark_opaque_obs *o1 = NULL, *o2 = NULL;
  OK(futhark_new_opaque_obs(ctx, &o1, 4, l, w));
  OK(futhark_entry_mkobs(ctx, &o2, w, l));
  OK(futhark_free_i32_1d(ctx, l));
  OK(futhark_project_opaque_obs_labels(ctx, &pl, o1));
  OK(futhark_free_opaque_obs(ctx, o1));
  OK(futhark_project_opaque_obs_weights(ctx, &pw, o2));
  OK(futhark_free_f32_1d(ctx, w));
  float t = 0;
  OK(futhark_entry_obs_total(ctx, &t, o2));
  OK(futhark_free_opaque_obs(ctx, o2));
  OK(futhark_context_sync(ctx));
  CHECK(t == 1 + 2 + 3 + 4 + 4);
  CHECK(sum_i32(pl) == 4);
  OK(futhark_free_i32_1d(ctx, pl));
  float y = 0;
  OK(futhark_index_f32_1d(ctx, &y, pw, 3));
  CHECK(y == 4);
  OK(futhark_free_f32_1d(ctx, pw));

  /* zip, project the zip, index the zip; free the parts in between */
  double xs[3] = {1, 2, 3};
  struct futhark_f64_1d *x = NN(futhark_new_f64_1d(ctx, xs, 3)), *px = NULL;
  struct futhark_opaque_arr1d_pt *z = NULL;
  OK(futhark_zip_opaque_arr1d_pt(ctx, &z, x, x));
  OK(futhark_free_f64_1d(ctx, x));
  OK(futhark_project_opaque_arr1d_pt_y(ctx, &px, z));
  struct futhark_opaque_pt *e = NULL;
  OK(futhark_index_opaque_arr1d_pt(ctx, &e, z, 2));
  OK(futhark_free_opaque_arr1d_pt(ctx, z));
  double v = 0;
  OK(futhark_project_opaque_pt_y(ctx, &v, e));
  CHECK(v == 3);
  OK(futhark_free_opaque_pt(ctx, e));
  OK(futhark_index_f64_1d(ctx, &v, px, 0));
  CHECK(v == 1);
  OK(futhark_free_f64_1d(ctx, px));
}

/* Sums: the payload outlives the value; the value outlives its payload. */
static void sums(void) {
  int32_t xs[3] = {4, 5, 6};
  struct futhark_i32_1d *x = NN(futhark_new_i32_1d(ctx, xs, 3)), *y = NULL;
  struct futhark_opaque_opt *o = NULL, *m = NULL;
  OK(futhark_new_opaque_opt_some(ctx, &o, x));
  OK(futhark_free_i32_1d(ctx, x));
  OK(futhark_destruct_opaque_opt_some(ctx, &y, o));
  OK(futhark_entry_mk_some(ctx, &m, y));
  OK(futhark_free_opaque_opt(ctx, o));
  CHECK(sum_i32(y) == 15);
  OK(futhark_free_i32_1d(ctx, y));
  int32_t s = 0;
  OK(futhark_entry_opt_sum(ctx, &s, m));
  OK(futhark_context_sync(ctx));
  CHECK(s == 15);
  OK(futhark_free_opaque_opt(ctx, m));
}

/* Arrays of opaques: elements given to new, the array, indexed elements. */
static void opaque_arrays(void) {
  struct futhark_opaque_ctr *e[3] = {NULL, NULL, NULL}, *k = NULL;
  for (int i = 0; i < 3; i++) OK(futhark_entry_mkctr(ctx, &e[i], i + 1));
  struct futhark_opaque_arr1d_ctr *a = NULL;
  OK(futhark_new_opaque_arr1d_ctr(ctx, &a, e, 3));
  OK(futhark_free_opaque_ctr(ctx, e[1]));
  OK(futhark_index_opaque_arr1d_ctr(ctx, &k, a, 1));
  OK(futhark_set_opaque_arr1d_ctr(ctx, a, e[2], 0));
  OK(futhark_free_opaque_ctr(ctx, e[2]));
  OK(futhark_free_opaque_arr1d_ctr(ctx, a));
  int64_t g = 0;
  OK(futhark_entry_getctr(ctx, &g, k));
  OK(futhark_context_sync(ctx));
  CHECK(g == 2 + 4);
  OK(futhark_free_opaque_ctr(ctx, k));
  OK(futhark_free_opaque_ctr(ctx, e[0]));
}

/* Restored values do not depend on the bytes; many live objects freed
 * in an interleaved order. */
static void many(void) {
  enum { N = 40 };
  struct futhark_opaque_pt *ps[N];
  for (int i = 0; i < N; i++) {
    void *bytes = NULL;
    size_t n = 0;
    struct futhark_opaque_pt *p = NULL;
    OK(futhark_entry_mkpt(ctx, &p, i, -i));
    OK(futhark_store_opaque_pt(ctx, p, &bytes, &n));
    OK(futhark_context_sync(ctx));
    OK(futhark_free_opaque_pt(ctx, p));
    ps[i] = NN(futhark_restore_opaque_pt(ctx, bytes));
    memset(bytes, 0, n);
    free(bytes);
  }
  for (int pass = 0; pass < 2; pass++)
    for (int i = pass; i < N; i += 2) {
      double x = -1;
      OK(futhark_project_opaque_pt_x(ctx, &x, ps[i]));
      CHECK(x == i);
      OK(futhark_free_opaque_pt(ctx, ps[i]));
    }
}

int main(void) {
  struct futhark_context_config *cfg;
  ctx = new_context(&cfg);
  identity();
  consumed();
  chains();
  views();
  sums();
  opaque_arrays();
  many();
  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
