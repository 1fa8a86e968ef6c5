/* parad C runtime, server part: the `main` of a server executable.
 *
 * Appended after the generated API and options.h (see the interface
 * notes): it uses the tables p_api_types/p_api_entries, values.h (pv_*)
 * for the value formats, and options.h (po_*) for the command line, the
 * configuration and the context.
 *
 * The server reads one command a line from stdin and answers on stdout
 * following Futhark's server protocol: the command's output, then
 * `%%% OK`; a failing command prints `%%% FAILURE` and a message before
 * the `%%% OK`. A failing command leaves the variables exactly as they
 * were: every check comes first, new values are made aside and become
 * variables only once all of them exist (those made are freed otherwise).
 * The server exits with status 0 at the end of its input. */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- state, output ---- */

/* The scalar of a primitive value (8 bytes, aligned for any primitive). */
union ps_scalar {
  int64_t i64;
  double f64;
  unsigned char bytes[8];
};

/* A value: the scalar of a primitive, else the object (owned). */
struct ps_val {
  const struct p_type *t;
  union ps_scalar scalar;
  void *obj;
};

/* A variable: a name (owned) and a value; `consumed` once an entry point
 * has consumed it (then it may only be freed). */
struct ps_var {
  char *name;
  struct ps_val val;
  int consumed;
};

/* The server: the options' state (name, configuration, context), and
 * the variables (nvars of them in room for cap). */
struct ps_state {
  struct po_state po;
  struct ps_var **vars;
  int nvars;
  int cap;
};

/* Prints a message line, adding the newline when missing. */
static void ps_put_line(const char *msg) {
  size_t n = strlen(msg);
  fputs(msg, stdout);
  if (n == 0 || msg[n - 1] != '\n') putchar('\n');
}

/* Reports the failure of the current command: `%%% FAILURE` and the
 * message. Returns 1, so that a command can `return ps_fail(...)`. */
static int ps_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int ps_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = po_vformat(fmt, ap);
  va_end(ap);
  fputs("%%% FAILURE\n", stdout);
  ps_put_line(msg != NULL ? msg : "Out of memory.");
  free(msg);
  return 1;
}

/* Fails with the context's error message (or `what` when it has none). */
static int ps_fail_ctx(struct ps_state *s, const char *what) {
  char *err = futhark_context_get_error(s->po.ctx);
  if (err == NULL) return ps_fail("%s", what);
  fputs("%%% FAILURE\n", stdout);
  ps_put_line(err);
  free(err);
  return 1;
}

/* The server, for the command-line parser and its help text. */
static const struct po_program ps_program = {
  "",
  "Serves Futhark's server protocol on standard input and output.\n",
  "Collect profiling data (see the report command).",
  NULL,
  0,
  NULL,
};

/* ---- types ---- */

/* The primitive types, for those the program's table lacks (an element
 * type of an array used only as an array, say). */
static const struct p_type ps_prim_types[] = {
  {.name = "i8", .kind = P_KIND_PRIM, .prim = PV_I8},
  {.name = "i16", .kind = P_KIND_PRIM, .prim = PV_I16},
  {.name = "i32", .kind = P_KIND_PRIM, .prim = PV_I32},
  {.name = "i64", .kind = P_KIND_PRIM, .prim = PV_I64},
  {.name = "u8", .kind = P_KIND_PRIM, .prim = PV_U8},
  {.name = "u16", .kind = P_KIND_PRIM, .prim = PV_U16},
  {.name = "u32", .kind = P_KIND_PRIM, .prim = PV_U32},
  {.name = "u64", .kind = P_KIND_PRIM, .prim = PV_U64},
  {.name = "f16", .kind = P_KIND_PRIM, .prim = PV_F16},
  {.name = "f32", .kind = P_KIND_PRIM, .prim = PV_F32},
  {.name = "f64", .kind = P_KIND_PRIM, .prim = PV_F64},
  {.name = "bool", .kind = P_KIND_PRIM, .prim = PV_BOOL},
};

#define PS_NPRIMS ((int)(sizeof ps_prim_types / sizeof ps_prim_types[0]))

/* The type named `name` (the program's, then the primitives), or NULL. */
static const struct p_type *ps_lookup_type(const char *name) {
  for (int i = 0; i < p_api_ntypes; i++)
    if (strcmp(p_api_types[i]->name, name) == 0) return p_api_types[i];
  for (int i = 0; i < PS_NPRIMS; i++)
    if (strcmp(ps_prim_types[i].name, name) == 0) return &ps_prim_types[i];
  return NULL;
}

/* The type named `name`, or NULL after reporting the failure. */
static const struct p_type *ps_get_type(const char *name) {
  const struct p_type *t = ps_lookup_type(name);
  if (t == NULL) ps_fail("Unknown type: %s", name);
  return t;
}

/* The type of primitive `prim`. */
static const struct p_type *ps_prim_type(int prim) {
  for (int i = 0; i < p_api_ntypes; i++)
    if (p_api_types[i]->kind == P_KIND_PRIM && p_api_types[i]->prim == prim) return p_api_types[i];
  for (int i = 0; i < PS_NPRIMS; i++)
    if (ps_prim_types[i].prim == prim) return &ps_prim_types[i];
  return NULL;
}

/* Whether two types are the same (the tables may hold a primitive twice). */
static int ps_same_type(const struct p_type *a, const struct p_type *b) {
  return a == b || strcmp(a->name, b->name) == 0;
}

/* The type of an array's elements, as `index` gives them (the primitive
 * of an array of primitives, whatever its rank). */
static const struct p_type *ps_elem_type(const struct p_type *t) {
  return t->kind == P_KIND_ARRAY ? ps_prim_type(t->prim) : t->elem;
}

/* Whether the type has fields: a record, or an array of records (whose
 * fields are arrays). */
static int ps_has_fields(const struct p_type *t) {
  return t->kind == P_KIND_RECORD || (t->rank > 0 && t->nfields > 0);
}

/* ---- values and variables ---- */

/* A value of type `t` with nothing in it yet. */
static struct ps_val ps_val_new(const struct p_type *t) {
  struct ps_val v;
  memset(&v, 0, sizeof v);
  v.t = t;
  return v;
}

/* The generic (in) pointer of a value: the scalar buffer or the object. */
static const void *ps_val_ptr(const struct ps_val *v) {
  return v->t->kind == P_KIND_PRIM ? (const void *)&v->scalar : v->obj;
}

