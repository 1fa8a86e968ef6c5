/* parad C runtime, the fixed part of Futhark's C API: configurations,
 * contexts, errors, and the objects behind arrays and opaque values.
 *
 * An object (every `struct futhark_<t>_<r>d` and `struct futhark_opaque_<t>`)
 * is a `struct p_obj`: its leaves, the primitive values and arrays of
 * primitives the type is flattened into (as the compiled entry points take
 * them). An array leaf holds a reference to the memory block its elements
 * are in, so that projections, indexing and zipping are views that share
 * blocks; a scalar leaf holds its value inline. Freeing an object releases
 * its references; blocks are freed when their last reference goes.
 *
 * Threads: every function may be called from any thread. Calls of entry
 * points on one context are serialised by the context's lock; different
 * contexts run independently. A configuration must not be changed while a
 * context made from it is being created. */

#include <time.h>

#define FUTHARK_SUCCESS 0
#define FUTHARK_PROGRAM_ERROR 2
#define FUTHARK_OUT_OF_MEMORY 3

struct futhark_context_config {
  int debugging, logging, profiling;
  int num_threads;
  char *cache_file;
  /* The tuning parameters' values, and whether each was set (else the
   * program uses its default); futhark_get_tuning_param_count() of each. */
  int64_t *tuning;
  unsigned char *tuning_set;
};

/* Generated with the API (the program's tuning parameters). */
int futhark_get_tuning_param_count(void);
static int p_tuning_index(const char *name);

struct futhark_context {
  struct parad_ctx *p;
  pthread_mutex_t lock;
  char *error; /* the last error not yet taken by futhark_context_get_error */
  FILE *log;
  int debugging, logging, profiling, paused;
  int64_t calls, call_us; /* for futhark_context_report */
  char *raw_error;        /* the program's own message of the last failed call */
  int64_t raw_span;       /* and its span id (-1: none) */
};

/* ---- errors -------------------------------------------------------------- */

/* The formatted text in a malloc'd string (NULL when out of memory). */
__attribute__((unused, format(printf, 1, 2))) static char *p_format_str(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = p_vformat(fmt, ap);
  va_end(ap);
  return s;
}

/* Records an error for futhark_context_get_error (after any earlier one not
 * yet taken) and returns `code`. */
__attribute__((unused, format(printf, 3, 4))) static int p_fail(struct futhark_context *ctx, int code,
                                                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = p_vformat(fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&ctx->lock);
  if (msg != NULL && ctx->error != NULL) {
    size_t a = strlen(ctx->error), b = strlen(msg);
    char *both = malloc(a + b + 1);
    if (both != NULL) {
      memcpy(both, ctx->error, a);
      memcpy(both + a, msg, b + 1);
      free(msg);
      msg = both;
    }
  }
  if (msg != NULL) {
    free(ctx->error);
    ctx->error = msg;
  }
  pthread_mutex_unlock(&ctx->lock);
  return code;
}

__attribute__((unused)) static int p_oom(struct futhark_context *ctx) {
  return p_fail(ctx, FUTHARK_OUT_OF_MEMORY, "Out of memory.\n");
}

/* ---- objects ------------------------------------------------------------- */

struct p_ltype {
  int8_t prim;
  int32_t rank;
};

struct p_leaf {
  pmem mem;            /* arrays: a reference to the block of the elements */
  unsigned char *data; /* the first element (scalars: &scalar) */
  int64_t *shape;      /* rank entries, in the object's allocation */
  uint64_t scalar;     /* a scalar's value */
  int8_t prim;
  int32_t rank;
};

struct p_obj {
  int32_t n;
  struct p_leaf leaf[];
};

/* A placeholder element address for empty arrays. */
static unsigned char p_no_elements[8];

/* A new object with leaves of the types `lt` (n of them), all empty; NULL
 * when out of memory. */
__attribute__((unused)) static struct p_obj *p_obj_alloc(const struct p_ltype *lt, int32_t n) {
  size_t dims = 0;
  for (int32_t i = 0; i < n; i++) dims += (size_t)lt[i].rank;
  struct p_obj *o =
      calloc(1, sizeof(struct p_obj) + (size_t)n * sizeof(struct p_leaf) + dims * sizeof(int64_t));
  if (o == NULL) return NULL;
  o->n = n;
  int64_t *s = (int64_t *)(void *)(o->leaf + n);
  for (int32_t i = 0; i < n; i++) {
    struct p_leaf *l = &o->leaf[i];
    l->mem = PMEM_NULL;
    l->prim = lt[i].prim;
    l->rank = lt[i].rank;
    l->shape = s;
    s += lt[i].rank;
    l->data = l->rank == 0 ? (unsigned char *)&l->scalar : p_no_elements;
  }
  return o;
}

