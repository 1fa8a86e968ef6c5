/* A stress test of the runtime's thread pool (runtime/pool.h), for
 * crates/cgen/tests/pool.rs, which compiles it after the runtime's text.
 *
 *   pool_stress [SCALE]
 *
 * SCALE (default 100) is the percentage of the full number of rounds
 * (smaller under ThreadSanitizer). Prints "ok" and exits 0, or names the
 * first failed check and exits 1. */

#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      fprintf(stderr, "line %d: CHECK(%s) failed\n", __LINE__, #c);            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static int scale = 100;
static int rounds(int full) {
  int n = (int)((long)full * scale / 100);
  return n < 1 ? 1 : n;
}

/* ---- every iteration once, in OpenMP's static chunks ------------------- */

#define MAXN 4096

struct record_env {
  int nthreads;
  int64_t n;
  int runs[MAXN]; /* per iteration: how often it ran */
  int tid[MAXN];  /* per iteration: the thread that ran it */
  int chunks[64]; /* per thread: calls of the body */
};

static void record(void *env, int64_t start, int64_t end, int tid) {
  struct record_env *e = env;
  CHECK(0 <= start && start <= end && end <= e->n);
  CHECK(tid >= 0 && tid < e->nthreads);
  e->chunks[tid]++;
  for (int64_t i = start; i < end; i++) {
    e->runs[i]++;
    e->tid[i] = tid;
  }
}

/* The thread of iteration i under schedule(static) with k threads. */
static int static_owner(int64_t n, int64_t k, int64_t i) {
  int64_t q = n / k, r = n % k;
  /* chunks 0 .. r-1 have q+1 iterations, the rest q */
  if (i < r * (q + 1)) return (int)(i / (q + 1));
  return (int)(r + (i - r * (q + 1)) / q);
}

static void check_record(struct parad_ctx *ctx, int64_t n, struct record_env *e) {
  memset(e, 0, sizeof *e);
  e->nthreads = ctx->nthreads;
  e->n = n;
  parad_par_for(ctx, n, record, e);
  for (int64_t i = 0; i < n; i++) {
    CHECK(e->runs[i] == 1);
    CHECK(e->tid[i] == (n == 1 ? 0 : static_owner(n, ctx->nthreads, i)));
  }
  for (int t = 0; t < ctx->nthreads; t++) CHECK(e->chunks[t] <= 1);
}

static void test_static_chunks(void) {
  static struct record_env e;
  int counts[] = {1, 2, 3, 4, 7, 8, 16};
  for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
    struct parad_ctx *ctx = parad_ctx_new(counts[c]);
    CHECK(ctx != NULL && ctx->nthreads == counts[c]);
    int64_t ns[] = {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 100, 1000, MAXN};
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) check_record(ctx, ns[k], &e);
    parad_ctx_free(ctx);
  }
}

/* ---- many tiny loops ------------------------------------------------- */

struct tiny_env {
  int64_t *out;
  int64_t k;
};

static void tiny(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  struct tiny_env *e = env;
  for (int64_t i = start; i < end; i++) e->out[i] = i * 3 + e->k;
}

static void test_tiny_loops(int nthreads) {
  struct parad_ctx *ctx = parad_ctx_new(nthreads);
  CHECK(ctx != NULL);
  int64_t out[64];
  /* With more threads than processors every loop sleeps and wakes. */
  int n = rounds(nthreads > p_online_cpus() ? 4000 : 200000);
  for (int r = 0; r < n; r++) {
    int64_t len = 1 + r % 64;
    struct tiny_env e = {out, r};
    parad_par_for(ctx, len, tiny, &e);
    /* Everything the workers wrote is visible on return. */
    for (int64_t i = 0; i < len; i++) CHECK(out[i] == i * 3 + r);
  }
  parad_ctx_free(ctx);
}

/* ---- nested loops ---------------------------------------------------- */

struct inner_env {
  int nested; /* started by a thread running a chunk of another loop */
  pthread_t caller;
  int64_t calls, start, end;
  int64_t *sum;
};

static void inner(void *env, int64_t start, int64_t end, int tid) {
  struct inner_env *e = env;
  if (e->nested) {
    CHECK(pthread_equal(pthread_self(), e->caller));
    CHECK(tid == 0);
    e->calls++;
    e->start = start;
    e->end = end;
  }
  for (int64_t i = start; i < end; i++) __atomic_add_fetch(e->sum, i, __ATOMIC_RELAXED);
}

struct outer_env {
  struct parad_ctx *ctx;
  int64_t m;
  int64_t sums[256];
  int depth; /* 2: each iteration also runs a loop of outer loops */
};

static void outer(void *env, int64_t start, int64_t end, int tid);

/* A "function called from an iteration": it starts a loop of its own,
 * which runs in this thread, all of it in one call, unless the outer loop
 * had one iteration only and so ran without the pool (as an inactive
 * OpenMP region does). */
static void call_inner(struct outer_env *e, int64_t i) {
  struct inner_env ie = {p_in_parallel, pthread_self(), 0, -1, -1, &e->sums[i]};
  parad_par_for(e->ctx, e->m, inner, &ie);
  CHECK(!ie.nested || (ie.calls == 1 && ie.start == 0 && ie.end == e->m));
}

static void outer(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  struct outer_env *e = env;
  for (int64_t i = start; i < end; i++) {
    e->sums[i] = 0;
    call_inner(e, i);
    if (e->depth > 1) {
      /* A parallel loop in the iteration, whose iterations start loops. */
      struct outer_env deeper;
      deeper.ctx = e->ctx;
      deeper.m = 3;
      deeper.depth = 1;
      parad_par_for(e->ctx, 3, outer, &deeper);
      CHECK(deeper.sums[0] == 3 && deeper.sums[2] == 3);
    }
  }
}

