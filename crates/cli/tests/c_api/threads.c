/* Threads: several threads with a context each calling entry points at
 * once, then several threads sharing one context (its lock serialises the
 * calls). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "check.h"

enum { THREADS = 4, ROUNDS = 60 };

static int64_t work_ref(int64_t seed, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; i++) s += (i * seed) % 7;
  return s;
}

/* One thread's calls on `ctx`: a reduction, an array in and out, a record,
 * an error; returns 0 when all were right. */
static int rounds(struct futhark_context *ctx, int id) {
  for (int r = 0; r < ROUNDS; r++) {
    int64_t seed = id * 100 + r, n = 5000 + 37 * r, got = -1;
    if (futhark_entry_work(ctx, &got, seed, n) != 0 || futhark_context_sync(ctx) != 0)
      return 1;
    if (got != work_ref(seed, n)) {
      fprintf(stderr, "thread %d round %d: work = %lld, want %lld\n", id, r, (long long)got,
              (long long)work_ref(seed, n));
      return 1;
    }
    float xs[16], ys[16];
    for (int i = 0; i < 16; i++) xs[i] = (float)(id * 1000 + r * 16 + i);
    struct futhark_f32_1d *a = futhark_new_f32_1d(ctx, xs, 16), *b = NULL;
    if (a == NULL || futhark_entry_add1(ctx, &b, a) != 0) return 1;
    if (futhark_values_f32_1d(ctx, b, ys) != 0 || futhark_context_sync(ctx) != 0) return 1;
    for (int i = 0; i < 16; i++)
      if (ys[i] != xs[i] + 1) return 1;
    futhark_free_f32_1d(ctx, a);
    futhark_free_f32_1d(ctx, b);
    struct futhark_opaque_pt *p = NULL;
    double norm = 0;
    if (futhark_new_opaque_pt(ctx, &p, id, r) != 0 || futhark_entry_norm(ctx, &norm, p) != 0)
      return 1;
    futhark_free_opaque_pt(ctx, p);
    if (norm != (double)(id * id + r * r)) return 1;
    if (r % 10 == 0) {
      /* an error; with a shared context another thread's may come with it */
      int32_t o = 0;
      if (futhark_entry_checked(ctx, &o, -r) == 0) return 1;
      free(futhark_context_get_error(ctx));
    }
  }
  return 0;
}

struct job {
  int id;
  struct futhark_context *shared; /* NULL: the thread makes its own */
  int failed;
};

static void *thread(void *arg) {
  struct job *j = arg;
  if (j->shared != NULL) {
    j->failed = rounds(j->shared, j->id);
    return NULL;
  }
  struct futhark_context_config *cfg = futhark_context_config_new();
#ifdef FUTHARK_BACKEND_multicore
  futhark_context_config_set_num_threads(cfg, 2);
#endif
  struct futhark_context *ctx = futhark_context_new(cfg);
  char *e = futhark_context_get_error(ctx);
  if (e != NULL) {
    free(e);
    j->failed = 1;
  } else {
    j->failed = rounds(ctx, j->id);
  }
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  return NULL;
}

static void run(struct futhark_context *shared) {
  pthread_t t[THREADS];
  struct job jobs[THREADS];
  for (int i = 0; i < THREADS; i++) {
    jobs[i].id = i + 1;
    jobs[i].shared = shared;
    jobs[i].failed = -1;
    CHECK(pthread_create(&t[i], NULL, thread, &jobs[i]) == 0);
  }
  for (int i = 0; i < THREADS; i++) CHECK(pthread_join(t[i], NULL) == 0);
  for (int i = 0; i < THREADS; i++) {
    if (jobs[i].failed != 0) fprintf(stderr, "thread %d failed\n", jobs[i].id);
    CHECK(jobs[i].failed == 0);
  }
}

int main(void) {
  run(NULL);
  struct futhark_context_config *cfg;
  struct futhark_context *ctx = new_context(&cfg);
  run(ctx);
  /* the shared context is fine afterwards */
  int64_t got = 0;
  OK(futhark_entry_work(ctx, &got, 3, 100));
  CHECK(got == work_ref(3, 100));
  free(futhark_context_get_error(ctx));
  free_context(ctx, cfg);
  puts("ok");
  return 0;
}
