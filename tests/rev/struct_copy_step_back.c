// memcpy between elements of an array of structs {double a; int k; double b;}, in a loop from i = 1
// copying element i % n into element i - 1: at -O2 the destination is addressed from a base one element
// before the array (getelementptr i8 by -24, then by struct elements), and the copy's layout must be found
// from that negative offset (its remainder by the struct's size is 0, not 16: the fuzzer's OpenMP seed
// 3334 got a zero gradient, silently, from the layout shifted by 16 bytes). The same in a stack VLA and in
// a heap array, and with copies two elements back. J = b_0 + a_0 after the shuffles; analytic gradient
// (tolerance 1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);

struct S {
  double a;
  int k;
  double b;
};

/* b_i = i x0 / (1/2 + x1^2), a_i = x2 i; then element i - 1 gets element i % n, for i = 1, 2 */
__attribute__((noinline)) static double on_stack(const double *x, int n) {
  struct S st[n];
  for (int i = 0; i < n; i++) st[i].a = x[2] * i, st[i].k = i % 3, st[i].b = i * x[0] / (0.5 + x[1] * x[1]);
  for (int i = 1; i < 3; i++) memcpy(&st[i - 1], &st[i % n], sizeof(struct S));
  return st[0].b + st[0].a;
}

/* element i - 2 gets element i, for i = 2 .. n - 1, on the heap */
__attribute__((noinline)) static double on_heap(const double *x, int n) {
  struct S *st = malloc(n * sizeof *st);
  for (int i = 0; i < n; i++) st[i].a = x[2] * i, st[i].k = i % 3, st[i].b = i * x[0] / (0.5 + x[1] * x[1]);
  for (int i = 2; i < n; i++) memcpy(&st[i - 2], &st[i], sizeof(struct S));
  double r = st[0].b * st[1].a + st[n - 3].a;
  free(st);
  return r;
}

int main(void) {
  double x[3] = {0.7, 0.246, -1.3}, g[3] = {0}, h[3] = {0};
  int n = 3;
  __parad_autodiff((void *)on_stack, x, g, n);
  /* st_0 = element 1 after the copies (st_0 <- st_1, then st_1 <- st_2): b = x0 / q, a = x2, q = 1/2 + x1^2 */
  double q = 0.5 + x[1] * x[1];
  CHECK_CLOSE(g[0], 1 / q, 1e-12);
  CHECK_CLOSE(g[1], -x[0] * 2 * x[1] / (q * q), 1e-12);
  CHECK_CLOSE(g[2], 1, 1e-12);
  n = 7; /* st_0 <- st_2, st_1 <- st_3, ..., st_4 <- st_6: st_0.b = 2 x0 / q, st_1.a = 3 x2, st_4.a = 6 x2 */
  __parad_autodiff((void *)on_heap, x, h, n);
  CHECK_CLOSE(h[0], 2 / q * 3 * x[2], 1e-12);
  CHECK_CLOSE(h[1], -2 * x[0] * 2 * x[1] / (q * q) * 3 * x[2], 1e-12);
  CHECK_CLOSE(h[2], 2 * x[0] / q * 3 + 6, 1e-12);
  return check_done();
}
