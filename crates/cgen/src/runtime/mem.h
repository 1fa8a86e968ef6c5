/* parad C runtime, part 3: reference-counted memory blocks, the context,
 * errors, and the exported ABI helpers.
 *
 * A block is one allocation: a 64-byte header (reference count, capacity
 * in bytes) followed by 64-byte aligned data. Reference counts are updated
 * atomically, so blocks may be shared between the threads of parallel loops. */

/* A reference to a memory block. rc == NULL: borrowed (never freed, never counted).
 * The header's third word says where the data is: 0 in host memory (after
 * the header), 1 on the device (`data` is then the device's handle, see
 * device.h). */
typedef struct {
  unsigned char *data;
  int64_t *rc;
} pmem;
#define PMEM_NULL ((pmem){NULL, NULL})
#define P_MEM_HEADER 64

/* Bytes of blocks allocated and not yet freed, and their highest value
 * since the last parad_mem_reset_peak (weak: one pair per library, shared
 * by its translation units). Only statistics: relaxed atomics suffice. */
/* A library for users (PARAD_LIBRARY: one translation unit) keeps every
 * name of the runtime to itself; a program parad loads shares these
 * between its units. */
#ifdef PARAD_LIBRARY
#define PARAD_SHARED static
#else
#define PARAD_SHARED __attribute__((weak))
#endif
PARAD_SHARED int64_t p_mem_live;
PARAD_SHARED int64_t p_mem_peak;