/* The out pointer of a value: the scalar buffer or the object slot. */
static void *ps_val_out(struct ps_val *v) {
  return v->t->kind == P_KIND_PRIM ? (void *)&v->scalar : (void *)&v->obj;
}

/* Frees the object of a value, if any; non-zero when freeing failed. */
static int ps_val_free(struct ps_state *s, struct ps_val *v) {
  int err = 0;
  if (v->t->kind != P_KIND_PRIM && v->obj != NULL) err = v->t->free(s->po.ctx, v->obj);
  v->obj = NULL;
  return err;
}

/* Frees the objects of n values (made by a command that then failed). */
static void ps_vals_free(struct ps_state *s, struct ps_val *vs, int n) {
  for (int i = 0; i < n; i++) (void)ps_val_free(s, &vs[i]);
}

/* The variable named `name`, or NULL. */
static struct ps_var *ps_find_var(struct ps_state *s, const char *name) {
  for (int i = 0; i < s->nvars; i++)
    if (strcmp(s->vars[i]->name, name) == 0) return s->vars[i];
  return NULL;
}

/* The variable named `name` for reading its value: NULL after reporting
 * the failure when there is none or it has been consumed. */
static struct ps_var *ps_use_var(struct ps_state *s, const char *name) {
  struct ps_var *v = ps_find_var(s, name);
  if (v == NULL) {
    ps_fail("Unknown variable: %s", name);
    return NULL;
  }
  if (v->consumed) {
    ps_fail("Variable %s has been consumed by an entry point; it may only be freed.", name);
    return NULL;
  }
  return v;
}

/* Checks that the n names are free for new variables (and distinct);
 * non-zero after reporting the failure. */
static int ps_check_new(struct ps_state *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++) {
    if (ps_find_var(s, names[i]) != NULL) return ps_fail("Variable already exists: %s", names[i]);
    for (int j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0) return ps_fail("Variable named twice: %s", names[i]);
  }
  return 0;
}

/* Checks that variable `v` (named `name`) has type `t`, where `what`
 * says what it is used as; non-zero after reporting the failure. */
static int ps_check_type(const struct ps_var *v, const struct p_type *t, const char *what) {
  if (ps_same_type(v->val.t, t)) return 0;
  return ps_fail("Wrong type for %s: expected %s, but %s has type %s.", what, t->name, v->name,
                 v->val.t->name);
}

/* Adds the n values as variables of the given (checked) names; the
 * variables own the values from now on. Non-zero when out of memory
 * (then nothing is added and the values are freed). */
static int ps_add_vars(struct ps_state *s, const char *const *names, struct ps_val *vals, int n) {
  int ok = 1, made = 0;
  if (s->nvars + n > s->cap) {
    int cap = s->cap * 2 > s->nvars + n ? s->cap * 2 : s->nvars + n + 16;
    struct ps_var **vars = realloc(s->vars, (size_t)cap * sizeof *vars);
    if (vars == NULL) {
      ok = 0;
    } else {
      s->vars = vars;
      s->cap = cap;
    }
  }
  for (; ok && made < n; made++) {
    struct ps_var *v = malloc(sizeof *v);
    char *name = strdup(names[made]);
    if (v == NULL || name == NULL) {
      free(v);
      free(name);
      ok = 0;
      break;
    }
    v->name = name;
    v->val = vals[made];
    v->consumed = 0;
    s->vars[s->nvars + made] = v;
  }
  if (!ok) {
    for (int i = 0; i < made; i++) {
      free(s->vars[s->nvars + i]->name);
      free(s->vars[s->nvars + i]);
    }
    ps_vals_free(s, vals, n);
    return ps_fail("Out of memory.");
  }
  s->nvars += n;
  return 0;
}

/* The parts a command makes a value of: part i must have type
 * fields[i].type (named "field NAME" in messages) when there are fields,
 * else types[i], else `type` (named "NOUN #i"). */
struct ps_parts {
  const struct p_field *fields;
  const struct p_type *const *types;
  const struct p_type *type;
  const char *noun;
};

/* Sets ptrs[i] to the in pointer of variable names[i], part i of n;
 * non-zero after reporting the failure (a variable unknown, consumed or
 * of the wrong type). */
static int ps_part_ptrs(struct ps_state *s, const char *const *names, int n,
                        const struct ps_parts *parts, const void **ptrs) {
  for (int i = 0; i < n; i++) {
    char what[128];
    const struct p_type *t;
    if (parts->fields != NULL) {
      snprintf(what, sizeof what, "field %s", parts->fields[i].name);
      t = parts->fields[i].type;
    } else {
      snprintf(what, sizeof what, "%s #%d", parts->noun, i);
      t = parts->types != NULL ? parts->types[i] : parts->type;
    }
    struct ps_var *v = ps_use_var(s, names[i]);
    if (v == NULL || ps_check_type(v, t, what)) return 1;
    ptrs[i] = ps_val_ptr(&v->val);
  }
  return 0;
}

/* Ends a command that made the n values `outs` with an API call that
 * returned `err`: after a successful sync they become variables of the
 * given (checked) names, else they are freed and the failure is reported
 * (the context's message, or `what`). */
static int ps_add_made(struct ps_state *s, const char *const *names, struct ps_val *outs, int n,
                       int err, const char *what) {
  if (err == 0) err = futhark_context_sync(s->po.ctx);
  if (err != 0) {
    ps_vals_free(s, outs, n);
    return ps_fail_ctx(s, what);
  }
  return ps_add_vars(s, names, outs, n);
}

/* Removes variable `v` from the store, freeing its value; non-zero when
 * freeing the value failed (the variable is gone all the same). */
static int ps_remove_var(struct ps_state *s, struct ps_var *v) {
  int err = ps_val_free(s, &v->val);
  for (int i = 0; i < s->nvars; i++)
    if (s->vars[i] == v) {
      s->vars[i] = s->vars[--s->nvars];
      break;
    }
  free(v->name);
  free(v);
  return err;
}

/* Parses `n` indices into array variable `v` (checked against its
 * shape); non-zero after reporting the failure. */
static int ps_parse_indices(struct ps_state *s, const struct ps_var *v, const char *const *args,
                            int n, int64_t *is) {
  const struct p_type *t = v->val.t;
  if (n != t->rank) return ps_fail("%d indices expected but %d values provided.", t->rank, n);
  const int64_t *shape = t->shape(s->po.ctx, v->val.obj);
  for (int i = 0; i < n; i++) {
    long long x;
    if (po_parse_uint(args[i], INT64_MAX, &x) != 0 || x >= shape[i])
      return ps_fail("Invalid index `%s` on dimension %d.", args[i], i + 1);
    is[i] = x;
  }
  return 0;
}

