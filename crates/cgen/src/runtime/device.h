/* parad C runtime, part 5: device memory and kernels, for the entry points
 * of the GPU backends (crates/gpu). The host program gives the context a
 * device (a table of functions, struct parad_device in mem.h); blocks
 * allocated on it keep that table in their header, so that the last
 * reference releases them where they live. Every failure of the device
 * becomes the call's error. */

PARAD_EXPORT void parad_ctx_set_device(struct parad_ctx *ctx, const struct parad_device *dev) {
  pmem_unref(&ctx->kernel_errors);
  ctx->device = dev;
}

/* Records a failure of the device as the call's error; returns 1. */
static int p_device_fail(struct parad_ctx *ctx, const char *what) {
  const struct parad_device *dev = ctx->device;
  const char *why = dev != NULL ? dev->error(dev->self) : "no device was given to the context";
  parad_error(ctx, -1, "GPU %s failed: %s", what, why != NULL ? why : "unknown error");
  return 1;
}

/* pmem_alloc_n on the device: 0, or 1 when the device has no room (or
 * there is no device; then the error is recorded already). */
static inline int pmem_device_alloc_n(struct parad_ctx *ctx, pmem *m, int64_t n, int64_t size) {
  const struct parad_device *dev = ctx->device;
  if (dev == NULL) {
    p_device_fail(ctx, "allocation");
    return 1;
  }
  int64_t bytes;
  if (n < 0 || __builtin_mul_overflow(n, size, &bytes) || bytes > INT64_MAX - P_MEM_HEADER) {
    pmem_unref(m);
    return 1;
  }
  if (pmem_unique(*m) && m->rc[2] == (int64_t)(intptr_t)dev && m->rc[1] >= bytes) return 0;
  pmem_unref(m);
  int64_t *hdr = malloc(P_MEM_HEADER);
  if (hdr == NULL) return 1;
  void *buf = NULL;
  if (dev->alloc(dev->self, bytes, &buf) != 0 || buf == NULL) {
    free(hdr);
    return 1;
  }
  hdr[0] = 1;
  hdr[1] = bytes;
  hdr[2] = (int64_t)(intptr_t)dev;
  p_mem_count(bytes + P_MEM_HEADER);
  m->rc = hdr;
  m->data = buf;
  return 0;
}

/* Host bytes to the device block m at byte offset off. */
static inline int p_device_write(struct parad_ctx *ctx, pmem m, int64_t off, const void *src,
                                 int64_t bytes) {
  const struct parad_device *dev = ctx->device;
  if (bytes <= 0) return 0;
  if (dev == NULL || dev->write(dev->self, m.data, off, src, bytes) != 0)
    return p_device_fail(ctx, "write");
  return 0;
}

static inline int p_device_read(struct parad_ctx *ctx, void *dst, pmem m, int64_t off,
                                int64_t bytes) {
  const struct parad_device *dev = ctx->device;
  if (bytes <= 0) return 0;
  if (dev == NULL || dev->read(dev->self, dst, m.data, off, bytes) != 0)
    return p_device_fail(ctx, "read");
  return 0;
}

static inline int p_device_copy(struct parad_ctx *ctx, pmem dst, int64_t dst_off, pmem src,
                                int64_t src_off, int64_t bytes) {
  const struct parad_device *dev = ctx->device;
  if (bytes <= 0) return 0;
  if (dev == NULL || dev->copy(dev->self, dst.data, dst_off, src.data, src_off, bytes) != 0)
    return p_device_fail(ctx, "copy");
  return 0;
}

static inline int p_device_launch(struct parad_ctx *ctx, int32_t kernel, int64_t n, int32_t nargs,
                                  const struct parad_karg *args) {
  const struct parad_device *dev = ctx->device;
  if (n <= 0) return 0;
  if (dev == NULL || dev->launch(dev->self, kernel, n, nargs, args) != 0)
    return p_device_fail(ctx, "kernel launch");
  return 0;
}

/* One element of a device block read or written by host code. A failed
 * read records the error and gives 0; the call fails when it returns. */
#define P_DEVICE_ELEM(t)                                                       \
  __attribute__((unused)) static inline t p_device_read_##t(struct parad_ctx *ctx, pmem m, int64_t i) { \
    t x;                                                                       \
    memset(&x, 0, sizeof x);                                                   \
    p_device_read(ctx, &x, m, i * (int64_t)sizeof(t), (int64_t)sizeof(t));     \
    return x;                                                                  \
  }                                                                            \
  __attribute__((unused)) static inline int p_device_write_##t(struct parad_ctx *ctx, pmem m, int64_t i, t x) { \
    return p_device_write(ctx, m, i * (int64_t)sizeof(t), &x, (int64_t)sizeof(t)); \
  }
#define P_DEVICE_ELEM_INT(t, ut, st, uw, w) P_DEVICE_ELEM(t)
P_INTS(P_DEVICE_ELEM_INT)
P_DEVICE_ELEM(f16) P_DEVICE_ELEM(f32) P_DEVICE_ELEM(f64) P_DEVICE_ELEM(bool)

/* Kernels report an error in P_KERNEL_ERROR_WORDS words of a device block
 * of the context: the failing site plus one (0: none), then the site's
 * arguments, each as 64 bits (integers widened, floats as f64 bits). */
#define P_KERNEL_ERROR_WORDS 8

/* The context's block of kernel error words, all zero (allocated on first
 * use). */
static inline int p_kernel_errors(struct parad_ctx *ctx, pmem *out) {
  if (ctx->kernel_errors.rc == NULL) {
    int64_t zero[P_KERNEL_ERROR_WORDS] = {0};
    if (pmem_device_alloc_n(ctx, &ctx->kernel_errors, P_KERNEL_ERROR_WORDS, sizeof(int64_t))) {
      if (!parad_has_failed(ctx)) parad_error(ctx, -1, "Out of memory on the GPU");
      return 1;
    }
    if (p_device_write(ctx, ctx->kernel_errors, 0, zero, sizeof zero)) return 1;
  }
  *out = ctx->kernel_errors;
  return 0;
}

/* After a kernel with error sites: its error words in `words`; returns 1
 * when a thread failed (the words are then cleared on the device), -1 when
 * the device failed, 0 otherwise. */
static inline int p_kernel_failed(struct parad_ctx *ctx, int64_t *words) {
  if (p_device_read(ctx, words, ctx->kernel_errors, 0, P_KERNEL_ERROR_WORDS * sizeof(int64_t)))
    return -1;
  if (words[0] == 0) return 0;
  int64_t zero = 0;
  if (p_device_write(ctx, ctx->kernel_errors, 0, &zero, sizeof zero)) return -1;
  return 1;
}