__attribute__((unused)) static void p_obj_free(struct p_obj *o) {
  if (o == NULL) return;
  for (int32_t i = 0; i < o->n; i++) pmem_unref(&o->leaf[i].mem);
  free(o);
}

__attribute__((unused)) static int64_t p_leaf_elems(const struct p_leaf *l) {
  int64_t n = 1;
  for (int32_t j = 0; j < l->rank; j++) n *= l->shape[j];
  return n;
}

/* dst becomes a view of src (same shape): a new reference to an array's
 * block, a copy of a scalar. */
__attribute__((unused)) static void p_leaf_share(struct p_leaf *dst, const struct p_leaf *src) {
  for (int32_t j = 0; j < src->rank; j++) dst->shape[j] = src->shape[j];
  if (src->rank == 0) {
    memcpy(&dst->scalar, src->data, pv_prim_size(src->prim));
    dst->data = (unsigned char *)&dst->scalar;
  } else {
    pmem_set(&dst->mem, src->mem);
    dst->data = src->data;
  }
}

/* The arguments of an entry point from an object's leaves (borrowed). */
__attribute__((unused)) static void p_obj_args(struct parad_value *args, const struct p_obj *o) {
  for (int32_t i = 0; i < o->n; i++) {
    args[i].data = o->leaf[i].data;
    args[i].shape = o->leaf[i].shape;
  }
}

/* An object of the leaf types `lt` from an entry point's results, which it
 * takes over (released either way); NULL when out of memory. */
__attribute__((unused)) static struct p_obj *p_obj_results(const struct p_ltype *lt, int32_t n, struct parad_result *r) {
  struct p_obj *o = p_obj_alloc(lt, n);
  if (o != NULL) {
    for (int32_t i = 0; i < n; i++) {
      struct p_leaf *l = &o->leaf[i];
      if (l->rank == 0) {
        memcpy(&l->scalar, r[i].data, pv_prim_size(l->prim));
      } else {
        for (int32_t j = 0; j < l->rank; j++) l->shape[j] = r[i].shape[j];
        l->mem = r[i].mem;
        r[i].mem = PMEM_NULL;
        l->data = r[i].data;
      }
    }
  }
  for (int32_t i = 0; i < n; i++) parad_result_free(&r[i]);
  return o;
}

/* A part of a record, sum or zip being built: a scalar (prim >= 0, `v`
 * points to its value) or an object (prim < 0). */
__attribute__((unused)) static int p_fill(struct p_obj *o, int32_t at, int prim, const void *v) {
  if (prim >= 0) {
    memcpy(&o->leaf[at].scalar, v, pv_prim_size(prim));
    return 1;
  }
  const struct p_obj *src = v;
  for (int32_t i = 0; i < src->n; i++) p_leaf_share(&o->leaf[at + i], &src->leaf[i]);
  return src->n;
}

/* A record (or an array of records from its fields' arrays, `outer` > 0
 * dimensions that must agree) of the leaf types `lt` from its parts. */
__attribute__((unused)) static int p_obj_concat(struct futhark_context *ctx, void **out, const struct p_ltype *lt,
                        int32_t n, int nparts, const int *prims, const void *const *parts,
                        int32_t outer) {
  for (int k = 0; k < nparts; k++)
    if (prims[k] < 0 && parts[k] == NULL)
      return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Argument %d is NULL.\n", k + 1);
  if (outer > 0) {
    const struct p_obj *first = NULL;
    for (int k = 0; k < nparts; k++) {
      const struct p_obj *p = parts[k];
      if (p->n == 0) continue;
      if (first == NULL) {
        first = p;
        continue;
      }
      for (int32_t j = 0; j < outer; j++)
        if (p->leaf[0].shape[j] != first->leaf[0].shape[j])
          return p_fail(ctx, 1,
                        "Cannot zip arrays of different sizes (dimension %d: %lld and %lld).\n",
                        (int)j, (long long)first->leaf[0].shape[j],
                        (long long)p->leaf[0].shape[j]);
    }
  }
  struct p_obj *o = p_obj_alloc(lt, n);
  if (o == NULL) return p_oom(ctx);
  int32_t at = 0;
  for (int k = 0; k < nparts; k++) at += p_fill(o, at, prims[k], parts[k]);
  *out = o;
  return 0;
}