/* A malloc'd message (NULL only when out of memory). */
static char *ps_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *ps_strf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = po_vformat(fmt, ap);
  va_end(ap);
  return msg;
}

/* The elements of an array of primitives in a malloc'd buffer; NULL
 * after reporting the failure. */
static unsigned char *ps_array_values(struct ps_state *s, const struct ps_val *v) {
  const struct p_type *t = v->t;
  const int64_t *shape = t->shape(s->po.ctx, v->obj);
  size_t n = pv_prim_size(t->prim);
  for (int i = 0; i < t->rank; i++) n *= (size_t)shape[i];
  unsigned char *data = malloc(n > 0 ? n : 1);
  if (data == NULL) {
    ps_fail("Out of memory.");
    return NULL;
  }
  if (t->values(s->po.ctx, v->obj, data) != 0 || futhark_context_sync(s->po.ctx) != 0) {
    free(data);
    ps_fail_ctx(s, "Failed to read the elements of an array.");
    return NULL;
  }
  return data;
}

/* The row-major offset of index `is` in an array of shape `shape`. */
static int64_t ps_flat_index(int rank, const int64_t *shape, const int64_t *is) {
  int64_t off = 0;
  for (int i = 0; i < rank; i++) off = off * shape[i] + is[i];
  return off;
}

/* Reads one value of type `t` for `restore`: a primitive or array of
 * primitives in the text or binary format, any other type as the bytes
 * `store` wrote (the 16-byte prefix, then the rest by its length). 0, or
 * 1 with a malloc'd message in *err (NULL only when out of memory). */
static int ps_read_value(struct ps_state *s, struct pv_reader *r, const struct p_type *t,
                         struct ps_val *out, char **err) {
  *out = ps_val_new(t);
  if (t->kind == P_KIND_PRIM || t->kind == P_KIND_ARRAY) {
    int64_t shape[t->rank + 1];
    void *data = NULL;
    if (pv_read_value(r, t->prim, t->rank, &data, shape, err) != 0) return 1;
    if (t->kind == P_KIND_PRIM) {
      memcpy(&out->scalar, data, pv_prim_size(t->prim));
    } else {
      out->obj = t->new_array(s->po.ctx, data, shape);
      if (out->obj == NULL) {
        char *msg = futhark_context_get_error(s->po.ctx);
        *err = msg != NULL ? msg : ps_strf("failed to create an array of type %s", t->name);
      }
    }
    free(data);
    return out->obj == NULL && t->kind != P_KIND_PRIM;
  }
  unsigned char head[16];
  if (pv_at_end(r) || pv_read_bytes(r, head, sizeof head) != 0) {
    *err = ps_strf("unexpected end of file where a value of type %s was expected", t->name);
    return 1;
  }
  if (memcmp(head, "PARADOPQ", 8) != 0) {
    *err = ps_strf("expected a stored value of type %s (starting with PARADOPQ)", t->name);
    return 1;
  }
  uint64_t len = 0;
  for (int i = 0; i < 8; i++) len |= (uint64_t)head[8 + i] << (8 * i);
  if (len < sizeof head || len > SIZE_MAX) {
    *err = ps_strf("invalid length %llu of a stored value of type %s", (unsigned long long)len,
                   t->name);
    return 1;
  }
  unsigned char *bytes = malloc((size_t)len);
  if (bytes == NULL) {
    *err = ps_strf("out of memory for a stored value of %llu bytes", (unsigned long long)len);
    return 1;
  }
  memcpy(bytes, head, sizeof head);
  size_t rest = (size_t)len - sizeof head;
  if (pv_read_bytes(r, bytes + sizeof head, rest) != 0) {
    free(bytes);
    *err = ps_strf("the stored value of type %s is cut short", t->name);
    return 1;
  }
  out->obj = t->restore(s->po.ctx, bytes);
  free(bytes);
  if (out->obj == NULL) {
    char *msg = futhark_context_get_error(s->po.ctx);
    *err = msg != NULL ? msg : ps_strf("the stored bytes are not a value of type %s", t->name);
    return 1;
  }
  return 0;
}

/* Writes a value for `store`: a primitive or array of primitives in the
 * binary format, any other type as the bytes of its `store` function.
 * Non-zero after reporting the failure. */
static int ps_write_value(struct ps_state *s, FILE *f, const char *fname, const struct ps_val *v) {
  const struct p_type *t = v->t;
  int err;
  if (t->kind == P_KIND_PRIM) {
    err = pv_write_binary(f, t->prim, 0, &v->scalar, NULL);
  } else if (t->kind == P_KIND_ARRAY) {
    unsigned char *data = ps_array_values(s, v);
    if (data == NULL) return 1;
    err = pv_write_binary(f, t->prim, t->rank, data, t->shape(s->po.ctx, v->obj));
    free(data);
  } else {
    void *bytes = NULL;
    size_t n = 0;
    if (t->store(s->po.ctx, v->obj, &bytes, &n) != 0 || futhark_context_sync(s->po.ctx) != 0) {
      free(bytes);
      return ps_fail_ctx(s, "Failed to serialise a value.");
    }
    err = fwrite(bytes, 1, n, f) != n;
    free(bytes);
  }
  if (err != 0) return ps_fail("Failed to write to %s: %s", fname, strerror(errno));
  return 0;
}

/* ---- commands ---- */

/* Each command gets its arguments (the words after the command's name)
 * and returns non-zero when it failed (the failure already reported). */

/* The entry point named `name`, or NULL after reporting the failure. */
static const struct p_entry *ps_get_entry(const char *name) {
  for (int i = 0; i < p_api_nentries; i++)
    if (strcmp(p_api_entries[i].name, name) == 0) return &p_api_entries[i];
  ps_fail("Unknown entry point: %s", name);
  return NULL;
}

/* types: the names of the program's types. */
static int ps_cmd_types(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc, (void)argv;
  for (int i = 0; i < p_api_ntypes; i++) puts(p_api_types[i]->name);
  return 0;
}

/* entry_points: the names of the entry points. */
static int ps_cmd_entry_points(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc, (void)argv;
  for (int i = 0; i < p_api_nentries; i++) puts(p_api_entries[i].name);
  return 0;
}

