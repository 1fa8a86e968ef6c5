/* The per-call overhead of entry points called through a parad library
 * (Futhark's C API), on tiny inputs: see README.md.
 *
 *   cc -std=c99 -O2 -c overhead.c   (with -I the folder of overhead.h)
 *   overhead [CALLS [BATCHES]]
 *
 * For each case, BATCHES batches of CALLS calls; prints one line per case:
 * the median and the least time per call over the batches, in µs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "overhead.h"

static struct futhark_context *ctx;
static float xs[16];
static struct futhark_f32_1d *input;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void die(const char *what) {
  char *e = futhark_context_get_error(ctx);
  fprintf(stderr, "%s failed: %s\n", what, e != NULL ? e : "(no message)");
  exit(1);
}

/* scale 1.5 4: a scalar entry point. */
static void case_scale(long calls) {
  double r = 0;
  for (long i = 0; i < calls; i++)
    if (futhark_entry_scale(ctx, &r, 1.5, 4.0) != 0) die("scale");
  if (r != 6.0) die("scale's result");
}

/* add1 on an array made once; the result freed after each call. */
static void case_add1(long calls) {
  for (long i = 0; i < calls; i++) {
    struct futhark_f32_1d *out = NULL;
    if (futhark_entry_add1(ctx, &out, input) != 0) die("add1");
    futhark_free_f32_1d(ctx, out);
  }
}

/* A user's whole round trip: new, add1, values, sync, free both. */
static void case_round_trip(long calls) {
  float ys[16];
  for (long i = 0; i < calls; i++) {
    struct futhark_f32_1d *in = futhark_new_f32_1d(ctx, xs, 16), *out = NULL;
    if (in == NULL || futhark_entry_add1(ctx, &out, in) != 0) die("add1");
    if (futhark_values_f32_1d(ctx, out, ys) != 0 || futhark_context_sync(ctx) != 0) die("values");
    futhark_free_f32_1d(ctx, in);
    futhark_free_f32_1d(ctx, out);
  }
  if (ys[15] != 16) die("add1's result");
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void measure(const char *name, void (*f)(long), long calls, int batches) {
  double *per = malloc((size_t)batches * sizeof *per);
  if (per == NULL) exit(1);
  f(calls / 10 + 1); /* warm-up */
  for (int b = 0; b < batches; b++) {
    double t0 = now_us();
    f(calls);
    per[b] = (now_us() - t0) / (double)calls;
  }
  qsort(per, (size_t)batches, sizeof *per, cmp);
  printf("%-11s %-10s median %.3f us/call  min %.3f us/call  (%d x %ld calls)\n",
#ifdef FUTHARK_BACKEND_multicore
         "multicore",
#else
         "c",
#endif
         name, per[batches / 2], per[0], batches, calls);
  free(per);
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 100000;
  int batches = argc > 2 ? atoi(argv[2]) : 11;
  if (calls < 1 || batches < 1) {
    fprintf(stderr, "usage: overhead [CALLS [BATCHES]]\n");
    return 2;
  }
  struct futhark_context_config *cfg = futhark_context_config_new();
  ctx = futhark_context_new(cfg);
  char *e = futhark_context_get_error(ctx);
  if (e != NULL) {
    fprintf(stderr, "context: %s\n", e);
    return 1;
  }
  for (int i = 0; i < 16; i++) xs[i] = (float)i;
  input = futhark_new_f32_1d(ctx, xs, 16);
  if (input == NULL) die("new");
  measure("scale", case_scale, calls, batches);
  measure("add1", case_add1, calls, batches);
  measure("roundtrip", case_round_trip, calls, batches);
  futhark_free_f32_1d(ctx, input);
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  return 0;
}