/* Leaves [first, first + n) of `src` as a new object of the leaf types
 * `lt`; for a scalar (prim >= 0) its value is written to `out` instead. */
__attribute__((unused)) static int p_obj_project(struct futhark_context *ctx, void *out, const struct p_obj *src,
                         int32_t first, const struct p_ltype *lt, int32_t n, int prim) {
  if (src == NULL) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The value is NULL.\n");
  if (prim >= 0) {
    memcpy(out, src->leaf[first].data, pv_prim_size(prim));
    return 0;
  }
  struct p_obj *o = p_obj_alloc(lt, n);
  if (o == NULL) return p_oom(ctx);
  for (int32_t i = 0; i < n; i++) p_leaf_share(&o->leaf[i], &src->leaf[first + i]);
  *(void **)out = o;
  return 0;
}

/* A value of a sum type of the leaf types `lt`: tag `tag` (leaf 0), the
 * payload `parts` at leaf `first`, every other leaf blank (zero, or an
 * empty array). */
__attribute__((unused)) static int p_obj_sum(struct futhark_context *ctx, void **out, const struct p_ltype *lt, int32_t n,
                     int64_t tag, int32_t first, int nparts, const int *prims,
                     const void *const *parts) {
  for (int k = 0; k < nparts; k++)
    if (prims[k] < 0 && parts[k] == NULL)
      return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Argument %d is NULL.\n", k + 1);
  struct p_obj *o = p_obj_alloc(lt, n);
  if (o == NULL) return p_oom(ctx);
  if (o->leaf[0].prim == PV_I8) {
    int8_t t = (int8_t)tag;
    memcpy(&o->leaf[0].scalar, &t, 1);
  } else {
    int32_t t = (int32_t)tag;
    memcpy(&o->leaf[0].scalar, &t, 4);
  }
  int32_t at = first;
  for (int k = 0; k < nparts; k++) at += p_fill(o, at, prims[k], parts[k]);
  *out = o;
  return 0;
}

/* The constructor number of a sum value. */
__attribute__((unused)) static int p_obj_variant(const struct p_obj *o) {
  if (o == NULL || o->n == 0) return -1;
  if (o->leaf[0].prim == PV_I8) {
    int8_t t;
    memcpy(&t, o->leaf[0].data, 1);
    return t;
  }
  int32_t t;
  memcpy(&t, o->leaf[0].data, 4);
  return t;
}

/* Whether `is` (rank entries) is inside the outer dimensions of `o`'s
 * leaves; an error otherwise. */
__attribute__((unused)) static int p_check_index(struct futhark_context *ctx, const struct p_obj *o, int32_t rank,
                         const int64_t *is) {
  if (o == NULL) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The array is NULL.\n");
  if (o->n == 0) return 0;
  for (int32_t j = 0; j < rank; j++)
    if (is[j] < 0 || is[j] >= o->leaf[0].shape[j])
      return p_fail(ctx, 1,
                    "Index %lld out of bounds for dimension %d of size %lld.\n", (long long)is[j],
                    (int)j, (long long)o->leaf[0].shape[j]);
  return 0;
}

/* The offset in elements of the row `is` of leaf `l` (its first `rank`
 * dimensions indexed). */
__attribute__((unused)) static int64_t p_row_offset(const struct p_leaf *l, int32_t rank, const int64_t *is) {
  int64_t off = 0, row = 1;
  for (int32_t j = rank; j < l->rank; j++) row *= l->shape[j];
  for (int32_t j = 0; j < rank; j++) {
    int64_t stride = row;
    for (int32_t i = j + 1; i < rank; i++) stride *= l->shape[i];
    off += is[j] * stride;
  }
  return off;
}

/* Element `is` of an array of non-primitive values (a copy, which a later
 * `set` on the array does not change). */
