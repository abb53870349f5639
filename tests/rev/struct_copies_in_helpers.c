// Records mixing an int or char key with doubles, moved by helpers kept calls (a probe of 62 programs
// found these two wrong with no message):
//   copied_value:   a helper copies an array of {int k; double d} with memcpy and returns the first key.
//                   Its only access to the copy is that int, and the copy was taken for one of integers:
//                   a gradient of zero at -O1 and up. Accesses at fixed offsets that cover less than the
//                   copied part now say nothing of the rest.
//   inserted_value: an insertion sort whose helper takes the new record by value
//                   (`insert_sorted(a, i, a[i])`, 24 bytes: passed in memory, byval). The optimiser, and
//                   clang at -O0, pass a[i] itself; the helper shifts the array over it while its
//                   parameter keeps the old record. Reverse mode gave the parameter a[i]'s shadow, so
//                   the two shared adjoints: 9 0 0 where 5 1 3 are right, at every level. A struct passed
//                   byval is now copied into a local of its own first (ad/byval_copies.c).
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), and
// against the analytic ones (1e-12), at -O2, -O1, -Os and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 3 };

typedef struct {
  int k;
  double d;
} R;

__attribute__((noinline)) static int copy_records(R *dst, const R *src, long n) {
  memcpy(dst, src, n * sizeof(R));
  return dst[0].k;
}

static double copied_value(const double *x) {
  R a[N] = {{1, x[0] * x[1]}, {2, x[1]}, {3, sin(x[2])}}, b[N];
  int k = copy_records(b, a, N);
  return k * b[0].d + 2 * b[1].d + b[2].d * b[0].d;
}

typedef struct {
  char tag;
  double val;
  int id;
} Item;

__attribute__((noinline)) static void insert_sorted(Item *arr, int n, Item v) {
  int j = n - 1;
  while (j >= 0 && arr[j].val > v.val) arr[j + 1] = arr[j], j--;
  arr[j + 1] = v;
}

static double inserted_value(const double *x) {
  Item a[N] = {{'a', x[0], 0}, {'b', x[1], 1}, {'c', x[2], 2}};
  for (int i = 1; i < N; i++) insert_sorted(a, i, a[i]);
  return a[0].val + 3 * a[1].val + 5 * a[2].val;
}

int main(void) {
  const double x[N] = {1.3, -0.4, 0.6};
  CHECK_GRADIENT(copied_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(inserted_value, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0}, h[N] = {0};
  __parad_autodiff((void *)copied_value, x, g);
  CHECK_CLOSE(g[0], x[1] + x[1] * sin(x[2]), 1e-12);
  CHECK_CLOSE(g[1], x[0] + 2 + x[0] * sin(x[2]), 1e-12);
  CHECK_CLOSE(g[2], cos(x[2]) * x[0] * x[1], 1e-12);
  __parad_autodiff((void *)inserted_value, x, h); /* sorted: x1, x2, x0 */
  CHECK_CLOSE(h[0], 5, 1e-12);
  CHECK_CLOSE(h[1], 1, 1e-12);
  CHECK_CLOSE(h[2], 3, 1e-12);
  return check_done();
}
