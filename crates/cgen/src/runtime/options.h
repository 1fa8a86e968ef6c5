/* parad C runtime, options part: what the `main` of an executable
 * (main.h) and the `main` of a server (server.h) share.
 *
 * Appended after the generated API and before main.h or server.h: it uses
 * the Futhark C API for the configuration and the context. It holds the
 * command-line parser (like getopt_long) over the program's own table of
 * options and the common one (-D, -L, -P, --param, --tuning,
 * --print-params, --cache-file, -h, and --num-threads for the multicore
 * backend), the creation of the configuration and the context with
 * Futhark's messages, and the `PROG: message` failure that ends the
 * program with status 1. */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

/* ---- messages, numbers, time ---- */

/* A malloc'd string formatted from fmt and ap (NULL when out of memory). */
static char *po_vformat(const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf != NULL) vsnprintf(buf, (size_t)n + 1, fmt, ap);
  return buf;
}

/* Prints `PROG: msg` on stderr (a newline added when missing; "out of
 * memory" for a NULL msg), frees msg and exits 1. */
static void po_exit_msg(const char *prog, char *msg) __attribute__((noreturn));
static void po_exit_msg(const char *prog, char *msg) {
  const char *m = msg != NULL ? msg : "out of memory";
  size_t n = strlen(m);
  fprintf(stderr, "%s: %s%s", prog, m, n > 0 && m[n - 1] == '\n' ? "" : "\n");
  free(msg);
  exit(1);
}

/* Microseconds of a monotonic clock. */
static int64_t po_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Parses a non-negative decimal integer that fits `max`; 0 on success. */
static int po_parse_uint(const char *str, long long max, long long *out) {
  char *end;
  errno = 0;
  if (str[0] < '0' || str[0] > '9') return 1;
  long long v = strtoll(str, &end, 10);
  if (errno != 0 || *end != '\0' || v < 0 || v > max) return 1;
  *out = v;
  return 0;
}

/* The index of tuning parameter `name`, or -1. */
static int po_tuning_param(const char *name) {
  int n = futhark_get_tuning_param_count();
  for (int i = 0; i < n; i++)
    if (strcmp(futhark_get_tuning_param_name(i), name) == 0) return i;
  return -1;
}

/* Reads a tuning file (lines NAME=INT, nothing else) into the
 * configuration. NULL, or a malloc'd message saying what is wrong. */