__attribute__((unused)) static int p_obj_index(struct futhark_context *ctx, void **out, const struct p_obj *arr,
                       const struct p_ltype *elt, int32_t rank, const int64_t *is) {
  int e = p_check_index(ctx, arr, rank, is);
  if (e) return e;
  struct p_obj *o = p_obj_alloc(elt, arr->n);
  if (o == NULL) return p_oom(ctx);
  for (int32_t i = 0; i < arr->n; i++) {
    const struct p_leaf *s = &arr->leaf[i];
    struct p_leaf *d = &o->leaf[i];
    unsigned char *at = s->data + p_row_offset(s, rank, is) * (int64_t)pv_prim_size(s->prim);
    for (int32_t j = 0; j < d->rank; j++) d->shape[j] = s->shape[rank + j];
    size_t size = pv_prim_size(d->prim);
    if (d->rank == 0) {
      memcpy(&d->scalar, at, size);
      continue;
    }
    int64_t count = p_leaf_elems(d);
    if (pmem_alloc_n(&d->mem, count > 0 ? count : 1, (int64_t)size)) {
      p_obj_free(o);
      return p_oom(ctx);
    }
    d->data = d->mem.data;
    if (count > 0) memcpy(d->data, at, (size_t)count * size);
  }
  *out = o;
  return 0;
}

/* Copies `elem` into row `is` of `arr`, whose rows must have its shape. */
__attribute__((unused)) static int p_obj_set(struct futhark_context *ctx, struct p_obj *arr, const struct p_obj *elem,
                     int32_t rank, const int64_t *is) {
  int e = p_check_index(ctx, arr, rank, is);
  if (e) return e;
  if (elem == NULL) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The element is NULL.\n");
  for (int32_t i = 0; i < arr->n; i++)
    for (int32_t j = 0; j < elem->leaf[i].rank; j++)
      if (elem->leaf[i].shape[j] != arr->leaf[i].shape[rank + j])
        return p_fail(ctx, FUTHARK_PROGRAM_ERROR,
                      "The element's shape does not match the array's rows.\n");
  for (int32_t i = 0; i < arr->n; i++) {
    const struct p_leaf *s = &elem->leaf[i];
    struct p_leaf *d = &arr->leaf[i];
    size_t size = pv_prim_size(d->prim);
    memmove(d->data + p_row_offset(d, rank, is) * (int64_t)size, s->data,
            (size_t)p_leaf_elems(s) * size);
  }
  return 0;
}

/* An array of non-primitive values from `count` elements (row-major) with
 * outer dimensions `dims` (`rank` of them); the elements' leaves must have
 * the same shapes. */
__attribute__((unused)) static int p_obj_from_elems(struct futhark_context *ctx, void **out, const struct p_ltype *lt,
                            int32_t n, const struct p_obj *const *elems, int32_t rank,
                            const int64_t *dims) {
  int64_t count = 1;
  for (int32_t j = 0; j < rank; j++) {
    if (dims[j] < 0) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Negative dimension.\n");
    count *= dims[j];
  }
  for (int64_t k = 0; k < count; k++) {
    if (elems[k] == NULL) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Element %lld is NULL.\n", (long long)k);
    for (int32_t i = 0; i < n; i++)
      for (int32_t j = 0; j < elems[k]->leaf[i].rank; j++)
        if (elems[k]->leaf[i].shape[j] != elems[0]->leaf[i].shape[j])
          return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The elements have different shapes.\n");
  }
  struct p_obj *o = p_obj_alloc(lt, n);
  if (o == NULL) return p_oom(ctx);
  for (int32_t i = 0; i < n; i++) {
    struct p_leaf *d = &o->leaf[i];
    for (int32_t j = 0; j < rank; j++) d->shape[j] = dims[j];
    for (int32_t j = rank; j < d->rank; j++)
      d->shape[j] = count > 0 ? elems[0]->leaf[i].shape[j - rank] : 0;
    int64_t total = p_leaf_elems(d);
    size_t size = pv_prim_size(d->prim);
    if (pmem_alloc_n(&d->mem, total > 0 ? total : 1, (int64_t)size)) {
      p_obj_free(o);
      return p_oom(ctx);
    }
    d->data = d->mem.data;
    int64_t row = count > 0 ? p_leaf_elems(&elems[0]->leaf[i]) : 0;
    for (int64_t k = 0; k < count; k++)
      memcpy(d->data + k * row * (int64_t)size, elems[k]->leaf[i].data, (size_t)row * size);
  }
  *out = o;
  return 0;
}