/* call ENTRY OUT IN...: runs an entry point; prints its run time. */
static int ps_cmd_call(struct ps_state *s, int argc, const char *const *argv) {
  const struct p_entry *e = ps_get_entry(argv[0]);
  if (e == NULL) return 1;
  if (argc != 2 + e->nin)
    return ps_fail("Entry point %s takes %d input%s, but %d %s given.", e->name, e->nin,
                   e->nin == 1 ? "" : "s", argc - 2, argc - 2 == 1 ? "was" : "were");
  if (ps_check_new(s, &argv[1], 1)) return 1;
  struct ps_var *in_vars[e->nin + 1];
  const void *ins[e->nin + 1];
  for (int i = 0; i < e->nin; i++) {
    char what[64];
    snprintf(what, sizeof what, "input #%d", i);
    in_vars[i] = ps_use_var(s, argv[2 + i]);
    if (in_vars[i] == NULL || ps_check_type(in_vars[i], e->in_types[i], what)) return 1;
    ins[i] = ps_val_ptr(&in_vars[i]->val);
  }
  for (int i = 0; i < e->nin; i++)
    for (int j = 0; e->in_unique[i] && j < e->nin; j++)
      if (j != i && in_vars[j] == in_vars[i])
        return ps_fail("Variable %s is consumed by input #%d and cannot also be input #%d.",
                       in_vars[i]->name, i, j);
  struct ps_val out = ps_val_new(e->out_type);
  int64_t t0 = po_now_us();
  int err = e->call(s->po.ctx, ps_val_out(&out), ins);
  if (err == 0) err = futhark_context_sync(s->po.ctx);
  int64_t t1 = po_now_us();
  /* A consuming entry point may have used up its inputs even if it failed. */
  for (int i = 0; i < e->nin; i++)
    if (e->in_unique[i]) in_vars[i]->consumed = 1;
  if (err != 0) {
    (void)ps_val_free(s, &out);
    return ps_fail_ctx(s, "The entry point failed.");
  }
  if (ps_add_vars(s, &argv[1], &out, 1)) return 1;
  printf("runtime: %lld\n", (long long)(t1 - t0));
  return 0;
}

/* restore FILE (VAR TYPE)...: reads values from a file into new variables. */
static int ps_cmd_restore(struct ps_state *s, int argc, const char *const *argv) {
  if (argc % 2 != 1) return ps_fail("Usage: restore FILE VAR1 TYPE1 ... VARN TYPEN");
  int n = (argc - 1) / 2;
  const char *names[n + 1];
  const struct p_type *types[n + 1];
  for (int i = 0; i < n; i++) {
    names[i] = argv[1 + 2 * i];
    types[i] = ps_get_type(argv[2 + 2 * i]);
    if (types[i] == NULL) return 1;
  }
  if (ps_check_new(s, names, n)) return 1;
  FILE *f = fopen(argv[0], "rb");
  if (f == NULL) return ps_fail("Failed to open %s: %s", argv[0], strerror(errno));
  struct pv_reader r;
  pv_reader_init(&r, f);
  struct ps_val vals[n + 1];
  int made = 0, failed = 0;
  for (; made < n; made++) {
    char *err = NULL;
    if (ps_read_value(s, &r, types[made], &vals[made], &err) != 0) {
      ps_fail("Failed to restore variable %s of type %s from %s: %s", names[made],
              types[made]->name, argv[0], err != NULL ? err : "out of memory");
      free(err);
      failed = 1;
      break;
    }
  }
  if (!failed && !pv_at_end(&r)) {
    ps_fail("Expected EOF after reading %d values from %s", n, argv[0]);
    failed = 1;
  }
  fclose(f);
  if (!failed && futhark_context_sync(s->po.ctx) != 0) {
    ps_fail_ctx(s, "Failed to restore the values.");
    failed = 1;
  }
  if (failed) {
    ps_vals_free(s, vals, made);
    return 1;
  }
  return ps_add_vars(s, names, vals, n);
}

/* store FILE VAR...: writes the values of variables to a file. */
static int ps_cmd_store(struct ps_state *s, int argc, const char *const *argv) {
  struct ps_var *vars[argc];
  for (int i = 1; i < argc; i++)
    if ((vars[i] = ps_use_var(s, argv[i])) == NULL) return 1;
  FILE *f = fopen(argv[0], "wb");
  if (f == NULL) return ps_fail("Failed to open %s: %s", argv[0], strerror(errno));
  for (int i = 1; i < argc; i++)
    if (ps_write_value(s, f, argv[0], &vars[i]->val)) {
      fclose(f);
      return 1;
    }
  if (fclose(f) != 0) return ps_fail("Failed to write to %s: %s", argv[0], strerror(errno));
  return 0;
}

/* free VAR...: removes variables (consumed ones too). */
static int ps_cmd_free(struct ps_state *s, int argc, const char *const *argv) {
  for (int i = 0; i < argc; i++) {
    if (ps_find_var(s, argv[i]) == NULL) return ps_fail("Unknown variable: %s", argv[i]);
    for (int j = 0; j < i; j++)
      if (strcmp(argv[i], argv[j]) == 0) return ps_fail("Variable named twice: %s", argv[i]);
  }
  int err = 0;
  for (int i = 0; i < argc; i++) err |= ps_remove_var(s, ps_find_var(s, argv[i]));
  if (err != 0) return ps_fail_ctx(s, "Failed to free a value.");
  return 0;
}

/* rename OLD NEW: renames a variable. */
static int ps_cmd_rename(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc;
  struct ps_var *v = ps_find_var(s, argv[0]);
  if (v == NULL) return ps_fail("Unknown variable: %s", argv[0]);
  if (ps_check_new(s, &argv[1], 1)) return 1;
  char *name = strdup(argv[1]);
  if (name == NULL) return ps_fail("Out of memory.");
  free(v->name);
  v->name = name;
  return 0;
}

/* inputs ENTRY: the input types, `*` marking consumed ones. */
static int ps_cmd_inputs(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_entry *e = ps_get_entry(argv[0]);
  if (e == NULL) return 1;
  for (int i = 0; i < e->nin; i++)
    printf("%s%s\n", e->in_unique[i] ? "*" : "", e->in_types[i]->name);
  return 0;
}

/* output ENTRY: the output type, `*` marking a unique one. */
static int ps_cmd_output(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_entry *e = ps_get_entry(argv[0]);
  if (e == NULL) return 1;
  printf("%s%s\n", e->out_unique ? "*" : "", e->out_type->name);
  return 0;
}

