/* The check that a gradient's pointer parameters are apart (ad/apart.c) bounds a gather x[nbr[k]] over the
 * rows of a compressed layout: k runs from rows[i] to rows[i + 1] for each row i, as in a sparse matrix's
 * or a neighbour list's. The indices are data, so the check asks here, before the function runs, which
 * k the rows give and which values the index array holds at them.
 *
 * The check's bounds of i over-approximate (that is all they promise), so a row it names may be one the
 * function never reads, beyond the arrays' ends. Every read here is therefore a copy that the kernel makes
 * and may refuse (process_vm_readv of the process's own memory): an address that is not mapped gives no
 * answer, and the check says no, where a plain load would crash. Values read from memory the function
 * does not read only widen the bounds. */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "index_span.h"

enum { CHUNK = 16384 }; /* bytes copied at once */

/* Copies n bytes at `from` into `to`; false where any of them cannot be read. */
static int copy_safely(void *to, uintptr_t from, size_t n) {
  struct iovec local = {to, n}, remote = {(void *)from, n};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

static long long element(const unsigned char *at, unsigned size) {
  if (size == 4) {
    int32_t v;
    memcpy(&v, at, 4);
    return v;
  }
  int64_t v;
  memcpy(&v, at, 8);
  return v;
}

/* Rows first..last of `rows` (signed elements of row_size bytes, 4 or 8): for the rows that are not
 * empty (rows[i] < rows[i + 1]), the least and most k in out[0], out[1] (rows null: k from first to
 * last, a plain gather's counter), and, where index is not null, the least and most of index[k] (signed,
 * index_size bytes) for k between those in out[2], out[3] (the rows' hull: what lies between two rows only
 * widens it). Returns 0 where some element could not be read or no row has an element. */
int __parad_rt_rows_span(uintptr_t rows, unsigned row_size, long long first, long long last, uintptr_t index,
                         unsigned index_size, long long *out) {
  unsigned char buf[CHUNK + 8];
  if (first > last || (rows && row_size != 4 && row_size != 8) || (index && index_size != 4 && index_size != 8)) return 0;
  long long kmin = first, kmax = last;
  int any = !rows; /* no rows: k runs from first to last */
  size_t per = rows ? CHUNK / row_size : 1; /* rows a chunk holds, the next chunk's first row in the extra 8 bytes */
  for (long long i = first; rows && i <= last;) {
    size_t n = (size_t)(last - i + 1) < per ? (size_t)(last - i + 1) : per;
    if (!copy_safely(buf, rows + (uintptr_t)(i * (long long)row_size), (n + 1) * row_size)) return 0;
    for (size_t r = 0; r < n; r++) {
      long long lo = element(buf + r * row_size, row_size), hi = element(buf + (r + 1) * row_size, row_size);
      if (lo >= hi) continue;
      kmin = !any || lo < kmin ? lo : kmin;
      kmax = !any || hi - 1 > kmax ? hi - 1 : kmax;
      any = 1;
    }
    i += (long long)n;
  }
  if (!any) return 0;
  out[0] = kmin, out[1] = kmax, out[2] = 0, out[3] = -1;
  for (long long k = kmin; index && k <= kmax;) {
    size_t m = (size_t)(kmax - k + 1) < CHUNK / index_size ? (size_t)(kmax - k + 1) : CHUNK / index_size;
    long long least, most;
    if (!copy_safely(buf, index + (uintptr_t)(k * (long long)index_size), m * index_size)) return 0;
    __parad_rt_index_least_most(buf, m, index_size, 1, &least, &most);
    if (k == kmin || least < out[2]) out[2] = least;
    if (k == kmin || most > out[3]) out[3] = most;
    k += (long long)m;
  }
  return 1;
}