/* ---- arrays of primitives ------------------------------------------------ */

/* A new array of `prim` elements and `rank` dimensions `dims`: a copy of
 * `data`, or (raw) a view of it that the caller keeps alive. */
__attribute__((unused)) static struct p_obj *p_array_new(struct futhark_context *ctx, int prim, int32_t rank,
                                 const void *data, const int64_t *dims, int raw) {
  struct p_ltype lt = {(int8_t)prim, rank};
  int64_t n = 1;
  for (int32_t j = 0; j < rank; j++) {
    if (dims[j] < 0) {
      p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Negative dimension %lld.\n", (long long)dims[j]);
      return NULL;
    }
    if (__builtin_mul_overflow(n, dims[j], &n)) {
      p_oom(ctx);
      return NULL;
    }
  }
  struct p_obj *o = p_obj_alloc(&lt, 1);
  if (o == NULL) {
    p_oom(ctx);
    return NULL;
  }
  struct p_leaf *l = &o->leaf[0];
  for (int32_t j = 0; j < rank; j++) l->shape[j] = dims[j];
  size_t size = pv_prim_size(prim);
  if (raw) {
    l->data = (unsigned char *)data;
    return o;
  }
  if (pmem_alloc_n(&l->mem, n > 0 ? n : 1, (int64_t)size)) {
    p_obj_free(o);
    p_oom(ctx);
    return NULL;
  }
  l->data = l->mem.data;
  if (n > 0 && data == NULL) {
    p_obj_free(o);
    p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The data of a new array is NULL.\n");
    return NULL;
  }
  if (n > 0) memcpy(l->data, data, (size_t)n * size);
  return o;
}

__attribute__((unused)) static int p_array_values(struct futhark_context *ctx, const struct p_obj *o, void *data) {
  if (o == NULL) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The array is NULL.\n");
  int64_t n = p_leaf_elems(&o->leaf[0]);
  if (n > 0) memcpy(data, o->leaf[0].data, (size_t)n * pv_prim_size(o->leaf[0].prim));
  return 0;
}

__attribute__((unused)) static int p_array_index(struct futhark_context *ctx, void *out, const struct p_obj *o,
                         const int64_t *is) {
  int e = p_check_index(ctx, o, o == NULL ? 0 : o->leaf[0].rank, is);
  if (e) return e;
  const struct p_leaf *l = &o->leaf[0];
  size_t size = pv_prim_size(l->prim);
  memcpy(out, l->data + p_row_offset(l, l->rank, is) * (int64_t)size, size);
  return 0;
}

/* ---- store and restore --------------------------------------------------- */

__attribute__((unused)) static uint64_t p_type_hash(const char *name) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    h ^= *p;
    h *= 0x100000001b3ULL;
  }
  return h;
}

__attribute__((unused)) static void p_put_u64(unsigned char *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(x >> (8 * i));
}

__attribute__((unused)) static uint64_t p_get_u64(const unsigned char *p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x |= (uint64_t)p[i] << (8 * i);
  return x;
}

#define P_OPAQUE_HEADER 32

/* Futhark's store: the opaque byte format (a header, then each leaf in
 * the binary value format). */
__attribute__((unused)) static int p_obj_store(struct futhark_context *ctx, const struct p_obj *o, const char *type,
                       void **p, size_t *n) {
  if (o == NULL) return p_fail(ctx, FUTHARK_PROGRAM_ERROR, "The value is NULL.\n");
  size_t total = P_OPAQUE_HEADER;
  for (int32_t i = 0; i < o->n; i++)
    total += pv_binary_size(o->leaf[i].prim, o->leaf[i].rank, o->leaf[i].shape);
  *n = total;
  if (p == NULL) return 0;
  if (*p == NULL) {
    *p = malloc(total);
    if (*p == NULL) return p_oom(ctx);
  }
  unsigned char *b = *p;
  memcpy(b, "PARADOPQ", 8);
  p_put_u64(b + 8, total);
  p_put_u64(b + 16, p_type_hash(type));
  p_put_u64(b + 24, (uint64_t)(uint32_t)o->n);
  unsigned char *at = b + P_OPAQUE_HEADER;
  for (int32_t i = 0; i < o->n; i++)
    at = pv_binary_put(at, o->leaf[i].prim, o->leaf[i].rank, o->leaf[i].data, o->leaf[i].shape);
  return 0;
}

