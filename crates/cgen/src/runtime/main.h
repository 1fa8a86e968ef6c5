/* parad C runtime, executable part: the `main` of a compiled program.
 *
 * Appended after the generated API and options.h (see the interface
 * notes): it uses the tables p_api_entries/p_api_types, values.h (pv_*)
 * to read and print values, and options.h (po_*) for the command line,
 * the configuration, the context and the failures.
 *
 * `PROG [options] < input` reads the inputs of one entry point (-e, by
 * default `main`) from stdin, text or binary per value, calls it (with
 * -r N: a warm-up call and then N timed calls) and prints its result on
 * stdout. Every error is printed to stderr as `PROG: message` and makes
 * the program exit with status 1. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- state, errors ---- */

/* Everything main works with: the options' state (program name,
 * configuration, context), then what main's own options fill. */
struct pm_state {
  struct po_state po;
  const char *entry;
  int binary;
  int print;
  int runs;
  int warmup;
  int profile;
  FILE *runtime_file;
};

/* Fails with the context's error message (or `what` when it has none). */
static void pm_fail_ctx(struct pm_state *s, const char *what) __attribute__((noreturn));
static void pm_fail_ctx(struct pm_state *s, const char *what) {
  char *err = s->po.ctx != NULL ? futhark_context_get_error(s->po.ctx) : NULL;
  if (err == NULL) po_fail(&s->po, "%s", what);
  po_exit_msg(s->po.prog, err);
}

/* Zeroed memory; fails the program when out of memory (never NULL). */
static void *pm_alloc(struct pm_state *s, size_t n) {
  void *p = calloc(n > 0 ? n : 1, 1);
  if (p == NULL) po_fail(&s->po, "Out of memory.");
  return p;
}

/* ---- options ---- */

enum {
  PM_OPT_ENTRY = PO_OPT_OWN,
  PM_OPT_BINARY,
  PM_OPT_NO_PRINT,
  PM_OPT_RUNTIME,
  PM_OPT_RUNS
};

/* The executable's own options (the common ones follow them). */
static const struct po_option pm_options[] = {
  {"entry-point", 'e', "NAME", PM_OPT_ENTRY, "The entry point to run (default: main)."},
  {"binary-output", 'b', NULL, PM_OPT_BINARY, "Print the result in the binary data format."},
  {"no-print-result", 'n', NULL, PM_OPT_NO_PRINT, "Do not print the result."},
  {"write-runtime-to", 't', "FILE", PM_OPT_RUNTIME,
   "Write the run time of each run to FILE, in microseconds, one per line."},
  {"runs", 'r', "INT", PM_OPT_RUNS,
   "Run the entry point INT times after a warm-up run; print the last result."},
};

/* Carries out one option with its argument (NULL when it takes none);
 * po_parse has carried out the common ones already. */
static void pm_apply_option(struct po_state *po, int id, const char *arg) {
  struct pm_state *s = (struct pm_state *)po; /* po is its first member */
  long long v;
  switch (id) {
  case PM_OPT_ENTRY: s->entry = arg; break;
  case PM_OPT_BINARY: s->binary = 1; break;
  case PM_OPT_NO_PRINT: s->print = 0; break;
  case PM_OPT_RUNTIME:
    if (s->runtime_file != NULL) fclose(s->runtime_file);
    s->runtime_file = fopen(arg, "w");
    if (s->runtime_file == NULL) po_fail(po, "Cannot open %s: %s", arg, strerror(errno));
    break;
  case PM_OPT_RUNS:
    if (po_parse_uint(arg, INT32_MAX, &v) != 0 || v == 0)
      po_fail(po, "Need a positive number of runs, not %s", arg);
    s->runs = (int)v;
    s->warmup = 1;
    break;
  case PO_OPT_DEBUG:
  case PO_OPT_PROFILE: s->profile = 1; break;
  default: break;
  }
}

/* The executable, for the command-line parser and its help text. */
static const struct po_program pm_program = {
  " < INPUT",
  "Reads the entry point's arguments from standard input (text or binary),\n"
  "runs it and prints its result on standard output.\n",
  "Collect profiling data and print the report to stderr at the end.",
  pm_options,
  (int)(sizeof pm_options / sizeof pm_options[0]),
  pm_apply_option,
};

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
    if (v->t->free(s->po.ctx, v->obj) != 0) pm_fail_ctx(s, "Failed to free a value.");
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
    po_fail(&s->po, "Error when reading input #%d of type %s: %s", idx, t->name,
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
    v->obj = t->new_array(s->po.ctx, in->data, in->shape);
    if (v->obj == NULL) pm_fail_ctx(s, "Failed to create an input array.");
  } else {
    int n = t->nfields;
    struct pm_val *parts = pm_alloc(s, (size_t)n * sizeof *parts);
    const void **ptrs = pm_alloc(s, (size_t)n * sizeof *ptrs);
    for (int i = 0; i < n; i++) {
      pm_build(s, &in->fields[i], &parts[i]);
      ptrs[i] = pm_val_ptr(&parts[i]);
    }
    if (t->new_record(s->po.ctx, &v->obj, ptrs) != 0)
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
    const int64_t *shape = t->shape(s->po.ctx, v->obj);
    size_t n = pv_prim_size(t->prim);
    for (int i = 0; i < t->rank; i++) n *= (size_t)shape[i];
    void *data = pm_alloc(s, n);
    if (t->values(s->po.ctx, v->obj, data) != 0 || futhark_context_sync(s->po.ctx) != 0)
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
      if (t->fields[i].project(s->po.ctx, pm_val_out(&f), v->obj) != 0 ||
          futhark_context_sync(s->po.ctx) != 0)
        pm_fail_ctx(s, "Failed to project a field of the result.");
      pm_print(s, &f);
      pm_val_free(s, &f);
    }
    return;
  } else {
    printf("#<opaque %s>", t->name);
  }
  if (err != 0 || putchar('\n') == EOF)
    po_fail(&s->po, "Failed to write the result: %s", strerror(errno));
}

