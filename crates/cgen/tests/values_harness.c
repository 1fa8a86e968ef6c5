/* Test harness for the runtime's values.h (see values_c.rs).
 *
 *   values_harness PRIM RANK text     reads values of type PRIM (a pv_prim
 *                                     number) and rank RANK from standard
 *                                     input until its end, and prints each in
 *                                     the text format, one per line;
 *   values_harness PRIM RANK binary   the same, printing the binary format;
 *   values_harness PRIM RANK get      reads all of standard input and parses
 *                                     binary values from memory with
 *                                     pv_binary_get, writing each back with
 *                                     pv_binary_put;
 *   values_harness PRIM RANK one      reads one value, prints it in the text
 *                                     format and a newline, then copies the
 *                                     rest of standard input (which must
 *                                     start right after the value).
 *
 * A value that cannot be read: its message on standard error, exit 1. */

#include "values.h"

/* Reads all of standard input; exits on failure. */
static unsigned char *slurp(size_t *n) {
  size_t cap = 1 << 16;
  unsigned char *p = malloc(cap);
  *n = 0;
  for (;;) {
    if (p == NULL) exit(3);
    size_t got = fread(p + *n, 1, cap - *n, stdin);
    *n += got;
    if (*n < cap) return p;
    cap *= 2;
    p = realloc(p, cap);
  }
}

static int fail(char *err) {
  fprintf(stderr, "%s\n", err ? err : "(no message)");
  free(err);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  int prim = atoi(argv[1]), rank = atoi(argv[2]);
  const char *mode = argv[3];
  int64_t shape[PV_MAX_RANK + 1];
  char *err = NULL;
  if (strcmp(mode, "get") == 0) {
    size_t n, off = 0;
    unsigned char *all = slurp(&n);
    while (off < n) {
      const unsigned char *elems = NULL;
      size_t used = 0;
      if (pv_binary_get(all + off, n - off, prim, rank, shape, &elems, &used, &err)) {
        free(all);
        return fail(err);
      }
      size_t size = pv_binary_size(prim, rank, shape);
      unsigned char *out = malloc(size);
      if (out == NULL || used != size) return 4;
      if (pv_binary_put(out, prim, rank, elems, shape) != out + size) return 4;
      if (memcmp(out, all + off, size) != 0) return 5;
      fwrite(out, 1, size, stdout);
      free(out);
      off += used;
    }
    free(all);
    return 0;
  }
  int text = strcmp(mode, "text") == 0;
  struct pv_reader r;
  pv_reader_init(&r, stdin);
  if (strcmp(mode, "one") == 0) {
    void *data;
    if (pv_read_value(&r, prim, rank, &data, shape, &err)) return fail(err);
    if (pv_write_text(stdout, prim, rank, data, shape) || putchar('\n') == EOF) return 7;
    free(data);
    int c;
    while ((c = getchar()) != EOF) putchar(c);
    return fflush(stdout) != 0;
  }
  while (!pv_at_end(&r)) {
    void *data;
    if (pv_read_value(&r, prim, rank, &data, shape, &err)) return fail(err);
    if (data == NULL) return 6;
    int rc;
    if (text) {
      rc = pv_write_text(stdout, prim, rank, data, shape) || putchar('\n') == EOF;
    } else {
      rc = pv_write_binary(stdout, prim, rank, data, shape);
    }
    free(data);
    if (rc) return 7;
  }
  if (strcmp(pv_prim_name(prim), "?") == 0 || pv_prim_size(prim) == 0) return 8;
  return fflush(stdout) != 0;
}