/* Futhark's restore of a value of type `type` with leaves `lt` (n). */
__attribute__((unused)) static struct p_obj *p_obj_restore(struct futhark_context *ctx, const void *p, const char *type,
                                   const struct p_ltype *lt, int32_t n) {
  const unsigned char *b = p;
  if (b == NULL || memcmp(b, "PARADOPQ", 8) != 0) {
    p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Cannot restore a value of type %s: not a stored parad value.\n", type);
    return NULL;
  }
  uint64_t total = p_get_u64(b + 8);
  if (p_get_u64(b + 16) != p_type_hash(type) || p_get_u64(b + 24) != (uint64_t)(uint32_t)n ||
      total < P_OPAQUE_HEADER) {
    p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Cannot restore a value of type %s: the bytes hold a value of another type.\n", type);
    return NULL;
  }
  struct p_obj *o = p_obj_alloc(lt, n);
  if (o == NULL) {
    p_oom(ctx);
    return NULL;
  }
  size_t at = P_OPAQUE_HEADER;
  for (int32_t i = 0; i < n; i++) {
    struct p_leaf *l = &o->leaf[i];
    const unsigned char *elems = NULL;
    size_t used = 0;
    char *err = NULL;
    if (at > total ||
        pv_binary_get(b + at, (size_t)total - at, l->prim, l->rank, l->shape, &elems, &used, &err)) {
      p_fail(ctx, FUTHARK_PROGRAM_ERROR, "Cannot restore a value of type %s: %s\n", type,
             err != NULL ? err : "truncated");
      free(err);
      p_obj_free(o);
      return NULL;
    }
    at += used;
    int64_t count = p_leaf_elems(l);
    size_t size = pv_prim_size(l->prim);
    if (l->rank == 0) {
      memcpy(&l->scalar, elems, size);
      continue;
    }
    if (pmem_alloc_n(&l->mem, count > 0 ? count : 1, (int64_t)size)) {
      p_obj_free(o);
      p_oom(ctx);
      return NULL;
    }
    l->data = l->mem.data;
    if (count > 0) memcpy(l->data, elems, (size_t)count * size);
  }
  return o;
}

/* ---- configuration and context ------------------------------------------- */

struct futhark_context_config *futhark_context_config_new(void) {
  struct futhark_context_config *cfg = calloc(1, sizeof *cfg);
  if (cfg == NULL) return NULL;
  cfg->num_threads = 0;
  size_t n = (size_t)futhark_get_tuning_param_count() + 1;
  cfg->tuning = calloc(n, sizeof *cfg->tuning);
  cfg->tuning_set = calloc(n, 1);
  if (cfg->tuning == NULL || cfg->tuning_set == NULL) {
    free(cfg->tuning);
    free(cfg->tuning_set);
    free(cfg);
    return NULL;
  }
  return cfg;
}

void futhark_context_config_free(struct futhark_context_config *cfg) {
  if (cfg == NULL) return;
  free(cfg->cache_file);
  free(cfg->tuning);
  free(cfg->tuning_set);
  free(cfg);
}

void futhark_context_config_set_debugging(struct futhark_context_config *cfg, int flag) {
  cfg->debugging = flag;
  if (flag) cfg->logging = 1;
}

void futhark_context_config_set_profiling(struct futhark_context_config *cfg, int flag) {
  cfg->profiling = flag;
}

void futhark_context_config_set_logging(struct futhark_context_config *cfg, int flag) {
  cfg->logging = flag;
}

void futhark_context_config_set_cache_file(struct futhark_context_config *cfg, const char *f) {
  /* Nothing is compiled at run time, so nothing is cached; the name is kept. */
  free(cfg->cache_file);
  cfg->cache_file = f != NULL ? strdup(f) : NULL;
}

/* Contexts read the configuration's values at each call, so a change
 * (the server's set_tuning_param) takes effect at the next call. */
int futhark_context_config_set_tuning_param(struct futhark_context_config *cfg,
                                            const char *param_name, size_t new_value) {
  int i = p_tuning_index(param_name);
  if (i < 0) return 1;
  cfg->tuning[i] = (int64_t)new_value;
  cfg->tuning_set[i] = 1;
  return 0;
}