/* clear: frees the context's caches. */
static int ps_cmd_clear(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc, (void)argv;
  if (futhark_context_clear_caches(s->po.ctx) != 0)
    return ps_fail_ctx(s, "Failed to clear the caches.");
  return 0;
}

/* kind TYPE: primitive, array, record, sum or opaque. */
static int ps_cmd_kind(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_type *t = ps_get_type(argv[0]);
  if (t == NULL) return 1;
  const char *kind = "opaque";
  if (t->kind == P_KIND_PRIM) kind = "primitive";
  else if (t->kind == P_KIND_RECORD) kind = "record";
  else if (t->kind == P_KIND_SUM) kind = "sum";
  else if (t->rank > 0) kind = "array";
  puts(kind);
  return 0;
}

/* type VAR: the type of a variable. */
static int ps_cmd_type(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc;
  struct ps_var *v = ps_find_var(s, argv[0]);
  if (v == NULL) return ps_fail("Unknown variable: %s", argv[0]);
  puts(v->val.t->name);
  return 0;
}

/* pause_profiling */
static int ps_cmd_pause_profiling(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc, (void)argv;
  futhark_context_pause_profiling(s->po.ctx);
  return 0;
}

/* unpause_profiling */
static int ps_cmd_unpause_profiling(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc, (void)argv;
  futhark_context_unpause_profiling(s->po.ctx);
  return 0;
}

/* report: the context's profiling report. */
static int ps_cmd_report(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc, (void)argv;
  char *report = futhark_context_report(s->po.ctx);
  if (report == NULL) return ps_fail_ctx(s, "Failed to produce the profiling report.");
  ps_put_line(report);
  free(report);
  return 0;
}

/* set_tuning_param NAME VALUE */
static int ps_cmd_set_tuning_param(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc;
  long long v;
  if (po_tuning_param(argv[0]) < 0) return ps_fail("Unknown tuning parameter: %s", argv[0]);
  if (po_parse_uint(argv[1], INT64_MAX, &v) != 0)
    return ps_fail("Invalid value for tuning parameter %s: %s", argv[0], argv[1]);
  if (futhark_context_config_set_tuning_param(s->po.cfg, argv[0], (size_t)v) != 0)
    return ps_fail("Failed to set tuning parameter %s to %s", argv[0], argv[1]);
  return 0;
}

/* tuning_params ENTRY: the entry point's tuning parameters and classes. */
static int ps_cmd_tuning_params(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_entry *e = ps_get_entry(argv[0]);
  if (e == NULL) return 1;
  for (int i = 0; i < e->ntuning; i++) {
    int k = po_tuning_param(e->tuning[i]);
    printf("%s %s\n", e->tuning[i], k >= 0 ? futhark_get_tuning_param_class(k) : "unknown");
  }
  return 0;
}

/* tuning_param_class NAME */
static int ps_cmd_tuning_param_class(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  int k = po_tuning_param(argv[0]);
  if (k < 0) return ps_fail("Unknown tuning parameter: %s", argv[0]);
  puts(futhark_get_tuning_param_class(k));
  return 0;
}

/* attributes ENTRY */
static int ps_cmd_attributes(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_entry *e = ps_get_entry(argv[0]);
  if (e == NULL) return 1;
  for (int i = 0; i < e->nattrs; i++) puts(e->attrs[i]);
  return 0;
}

/* The array type named `name`, or NULL after reporting the failure. */
static const struct p_type *ps_get_array_type(const char *name) {
  const struct p_type *t = ps_get_type(name);
  if (t != NULL && t->rank == 0) {
    ps_fail("Not an array type: %s", name);
    return NULL;
  }
  return t;
}

/* rank TYPE */
static int ps_cmd_rank(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_type *t = ps_get_array_type(argv[0]);
  if (t == NULL) return 1;
  printf("%d\n", t->rank);
  return 0;
}

/* elemtype TYPE: the type `index` gives. */
static int ps_cmd_elemtype(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_type *t = ps_get_array_type(argv[0]);
  if (t == NULL) return 1;
  const struct p_type *elem = ps_elem_type(t);
  if (elem == NULL) return ps_fail("Unknown element type of %s", t->name);
  puts(elem->name);
  return 0;
}

/* The array variable named `name` for reading, or NULL after reporting. */
static struct ps_var *ps_use_array_var(struct ps_state *s, const char *name) {
  struct ps_var *v = ps_use_var(s, name);
  if (v != NULL && v->val.t->rank == 0) {
    ps_fail("Not an array type: %s (variable %s)", v->val.t->name, name);
    return NULL;
  }
  return v;
}

/* new_array VAR TYPE DIM... VALUE...: an array from its elements'
 * variables, in row-major order (primitives, or values of the element
 * type of an array of anything else). */
static int ps_cmd_new_array(struct ps_state *s, int argc, const char *const *argv) {
  if (ps_check_new(s, argv, 1)) return 1;
  const struct p_type *t = ps_get_array_type(argv[1]);
  if (t == NULL) return 1;
  const struct p_type *elem = ps_elem_type(t);
  if (elem == NULL || (t->kind == P_KIND_ARRAY ? t->new_array == NULL : t->new_elems == NULL))
    return ps_fail("new_array cannot make values of type %s.", t->name);
  if (argc - 2 < t->rank) return ps_fail("Expected %d dimensions, but got %d.", t->rank, argc - 2);
  int64_t dims[t->rank];
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) {
    long long d;
    if (po_parse_uint(argv[2 + i], INT64_MAX, &d) != 0)
      return ps_fail("Invalid size `%s` of dimension %d.", argv[2 + i], i + 1);
    if (d != 0 && n > INT64_MAX / d) return ps_fail("Invalid array size.");
    dims[i] = d;
    n *= d;
  }
  int nvals = argc - 2 - t->rank;
  if (n != nvals) return ps_fail("Expected %lld values, but got %d.", (long long)n, nvals);
  const void *ptrs[nvals + 1];
  struct ps_parts parts = {NULL, NULL, elem, "value"};
  if (ps_part_ptrs(s, &argv[2 + t->rank], nvals, &parts, ptrs)) return 1;
  struct ps_val out = ps_val_new(t);
  if (t->kind != P_KIND_ARRAY)
    return ps_add_made(s, argv, &out, 1, t->new_elems(s->po.ctx, &out.obj, ptrs, dims),
                       "Failed to create the array.");
  size_t size = pv_prim_size(t->prim);
  unsigned char *data = malloc(n > 0 ? (size_t)n * size : 1);
  if (data == NULL) return ps_fail("Out of memory.");
  for (int i = 0; i < nvals; i++) memcpy(data + (size_t)i * size, ptrs[i], size);
  out.obj = t->new_array(s->po.ctx, data, dims);
  free(data);
  return ps_add_made(s, argv, &out, 1, out.obj == NULL, "Failed to create the array.");
}

/* set ARRAY VALUE INDEX...: replaces one element of an array variable. */
static int ps_cmd_set(struct ps_state *s, int argc, const char *const *argv) {
  struct ps_var *arr = ps_use_array_var(s, argv[0]);
  if (arr == NULL) return 1;
  struct ps_var *val = ps_use_var(s, argv[1]);
  if (val == NULL) return 1;
  const struct p_type *t = arr->val.t;
  const struct p_type *elem = ps_elem_type(t);
  if (elem == NULL) return ps_fail("Cannot set elements of type %s.", t->name);
  if (ps_check_type(val, elem, "the element")) return 1;
  int64_t is[t->rank];
  if (ps_parse_indices(s, arr, &argv[2], argc - 2, is)) return 1;
  if (t->set != NULL) {
    if (t->set(s->po.ctx, arr->val.obj, ps_val_ptr(&val->val), is) != 0 ||
        futhark_context_sync(s->po.ctx) != 0)
      return ps_fail_ctx(s, "Failed to set the element.");
    return 0;
  }
  if (t->kind != P_KIND_ARRAY || t->new_array == NULL)
    return ps_fail("Cannot set elements of type %s.", t->name);
  /* No set function: a new array with the element replaced takes the
   * old one's place. */
  int64_t dims[t->rank];
  memcpy(dims, t->shape(s->po.ctx, arr->val.obj), sizeof dims);
  unsigned char *data = ps_array_values(s, &arr->val);
  if (data == NULL) return 1;
  size_t size = pv_prim_size(t->prim);
  memcpy(data + (size_t)ps_flat_index(t->rank, dims, is) * size, &val->val.scalar, size);
  void *obj = t->new_array(s->po.ctx, data, dims);
  free(data);
  if (obj == NULL) return ps_fail_ctx(s, "Failed to set the element.");
  void *old = arr->val.obj;
  arr->val.obj = obj;
  if (t->free(s->po.ctx, old) != 0) return ps_fail_ctx(s, "Failed to free the old array.");
  return 0;
}

/* shape ARRAY: the dimensions, one a line. */
static int ps_cmd_shape(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc;
  struct ps_var *v = ps_use_array_var(s, argv[0]);
  if (v == NULL) return 1;
  const int64_t *shape = v->val.t->shape(s->po.ctx, v->val.obj);
  for (int i = 0; i < v->val.t->rank; i++) printf("%lld\n", (long long)shape[i]);
  return 0;
}

/* index VAR ARRAY INDEX...: one element of an array variable. */
static int ps_cmd_index(struct ps_state *s, int argc, const char *const *argv) {
  if (ps_check_new(s, argv, 1)) return 1;
  struct ps_var *arr = ps_use_array_var(s, argv[1]);
  if (arr == NULL) return 1;
  const struct p_type *t = arr->val.t;
  const struct p_type *elem = ps_elem_type(t);
  if (elem == NULL || (t->index == NULL && t->kind != P_KIND_ARRAY))
    return ps_fail("Cannot index arrays of type %s.", t->name);
  int64_t is[t->rank];
  if (ps_parse_indices(s, arr, &argv[2], argc - 2, is)) return 1;
  struct ps_val out = ps_val_new(elem);
  if (t->index != NULL)
    return ps_add_made(s, argv, &out, 1, t->index(s->po.ctx, ps_val_out(&out), arr->val.obj, is),
                       "Failed to index the array.");
  /* No index function: copy the elements out and pick one. */
  unsigned char *data = ps_array_values(s, &arr->val);
  if (data == NULL) return 1;
  size_t size = pv_prim_size(t->prim);
  int64_t off = ps_flat_index(t->rank, t->shape(s->po.ctx, arr->val.obj), is);
  memcpy(&out.scalar, data + (size_t)off * size, size);
  free(data);
  return ps_add_vars(s, argv, &out, 1);
}

/* new VAR TYPE FIELD... (zip 0): a record from its fields' variables;
 * zip VAR TYPE ARRAY... (zip 1): an array of records from arrays of its
 * fields. */
static int ps_new_from_fields(struct ps_state *s, int argc, const char *const *argv, int zip) {
  if (ps_check_new(s, argv, 1)) return 1;
  const struct p_type *t = ps_get_type(argv[1]);
  if (t == NULL) return 1;
  if (zip ? t->rank == 0 || t->nfields == 0 || t->zip == NULL : t->kind != P_KIND_RECORD)
    return ps_fail("Not %s: %s", zip ? "an array of records" : "a record type", t->name);
  int n = argc - 2;
  if (n != t->nfields)
    return ps_fail("%d %s expected but %d values provided.", t->nfields, zip ? "arrays" : "fields",
                   n);
  const void *ptrs[n + 1];
  struct ps_parts parts = {t->fields, NULL, NULL, NULL};
  if (ps_part_ptrs(s, &argv[2], n, &parts, ptrs)) return 1;
  struct ps_val out = ps_val_new(t);
  int err = (zip ? t->zip : t->new_record)(s->po.ctx, &out.obj, ptrs);
  return ps_add_made(s, argv, &out, 1, err,
                     zip ? "Failed to zip the arrays." : "Failed to create the record.");
}

/* zip VAR TYPE ARRAY...: an array of records from arrays of its fields. */
static int ps_cmd_zip(struct ps_state *s, int argc, const char *const *argv) {
  return ps_new_from_fields(s, argc, argv, 1);
}

/* unzip ARRAY VAR...: the arrays of the fields of an array of records. */
static int ps_cmd_unzip(struct ps_state *s, int argc, const char *const *argv) {
  struct ps_var *arr = ps_use_array_var(s, argv[0]);
  if (arr == NULL) return 1;
  const struct p_type *t = arr->val.t;
  if (t->nfields == 0) return ps_fail("Not an array of records: %s", t->name);
  int n = argc - 1;
  if (n != t->nfields) return ps_fail("%d arrays expected but %d values provided.", t->nfields, n);
  if (ps_check_new(s, &argv[1], n)) return 1;
  struct ps_val outs[n + 1];
  int err = 0;
  for (int i = 0; i < n; i++) {
    outs[i] = ps_val_new(t->fields[i].type);
    if (err == 0) err = t->fields[i].project(s->po.ctx, ps_val_out(&outs[i]), arr->val.obj);
  }
  return ps_add_made(s, &argv[1], outs, n, err, "Failed to unzip the array.");
}