static char *po_load_tuning(struct futhark_context_config *cfg, const char *fname) {
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
    if (eq == NULL || eq == line || po_parse_uint(eq + 1, INT64_MAX, &v) != 0) {
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

/* ---- the program, its options and its state ---- */

/* The ids of the common options; a program numbers its own options from
 * PO_OPT_OWN on (so that po_apply tells them apart by their id). */
enum {
  PO_OPT_DEBUG,
  PO_OPT_LOG,
  PO_OPT_PROFILE,
  PO_OPT_PARAM,
  PO_OPT_TUNING,
  PO_OPT_PRINT_PARAMS,
  PO_OPT_CACHE,
  PO_OPT_THREADS,
  PO_OPT_HELP,
  PO_OPT_OWN
};

/* One command-line option: long name, short letter (0: none), the name
 * of its argument (NULL: takes none), its id, what it does (NULL: the
 * program's profile_doc, for -P). */
struct po_option {
  const char *name;
  char letter;
  const char *arg;
  int id;
  const char *doc;
};

/* The options every program has, listed after its own. */
static const struct po_option po_common_options[] = {
  {"debugging", 'D', NULL, PO_OPT_DEBUG, "Debugging checks and output (implies -L and -P)."},
  {"log", 'L', NULL, PO_OPT_LOG, "Print low-overhead logging to stderr."},
  {"profile", 'P', NULL, PO_OPT_PROFILE, NULL},
  {"param", 0, "NAME=INT", PO_OPT_PARAM, "Set a tuning parameter."},
  {"tuning", 0, "FILE", PO_OPT_TUNING, "Read NAME=INT tuning assignments, one a line, from FILE."},
  {"print-params", 0, NULL, PO_OPT_PRINT_PARAMS,
   "Print the tuning parameters and their classes, then exit."},
  {"cache-file", 0, "FILE", PO_OPT_CACHE, "Keep reusable initialisation data in FILE."},
#ifdef FUTHARK_BACKEND_multicore
  {"num-threads", 0, "INT", PO_OPT_THREADS, "Use INT worker threads (0: one per core)."},
#endif
  {"help", 'h', NULL, PO_OPT_HELP, "Print this help and exit."},
};

#define PO_NCOMMON ((int)(sizeof po_common_options / sizeof po_common_options[0]))

struct po_state;

/* What a program tells the parser about itself. */
struct po_program {
  const char *usage;       /* what follows "Usage: PROG [OPTION]..." */
  const char *about;       /* what the program does, ending in a newline */
  const char *profile_doc; /* what -P does in this program */
  const struct po_option *options; /* the program's own options */
  int noptions;
  /* Called for every option (NULL: none), after a common one has been
   * carried out, with its argument (NULL when it takes none). */
  void (*apply)(struct po_state *s, int id, const char *arg);
};

/* The part of a program's state that the options work on: the program's
 * name (argv[0]), its description, the configuration and the context. A
 * program's own state starts with it, so that `apply` may cast it. */
struct po_state {
  const char *prog;
  const struct po_program *program;
  struct futhark_context_config *cfg;
  struct futhark_context *ctx;
};

/* Prints `PROG: message` (a newline added when missing) and exits 1. */
static void po_fail(const struct po_state *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void po_fail(const struct po_state *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = po_vformat(fmt, ap);
  va_end(ap);
  po_exit_msg(s->prog, msg);
}

/* ---- the command line ---- */

/* Prints one table's options for the usage text. */
static void po_help_options(const struct po_state *s, const struct po_option *opts, int n) {
  for (int i = 0; i < n; i++) {
    const struct po_option *o = &opts[i];
    char head[64];
    if (o->letter != 0)
      snprintf(head, sizeof head, "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "",
               o->arg ? o->arg : "");
    else
      snprintf(head, sizeof head, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    printf("  %-32s %s\n", head, o->doc != NULL ? o->doc : s->program->profile_doc);
  }
}

/* Prints the usage text to stdout. */
static void po_help(const struct po_state *s) {
  printf("Usage: %s [OPTION]...%s\n", s->prog, s->program->usage);
  printf("%s\nOptions:\n", s->program->about);
  po_help_options(s, s->program->options, s->program->noptions);
  po_help_options(s, po_common_options, PO_NCOMMON);
}

/* --param NAME=INT: sets a tuning parameter of the configuration. */
static void po_set_param(struct po_state *s, const char *arg) {
  long long v;
  const char *eq = strchr(arg, '=');
  if (eq == NULL || eq == arg) po_fail(s, "Invalid argument for --param option: %s", arg);
  size_t n = (size_t)(eq - arg);
  char *name = malloc(n + 1);
  if (name == NULL) po_fail(s, "Out of memory.");
  memcpy(name, arg, n);
  name[n] = '\0';
  if (po_tuning_param(name) < 0) po_fail(s, "Unknown tuning parameter: %s", name);
  if (po_parse_uint(eq + 1, INT64_MAX, &v) != 0)
    po_fail(s, "Invalid value for tuning parameter %s: %s", name, eq + 1);
  if (futhark_context_config_set_tuning_param(s->cfg, name, (size_t)v) != 0)
    po_fail(s, "Cannot set tuning parameter %s to %s", name, eq + 1);
  free(name);
}

/* Carries out a common option with its argument (NULL when it takes
 * none); then hands the option, common or not, to the program. */
static void po_apply(struct po_state *s, const struct po_option *o, const char *arg) {
  switch (o->id) {
  case PO_OPT_DEBUG:
    futhark_context_config_set_debugging(s->cfg, 1);
    futhark_context_config_set_logging(s->cfg, 1);
    futhark_context_config_set_profiling(s->cfg, 1);
    break;
  case PO_OPT_LOG: futhark_context_config_set_logging(s->cfg, 1); break;
  case PO_OPT_PROFILE: futhark_context_config_set_profiling(s->cfg, 1); break;
  case PO_OPT_PARAM: po_set_param(s, arg); break;
  case PO_OPT_TUNING: {
    char *err = po_load_tuning(s->cfg, arg);
    if (err != NULL) po_fail(s, "When loading tuning file '%s': %s", arg, err);
    break;
  }
  case PO_OPT_PRINT_PARAMS: {
    int n = futhark_get_tuning_param_count();
    for (int i = 0; i < n; i++)
      printf("%s (%s)\n", futhark_get_tuning_param_name(i), futhark_get_tuning_param_class(i));
    exit(0);
  }
  case PO_OPT_CACHE: futhark_context_config_set_cache_file(s->cfg, arg); break;
#ifdef FUTHARK_BACKEND_multicore
  case PO_OPT_THREADS: {
    long long v;
    if (po_parse_uint(arg, INT32_MAX, &v) != 0) po_fail(s, "Invalid number of threads: %s", arg);
    futhark_context_config_set_num_threads(s->cfg, (int)v);
    break;
  }
#endif
  case PO_OPT_HELP: po_help(s); exit(0);
  default: break;
  }
  if (s->program->apply != NULL) s->program->apply(s, o->id, arg);
}

/* The option with long name name[0..n) (letter 0), or with short letter
 * `letter`: the program's own, else a common one; NULL when none. */
static const struct po_option *po_find(const struct po_state *s, const char *name, size_t n,
                                       char letter) {
  const struct po_option *tables[2] = {s->program->options, po_common_options};
  int sizes[2] = {s->program->noptions, PO_NCOMMON};
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < sizes[t]; k++) {
      const struct po_option *o = &tables[t][k];
      if (letter != 0 ? o->letter == letter
                      : strlen(o->name) == n && strncmp(o->name, name, n) == 0)
        return o;
    }
  return NULL;
}

/* Parses the command line like getopt_long: `-x`, `-xVALUE`, `-x VALUE`,
 * clusters of flags (`-DL`), `--name`, `--name=VALUE`, `--name VALUE`,
 * and `--` ending the options. Any other argument is an error. */
static void po_parse(struct po_state *s, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      if (i + 1 < argc) po_fail(s, "Excess non-option: %s", argv[i + 1]);
      return;
    }
    if (a[0] == '-' && a[1] == '-') {
      const char *name = a + 2;
      const char *eq = strchr(name, '=');
      size_t n = eq != NULL ? (size_t)(eq - name) : strlen(name);
      const struct po_option *o = po_find(s, name, n, 0);
      if (o == NULL) po_fail(s, "Unknown option: %s (see --help)", a);
      const char *arg = NULL;
      if (o->arg == NULL) {
        if (eq != NULL) po_fail(s, "Option --%s takes no argument", o->name);
      } else if (eq != NULL) {
        arg = eq + 1;
      } else if (i + 1 < argc) {
        arg = argv[++i];
      } else {
        po_fail(s, "Missing argument for option %s", a);
      }
      po_apply(s, o, arg);
    } else if (a[0] == '-' && a[1] != '\0') {
      for (const char *c = a + 1; *c != '\0'; c++) {
        const struct po_option *o = po_find(s, NULL, 0, *c);
        if (o == NULL) po_fail(s, "Unknown option: -%c (see --help)", *c);
        if (o->arg == NULL) {
          po_apply(s, o, NULL);
          continue;
        }
        const char *arg = c[1] != '\0' ? c + 1 : NULL;
        if (arg == NULL) {
          if (i + 1 >= argc) po_fail(s, "Missing argument for option -%c", *c);
          arg = argv[++i];
        }
        po_apply(s, o, arg);
        break;
      }
    } else {
      po_fail(s, "Excess non-option: %s", a);
    }
  }
}

/* ---- configuration and context ---- */

/* Starts a program: its name (argv[0], else `fallback`), a new
 * configuration, and the options of the command line applied to it. */
static void po_init(struct po_state *s, const struct po_program *program, int argc, char **argv,
                    const char *fallback) {
  s->prog = argc > 0 ? argv[0] : fallback;
  s->program = program;
  s->ctx = NULL;
  s->cfg = futhark_context_config_new();
  if (s->cfg == NULL) po_fail(s, "Failed to create the configuration.");
  po_parse(s, argc, argv);
}

/* Makes the context; a failure to initialise it ends the program with
 * its error message after `prefix` (Futhark's executables print none,
 * its servers "Error during context initialisation:\n"). */
static void po_new_context(struct po_state *s, const char *prefix) {
  s->ctx = futhark_context_new(s->cfg);
  if (s->ctx == NULL) po_fail(s, "Failed to create the context.");
  char *init_err = futhark_context_get_error(s->ctx);
  if (init_err != NULL) po_fail(s, "%s%s", prefix, init_err);
}

/* Frees the context and the configuration. */
static void po_free(struct po_state *s) {
  futhark_context_free(s->ctx);
  futhark_context_config_free(s->cfg);
}
