/* Checks shared by the C API test programs (crates/cli/tests/c_api.rs).
 * Each program includes the library's header "capi.h", runs its checks and
 * prints "ok" at the end; a failed check prints where and exits with 1. */
#ifndef CAPI_CHECK_H
#define CAPI_CHECK_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi.h"

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

/* A call that must succeed (returns 0); `ctx` is the context in scope. */
#define OK(e)                                                                      \
  do {                                                                             \
    int rc_ = (e);                                                                 \
    if (rc_ != 0) {                                                                \
      char *m_ = futhark_context_get_error(ctx);                                   \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #e, rc_, \
              m_ != NULL ? m_ : "(no message)");                                  \
      free(m_);                                                                    \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

/* A call that must give an object (non-NULL). */
#define NN(e) (nonnull_((e), ctx, #e, __FILE__, __LINE__))

static inline void *nonnull_(void *p, struct futhark_context *ctx, const char *what,
                             const char *file, int line) {
  if (p == NULL) {
    char *m = futhark_context_get_error(ctx);
    fprintf(stderr, "%s:%d: %s gave NULL: %s\n", file, line, what, m != NULL ? m : "(no message)");
    free(m);
    exit(1);
  }
  return p;
}

/* After a call that must fail: its return code was non-zero, and the
 * context has a message that contains `part` (unless NULL), which
 * futhark_context_get_error hands over once (then NULL). Prints the
 * message (the test's log). */
#define FAILS(rc, part) (fails_((rc), ctx, (part), #rc, __FILE__, __LINE__))

static inline void fails_(int rc, struct futhark_context *ctx, const char *part,
                          const char *what, const char *file, int line) {
  if (rc == 0) {
    fprintf(stderr, "%s:%d: %s succeeded but should fail\n", file, line, what);
    exit(1);
  }
  char *m = futhark_context_get_error(ctx);
  if (m == NULL || m[0] == '\0') {
    fprintf(stderr, "%s:%d: %s failed without a message\n", file, line, what);
    exit(1);
  }
  if (part != NULL && strstr(m, part) == NULL) {
    fprintf(stderr, "%s:%d: %s: the message does not contain \"%s\":\n%s\n", file, line, what,
            part, m);
    exit(1);
  }
  printf("message of %s: %s\n", what, m);
  free(m);
  if (futhark_context_get_error(ctx) != NULL) {
    fprintf(stderr, "%s:%d: a second futhark_context_get_error after %s is not NULL\n", file,
            line, what);
    exit(1);
  }
}

static inline struct futhark_context *new_context(struct futhark_context_config **cfg) {
  *cfg = futhark_context_config_new();
  if (*cfg == NULL) {
    fprintf(stderr, "futhark_context_config_new gave NULL\n");
    exit(1);
  }
#ifdef FUTHARK_BACKEND_multicore
  futhark_context_config_set_num_threads(*cfg, 2);
#endif
  struct futhark_context *ctx = futhark_context_new(*cfg);
  if (ctx == NULL) {
    fprintf(stderr, "futhark_context_new gave NULL\n");
    exit(1);
  }
  char *e = futhark_context_get_error(ctx);
  if (e != NULL) {
    fprintf(stderr, "futhark_context_new failed: %s\n", e);
    exit(1);
  }
  return ctx;
}

static inline void free_context(struct futhark_context *ctx, struct futhark_context_config *cfg) {
  OK(futhark_context_sync(ctx));
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
}

static inline int close_to(double a, double b, double tol) {
  return fabs(a - b) <= tol * (1 + fabs(b));
}

#endif
