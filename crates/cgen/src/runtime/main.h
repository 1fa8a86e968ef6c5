/* parad C runtime, executable part: the `main` of a compiled program.
 *
 * Appended after the generated API (see the interface notes): it uses the
 * tables p_api_entries/p_api_types, values.h (pv_*) to read and print
 * values, and the Futhark C API for the configuration and the context.
 *
 * `PROG [options] < input` reads the inputs of one entry point (-e, by
 * default `main`) from stdin, text or binary per value, calls it (with
 * -r N: a warm-up call and then N timed calls) and prints its result on
 * stdout. Every error is printed to stderr as `PROG: message` and makes
 * the program exit with status 1. */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- state, errors ---- */

/* Everything main works with; the options fill the first part. */
struct pm_state {
  const char *prog;
  const char *entry;
  int binary;
  int print;
  int runs;
  int warmup;
  int profile;
  FILE *runtime_file;
  struct futhark_context_config *cfg;
  struct futhark_context *ctx;
};

/* Prints `PROG: message` (a newline added when missing) and exits 1. */
static void pm_fail(struct pm_state *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void pm_fail(struct pm_state *s, const char *fmt, ...) {
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (msg != NULL) vsnprintf(msg, (size_t)n + 1, fmt, ap);
  va_end(ap);
  const char *m = msg != NULL ? msg : "out of memory";
  size_t len = strlen(m);
  fprintf(stderr, "%s: %s%s", s->prog, m, len > 0 && m[len - 1] == '\n' ? "" : "\n");
  free(msg);
  exit(1);
}

/* Fails with the context's error message (or `what` when it has none). */
static void pm_fail_ctx(struct pm_state *s, const char *what) __attribute__((noreturn));
static void pm_fail_ctx(struct pm_state *s, const char *what) {
  char *err = s->ctx != NULL ? futhark_context_get_error(s->ctx) : NULL;
  if (err == NULL) pm_fail(s, "%s", what);
  size_t n = strlen(err);
  fprintf(stderr, "%s: %s%s", s->prog, err, n > 0 && err[n - 1] == '\n' ? "" : "\n");
  free(err);
  exit(1);
}

/* Zeroed memory; fails the program when out of memory (never NULL). */
static void *pm_alloc(struct pm_state *s, size_t n) {
  void *p = calloc(n > 0 ? n : 1, 1);
  if (p == NULL) pm_fail(s, "Out of memory.");
  return p;
}

/* Microseconds of a monotonic clock. */
static int64_t pm_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- options ---- */

enum {
  PM_OPT_ENTRY,
  PM_OPT_BINARY,
  PM_OPT_NO_PRINT,
  PM_OPT_RUNTIME,
  PM_OPT_RUNS,
  PM_OPT_DEBUG,
  PM_OPT_LOG,
  PM_OPT_PROFILE,
  PM_OPT_PARAM,
  PM_OPT_TUNING,
  PM_OPT_PRINT_PARAMS,
  PM_OPT_CACHE,
  PM_OPT_THREADS,
  PM_OPT_HELP
};

/* One command-line option: long name, short letter (0: none), the name
 * of its argument (NULL: takes none), what it does. */
struct pm_option {
  const char *name;
  char letter;
  const char *arg;
  int id;
  const char *doc;
};

static const struct pm_option pm_options[] = {
  {"entry-point", 'e', "NAME", PM_OPT_ENTRY, "The entry point to run (default: main)."},
  {"binary-output", 'b', NULL, PM_OPT_BINARY, "Print the result in the binary data format."},
  {"no-print-result", 'n', NULL, PM_OPT_NO_PRINT, "Do not print the result."},
  {"write-runtime-to", 't', "FILE", PM_OPT_RUNTIME,
   "Write the run time of each run to FILE, in microseconds, one per line."},
  {"runs", 'r', "INT", PM_OPT_RUNS,
   "Run the entry point INT times after a warm-up run; print the last result."},
  {"debugging", 'D', NULL, PM_OPT_DEBUG, "Debugging checks and output (implies -L and -P)."},
  {"log", 'L', NULL, PM_OPT_LOG, "Print low-overhead logging to stderr."},
  {"profile", 'P', NULL, PM_OPT_PROFILE,
   "Collect profiling data and print the report to stderr at the end."},
  {"param", 0, "NAME=INT", PM_OPT_PARAM, "Set a tuning parameter."},
  {"tuning", 0, "FILE", PM_OPT_TUNING, "Read NAME=INT tuning assignments, one a line, from FILE."},
  {"print-params", 0, NULL, PM_OPT_PRINT_PARAMS,
   "Print the tuning parameters and their classes, then exit."},
  {"cache-file", 0, "FILE", PM_OPT_CACHE, "Keep reusable initialisation data in FILE."},
#ifdef FUTHARK_BACKEND_multicore
  {"num-threads", 0, "INT", PM_OPT_THREADS, "Use INT worker threads (0: one per core)."},
#endif
  {"help", 'h', NULL, PM_OPT_HELP, "Print this help and exit."},
};

#define PM_NOPTIONS ((int)(sizeof pm_options / sizeof pm_options[0]))

/* Prints the usage text to stdout. */
static void pm_help(const char *prog) {
  printf("Usage: %s [OPTION]... < INPUT\n", prog);
  printf("Reads the entry point's arguments from standard input (text or binary),\n"
         "runs it and prints its result on standard output.\n\nOptions:\n");
  for (int i = 0; i < PM_NOPTIONS; i++) {
    const struct pm_option *o = &pm_options[i];
    char head[64];
    if (o->letter != 0)
      snprintf(head, sizeof head, "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "",
               o->arg ? o->arg : "");
    else
      snprintf(head, sizeof head, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    printf("  %-32s %s\n", head, o->doc);
  }
}

/* Parses a non-negative decimal integer that fits `max`; 0 on success. */
static int pm_parse_uint(const char *str, long long max, long long *out) {
  char *end;
  errno = 0;
  if (str[0] < '0' || str[0] > '9') return 1;
  long long v = strtoll(str, &end, 10);
  if (errno != 0 || *end != '\0' || v < 0 || v > max) return 1;
  *out = v;
  return 0;
}

/* Whether `name` is one of the program's tuning parameters. */
static int pm_is_tuning_param(const char *name) {
  int n = futhark_get_tuning_param_count();
  for (int i = 0; i < n; i++)
    if (strcmp(futhark_get_tuning_param_name(i), name) == 0) return 1;
  return 0;
}

/* Reads a tuning file (lines NAME=INT, nothing else) into the
 * configuration. NULL, or a malloc'd message saying what is wrong. */
static char *pm_load_tuning(struct futhark_context_config *cfg, const char *fname) {
  char *msg = malloc(1100);
  if (msg == NULL) return NULL;
  FILE *f = fopen(fname, "r");
  if (f == NULL) {
    snprintf(msg, 1100, "Cannot open file: %s", strerror(errno));
    return msg;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int lineno = 0;
  while ((len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
    char *eq = strchr(line, '=');
    long long v;
    if (eq == NULL || eq == line || pm_parse_uint(eq + 1, INT64_MAX, &v) != 0) {
      snprintf(msg, 1100, "Invalid line %d (must be of form 'name=int').", lineno);
      break;
    }
    *eq = '\0';
    if (futhark_context_config_set_tuning_param(cfg, line, (size_t)v) != 0) {
      snprintf(msg, 1100, "Unknown name '%.1000s' on line %d.", line, lineno);
      break;
    }
  }
  int ok = len < 0;
  free(line);
  fclose(f);
  if (ok) {
    free(msg);
    return NULL;
  }
  return msg;
}

/* Carries out one option with its argument (NULL when it takes none). */
static void pm_apply_option(struct pm_state *s, const struct pm_option *o, const char *arg) {
  long long v;
  switch (o->id) {
  case PM_OPT_ENTRY: s->entry = arg; break;
  case PM_OPT_BINARY: s->binary = 1; break;
  case PM_OPT_NO_PRINT: s->print = 0; break;
  case PM_OPT_RUNTIME:
    if (s->runtime_file != NULL) fclose(s->runtime_file);
    s->runtime_file = fopen(arg, "w");
    if (s->runtime_file == NULL) pm_fail(s, "Cannot open %s: %s", arg, strerror(errno));
    break;
  case PM_OPT_RUNS:
    if (pm_parse_uint(arg, INT32_MAX, &v) != 0 || v == 0)
      pm_fail(s, "Need a positive number of runs, not %s", arg);
    s->runs = (int)v;
    s->warmup = 1;
    break;
  case PM_OPT_DEBUG:
    futhark_context_config_set_debugging(s->cfg, 1);
    futhark_context_config_set_logging(s->cfg, 1);
    futhark_context_config_set_profiling(s->cfg, 1);
    s->profile = 1;
    break;
  case PM_OPT_LOG: futhark_context_config_set_logging(s->cfg, 1); break;
  case PM_OPT_PROFILE:
    futhark_context_config_set_profiling(s->cfg, 1);
    s->profile = 1;
    break;
  case PM_OPT_PARAM: {
    const char *eq = strchr(arg, '=');
    if (eq == NULL || eq == arg) pm_fail(s, "Invalid argument for --param option: %s", arg);
    size_t n = (size_t)(eq - arg);
    char *name = pm_alloc(s, n + 1);
    memcpy(name, arg, n);
    name[n] = '\0';
    if (!pm_is_tuning_param(name)) pm_fail(s, "Unknown tuning parameter: %s", name);
    if (pm_parse_uint(eq + 1, INT64_MAX, &v) != 0)
      pm_fail(s, "Invalid value for tuning parameter %s: %s", name, eq + 1);
    if (futhark_context_config_set_tuning_param(s->cfg, name, (size_t)v) != 0)
      pm_fail(s, "Cannot set tuning parameter %s to %s", name, eq + 1);
    free(name);
    break;
  }
  case PM_OPT_TUNING: {
    char *err = pm_load_tuning(s->cfg, arg);
    if (err != NULL) pm_fail(s, "When loading tuning file '%s': %s", arg, err);
    break;
  }
  case PM_OPT_PRINT_PARAMS: {
    int n = futhark_get_tuning_param_count();
    for (int i = 0; i < n; i++)
      printf("%s (%s)\n", futhark_get_tuning_param_name(i), futhark_get_tuning_param_class(i));
    exit(0);
  }
  case PM_OPT_CACHE: futhark_context_config_set_cache_file(s->cfg, arg); break;
#ifdef FUTHARK_BACKEND_multicore
  case PM_OPT_THREADS:
    if (pm_parse_uint(arg, INT32_MAX, &v) != 0)
      pm_fail(s, "Invalid number of threads: %s", arg);
    futhark_context_config_set_num_threads(s->cfg, (int)v);
    break;
#endif
  case PM_OPT_HELP: pm_help(s->prog); exit(0);
  default: break;
  }
}

/* Parses the command line like getopt_long: `-x`, `-xVALUE`, `-x VALUE`,
 * clusters of flags (`-bn`), `--name`, `--name=VALUE`, `--name VALUE`,
 * and `--` ending the options. Any other argument is an error. */
static void pm_parse_options(struct pm_state *s, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      if (i + 1 < argc) pm_fail(s, "Excess non-option: %s", argv[i + 1]);
      return;
    }
    if (a[0] == '-' && a[1] == '-') {
      const char *name = a + 2;
      const char *eq = strchr(name, '=');
      size_t n = eq != NULL ? (size_t)(eq - name) : strlen(name);
      const struct pm_option *o = NULL;
      for (int k = 0; k < PM_NOPTIONS; k++)
        if (strlen(pm_options[k].name) == n && strncmp(pm_options[k].name, name, n) == 0)
          o = &pm_options[k];
      if (o == NULL) pm_fail(s, "Unknown option: %s (see --help)", a);
      const char *arg = NULL;
      if (o->arg == NULL) {
        if (eq != NULL) pm_fail(s, "Option --%s takes no argument", o->name);
      } else if (eq != NULL) {
        arg = eq + 1;
      } else if (i + 1 < argc) {
        arg = argv[++i];
      } else {
        pm_fail(s, "Missing argument for option %s", a);
      }
      pm_apply_option(s, o, arg);
    } else if (a[0] == '-' && a[1] != '\0') {
      for (const char *c = a + 1; *c != '\0'; c++) {
        const struct pm_option *o = NULL;
        for (int k = 0; k < PM_NOPTIONS; k++)
          if (pm_options[k].letter == *c) o = &pm_options[k];
        if (o == NULL) pm_fail(s, "Unknown option: -%c (see --help)", *c);
        if (o->arg == NULL) {
          pm_apply_option(s, o, NULL);
          continue;
        }
        const char *arg = c[1] != '\0' ? c + 1 : NULL;
        if (arg == NULL) {
          if (i + 1 >= argc) pm_fail(s, "Missing argument for option -%c", *c);
          arg = argv[++i];
        }
        pm_apply_option(s, o, arg);
        break;
      }
    } else {
      pm_fail(s, "Excess non-option: %s", a);
    }
  }
}

/* ---- values ---- */

/* A value held here: the scalar of a primitive, else the object. */
struct pm_val {
  const struct p_type *t;
  union {
    int64_t i64;
    double f64;
    unsigned char bytes[8];
  } scalar;
  void *obj;
};

/* The generic (in) pointer of a value: the scalar buffer or the object. */
static const void *pm_val_ptr(const struct pm_val *v) {
  return v->t->kind == P_KIND_PRIM ? (const void *)&v->scalar : v->obj;
}

/* The out pointer of a value: the scalar buffer or the object slot. */
static void *pm_val_out(struct pm_val *v) {
  return v->t->kind == P_KIND_PRIM ? (void *)&v->scalar : (void *)&v->obj;
}

/* Frees the object of a value (nothing for a primitive). */
static void pm_val_free(struct pm_state *s, struct pm_val *v) {
  if (v->t->kind != P_KIND_PRIM && v->obj != NULL) {
    if (v->t->free(s->ctx, v->obj) != 0) pm_fail_ctx(s, "Failed to free a value.");
  }
  v->obj = NULL;
}

/* An input as read from stdin: the elements and shape of a primitive or
 * array of primitives, or the parts of a record, in field order. Kept
 * for the whole program, since each run builds its inputs afresh (an
 * entry point may consume them). */
struct pm_input {
  const struct p_type *t;
  void *data;
  int64_t *shape;
  struct pm_input *fields;
};

/* The first part of type `t` that cannot be read from stdin (an opaque
 * that is not a record, or a record containing one), or NULL. */
static const struct p_type *pm_unreadable(const struct p_type *t) {
  if (t->kind == P_KIND_PRIM || t->kind == P_KIND_ARRAY) return NULL;
  if (t->kind != P_KIND_RECORD) return t;
  for (int i = 0; i < t->nfields; i++) {
    const struct p_type *u = pm_unreadable(t->fields[i].type);
    if (u != NULL) return u;
  }
  return NULL;
}

/* Reads input #idx (or a field of it) of type `t`. */
static void pm_read_input(struct pm_state *s, struct pv_reader *r, int idx,
                          const struct p_type *t, struct pm_input *in) {
  in->t = t;
  in->data = NULL;
  in->shape = NULL;
  in->fields = NULL;
  if (t->kind == P_KIND_RECORD) {
    in->fields = pm_alloc(s, (size_t)t->nfields * sizeof *in->fields);
    for (int i = 0; i < t->nfields; i++)
      pm_read_input(s, r, idx, t->fields[i].type, &in->fields[i]);
    return;
  }
  char *err = NULL;
  in->shape = pm_alloc(s, (size_t)(t->rank > 0 ? t->rank : 1) * sizeof(int64_t));
  if (pv_read_value(r, t->prim, t->rank, &in->data, in->shape, &err) != 0)
    pm_fail(s, "Error when reading input #%d of type %s: %s", idx, t->name,
            err != NULL ? err : "invalid value");
}

/* Frees what pm_read_input allocated. */
static void pm_input_free(struct pm_input *in) {
  if (in->fields != NULL)
    for (int i = 0; i < in->t->nfields; i++) pm_input_free(&in->fields[i]);
  free(in->fields);
  free(in->data);
  free(in->shape);
}

/* Makes a fresh value of an input (arrays and records as new objects). */
static void pm_build(struct pm_state *s, const struct pm_input *in, struct pm_val *v) {
  const struct p_type *t = in->t;
  v->t = t;
  v->obj = NULL;
  memset(&v->scalar, 0, sizeof v->scalar);
  if (t->kind == P_KIND_PRIM) {
    memcpy(&v->scalar, in->data, pv_prim_size(t->prim));
  } else if (t->kind == P_KIND_ARRAY) {
    v->obj = t->new_array(s->ctx, in->data, in->shape);
    if (v->obj == NULL) pm_fail_ctx(s, "Failed to create an input array.");
  } else {
    int n = t->nfields;
    struct pm_val *parts = pm_alloc(s, (size_t)n * sizeof *parts);
    const void **ptrs = pm_alloc(s, (size_t)n * sizeof *ptrs);
    for (int i = 0; i < n; i++) {
      pm_build(s, &in->fields[i], &parts[i]);
      ptrs[i] = pm_val_ptr(&parts[i]);
    }
    if (t->new_record(s->ctx, &v->obj, ptrs) != 0)
      pm_fail_ctx(s, "Failed to create an input record.");
    for (int i = 0; i < n; i++) pm_val_free(s, &parts[i]);
    free(parts);
    free(ptrs);
  }
}

/* Prints a result value: a primitive or array of primitives in the text
 * or binary format, a record as its fields one after another, anything
 * else as `#<opaque TYPE>`; each printed value is followed by a newline. */
static void pm_print(struct pm_state *s, struct pm_val *v) {
  const struct p_type *t = v->t;
  int err = 0;
  if (t->kind == P_KIND_PRIM) {
    err = s->binary ? pv_write_binary(stdout, t->prim, 0, &v->scalar, NULL)
                    : pv_write_text(stdout, t->prim, 0, &v->scalar, NULL);
  } else if (t->kind == P_KIND_ARRAY) {
    const int64_t *shape = t->shape(s->ctx, v->obj);
    size_t n = pv_prim_size(t->prim);
    for (int i = 0; i < t->rank; i++) n *= (size_t)shape[i];
    void *data = pm_alloc(s, n);
    if (t->values(s->ctx, v->obj, data) != 0 || futhark_context_sync(s->ctx) != 0)
      pm_fail_ctx(s, "Failed to read the result's elements.");
    err = s->binary ? pv_write_binary(stdout, t->prim, t->rank, data, shape)
                    : pv_write_text(stdout, t->prim, t->rank, data, shape);
    free(data);
  } else if (t->kind == P_KIND_RECORD) {
    for (int i = 0; i < t->nfields; i++) {
      struct pm_val f;
      f.t = t->fields[i].type;
      f.obj = NULL;
      memset(&f.scalar, 0, sizeof f.scalar);
      if (t->fields[i].project(s->ctx, pm_val_out(&f), v->obj) != 0 ||
          futhark_context_sync(s->ctx) != 0)
        pm_fail_ctx(s, "Failed to project a field of the result.");
      pm_print(s, &f);
      pm_val_free(s, &f);
    }
    return;
  } else {
    printf("#<opaque %s>", t->name);
  }
  if (err != 0 || putchar('\n') == EOF)
    pm_fail(s, "Failed to write the result: %s", strerror(errno));
}

/* ---- main ---- */

int main(int argc, char **argv) {
  struct pm_state s;
  memset(&s, 0, sizeof s);
  s.prog = argc > 0 ? argv[0] : "futhark-program";
  s.entry = "main";
  s.print = 1;
  s.runs = 1;
  (void)p_api_types; /* the executable needs only the entry points */
  (void)p_api_ntypes;
  s.cfg = futhark_context_config_new();
  if (s.cfg == NULL) pm_fail(&s, "Failed to create the configuration.");
  pm_parse_options(&s, argc, argv);

  s.ctx = futhark_context_new(s.cfg);
  if (s.ctx == NULL) pm_fail(&s, "Failed to create the context.");
  char *init_err = futhark_context_get_error(s.ctx);
  if (init_err != NULL) pm_fail(&s, "%s", init_err);

  const struct p_entry *e = NULL;
  for (int i = 0; i < p_api_nentries; i++)
    if (strcmp(p_api_entries[i].name, s.entry) == 0) e = &p_api_entries[i];
  if (e == NULL) {
    fprintf(stderr, "%s: No entry point '%s'.  Select another with --entry-point.  Options are:\n",
            s.prog, s.entry);
    for (int i = 0; i < p_api_nentries; i++) fprintf(stderr, "%s\n", p_api_entries[i].name);
    exit(1);
  }
  for (int i = 0; i < e->nin; i++) {
    const struct p_type *u = pm_unreadable(e->in_types[i]);
    if (u == e->in_types[i])
      pm_fail(&s, "Cannot read input #%d of type %s: values of this type have no external "
                  "representation.", i, u->name);
    if (u != NULL)
      pm_fail(&s, "Cannot read input #%d of type %s: its part of type %s has no external "
                  "representation.", i, e->in_types[i]->name, u->name);
  }

  /* Read the inputs. */
  if (e->nin > 0 && isatty(fileno(stdin))) {
    fprintf(stderr, "Reading input from TTY.\n");
    fprintf(stderr, "Send EOF (CTRL-d) after typing all input values.\n");
  }
  struct pv_reader reader;
  pv_reader_init(&reader, stdin);
  struct pm_input *inputs = pm_alloc(&s, (size_t)e->nin * sizeof *inputs);
  for (int i = 0; i < e->nin; i++) pm_read_input(&s, &reader, i, e->in_types[i], &inputs[i]);
  if (!pv_at_end(&reader))
    pm_fail(&s, "Expected EOF on stdin after reading input for \"%s\".", e->name);

  /* Run: a warm-up run (with -r), then the timed runs; only the last
   * run is profiled and only its result is kept. */
  struct pm_val *ins = pm_alloc(&s, (size_t)e->nin * sizeof *ins);
  const void **in_ptrs = pm_alloc(&s, (size_t)e->nin * sizeof *in_ptrs);
  struct pm_val out;
  out.t = e->out_type;
  out.obj = NULL;
  futhark_context_pause_profiling(s.ctx);
  int total = s.runs + (s.warmup ? 1 : 0);
  for (int run = 0; run < total; run++) {
    int last = run == total - 1;
    for (int i = 0; i < e->nin; i++) {
      pm_build(&s, &inputs[i], &ins[i]);
      in_ptrs[i] = pm_val_ptr(&ins[i]);
    }
    if (futhark_context_sync(s.ctx) != 0) pm_fail_ctx(&s, "Failed to prepare the inputs.");
    memset(&out.scalar, 0, sizeof out.scalar);
    out.obj = NULL;
    if (last) futhark_context_unpause_profiling(s.ctx);
    int64_t t0 = pm_now_us();
    if (e->call(s.ctx, pm_val_out(&out), in_ptrs) != 0) pm_fail_ctx(&s, "The entry point failed.");
    if (futhark_context_sync(s.ctx) != 0) pm_fail_ctx(&s, "The entry point failed.");
    int64_t t1 = pm_now_us();
    if (last) futhark_context_pause_profiling(s.ctx);
    if (s.runtime_file != NULL && (run > 0 || !s.warmup)) {
      fprintf(s.runtime_file, "%lld\n", (long long)(t1 - t0));
      fflush(s.runtime_file);
    }
    for (int i = 0; i < e->nin; i++) pm_val_free(&s, &ins[i]);
    if (!last) pm_val_free(&s, &out);
  }

  if (s.print) pm_print(&s, &out);
  if (fflush(stdout) != 0) pm_fail(&s, "Failed to write the result: %s", strerror(errno));
  pm_val_free(&s, &out);

  if (s.profile) {
    char *report = futhark_context_report(s.ctx);
    if (report != NULL) {
      size_t n = strlen(report);
      fprintf(stderr, "%s%s", report, n > 0 && report[n - 1] == '\n' ? "" : "\n");
      free(report);
    }
  }
  if (s.runtime_file != NULL && fclose(s.runtime_file) != 0)
    pm_fail(&s, "Failed to write the run times: %s", strerror(errno));
  for (int i = 0; i < e->nin; i++) pm_input_free(&inputs[i]);
  free(inputs);
  free(ins);
  free(in_ptrs);
  futhark_context_free(s.ctx);
  futhark_context_config_free(s.cfg);
  return 0;
}
