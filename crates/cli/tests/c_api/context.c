/* Configuration and context functions. */
#include "check.h"

static void with_config(void) {
  struct futhark_context_config *cfg = futhark_context_config_new();
  CHECK(cfg != NULL);
  /* The program has no tuning parameters: none to name or set. */
  CHECK(futhark_get_tuning_param_count() == 0);
  CHECK(futhark_context_config_set_tuning_param(cfg, "no_such_param", 42) != 0);
  CHECK(futhark_context_config_set_tuning_param(cfg, "", 0) != 0);
  futhark_context_config_set_debugging(cfg, 0);
  futhark_context_config_set_profiling(cfg, 1);
  futhark_context_config_set_logging(cfg, 0);
  /* A cache file is only a hint; it must not stop the context. */
  futhark_context_config_set_cache_file(cfg, "/nonexistent/folder/cache");
  futhark_context_config_set_cache_file(cfg, NULL);
#ifdef FUTHARK_BACKEND_multicore
  futhark_context_config_set_num_threads(cfg, 3);
#endif
  struct futhark_context *ctx = futhark_context_new(cfg);
  CHECK(ctx != NULL);
  CHECK(futhark_context_get_error(ctx) == NULL);
  CHECK(futhark_context_get_error(ctx) == NULL);

  double d = 0;
  OK(futhark_entry_scale(ctx, &d, 1.5, 4.0));
  OK(futhark_context_sync(ctx));
  CHECK(d == 6.0);
  CHECK(futhark_context_get_error(ctx) == NULL);

  /* A failure: a message once, the output untouched. */
  int32_t out = 12345;
  FAILS(futhark_entry_checked(ctx, &out, -1), "capi.fut:");
  CHECK(out == 12345);
  /* The context works as before. */
  OK(futhark_entry_checked(ctx, &out, 21));
  CHECK(out == 42);
  CHECK(futhark_context_get_error(ctx) == NULL);

  /* Two failures before the message is taken: still a message, then none. */
  CHECK(futhark_entry_checked(ctx, &out, 0) != 0);
  CHECK(futhark_entry_checked(ctx, &out, -5) != 0);
  char *e = futhark_context_get_error(ctx);
  CHECK(e != NULL && strlen(e) > 0);
  free(e);
  CHECK(futhark_context_get_error(ctx) == NULL);

  /* The report: a malloc'd JSON object. */
  futhark_context_pause_profiling(ctx);
  OK(futhark_entry_scale(ctx, &d, 2, 2));
  futhark_context_unpause_profiling(ctx);
  char *rep = futhark_context_report(ctx);
  CHECK(rep != NULL);
  CHECK(rep[0] == '{' && rep[strlen(rep) - 1] == '}');
  free(rep);

  /* clear_caches with values alive; they stay usable. */
  float xs[16];
  for (int i = 0; i < 16; i++) xs[i] = (float)i;
  struct futhark_f32_1d *a = NN(futhark_new_f32_1d(ctx, xs, 16));
  struct futhark_f32_1d *b = NULL;
  OK(futhark_entry_add1(ctx, &b, a));
  OK(futhark_context_clear_caches(ctx));
  float ys[16];
  OK(futhark_values_f32_1d(ctx, b, ys));
  OK(futhark_context_sync(ctx));
  for (int i = 0; i < 16; i++) CHECK(ys[i] == (float)i + 1);
  OK(futhark_free_f32_1d(ctx, a));
  OK(futhark_free_f32_1d(ctx, b));
  OK(futhark_context_clear_caches(ctx));
  OK(futhark_entry_scale(ctx, &d, 3, 2));
  CHECK(d == 6.0);

  OK(futhark_context_sync(ctx));
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
}

/* Two contexts at once, from two configurations; logging to a file. */
static void two_contexts(void) {
  struct futhark_context_config *cfg1 = futhark_context_config_new();
  struct futhark_context_config *cfg2 = futhark_context_config_new();
  CHECK(cfg1 != NULL && cfg2 != NULL);
#ifdef FUTHARK_BACKEND_multicore
  futhark_context_config_set_num_threads(cfg1, 1);
  futhark_context_config_set_num_threads(cfg2, 0); /* one per core */
#endif
  futhark_context_config_set_logging(cfg2, 1);
  struct futhark_context *c1 = futhark_context_new(cfg1);
  struct futhark_context *c2 = futhark_context_new(cfg2);
  CHECK(c1 != NULL && c2 != NULL);
  CHECK(futhark_context_get_error(c1) == NULL);
  CHECK(futhark_context_get_error(c2) == NULL);
  FILE *log = tmpfile();
  CHECK(log != NULL);
  futhark_context_set_logging_file(c2, log);

  int64_t r1 = 0, r2 = 0;
  CHECK(futhark_entry_work(c1, &r1, 3, 1000) == 0);
  CHECK(futhark_entry_work(c2, &r2, 3, 1000) == 0);
  CHECK(futhark_context_sync(c1) == 0 && futhark_context_sync(c2) == 0);
  int64_t want = 0;
  for (int64_t i = 0; i < 1000; i++) want += (i * 3) % 7;
  CHECK(r1 == want && r2 == want);

  /* An error in one context is not the other's. */
  int32_t o;
  CHECK(futhark_entry_checked(c1, &o, -1) != 0);
  CHECK(futhark_context_get_error(c2) == NULL);
  char *e = futhark_context_get_error(c1);
  CHECK(e != NULL);
  free(e);

  /* The log got something. */
  fflush(log);
  CHECK(ftell(log) > 0);
  futhark_context_set_logging_file(c2, stderr);
  fclose(log);

  futhark_context_free(c2);
  futhark_context_free(c1);
  futhark_context_config_free(cfg2);
  futhark_context_config_free(cfg1);
}

/* A context freed without any call, and one freed right after an error. */
static void short_lives(void) {
  struct futhark_context_config *cfg;
  struct futhark_context *ctx = new_context(&cfg);
  free_context(ctx, cfg);
  ctx = new_context(&cfg);
  int32_t o;
  CHECK(futhark_entry_checked(ctx, &o, -1) != 0);
  free_context(ctx, cfg); /* with the message not taken */
}

int main(void) {
  with_config();
  two_contexts();
  short_lives();
  puts("ok");
  return 0;
}
