/* A reverse-mode derivative (vjp) through the API against the gradient
 * computed by hand:
 *   cubes xs = sum_i xs[i]^3 + xs[0] * xs[1]
 *   d/dxs[i] = 3 xs[i]^2 + (i == 0 ? xs[1] : 0) + (i == 1 ? xs[0] : 0)
 *   d/dx (x sin x) = sin x + x cos x */
#include "check.h"

int main(void) {
  struct futhark_context_config *cfg;
  struct futhark_context *ctx = new_context(&cfg);

  double xs[5] = {1, 2, 3, -0.5, 0.25}, g[5];
  struct futhark_f64_1d *x = NN(futhark_new_f64_1d(ctx, xs, 5)), *dx = NULL;
  OK(futhark_entry_cubes_grad(ctx, &dx, x));
  CHECK(futhark_shape_f64_1d(ctx, dx)[0] == 5);
  OK(futhark_values_f64_1d(ctx, dx, g));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 5; i++) {
    double want = 3 * xs[i] * xs[i] + (i == 0 ? xs[1] : 0) + (i == 1 ? xs[0] : 0);
    if (!close_to(g[i], want, 1e-12)) {
      fprintf(stderr, "d/dxs[%d] = %.17g, want %.17g\n", i, g[i], want);
      return 1;
    }
  }
  CHECK(g[0] == 5 && g[1] == 13 && g[2] == 27);
  OK(futhark_free_f64_1d(ctx, x));
  OK(futhark_free_f64_1d(ctx, dx));

  for (double v = -2; v <= 2; v += 0.5) {
    double d = 0;
    OK(futhark_entry_xsin_grad(ctx, &d, v));
    OK(futhark_context_sync(ctx));
    double want = sin(v) + v * cos(v);
    if (!close_to(d, want, 1e-12)) {
      fprintf(stderr, "d/dx (x sin x) at %g = %.17g, want %.17g\n", v, d, want);
      return 1;
    }
  }

  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
