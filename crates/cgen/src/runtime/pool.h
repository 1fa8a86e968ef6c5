/* parad C runtime, part 2: the thread pool that runs parallel loops.
 *
 * A pool belongs to one context: nthreads - 1 worker threads, started by
 * the first parallel loop that needs them and joined when the context is
 * freed. Its one operation, p_pool_run, runs a loop body over the
 * iterations [0, n) split into nthreads contiguous chunks, chunk c going
 * to thread c (the calling thread takes chunk 0), with the split of
 * OpenMP's schedule(static): the first n % nthreads chunks have one
 * iteration more. It returns when every chunk is done.
 *
 * Each worker has a mailbox of its own (a cache line or more): the caller
 * writes a chunk into it and publishes it by bumping the mailbox's
 * generation; the worker claims it, runs it and counts it done in the
 * pool's `remaining`. The caller, once done with its own chunk, claims
 * and runs the chunks that no worker has claimed yet (a worker may be
 * asleep, or waiting for a processor on a busy machine): which thread
 * runs a chunk never changes the chunk. Waiting, on either side, spins
 * for a while (a parallel loop often follows another within
 * microseconds) and then sleeps on a condition variable. Sleeping and waking pair up by the usual handshake:
 * the sleeper announces itself (sequentially consistent store) before it
 * checks the condition once more under the lock, the waker changes the
 * condition (sequentially consistent) before it looks for a sleeper, so
 * one of the two sees the other, and the wake-up is sent under the lock.
 *
 * A parallel loop started inside an iteration of another (in the loop
 * body, or in a function called from it) runs in the calling thread, all
 * of it: a thread-local flag says that the thread is running a chunk. */

#include <time.h>
#include <unistd.h>

/* A loop body: iterations [start, end) of the loop whose variables `env`
 * points to, chunk `tid` (the thread that OpenMP's static schedule would
 * give it; another thread may run it). */
typedef void (*parad_task_fn)(void *env, int64_t start, int64_t end, int tid);

/* Whether this thread is running a chunk of a parallel loop (weak: one
 * per thread for all translation units of a program). */
__attribute__((weak, visibility("hidden"))) __thread int p_in_parallel;

/* How long a waiting thread of a pool spins before it sleeps, when the
 * pool has no more threads than there are processors. */
#ifndef P_SPIN_NS
#define P_SPIN_NS 2000000
#endif

struct p_pool;

/* One worker's mailbox. fn, env, start and end are written by the caller
 * while no chunk is posted, then published by `posted` and `gen`. */
struct p_slot {
  parad_task_fn fn; /* NULL: the worker exits */
  void *env;
  int64_t start, end;
  uint64_t gen;    /* atomic: bumped once per chunk sent */
  uint64_t posted; /* atomic: the generation of the chunk not yet claimed, or 0 */
  int tid;         /* the chunk's number */
  int sleeping;  /* atomic: the worker waits on `cond` */
  struct p_pool *pool;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
} __attribute__((aligned(64)));

struct p_pool {
  int nthreads;  /* chunks per loop, the calling thread's included */
  int nworkers;  /* workers started (nthreads - 1 unless starting failed) */
  int64_t spin_ns; /* how long a waiting thread spins before it sleeps */
  int remaining; /* atomic: chunks sent to workers and not done */
  int waiting;   /* atomic: the caller waits on `done` */
  pthread_mutex_t lock;
  pthread_cond_t done;
  struct p_slot *slots; /* nthreads - 1 */
};

static inline void p_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#else
  __asm__ __volatile__("" ::: "memory");
#endif
}

static inline int64_t p_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Spins until *word != old or spin_ns have passed; returns the last value
 * read (acquire). */
static inline uint64_t p_spin_u64(const uint64_t *word, uint64_t old, int64_t spin_ns) {
  uint64_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  if (v != old || spin_ns <= 0) return v;
  int64_t until = p_now_ns() + spin_ns;
  for (unsigned k = 1;; k++) {
    p_cpu_relax();
    v = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    if (v != old) return v;
    if ((k & 63) == 0 && p_now_ns() > until) return v;
  }
}

