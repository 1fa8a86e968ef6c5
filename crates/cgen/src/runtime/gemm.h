/* parad C runtime, part 4: the matrix-multiply kernel that the tiled
 * lowering of map-reduce nests of matrix-multiply shape calls (see
 * crates/imp/src/lower/tile.rs).
 *
 * parad_gemm_<t>(m, n, k, A, B, C, pack) sets C[i][j] = Σ_p A[i][p]·B[p][j]
 * for i < m, j < n, each matrix given by a base pointer and a row and a
 * column stride in elements (any strides: transposes and slices are
 * views). The usual blocking: panels of B of KC rows and NC columns and
 * blocks of A of MC rows are copied ("packed") into `pack` so that the
 * micro-kernel reads both with unit stride whatever the layouts; the
 * micro-kernel keeps an MR×NR tile of C in registers. Edge tiles are
 * packed with zeros up to MR rows and NR columns and only the valid part
 * of a tile is stored, so every size works (0 included: k = 0 gives zeros).
 *
 * Rounding: the sum over p is computed in blocks of KC, each in MR×NR
 * lanes, and the micro-kernel is compiled with floating-point contraction
 * on, so that on machines with FMA instructions each a·b + c is one fused
 * operation (half the instructions, one rounding instead of two). Both
 * differ from the interpreter's sequential sum in the last bits; both
 * are allowed for a reduction with `+`, whose order is unspecified (the
 * parallel reduction already regroups it). This is the one place where
 * the runtime contracts: fp-contract is off again after the kernel. */

#define P_GEMM_MR 6
#define P_GEMM_KC 256
#define P_GEMM_MC 72
/* The micro-kernel's vectors: as wide as the machine's (16 bytes where
 * AVX is missing: wider generic vectors would be split badly). */
#if defined(__AVX__)
#define P_GEMM_VBYTES 32
#else
#define P_GEMM_VBYTES 16
#endif
/* NR and NC per type: a row of a micro-tile is 64 bytes. */
#define P_GEMM_NR_f64 8
#define P_GEMM_NR_f32 16
#define P_GEMM_NC_f64 1024
#define P_GEMM_NC_f32 2048

/* The micro-kernel's a·b + c on vectors: fused where the machine has FMA
 * (contraction is switched on around the kernel's definitions below). */
#define P_FMA_VEC(a, b, c) ((a) * (b) + (c))

/* Elements of the packing buffer a call needs (never more than the
 * blocks: KC·(MC + NC)). */
#define P_GEMM_PACK_ELEMS(t)                                                   \
  static inline i64 parad_gemm_pack_elems_##t(i64 m, i64 n, i64 k) {          \
    i64 kc = k < P_GEMM_KC ? k : P_GEMM_KC;                                    \
    i64 nr = P_GEMM_NR_##t;                                                    \
    i64 nc = (n + nr - 1) / nr * nr;                                           \
    if (nc > P_GEMM_NC_##t) nc = P_GEMM_NC_##t;                                \
    i64 mc = (m + P_GEMM_MR - 1) / P_GEMM_MR * P_GEMM_MR;                      \
    if (mc > P_GEMM_MC) mc = P_GEMM_MC;                                        \
    return kc * (mc + nc);                                                     \
  }

