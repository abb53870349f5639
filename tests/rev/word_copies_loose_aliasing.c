// Doubles moved as 8-byte words through `long *`, legal under -fno-strict-aliasing (the Linux kernel, many
// older codes): a generic swap of records, a copy of an array into a buffer and an in-place reversal,
// each by a helper kept a call. The words' C type said integers, and no type tag says otherwise under
// that flag: both modes gave zero with no message at -O1 and up (a probe's wswap). Under the flag an
// integer pointer's type now says nothing of the memory, and what the callers pass does (records and
// arrays of doubles). The same file's true integers (the column indices of a sparse product) stay
// integers. Where the callers' records mix doubles with ints, the swap is refused
// (tests/diag/word_copies_mixed_records.c).
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), and
// against the analytic ones (1e-12), at -O2, -O1 and -O0.
// RUN: %parad-cc %cflags -fno-strict-aliasing %s -o %t -lm && %t
// RUN: %parad-cc -O1 -fno-strict-aliasing -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -fno-strict-aliasing -I%S/../include %s -o %t0 -lm && %t0
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static void swap_words(void *pa, void *pb, size_t bytes) {
  long *a = pa, *b = pb;
  for (size_t i = 0; i < bytes / sizeof(long); i++) {
    long t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

__attribute__((noinline)) static void copy_words(void *dst, const void *src, size_t bytes) {
  long *d = dst;
  const long *s = src;
  for (size_t i = 0; i < bytes / sizeof(long); i++) d[i] = s[i];
}

typedef struct {
  double value, weight;
} Pair;

/* records swapped whole */
static double swapped_records(const double *x) {
  Pair a = {x[0] * x[1], 2}, b = {x[2], x[3]};
  swap_words(&a, &b, sizeof(Pair));
  return a.value * a.weight + b.value * b.value * b.weight;
}

/* an array copied into a buffer, then a sparse product with integer column indices read from it */
static const long cols[6] = {0, 1, 1, 2, 3, 0};
static const long rows[N + 1] = {0, 2, 3, 5, 6};
static double copied_array(const double *x) {
  double buf[N], y[N];
  copy_words(buf, x, sizeof buf);
  for (int r = 0; r < N; r++) {
    y[r] = 0;
    for (long k = rows[r]; k < rows[r + 1]; k++) y[r] += (k + 1) * buf[cols[k]];
  }
  return y[0] * y[1] + y[2] * y[3];
}

/* an array reversed in place, one element's word at a time */
static double reversed_array(const double *x) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = x[i] * x[i];
  for (int i = 0, j = N - 1; i < j; i++, j--) swap_words(&a[i], &a[j], sizeof a[i]);
  return a[0] + 2 * a[1] + 3 * a[2] + 4 * a[3];
}

int main(void) {
  const double x[N] = {1.3, -0.4, 0.6, 0.9};
  CHECK_GRADIENT(swapped_records, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(copied_array, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(reversed_array, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0}, h[N] = {0};
  __parad_autodiff((void *)swapped_records, x, g); /* x2 * x3 + (x0 x1)^2 * 2 */
  CHECK_CLOSE(g[0], 4 * x[0] * x[1] * x[1], 1e-12);
  CHECK_CLOSE(g[1], 4 * x[0] * x[0] * x[1], 1e-12);
  CHECK_CLOSE(g[2], x[3], 1e-12);
  CHECK_CLOSE(g[3], x[2], 1e-12);
  __parad_autodiff((void *)reversed_array, x, h); /* 4 x0^2 + 3 x1^2 + 2 x2^2 + x3^2 */
  for (int i = 0; i < N; i++) CHECK_CLOSE(h[i], 2 * (N - i) * x[i], 1e-12);
  return check_done();
}