#ifdef FUTHARK_BACKEND_multicore
void futhark_context_config_set_num_threads(struct futhark_context_config *cfg, int n) {
  cfg->num_threads = n;
}
#endif

struct futhark_context *futhark_context_new(struct futhark_context_config *cfg) {
  struct futhark_context *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  pthread_mutex_init(&ctx->lock, NULL);
  ctx->log = stderr;
  if (cfg != NULL) {
    ctx->debugging = cfg->debugging;
    ctx->logging = cfg->logging;
    ctx->profiling = cfg->profiling;
  }
#ifdef FUTHARK_BACKEND_multicore
  int threads = cfg != NULL ? cfg->num_threads : 0;
#else
  int threads = 1;
#endif
  ctx->p = parad_ctx_new(threads);
  if (ctx->p == NULL) {
    ctx->error = strdup("Out of memory: cannot make the context.\n");
  } else if (cfg != NULL) {
    ctx->p->tuning = cfg->tuning;
    ctx->p->tuning_set = cfg->tuning_set;
  }
  return ctx;
}

void futhark_context_free(struct futhark_context *ctx) {
  if (ctx == NULL) return;
  parad_ctx_free(ctx->p);
  free(ctx->error);
  free(ctx->raw_error);
  pthread_mutex_destroy(&ctx->lock);
  free(ctx);
}

/* The device that the GPU entry points of the program run on (a table
 * that must outlive the context); parad's loader calls it. */
void parad_context_set_device(struct futhark_context *ctx, const struct parad_device *dev) {
  parad_ctx_set_device(ctx->p, dev);
}

int futhark_context_sync(struct futhark_context *ctx) {
  (void)ctx;
  return 0; /* every operation has finished when it returns */
}

char *futhark_context_get_error(struct futhark_context *ctx) {
  pthread_mutex_lock(&ctx->lock);
  char *e = ctx->error;
  ctx->error = NULL;
  pthread_mutex_unlock(&ctx->lock);
  return e;
}

void futhark_context_set_logging_file(struct futhark_context *ctx, FILE *f) { ctx->log = f; }

void futhark_context_pause_profiling(struct futhark_context *ctx) { ctx->paused = 1; }

void futhark_context_unpause_profiling(struct futhark_context *ctx) { ctx->paused = 0; }

int futhark_context_clear_caches(struct futhark_context *ctx) {
  (void)ctx;
  return 0; /* the context keeps no caches between calls */
}

char *futhark_context_report(struct futhark_context *ctx) {
  pthread_mutex_lock(&ctx->lock);
  char *r = p_format_str("{\"memory\":{\"peak_bytes\":%lld},\"calls\":%lld,\"call_us\":%lld,\"events\":[]}",
                         (long long)__atomic_load_n(&p_mem_peak, __ATOMIC_RELAXED),
                         (long long)ctx->calls, (long long)ctx->call_us);
  pthread_mutex_unlock(&ctx->lock);
  return r;
}

__attribute__((unused)) static int64_t p_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* Calls a compiled entry point under the context's lock; a failure becomes
 * the context's error (with its source location from `spans`). */
__attribute__((unused)) static int p_call(struct futhark_context *ctx, const char *name,
                  int32_t (*f)(struct parad_ctx *, const struct parad_value *, struct parad_result *),
                  const struct parad_value *args, struct parad_result *res,
                  const char *const *spans, int64_t nspans) {
  if (ctx == NULL || ctx->p == NULL) return FUTHARK_PROGRAM_ERROR;
  pthread_mutex_lock(&ctx->lock);
  int64_t t0 = p_now_us();
  parad_ctx_reset(ctx->p);
  int32_t failed = f(ctx->p, args, res);
  int64_t t1 = p_now_us();
  ctx->calls++;
  free(ctx->raw_error);
  ctx->raw_error = NULL;
  ctx->raw_span = -1;
  ctx->call_us += t1 - t0;
  if (ctx->logging) fprintf(ctx->log, "Entry point %s ran in %lld us.\n", name, (long long)(t1 - t0));
  char *msg = NULL;
  int code = FUTHARK_SUCCESS;
  if (failed) {
    const char *m = parad_ctx_error(ctx->p);
    if (m == NULL) m = "the program failed";
    int64_t s = parad_ctx_error_span(ctx->p);
    code = (strncmp(m, "Out of memory", 13) == 0 || strncmp(m, "out of memory", 13) == 0)
               ? FUTHARK_OUT_OF_MEMORY
               : FUTHARK_PROGRAM_ERROR;
    if (s >= 0 && s < nspans)
      msg = p_format_str("Error: %s\n\nBacktrace:\n-> #0  %s\n", m, spans[s]);
    else
      msg = p_format_str("Error: %s\n", m);
    free(ctx->raw_error);
    ctx->raw_error = strdup(m);
    ctx->raw_span = s;
    parad_ctx_reset(ctx->p);
  }
  pthread_mutex_unlock(&ctx->lock);
  if (failed) {
    p_fail(ctx, code, "%s", msg != NULL ? msg : "Out of memory.\n");
    free(msg);
  }
  return code;
}

