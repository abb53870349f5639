// One helper swapping 8-byte words (through a uint64_t, which the optimiser makes integer loads and
// stores), called on doubles and on pointers to doubles; and one swapping 4-byte words, called on floats
// and on ints. Each call alone was built, but a helper called with two kinds was refused at -O1 and up
// ("cannot tell whether this integer store of active memory carries floating-point data or a pointer"):
// such helpers are now copied once per kind their callers give their word moves, as they were for memcpy
// (ad/copy_contexts.c).
//   f(x): y_i = x_i^2 + 0.1 i and p_i = &x_i, both insertion-sorted by y with the one swap;
//         f = sum_k (k+1) y_(k) + k *p_k
//   g(x): float v_i = x_i^3 and int id_i = i, sorted by v with the 4-byte swap;
//         g = sum_k (k+1) v_(k) + id_k x_k
// Gradients against tangents along each unit direction (1e-12; g 1e-5) and central differences (h 1e-6,
// 1e-6; g: h 1e-3, 1e-3, in single precision). Distinct keys: no kink is met. At -O2, -O1, -Os and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdint.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 6 };

__attribute__((noinline)) static void swap8(void *a, void *b) {
  uint64_t t;
  memcpy(&t, a, 8);
  memcpy(a, b, 8);
  memcpy(b, &t, 8);
}

__attribute__((noinline)) static void swap4(void *a, void *b) {
  uint32_t t;
  memcpy(&t, a, 4);
  memcpy(a, b, 4);
  memcpy(b, &t, 4);
}

static double f(const double *x) {
  double y[N], s = 0;
  const double *p[N];
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + 0.1 * i, p[i] = &x[i];
  for (int i = 1; i < N; i++)
    for (int j = i; j > 0 && y[j] < y[j - 1]; j--) swap8(&y[j], &y[j - 1]), swap8(&p[j], &p[j - 1]);
  for (int k = 0; k < N; k++) s += (k + 1) * y[k] + k * *p[k];
  return s;
}

static double g(const double *x) {
  float v[N];
  int id[N];
  double s = 0;
  for (int i = 0; i < N; i++) v[i] = (float)(x[i] * x[i] * x[i]), id[i] = i;
  for (int i = 1; i < N; i++)
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) swap4(&v[j], &v[j - 1]), swap4(&id[j], &id[j - 1]);
  for (int k = 0; k < N; k++) s += (k + 1) * v[k] + id[k] * x[k];
  return s;
}

int main(void) {
  double x[N] = {0.7, -0.35, 1.2, 0.15, -0.9, 0.55};
  CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(g, x, N, 1e-5, 1e-3, 1e-3);
  return check_done();
}