/* ---- main ---- */

int main(int argc, char **argv) {
  struct pm_state s;
  memset(&s, 0, sizeof s);
  s.entry = "main";
  s.print = 1;
  s.runs = 1;
  (void)p_api_types; /* the executable needs only the entry points */
  (void)p_api_ntypes;
  po_init(&s.po, &pm_program, argc, argv, "futhark-program");
  po_new_context(&s.po, "");

  const struct p_entry *e = NULL;
  for (int i = 0; i < p_api_nentries; i++)
    if (strcmp(p_api_entries[i].name, s.entry) == 0) e = &p_api_entries[i];
  if (e == NULL) {
    fprintf(stderr, "%s: No entry point '%s'.  Select another with --entry-point.  Options are:\n",
            s.po.prog, s.entry);
    for (int i = 0; i < p_api_nentries; i++) fprintf(stderr, "%s\n", p_api_entries[i].name);
    exit(1);
  }
  for (int i = 0; i < e->nin; i++) {
    const struct p_type *u = pm_unreadable(e->in_types[i]);
    if (u == e->in_types[i])
      po_fail(&s.po, "Cannot read input #%d of type %s: values of this type have no external "
                     "representation.", i, u->name);
    if (u != NULL)
      po_fail(&s.po, "Cannot read input #%d of type %s: its part of type %s has no external "
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
    po_fail(&s.po, "Expected EOF on stdin after reading input for \"%s\".", e->name);

  /* Run: a warm-up run (with -r), then the timed runs; only the last
   * run is profiled and only its result is kept. */
  struct pm_val *ins = pm_alloc(&s, (size_t)e->nin * sizeof *ins);
  const void **in_ptrs = pm_alloc(&s, (size_t)e->nin * sizeof *in_ptrs);
  struct pm_val out;
  out.t = e->out_type;
  out.obj = NULL;
  futhark_context_pause_profiling(s.po.ctx);
  int total = s.runs + (s.warmup ? 1 : 0);
  for (int run = 0; run < total; run++) {
    int last = run == total - 1;
    for (int i = 0; i < e->nin; i++) {
      pm_build(&s, &inputs[i], &ins[i]);
      in_ptrs[i] = pm_val_ptr(&ins[i]);
    }
    if (futhark_context_sync(s.po.ctx) != 0) pm_fail_ctx(&s, "Failed to prepare the inputs.");
    memset(&out.scalar, 0, sizeof out.scalar);
    out.obj = NULL;
    if (last) futhark_context_unpause_profiling(s.po.ctx);
    int64_t t0 = po_now_us();
    if (e->call(s.po.ctx, pm_val_out(&out), in_ptrs) != 0 || futhark_context_sync(s.po.ctx) != 0)
      pm_fail_ctx(&s, "The entry point failed.");
    int64_t t1 = po_now_us();
    if (last) futhark_context_pause_profiling(s.po.ctx);
    if (s.runtime_file != NULL && (run > 0 || !s.warmup)) {
      fprintf(s.runtime_file, "%lld\n", (long long)(t1 - t0));
      fflush(s.runtime_file);
    }
    for (int i = 0; i < e->nin; i++) pm_val_free(&s, &ins[i]);
    if (!last) pm_val_free(&s, &out);
  }

  if (s.print) pm_print(&s, &out);
  if (fflush(stdout) != 0) po_fail(&s.po, "Failed to write the result: %s", strerror(errno));
  pm_val_free(&s, &out);

  if (s.profile) {
    char *report = futhark_context_report(s.po.ctx);
    if (report != NULL) {
      size_t n = strlen(report);
      fprintf(stderr, "%s%s", report, n > 0 && report[n - 1] == '\n' ? "" : "\n");
      free(report);
    }
  }
  if (s.runtime_file != NULL && fclose(s.runtime_file) != 0)
    po_fail(&s.po, "Failed to write the run times: %s", strerror(errno));
  for (int i = 0; i < e->nin; i++) pm_input_free(&inputs[i]);
  free(inputs);
  free(ins);
  free(in_ptrs);
  po_free(&s.po);
  return 0;
}
