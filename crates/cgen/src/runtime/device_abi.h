/* parad C runtime, part 2b: the device table of the GPU backends. */
#include <stdint.h>

/* A device: the host program supplies it as a table of functions, each
 * returning 0 on success; offsets and sizes are in bytes (the module
 * parad_gpu::device documents the conventions). */
struct parad_karg {
  int32_t is_buffer; /* value points to a buffer handle, else to `size` bytes */
  int32_t size;
  const void *value;
};
struct parad_device {
  void *self;
  int (*alloc)(void *self, int64_t bytes, void **buf);
  void (*release)(void *self, void *buf);
  int (*write)(void *self, void *dst, int64_t dst_off, const void *src, int64_t bytes);
  int (*read)(void *self, void *dst, const void *src, int64_t src_off, int64_t bytes);
  int (*copy)(void *self, void *dst, int64_t dst_off, const void *src, int64_t src_off,
              int64_t bytes);
  int (*launch)(void *self, int32_t kernel, int64_t n, int32_t nargs,
                const struct parad_karg *args);
  const char *(*error)(void *self);
};