/* fields TYPE: `name type` for each field of a record (or of the
 * records of an array of records, as arrays), in `new`/`zip` order. */
static int ps_cmd_fields(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_type *t = ps_get_type(argv[0]);
  if (t == NULL) return 1;
  if (!ps_has_fields(t)) return ps_fail("Not a record type: %s", t->name);
  for (int i = 0; i < t->nfields; i++)
    printf("%s %s\n", t->fields[i].name, t->fields[i].type->name);
  return 0;
}

/* new VAR TYPE FIELD...: a record from its fields' variables. */
static int ps_cmd_new(struct ps_state *s, int argc, const char *const *argv) {
  return ps_new_from_fields(s, argc, argv, 0);
}

/* project VAR RECORD FIELD: one field of a record variable. */
static int ps_cmd_project(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc;
  if (ps_check_new(s, argv, 1)) return 1;
  struct ps_var *from = ps_use_var(s, argv[1]);
  if (from == NULL) return 1;
  const struct p_type *t = from->val.t;
  if (!ps_has_fields(t)) return ps_fail("Not a record type: %s", t->name);
  const struct p_field *field = NULL;
  for (int i = 0; i < t->nfields; i++)
    if (strcmp(t->fields[i].name, argv[2]) == 0) field = &t->fields[i];
  if (field == NULL) return ps_fail("No field %s in type %s", argv[2], t->name);
  struct ps_val out = ps_val_new(field->type);
  return ps_add_made(s, argv, &out, 1, field->project(s->po.ctx, ps_val_out(&out), from->val.obj),
                     "Failed to project the field.");
}

/* The sum type named `name`, or NULL after reporting the failure. */
static const struct p_type *ps_get_sum_type(const char *name) {
  const struct p_type *t = ps_get_type(name);
  if (t != NULL && t->kind != P_KIND_SUM) {
    ps_fail("Not a sum type: %s", name);
    return NULL;
  }
  return t;
}

/* The variant of sum variable `v`, or NULL after reporting the failure. */
static const struct p_variant *ps_variant_of(struct ps_state *s, const struct ps_var *v) {
  const struct p_type *t = v->val.t;
  if (t->kind != P_KIND_SUM) {
    ps_fail("Not a sum type: %s (variable %s)", t->name, v->name);
    return NULL;
  }
  int k = t->variant(s->po.ctx, v->val.obj);
  if (k < 0 || k >= t->nvariants) {
    ps_fail_ctx(s, "Failed to find the variant.");
    return NULL;
  }
  return &t->variants[k];
}

/* variants TYPE: each variant's name, then `- TYPE` for its payload. */
static int ps_cmd_variants(struct ps_state *s, int argc, const char *const *argv) {
  (void)s, (void)argc;
  const struct p_type *t = ps_get_sum_type(argv[0]);
  if (t == NULL) return 1;
  for (int i = 0; i < t->nvariants; i++) {
    puts(t->variants[i].name);
    for (int j = 0; j < t->variants[i].npayload; j++)
      printf("- %s\n", t->variants[i].payload[j]->name);
  }
  return 0;
}

/* construct VAR TYPE VARIANT PAYLOAD...: a value of a sum type. */
static int ps_cmd_construct(struct ps_state *s, int argc, const char *const *argv) {
  if (ps_check_new(s, argv, 1)) return 1;
  const struct p_type *t = ps_get_sum_type(argv[1]);
  if (t == NULL) return 1;
  const struct p_variant *var = NULL;
  for (int i = 0; i < t->nvariants; i++)
    if (strcmp(t->variants[i].name, argv[2]) == 0) var = &t->variants[i];
  if (var == NULL) return ps_fail("No variant %s in type %s", argv[2], t->name);
  int n = argc - 3;
  if (n != var->npayload)
    return ps_fail("%d values expected but %d values provided.", var->npayload, n);
  const void *ptrs[n + 1];
  struct ps_parts parts = {NULL, var->payload, NULL, "payload"};
  if (ps_part_ptrs(s, &argv[3], n, &parts, ptrs)) return 1;
  struct ps_val out = ps_val_new(t);
  return ps_add_made(s, argv, &out, 1, var->construct(s->po.ctx, &out.obj, ptrs),
                     "Failed to construct the value.");
}

/* destruct SUM VAR...: the payload of a sum variable's variant. */
static int ps_cmd_destruct(struct ps_state *s, int argc, const char *const *argv) {
  struct ps_var *from = ps_use_var(s, argv[0]);
  if (from == NULL) return 1;
  const struct p_variant *var = ps_variant_of(s, from);
  if (var == NULL) return 1;
  int n = argc - 1;
  if (n != var->npayload)
    return ps_fail("%d variables expected but %d variables provided (variant %s).", var->npayload,
                   n, var->name);
  if (ps_check_new(s, &argv[1], n)) return 1;
  struct ps_val outs[n + 1];
  void *out_ptrs[n + 1];
  for (int i = 0; i < n; i++) {
    outs[i] = ps_val_new(var->payload[i]);
    out_ptrs[i] = ps_val_out(&outs[i]);
  }
  return ps_add_made(s, &argv[1], outs, n, var->destruct(s->po.ctx, out_ptrs, from->val.obj),
                     "Failed to destruct the value.");
}

/* variant SUM: the variant name of a sum variable. */
static int ps_cmd_variant(struct ps_state *s, int argc, const char *const *argv) {
  (void)argc;
  struct ps_var *v = ps_use_var(s, argv[0]);
  if (v == NULL) return 1;
  const struct p_variant *var = ps_variant_of(s, v);
  if (var == NULL) return 1;
  puts(var->name);
  return 0;
}

/* A command: its name, the least and most arguments (-1: any number),
 * what it runs, and its usage for messages. */
struct ps_command {
  const char *name;
  int min_args;
  int max_args;
  int (*run)(struct ps_state *, int, const char *const *);
  const char *usage;
};

