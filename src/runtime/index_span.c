/* Gathers through an index array (reverse/rev_shared.c and reverse/rev_snapshot.c, "gathers"): the
 * forward sweep notes which stretch of the index array a loop read, and the range of addresses its
 * gathers base[index[k]] read is found here, from the smallest and largest index in the stretch, instead
 * of widening a range at every gather. */
#include "index_span.h"

#include <stdint.h>

__attribute__((target_clones("avx2", "default"))) /* a sparse matrix's column indices: 4 min/max at once, not 1 */
void __parad_rt_index_least_most(const void *at, size_t n, unsigned size, unsigned is_signed, long long *least, long long *most) {
#define INDEX_SPAN(T)                                                                                                 \
  do {                                                                                                                \
    const T *v = at;                                                                                                  \
    T a = v[0], b = v[0];                                                                                             \
    for (size_t i = 1; i < n; i++) a = v[i] < a ? v[i] : a, b = v[i] > b ? v[i] : b;                                  \
    *least = (long long)a, *most = (long long)b;                                                                      \
  } while (0)
  switch (size * 2 + !is_signed) {
  case 2: INDEX_SPAN(int8_t); break;
  case 3: INDEX_SPAN(uint8_t); break;
  case 4: INDEX_SPAN(int16_t); break;
  case 5: INDEX_SPAN(uint16_t); break;
  case 8: INDEX_SPAN(int32_t); break;
  case 9: INDEX_SPAN(uint32_t); break;
  default: INDEX_SPAN(int64_t); break; /* a 64-bit index is a GEP's own, which is signed */
  }
#undef INDEX_SPAN
}

void __parad_rt_gathered_span(unsigned long long base, long long scale, long long from, long long to, long long least,
                              long long most, unsigned long long *out) {
  unsigned long long a = base + (unsigned long long)(scale * least), b = base + (unsigned long long)(scale * most);
  if (scale < 0) {
    unsigned long long t = a;
    a = b, b = t;
  }
  out[0] = a + (unsigned long long)from;
  out[1] = b + (unsigned long long)to;
}

/* Forward sweep of a serial loop's snapshot (reverse/rev_snapshot.c): the addresses [out[0], out[1]) the
 * gathers base + scale * index + [from, to) read for the indices at [lo, hi), each `size` bytes, signed or
 * not (~0 and 0 for none: nothing to widen the range with). */
void __parad_rt_index_range(unsigned long long lo, unsigned long long hi, unsigned size, unsigned is_signed,
                            unsigned long long base, long long scale, long long from, long long to, unsigned long long *out) {
  size_t n = lo < hi ? (size_t)(hi - lo) / size : 0;
  long long least, most;
  if (!n) {
    out[0] = ~0ull, out[1] = 0;
    return;
  }
  __parad_rt_index_least_most((const void *)(uintptr_t)lo, n, size, is_signed, &least, &most);
  __parad_rt_gathered_span(base, scale, from, to, least, most, out);
}