/* ---- the tables of a program's types and entry points --------------------
 * For the executable's and the server's `main`, which handle values
 * generically: a value is a `void *`, which for a primitive points to its
 * value (8 bytes of room) and otherwise is the object; an "out" pointer is
 * the primitive's room, or a `void **` for an object. */

enum p_kind { P_KIND_PRIM, P_KIND_ARRAY, P_KIND_RECORD, P_KIND_SUM, P_KIND_OPAQUE };

struct p_type;

struct p_field {
  const char *name;
  const struct p_type *type;
  int (*project)(struct futhark_context *ctx, void *out, const void *obj);
};

struct p_variant {
  const char *name;
  int npayload;
  const struct p_type *const *payload;
  int (*construct)(struct futhark_context *ctx, void **out, const void *const *payload);
  int (*destruct)(struct futhark_context *ctx, void *const *outs, const void *obj);
};

struct p_type {
  const char *name; /* as the server prints it: "i32", "[][]f64", "(i32, []f32)" */
  enum p_kind kind; /* P_KIND_OPAQUE for abstract types and arrays of non-primitives */
  int prim;         /* PV_* of a primitive or of a primitive array's elements; else -1 */
  int rank;         /* arrays (of anything); else 0 */
  int (*free)(struct futhark_context *, void *obj);
  int (*store)(struct futhark_context *, const void *obj, void **p, size_t *n);
  void *(*restore)(struct futhark_context *, const void *p);
  const int64_t *(*shape)(struct futhark_context *, void *arr);
  void *(*new_array)(struct futhark_context *, const void *data, const int64_t *shape);
  int (*values)(struct futhark_context *, void *arr, void *data);
  int nfields;
  const struct p_field *fields;
  int (*new_record)(struct futhark_context *, void **out, const void *const *fields);
  int nvariants;
  const struct p_variant *variants;
  int (*variant)(struct futhark_context *, const void *obj);
  const struct p_type *elem;
  int (*index)(struct futhark_context *, void *out, void *arr, const int64_t *is);
  int (*set)(struct futhark_context *, void *arr, const void *elem, const int64_t *is);
  int (*zip)(struct futhark_context *, void **out, const void *const *fields);
  /* arrays of primitives: a view of the caller's elements */
  void *(*new_raw)(struct futhark_context *, const void *data, const int64_t *shape);
  /* arrays of non-primitives: a new array of the elements (row-major) */
  int (*new_elems)(struct futhark_context *, void **out, const void *const *elems,
                   const int64_t *shape);
};

struct p_entry {
  const char *name;
  int (*call)(struct futhark_context *, void *out, const void *const *ins);
  int nin;
  const struct p_type *const *in_types;
  const int *in_unique;
  const struct p_type *out_type;
  int out_unique;
  int nattrs;
  const char *const *attrs;
  int ntuning;
  const char *const *tuning;
};

#ifndef PARAD_LIBRARY
/* parad's own loader (crates/cgen/src/load.rs): the program's own message
 * and span id of the last failed entry point call (NULL if the last call
 * did not fail), owned by the context. */
__attribute__((visibility("default"))) const char *parad_api_error(struct futhark_context *ctx,
                                                                  int64_t *span) {
  *span = ctx->raw_error != NULL ? ctx->raw_span : -1;
  return ctx->raw_error;
}
#endif