#define P_GEMM(t)                                                              \
  P_GEMM_PACK_ELEMS(t)                                                         \
  /* An MR×NR tile: acc = Σ_p ap[p][i]·bp[p][j] over kc steps, then C =      \
   * acc (first k block) or C += acc, for the valid mr×nr part. */            \
  static inline void p_gemm_tile_##t(i64 kc, const t *restrict ap,            \
                                     const t *restrict bp, t *restrict c,     \
                                     i64 crs, i64 ccs, i64 mr, i64 nr,         \
                                     int first) {                              \
    enum { MR = P_GEMM_MR, NR = P_GEMM_NR_##t };                               \
    typedef t vec __attribute__((vector_size(P_GEMM_VBYTES)));                \
    enum { L = P_GEMM_VBYTES / sizeof(t), NV = NR / L };                       \
    vec acc[MR][NV];                                                           \
    for (int i = 0; i < MR; i++)                                               \
      for (int v = 0; v < NV; v++) acc[i][v] = (vec){0};                       \
    for (i64 p = 0; p < kc; p++) {                                             \
      vec b[NV];                                                               \
      for (int v = 0; v < NV; v++)                                             \
        __builtin_memcpy(&b[v], bp + p * NR + v * L, sizeof(vec));             \
      for (int i = 0; i < MR; i++) {                                           \
        vec a = (vec){0} + ap[p * MR + i];                                     \
        for (int v = 0; v < NV; v++) acc[i][v] = P_FMA_VEC(a, b[v], acc[i][v]); \
      }                                                                        \
    }                                                                          \
    t out[MR][NR];                                                             \
    __builtin_memcpy(out, acc, sizeof(out));                                   \
    if (mr == MR && nr == NR && ccs == 1) {                                    \
      for (int i = 0; i < MR; i++)                                             \
        for (int j = 0; j < NR; j++)                                           \
          c[i * crs + j] = first ? out[i][j] : c[i * crs + j] + out[i][j];     \
      return;                                                                  \
    }                                                                          \
    for (i64 i = 0; i < mr; i++)                                               \
      for (i64 j = 0; j < nr; j++) {                                           \
        t *x = &c[i * crs + j * ccs];                                          \
        *x = first ? out[i][j] : *x + out[i][j];                               \
      }                                                                        \
  }                                                                            \
  /* B[p0..p0+kc][j0..j0+nc] as NR-wide column panels, each kc rows of NR    \
   * (zeros past column nc). */                                                \
  static inline void p_gemm_pack_b_##t(i64 kc, i64 nc, const t *b, i64 brs,   \
                                       i64 bcs, t *restrict out) {             \
    enum { NR = P_GEMM_NR_##t };                                               \
    for (i64 j0 = 0; j0 < nc; j0 += NR) {                                      \
      i64 nr = nc - j0 < NR ? nc - j0 : NR;                                    \
      for (i64 p = 0; p < kc; p++) {                                           \
        const t *row = b + p * brs + j0 * bcs;                                 \
        i64 j = 0;                                                             \
        if (bcs == 1)                                                          \
          for (; j < nr; j++) out[j] = row[j];                                 \
        else                                                                   \
          for (; j < nr; j++) out[j] = row[j * bcs];                           \
        for (; j < NR; j++) out[j] = 0;                                        \
        out += NR;                                                             \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  /* A[i0..i0+mc][p0..p0+kc] as MR-high row panels, each kc columns of MR    \
   * (zeros past row mc). */                                                   \
  static inline void p_gemm_pack_a_##t(i64 mc, i64 kc, const t *a, i64 ars,   \
                                       i64 acs, t *restrict out) {             \
    enum { MR = P_GEMM_MR };                                                   \
    for (i64 i0 = 0; i0 < mc; i0 += MR) {                                      \
      i64 mr = mc - i0 < MR ? mc - i0 : MR;                                    \
      for (i64 p = 0; p < kc; p++) {                                           \
        const t *col = a + i0 * ars + p * acs;                                 \
        i64 i = 0;                                                             \
        for (; i < mr; i++) out[i] = col[i * ars];                             \
        for (; i < MR; i++) out[i] = 0;                                        \
        out += MR;                                                             \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  /* Each matrix is a block, the offset of element (0, 0) and the row and  \
   * column strides; blocks of empty matrices are never indexed. */           \
  __attribute__((unused)) static void parad_gemm_##t(i64 m, i64 n, i64 k, const t *a, i64 aoff,       \
                             i64 ars, i64 acs, const t *b, i64 boff, i64 brs,  \
                             i64 bcs, t *c, i64 coff, i64 crs, i64 ccs,        \
                             t *pack) {                                        \
    enum { MR = P_GEMM_MR, NR = P_GEMM_NR_##t };                               \
    if (m <= 0 || n <= 0) return;                                              \
    c += coff;                                                                 \
    if (k <= 0) {                                                              \
      for (i64 i = 0; i < m; i++)                                              \
        for (i64 j = 0; j < n; j++) c[i * crs + j * ccs] = 0;                  \
      return;                                                                  \
    }                                                                          \
    a += aoff;                                                                 \
    b += boff;                                                                 \
    i64 kcmax = k < P_GEMM_KC ? k : P_GEMM_KC;                                 \
    i64 ncmax = (n + NR - 1) / NR * NR;                                        \
    if (ncmax > P_GEMM_NC_##t) ncmax = P_GEMM_NC_##t;                          \
    t *bpack = pack, *apack = pack + kcmax * ncmax;                            \
    for (i64 j0 = 0; j0 < n; j0 += P_GEMM_NC_##t) {                            \
      i64 nc = n - j0 < P_GEMM_NC_##t ? n - j0 : P_GEMM_NC_##t;                \
      for (i64 p0 = 0; p0 < k; p0 += P_GEMM_KC) {                              \
        i64 kc = k - p0 < P_GEMM_KC ? k - p0 : P_GEMM_KC;                      \
        p_gemm_pack_b_##t(kc, nc, b + p0 * brs + j0 * bcs, brs, bcs, bpack);  \
        for (i64 i0 = 0; i0 < m; i0 += P_GEMM_MC) {                            \
          i64 mc = m - i0 < P_GEMM_MC ? m - i0 : P_GEMM_MC;                    \
          p_gemm_pack_a_##t(mc, kc, a + i0 * ars + p0 * acs, ars, acs, apack); \
          for (i64 jr = 0; jr < nc; jr += NR)                                  \
            for (i64 ir = 0; ir < mc; ir += MR)                                \
              p_gemm_tile_##t(kc, apack + ir * kc, bpack + jr * kc,           \
                              c + (i0 + ir) * crs + (j0 + jr) * ccs, crs, ccs, \
                              mc - ir < MR ? mc - ir : MR,                     \
                              nc - jr < NR ? nc - jr : NR, p0 == 0);           \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  }

#if defined(__clang__)
#pragma clang fp contract(fast)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=fast")
#endif
P_GEMM(f64)
P_GEMM(f32)
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif
