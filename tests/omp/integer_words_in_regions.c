// `uint64_t` arrays used as storage for doubles (written and read through `double *`), copied as words
// in parallel loops: by a helper whose copy is a parallel loop (`f`), in a region of the same function
// (`inline_region`), and between heap blocks whose pointers are firstprivate (`heap_region`). In the
// region's function the copy reads and writes through pointers loaded from variables the caller shares
// with it; what those hold is found through the fork (memtype.c, reused_kind: the value stored once into
// the shared variable, then the helper's callers), so the words move doubles. The gradient was zero in
// both modes with no message, at -O0 as at -O2 (12 of 24 checks failed before). Gradient against tangents along each
// unit direction (1e-10) and central differences (1e-6), at 1 and 3 threads, -O2, -O0, and without
// strict aliasing.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc %cflags -fno-strict-aliasing -fopenmp %s -o %t2 -lm && OMP_NUM_THREADS=3 %t2
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 16 };

__attribute__((noinline)) static void copy_words(uint64_t *d, const uint64_t *s, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) d[i] = s[i];
}

static double f(const double *x) {
  uint64_t a[N], b[N];
#pragma omp parallel for
  for (int i = 0; i < N; i++) ((double *)a)[i] = sin(x[i % 4]) * (i + 1);
  copy_words(b, a, N);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++) s += ((double *)b)[i] * ((double *)b)[i];
  return s;
}

static double inline_region(const double *x) {
  uint64_t a[N], b[N];
  for (int i = 0; i < N; i++) ((double *)a)[i] = sin(x[i % 4]) * (i + 1);
#pragma omp parallel for
  for (int i = 0; i < N; i++) b[i] = a[N - 1 - i];
  double s = 0;
  for (int i = 0; i < N; i++) s += ((double *)b)[i] * ((double *)b)[i] * (i + 1);
  return s;
}

static double heap_region(const double *x) {
  uint64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  for (int i = 0; i < N; i++) ((double *)a)[i] = cos(x[i % 4]) * (i + 1);
#pragma omp parallel for firstprivate(a, b)
  for (int i = 0; i < N; i++) b[i] = a[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += ((double *)b)[i] * x[i % 4];
  free(a);
  free(b);
  return s;
}

int main(void) {
  double x[4] = {0.3, 1.2, -0.7, 2.0};
  CHECK_GRADIENT(f, x, 4, 1e-10, 1e-5, 1e-6);
  CHECK_GRADIENT(inline_region, x, 4, 1e-10, 1e-5, 1e-6);
  CHECK_GRADIENT(heap_region, x, 4, 1e-10, 1e-5, 1e-6);
  return check_done();
}