static inline int p_spin_zero(const int *word, int64_t spin_ns) {
  int v = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  if (v == 0 || spin_ns <= 0) return v;
  int64_t until = p_now_ns() + spin_ns;
  for (unsigned k = 1;; k++) {
    p_cpu_relax();
    v = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    if (v == 0) return v;
    if ((k & 63) == 0 && p_now_ns() > until) return v;
  }
}

static void *p_worker_main(void *arg) {
  struct p_slot *s = arg;
  struct p_pool *pool = s->pool;
  p_in_parallel = 1;
  uint64_t seen = 0;
  for (;;) {
    uint64_t g = p_spin_u64(&s->gen, seen, pool->spin_ns);
    if (g == seen) {
      pthread_mutex_lock(&s->lock);
      __atomic_store_n(&s->sleeping, 1, __ATOMIC_SEQ_CST);
      while ((g = __atomic_load_n(&s->gen, __ATOMIC_SEQ_CST)) == seen)
        pthread_cond_wait(&s->cond, &s->lock);
      __atomic_store_n(&s->sleeping, 0, __ATOMIC_RELAXED);
      pthread_mutex_unlock(&s->lock);
    }
    seen = g;
    uint64_t expected = g;
    if (!__atomic_compare_exchange_n(&s->posted, &expected, 0, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
      continue; /* the caller ran it */
    parad_task_fn fn = s->fn;
    if (fn == NULL) return NULL;
    fn(s->env, s->start, s->end, s->tid);
    if (__atomic_sub_fetch(&pool->remaining, 1, __ATOMIC_SEQ_CST) == 0 &&
        __atomic_load_n(&pool->waiting, __ATOMIC_SEQ_CST)) {
      pthread_mutex_lock(&pool->lock);
      pthread_cond_signal(&pool->done);
      pthread_mutex_unlock(&pool->lock);
    }
  }
}

/* Publishes the chunk written into s's mailbox and wakes the worker if it
 * sleeps. */
static void p_slot_send(struct p_slot *s) {
  uint64_t g = __atomic_load_n(&s->gen, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(&s->posted, g, __ATOMIC_RELAXED);
  __atomic_store_n(&s->gen, g, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&s->sleeping, __ATOMIC_SEQ_CST)) {
    pthread_mutex_lock(&s->lock);
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
  }
}

/* Stops and joins the workers and frees the pool (NULL: nothing). */
static void p_pool_free(struct p_pool *pool) {
  if (pool == NULL) return;
  for (int w = 0; w < pool->nworkers; w++) {
    struct p_slot *s = &pool->slots[w];
    s->fn = NULL;
    p_slot_send(s);
  }
  for (int w = 0; w < pool->nworkers; w++) {
    pthread_join(pool->slots[w].thread, NULL);
    pthread_mutex_destroy(&pool->slots[w].lock);
    pthread_cond_destroy(&pool->slots[w].cond);
  }
  pthread_mutex_destroy(&pool->lock);
  pthread_cond_destroy(&pool->done);
  free(pool->slots);
  free(pool);
}

/* The number of online processors, at least 1. */
static int p_online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > INT32_MAX ? INT32_MAX : (int)n;
}

/* A pool of nthreads - 1 workers (fewer if the system refuses more
 * threads), or NULL when out of memory or no worker could start. */
static struct p_pool *p_pool_new(int nthreads) {
  struct p_pool *pool = calloc(1, sizeof *pool);
  if (pool == NULL) return NULL;
  size_t bytes = sizeof(struct p_slot) * (size_t)(nthreads - 1);
  pool->slots = aligned_alloc(64, bytes);
  if (pool->slots == NULL) {
    free(pool);
    return NULL;
  }
  memset(pool->slots, 0, bytes);
  pool->nthreads = nthreads;
  /* Spinning only pays when every thread has a processor of its own:
   * otherwise a spinning thread takes the time of the one it waits for. */
  pool->spin_ns = nthreads <= p_online_cpus() ? P_SPIN_NS : 0;
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->done, NULL);
  for (int w = 0; w < nthreads - 1; w++) {
    struct p_slot *s = &pool->slots[w];
    s->pool = pool;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    if (pthread_create(&s->thread, NULL, p_worker_main, s) != 0) {
      pthread_mutex_destroy(&s->lock);
      pthread_cond_destroy(&s->cond);
      break;
    }
    pool->nworkers++;
  }
  if (pool->nworkers == 0) {
    p_pool_free(pool);
    return NULL;
  }
  return pool;
}