static inline void p_mem_count(int64_t bytes) {
  int64_t live = __atomic_add_fetch(&p_mem_live, bytes, __ATOMIC_RELAXED);
  int64_t peak = __atomic_load_n(&p_mem_peak, __ATOMIC_RELAXED);
  while (live > peak &&
         !__atomic_compare_exchange_n(&p_mem_peak, &peak, live, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
}

static inline void p_device_release(const struct parad_device *dev, void *handle) {
  dev->release(dev->self, handle);
}

static inline void pmem_unref(pmem *m) {
  if (m->rc != NULL && __atomic_sub_fetch(m->rc, 1, __ATOMIC_ACQ_REL) == 0) {
    p_mem_count(-(m->rc[1] + P_MEM_HEADER));
    if (m->rc[2]) p_device_release((const struct parad_device *)(intptr_t)m->rc[2], m->data);
    free(m->rc);
  }
  *m = PMEM_NULL;
}

static inline int pmem_unique(pmem m) {
  return m.rc != NULL && __atomic_load_n(m.rc, __ATOMIC_ACQUIRE) == 1;
}

/* Makes *m a uniquely owned block of at least `bytes` bytes (reusing the
 * current one when it is owned, unique and large enough). Returns 0, or 1
 * when out of memory (negative and overflowing sizes included); then *m
 * is PMEM_NULL. */
static inline int pmem_alloc(pmem *m, int64_t bytes) {
  if (bytes >= 0 && pmem_unique(*m) && m->rc[1] >= bytes) return 0;
  pmem_unref(m);
  if (bytes < 0 || bytes > INT64_MAX - 2 * P_MEM_HEADER) return 1;
  uint64_t cap = ((uint64_t)bytes + (P_MEM_HEADER - 1)) & ~(uint64_t)(P_MEM_HEADER - 1);
  if (cap > SIZE_MAX - P_MEM_HEADER) return 1;
  unsigned char *base = aligned_alloc(P_MEM_HEADER, (size_t)cap + P_MEM_HEADER);
  if (base == NULL) return 1;
  int64_t *hdr = (int64_t *)(void *)base;
  hdr[0] = 1;
  hdr[1] = (int64_t)cap;
  hdr[2] = 0;
  p_mem_count((int64_t)cap + P_MEM_HEADER);
  m->rc = hdr;
  m->data = base + P_MEM_HEADER;
  return 0;
}

/* Refs src, then unrefs the old *dst, then *dst = src (safe when same block). */
static inline void pmem_set(pmem *dst, pmem src) {
  if (src.rc != NULL) __atomic_add_fetch(src.rc, 1, __ATOMIC_RELAXED);
  pmem_unref(dst);
  *dst = src;
}

/* *dst takes over *src's reference; *src becomes PMEM_NULL. The old *dst
 * is unreferenced, except that a borrowed src of dst's own block leaves
 * dst's reference in place (unreferencing it could free src's data). */
static inline void pmem_move(pmem *dst, pmem *src) {
  if (dst == src) return;
  if (src->rc == NULL && dst->rc != NULL && src->data == dst->data) {
    *src = PMEM_NULL;
    return;
  }
  pmem_unref(dst);
  *dst = *src;
  *src = PMEM_NULL;
}

static inline pmem pmem_borrow(pmem m) { return (pmem){m.data, NULL}; }

/* ---- the context and errors ---------------------------------------------- */
struct parad_ctx {
  int32_t nthreads;
  int failed;
  char *error;
  int64_t error_span;
  int error_claimed; /* set atomically by the first parad_error */
  int64_t error_iter; /* iteration of a parallel loop that failed, or -1 */
  struct p_pool *pool; /* the workers of parallel loops, started when needed */
  pthread_mutex_t error_lock; /* held while the message is replaced */
  pthread_mutex_t critical;   /* the lock of critical sections */
  /* The tuning parameters' values and whether each was set (the
   * configuration's; NULL: none set). */
  const int64_t *tuning;
  const unsigned char *tuning_set;
  /* The device of GPU entry points (NULL: none set), and its block of
   * kernel error words (see device.h). */
  const struct parad_device *device;
  pmem kernel_errors;
};

/* Tuning parameter `i` of the program if the user set it, else `def`. */
static inline int64_t parad_user_param(const struct parad_ctx *ctx, int i, int64_t def) {
  return ctx->tuning_set != NULL && ctx->tuning_set[i] ? ctx->tuning[i] : def;
}

/* Runs fn over the iterations [0, n) of a parallel loop with the
 * context's threads (see p_pool_run). */
static inline void parad_par_for(struct parad_ctx *ctx, int64_t n, parad_task_fn fn, void *env) {
  p_pool_run(&ctx->pool, ctx->nthreads, n, fn, env);
}

static inline void parad_critical_begin(struct parad_ctx *ctx) { pthread_mutex_lock(&ctx->critical); }
static inline void parad_critical_end(struct parad_ctx *ctx) { pthread_mutex_unlock(&ctx->critical); }

/* Weak, so that all translation units of a program share it. */
PARAD_SHARED char p_out_of_memory_msg[] = "out of memory";

/* The formatted message in a malloc'd string, or NULL when out of memory. */
static char *p_vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char *msg = NULL;
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n >= 0 && (msg = malloc((size_t)n + 1)) != NULL)
    vsnprintf(msg, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return msg;
}

/* Records the first error since the last reset (thread-safe); later calls
 * are ignored. */
__attribute__((unused, format(printf, 3, 4))) static void
parad_error(struct parad_ctx *ctx, int64_t span, const char *fmt, ...) {
  int expected = 0;
  if (!__atomic_compare_exchange_n(&ctx->error_claimed, &expected, 1, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  __atomic_store_n(&ctx->failed, 1, __ATOMIC_RELEASE);
  va_list ap;
  va_start(ap, fmt);
  char *msg = p_vformat(fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&ctx->error_lock);
  ctx->error = msg != NULL ? msg : p_out_of_memory_msg;
  ctx->error_span = span;
  pthread_mutex_unlock(&ctx->error_lock);
}

/* Whether a call has failed (safe to poll from any thread). */
static inline int parad_has_failed(struct parad_ctx *ctx) {
  return __atomic_load_n(&ctx->failed, __ATOMIC_ACQUIRE);
}

/* In an iteration of a parallel loop: keeps the error of the lowest
 * iteration, the one a sequential run meets first (iterations after a
 * failed one are skipped, earlier ones still run). */
__attribute__((unused, format(printf, 4, 5))) static void
parad_error_iter(struct parad_ctx *ctx, int64_t iter, int64_t span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = p_vformat(fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&ctx->error_lock);
  {
    if (!__atomic_load_n(&ctx->failed, __ATOMIC_ACQUIRE) ||
        iter < __atomic_load_n(&ctx->error_iter, __ATOMIC_RELAXED)) {
      if (ctx->error != p_out_of_memory_msg) free(ctx->error);
      ctx->error = msg != NULL ? msg : p_out_of_memory_msg;
      ctx->error_span = span;
      msg = NULL;
      __atomic_store_n(&ctx->error_iter, iter, __ATOMIC_RELAXED);
      __atomic_store_n(&ctx->error_claimed, 1, __ATOMIC_RELAXED);
      __atomic_store_n(&ctx->failed, 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&ctx->error_lock);
  free(msg);
}

/* Whether iteration `iter` of a parallel loop can be skipped: an earlier
 * one failed. */
static inline int parad_skip_iter(struct parad_ctx *ctx, int64_t iter) {
  return __atomic_load_n(&ctx->failed, __ATOMIC_ACQUIRE) &&
         iter > __atomic_load_n(&ctx->error_iter, __ATOMIC_RELAXED);
}

/* An error inside iteration `iter` of a parallel loop, or outside any
 * (iter < 0): what a function called from either place reports. */
__attribute__((unused, format(printf, 4, 5))) static void
parad_error_at(struct parad_ctx *ctx, int64_t iter, int64_t span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = p_vformat(fmt, ap);
  va_end(ap);
  const char *m = msg != NULL ? msg : p_out_of_memory_msg;
  if (iter >= 0)
    parad_error_iter(ctx, iter, span, "%s", m);
  else
    parad_error(ctx, span, "%s", m);
  free(msg);
}

/* Whether the current thread's stack is nearly full (recursive functions
 * check it on entry, so that deep recursion fails with an error instead
 * of a crash). The stack's bounds are looked up once per thread. */
__attribute__((unused)) static __thread char *p_stack_limit;
static inline int p_stack_exhausted(void) {
  char *sp = (char *)__builtin_frame_address(0);
  if (p_stack_limit == NULL) {
    pthread_attr_t a;
    void *lo = NULL;
    size_t size = 0;
    p_stack_limit = (char *)1; /* unknown bounds: never exhausted */
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
      if (pthread_attr_getstack(&a, &lo, &size) == 0 && lo != NULL && size > 0) {
        size_t margin = size / 4 < (size_t)1 << 20 ? size / 4 : (size_t)1 << 20;
        p_stack_limit = (char *)lo + margin;
      }
      pthread_attr_destroy(&a);
    }
  }
  return sp < p_stack_limit;
}

/* Weak: every translation unit of a program carries the runtime, and the
 * linker keeps one copy of each exported function. */
#ifdef PARAD_LIBRARY
#define PARAD_EXPORT __attribute__((unused)) static
#else
#define PARAD_EXPORT __attribute__((visibility("default"), weak))
#endif

PARAD_EXPORT int64_t parad_abi_version(void) { return 1; }

PARAD_EXPORT void parad_ctx_reset(struct parad_ctx *ctx) {
  if (ctx->error != p_out_of_memory_msg) free(ctx->error);
  ctx->error = NULL;
  ctx->error_span = -1;
  ctx->failed = 0;
  ctx->error_claimed = 0;
  ctx->error_iter = -1;
}

PARAD_EXPORT struct parad_ctx *parad_ctx_new(int32_t nthreads) {
  struct parad_ctx *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  ctx->nthreads = nthreads < 1 ? p_online_cpus() : nthreads;
  ctx->error_span = -1;
  ctx->error_iter = -1;
  pthread_mutex_init(&ctx->error_lock, NULL);
  pthread_mutex_init(&ctx->critical, NULL);
  return ctx;
}

PARAD_EXPORT void parad_ctx_free(struct parad_ctx *ctx) {
  if (ctx == NULL) return;
  p_pool_free(ctx->pool);
  pmem_unref(&ctx->kernel_errors);
  parad_ctx_reset(ctx);
  pthread_mutex_destroy(&ctx->error_lock);
  pthread_mutex_destroy(&ctx->critical);
  free(ctx);
}

PARAD_EXPORT const char *parad_ctx_error(struct parad_ctx *ctx) {
  return ctx->failed ? ctx->error : NULL;
}

PARAD_EXPORT int64_t parad_ctx_error_span(struct parad_ctx *ctx) {
  return ctx->failed ? ctx->error_span : -1;
}

PARAD_EXPORT void parad_free(void *p) { free(p); }

/* Memory statistics (optional in the ABI): the most bytes of arrays live
 * at once since the last reset, and the reset, which starts the count
 * again from what is live now. */
PARAD_EXPORT int64_t parad_mem_peak(void) { return __atomic_load_n(&p_mem_peak, __ATOMIC_RELAXED); }

PARAD_EXPORT void parad_mem_reset_peak(void) {
  __atomic_store_n(&p_mem_peak, __atomic_load_n(&p_mem_live, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}
