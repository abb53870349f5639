// A C11 _Atomic double updated with *= compiles to a compare-and-swap loop on the double's bits; Parad
// cannot tell which update won, so it refuses the loop and names the supported alternatives (its += and
// -= are atomic adds: tests/omp/atomic_float_adds.c). So does
// `#pragma omp atomic` with *= on a double (the message told to use '#pragma omp atomic'), and an
// `omp atomic compare` keeping a maximum (an atomicrmw fmax: the message says so, and what to use instead).
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

__attribute__((noinline)) static double accumulate(_Atomic double *sum, const double *x, int n) {
  // CHECK: atomic_compound.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a compare-and-swap of active data (`#pragma omp atomic` with *= or /=, an atomic min or max, an _Atomic float's *= or /=); use a reduction clause (reduction(*:p), reduction(max:m)), or an atomic += or -= (`#pragma omp atomic`, __atomic_fetch_add, an _Atomic float's +=) in function 'accumulate'
  for (int i = 0; i < n; i++) *sum *= x[i] * x[i];
  return *sum * 2;
}

__attribute__((noinline)) static double product(const double *x, int n) {
  double p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    // CHECK: atomic_compound.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a compare-and-swap of active data (`#pragma omp atomic` with *= or /=, an atomic min or max, an _Atomic float's *= or /=); use a reduction clause (reduction(*:p), reduction(max:m)), or an atomic += or -= (`#pragma omp atomic`, __atomic_fetch_add, an _Atomic float's +=) in function 'product'
    p *= 1 + 0.1 * x[i];
  }
  return p;
}

__attribute__((noinline)) static double largest(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
#pragma omp atomic compare
    // CHECK: atomic_compound.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this atomic floating-point maximum (an `omp atomic compare` keeping the larger value): keep each thread's maximum in a reduction(max:) instead in function 'largest'
    if (v > m) { m = v; }
  }
  return m;
}

int main(void) {
  _Atomic double s = 1, ds = 0.5;
  double x[3] = {1, 2, 3}, dx[3] = {1, 0.5, 1};
  return (int)(__parad_fwddiff((void *)accumulate, &s, &ds, x, dx, parad_const, 3) +
               __parad_fwddiff((void *)product, x, dx, parad_const, 3) + __parad_fwddiff((void *)largest, x, dx, parad_const, 3));
}