/* The first iteration of chunk c of n iterations split into k chunks. */
static inline int64_t p_chunk_start(int64_t n, int64_t k, int64_t c) {
  int64_t q = n / k, r = n % k;
  return c * q + (c < r ? c : r);
}

/* Runs fn over [0, n) in parallel with the pool *pp of nthreads threads
 * (started here if *pp is NULL), or in the calling thread when there is
 * one iteration, one thread, no pool to be had, or when the calling thread
 * already runs a chunk of a parallel loop. */
static void p_pool_run(struct p_pool **pp, int nthreads, int64_t n, parad_task_fn fn,
                       void *env) {
  if (n <= 0) return;
  if (n == 1 || nthreads <= 1 || p_in_parallel) {
    fn(env, 0, n, 0);
    return;
  }
  if (*pp == NULL) *pp = p_pool_new(nthreads);
  struct p_pool *pool = *pp;
  if (pool == NULL) {
    fn(env, 0, n, 0);
    return;
  }
  const int64_t k = pool->nthreads;
  const int64_t chunks = n < k ? n : k;
  /* Chunks 1 .. sent go to workers 0 .. sent - 1; any after that (when
   * fewer workers started) the calling thread runs after its own. */
  const int64_t sent = chunks - 1 < pool->nworkers ? chunks - 1 : pool->nworkers;
  __atomic_store_n(&pool->remaining, (int)sent, __ATOMIC_RELAXED);
  for (int64_t c = 1; c <= sent; c++) {
    struct p_slot *s = &pool->slots[c - 1];
    s->fn = fn;
    s->env = env;
    s->start = p_chunk_start(n, k, c);
    s->end = p_chunk_start(n, k, c + 1);
    s->tid = (int)c;
    p_slot_send(s);
  }
  p_in_parallel = 1;
  fn(env, 0, p_chunk_start(n, k, 1), 0);
  for (int64_t c = sent + 1; c < chunks; c++)
    fn(env, p_chunk_start(n, k, c), p_chunk_start(n, k, c + 1), (int)c);
  /* The chunks no worker has claimed yet, last first (the workers woken
   * first are the likeliest to have started). */
  for (int64_t c = sent; c >= 1; c--) {
    struct p_slot *s = &pool->slots[c - 1];
    uint64_t g = __atomic_load_n(&s->posted, __ATOMIC_RELAXED);
    if (g != 0 && __atomic_compare_exchange_n(&s->posted, &g, 0, false, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED)) {
      fn(env, s->start, s->end, s->tid);
      __atomic_sub_fetch(&pool->remaining, 1, __ATOMIC_RELAXED);
    }
  }
  p_in_parallel = 0;
  if (p_spin_zero(&pool->remaining, pool->spin_ns) != 0) {
    pthread_mutex_lock(&pool->lock);
    __atomic_store_n(&pool->waiting, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&pool->remaining, __ATOMIC_SEQ_CST) != 0)
      pthread_cond_wait(&pool->done, &pool->lock);
    __atomic_store_n(&pool->waiting, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&pool->lock);
  }
}