static void test_nested(void) {
  static struct outer_env e;
  struct parad_ctx *ctx = parad_ctx_new(4);
  CHECK(ctx != NULL);
  int n = rounds(2000);
  for (int r = 0; r < n; r++) {
    e.ctx = ctx;
    e.m = 10 + r % 50;
    e.depth = 1 + r % 2;
    int64_t len = 1 + r % 256;
    parad_par_for(ctx, len, outer, &e);
    CHECK(!p_in_parallel);
    for (int64_t i = 0; i < len; i++) CHECK(e.sums[i] == e.m * (e.m - 1) / 2);
  }
  /* After nested loops, loops are parallel again. */
  static struct record_env re;
  check_record(ctx, 100, &re);
  CHECK(re.chunks[1] == 1 && re.chunks[3] == 1);
  parad_ctx_free(ctx);
}

/* ---- errors in iterations -------------------------------------------- */

struct fail_env {
  struct parad_ctx *ctx;
  int64_t first, every; /* iterations first, first + every, ... fail */
  int *ran;
};

/* As the generated code does it: skip iterations after a failed one,
 * report an error and leave the iteration. */
static void failing(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  struct fail_env *e = env;
  struct parad_ctx *ctx = e->ctx;
  for (int64_t i = start; i < end; i++) {
    if (parad_skip_iter(ctx, i)) continue;
    e->ran[i] = 1;
    if (i >= e->first && (i - e->first) % e->every == 0) {
      parad_error_iter(ctx, i, i, "iteration %lld failed", (long long)i);
      goto iter_end;
    }
  iter_end:;
  }
}

static void test_errors(void) {
  static int ran[MAXN];
  struct parad_ctx *ctx = parad_ctx_new(4);
  CHECK(ctx != NULL);
  int n = rounds(3000);
  for (int r = 0; r < n; r++) {
    int64_t len = 1 + (r * 37) % MAXN;
    int64_t first = (r * 101) % (len + 5); /* sometimes no failure */
    struct fail_env e = {ctx, first, 1 + r % 13, ran};
    memset(ran, 0, sizeof ran);
    parad_ctx_reset(ctx);
    parad_par_for(ctx, len, failing, &e);
    if (first >= len) {
      CHECK(!parad_has_failed(ctx) && parad_ctx_error(ctx) == NULL);
      for (int64_t i = 0; i < len; i++) CHECK(ran[i]);
      continue;
    }
    /* The lowest failing iteration's error, as a sequential run. */
    char want[64];
    snprintf(want, sizeof want, "iteration %lld failed", (long long)first);
    CHECK(parad_has_failed(ctx));
    CHECK(strcmp(parad_ctx_error(ctx), want) == 0);
    CHECK(parad_ctx_error_span(ctx) == first);
    for (int64_t i = 0; i <= first; i++) CHECK(ran[i]);
  }
  parad_ctx_free(ctx);
}

/* ---- critical sections ----------------------------------------------- */

struct critical_env {
  struct parad_ctx *ctx;
  int64_t counter; /* not atomic: guarded by the critical section */
};

static void critical(void *env, int64_t start, int64_t end, int tid) {
  (void)tid;
  struct critical_env *e = env;
  for (int64_t i = start; i < end; i++) {
    parad_critical_begin(e->ctx);
    e->counter += 2;
    parad_critical_end(e->ctx);
  }
}

static void test_critical(void) {
  struct parad_ctx *ctx = parad_ctx_new(4);
  CHECK(ctx != NULL);
  struct critical_env e = {ctx, 0};
  int n = rounds(200);
  for (int r = 0; r < n; r++) parad_par_for(ctx, 1000, critical, &e);
  CHECK(e.counter == 2000LL * n);
  parad_ctx_free(ctx);
}

/* ---- many contexts at once, and contexts freed right after use -------- */

static void *one_client(void *arg) {
  int id = (int)(intptr_t)arg;
  static __thread struct record_env e;
  struct parad_ctx *ctx = parad_ctx_new(2 + id % 3);
  CHECK(ctx != NULL);
  int n = rounds(2000);
  for (int r = 0; r < n; r++) check_record(ctx, 1 + (r * 7 + id) % 300, &e);
  parad_ctx_free(ctx);
  /* Short-lived contexts: started by their one loop, freed at once. */
  int m = rounds(100);
  for (int r = 0; r < m; r++) {
    ctx = parad_ctx_new(3);
    CHECK(ctx != NULL);
    check_record(ctx, 50 + r, &e);
    parad_ctx_free(ctx);
  }
  return NULL;
}

static void test_many_contexts(void) {
  enum { CLIENTS = 6 };
  pthread_t th[CLIENTS];
  for (int i = 0; i < CLIENTS; i++)
    CHECK(pthread_create(&th[i], NULL, one_client, (void *)(intptr_t)i) == 0);
  for (int i = 0; i < CLIENTS; i++) CHECK(pthread_join(th[i], NULL) == 0);
  /* A context that never runs a parallel loop starts no threads. */
  struct parad_ctx *ctx = parad_ctx_new(8);
  CHECK(ctx != NULL && ctx->pool == NULL);
  parad_ctx_free(ctx);
}

int main(int argc, char **argv) {
  if (argc > 1) scale = atoi(argv[1]);
  CHECK(scale > 0);
  test_static_chunks();
  test_tiny_loops(2);
  test_tiny_loops(4);
  test_tiny_loops(16); /* more threads than processors */
  test_nested();
  test_errors();
  test_critical();
  test_many_contexts();
  printf("ok\n");
  return 0;
}