static const struct ps_command ps_commands[] = {
  {"types", 0, 0, ps_cmd_types, "types"},
  {"entry_points", 0, 0, ps_cmd_entry_points, "entry_points"},
  {"call", 2, -1, ps_cmd_call, "call ENTRY OUT IN1 ... INM"},
  {"restore", 1, -1, ps_cmd_restore, "restore FILE VAR1 TYPE1 ... VARN TYPEN"},
  {"store", 1, -1, ps_cmd_store, "store FILE VAR1 ... VARN"},
  {"free", 0, -1, ps_cmd_free, "free VAR1 ... VARN"},
  {"rename", 2, 2, ps_cmd_rename, "rename OLD NEW"},
  {"inputs", 1, 1, ps_cmd_inputs, "inputs ENTRY"},
  {"output", 1, 1, ps_cmd_output, "output ENTRY"},
  {"clear", 0, 0, ps_cmd_clear, "clear"},
  {"kind", 1, 1, ps_cmd_kind, "kind TYPE"},
  {"type", 1, 1, ps_cmd_type, "type VAR"},
  {"pause_profiling", 0, 0, ps_cmd_pause_profiling, "pause_profiling"},
  {"unpause_profiling", 0, 0, ps_cmd_unpause_profiling, "unpause_profiling"},
  {"report", 0, 0, ps_cmd_report, "report"},
  {"set_tuning_param", 2, 2, ps_cmd_set_tuning_param, "set_tuning_param NAME VALUE"},
  {"tuning_params", 1, 1, ps_cmd_tuning_params, "tuning_params ENTRY"},
  {"tuning_param_class", 1, 1, ps_cmd_tuning_param_class, "tuning_param_class NAME"},
  {"attributes", 1, 1, ps_cmd_attributes, "attributes ENTRY"},
  {"rank", 1, 1, ps_cmd_rank, "rank TYPE"},
  {"elemtype", 1, 1, ps_cmd_elemtype, "elemtype TYPE"},
  {"new_array", 2, -1, ps_cmd_new_array, "new_array VAR TYPE DIM1 ... DIMN VALUE1 ... VALUEM"},
  {"set", 2, -1, ps_cmd_set, "set ARRAY VALUE INDEX1 ... INDEXN"},
  {"shape", 1, 1, ps_cmd_shape, "shape ARRAY"},
  {"index", 2, -1, ps_cmd_index, "index VAR ARRAY INDEX1 ... INDEXN"},
  {"zip", 2, -1, ps_cmd_zip, "zip VAR TYPE ARRAY1 ... ARRAYN"},
  {"unzip", 1, -1, ps_cmd_unzip, "unzip ARRAY VAR1 ... VARN"},
  {"fields", 1, 1, ps_cmd_fields, "fields TYPE"},
  {"new", 2, -1, ps_cmd_new, "new VAR TYPE FIELD1 ... FIELDN"},
  {"project", 3, 3, ps_cmd_project, "project VAR RECORD FIELD"},
  {"variants", 1, 1, ps_cmd_variants, "variants TYPE"},
  {"construct", 3, -1, ps_cmd_construct, "construct VAR TYPE VARIANT VALUE1 ... VALUEN"},
  {"destruct", 1, -1, ps_cmd_destruct, "destruct SUM VAR1 ... VARN"},
  {"variant", 1, 1, ps_cmd_variant, "variant SUM"},
};

#define PS_NCOMMANDS ((int)(sizeof ps_commands / sizeof ps_commands[0]))

/* Splits a line into words, in place: runs of non-space characters, or
 * text between double quotes (without them). The words go to *words
 * (grown as needed, *cap its room). The number of words, or -1 after
 * reporting an unterminated quote or running out of memory. */
static int ps_split_words(char *line, const char ***words, int *cap) {
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p != '\0' && isspace((unsigned char)*p)) p++;
    if (*p == '\0') return n;
    char *word;
    if (*p == '"') {
      word = ++p;
      while (*p != '\0' && *p != '"' && *p != '\n') p++;
      if (*p != '"') return ps_fail("Unterminated quote in command."), -1;
      *p++ = '\0';
    } else {
      word = p;
      while (*p != '\0' && !isspace((unsigned char)*p)) p++;
      if (*p != '\0') *p++ = '\0';
    }
    if (n == *cap) {
      int ncap = *cap * 2 + 16;
      const char **nw = realloc(*words, (size_t)ncap * sizeof *nw);
      if (nw == NULL) return ps_fail("Out of memory."), -1;
      *words = nw;
      *cap = ncap;
    }
    (*words)[n++] = word;
  }
}

/* Runs one command line (its output and failure, not the final OK). */
static void ps_run_line(struct ps_state *s, char *line, const char ***words, int *cap) {
  int n = ps_split_words(line, words, cap);
  if (n < 0) return;
  if (n == 0) {
    ps_fail("Empty line");
    return;
  }
  const char *name = (*words)[0];
  for (int i = 0; i < PS_NCOMMANDS; i++) {
    const struct ps_command *c = &ps_commands[i];
    if (strcmp(c->name, name) != 0) continue;
    int argc = n - 1;
    if (argc < c->min_args || (c->max_args >= 0 && argc > c->max_args)) {
      ps_fail("Wrong number of arguments (%d) for %s; usage: %s", argc, name, c->usage);
      return;
    }
    (void)c->run(s, argc, *words + 1);
    return;
  }
  ps_fail("Unknown command: %s", name);
}

/* ---- main ---- */

int main(int argc, char **argv) {
  struct ps_state s;
  memset(&s, 0, sizeof s);
  po_init(&s.po, &ps_program, argc, argv, "futhark-server");
  po_new_context(&s.po, "Error during context initialisation:\n");

  const char *dbg = getenv("FUTHARK_COMPILER_DEBUGGING");
  int echo = dbg != NULL && strcmp(dbg, "1") == 0;
  char *line = NULL;
  size_t line_cap = 0;
  const char **words = NULL;
  int words_cap = 0;
  fputs("%%% OK\n", stdout);
  fflush(stdout);
  while (getline(&line, &line_cap, stdin) >= 0) {
    if (echo) fprintf(stderr, "%s: command: %s", s.po.prog, line);
    ps_run_line(&s, line, &words, &words_cap);
    fputs("%%% OK\n", stdout);
    fflush(stdout);
  }

  while (s.nvars > 0) (void)ps_remove_var(&s, s.vars[s.nvars - 1]);
  free(s.vars);
  free(words);
  free(line);
  po_free(&s.po);
  return 0;
}
