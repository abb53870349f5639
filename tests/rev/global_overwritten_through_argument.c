// A global read by name in the differentiated function, then overwritten through a pointer argument the
// caller points at that global (a wavetable read by name, regenerated for the next block through its
// `out` parameter, passed as parad_const): the reverse sweep read the global again instead of recording
// it (memory nothing writes between the sweeps), and got the new values: 20 for 2, a synthesiser's
// gain derivative 1400 for 108. Writes through a pointer that may point into a global whose address the
// request hands on now count (analysis/unwritten.c), whichever way they happen:
//   direct:  s = G x^2, then *out = 10                                  ds/dx = 2 G x (G before)
//   sorted:  s = x^2 sum_i (i+1) T_i, then qsort(out)                   ds/dx = 2 x sum (i+1) T_i
//   callee:  the same, then a helper fills out
//   scaled:  the same, then out[i] *= 2
//   region:  the same, then a parallel loop fills out
// Each against its analytic derivative (1e-12) with the global as it was, the tangent too (1e-12), and
// once with a separate output array (the global read again, as before). At -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=2 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double G = 1;
static double T[4] = {4, 3, 2, 1};

static double direct(double x, double *out) {
  double s = G * x * x;
  *out = 10;
  return s;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double table_sum(double x) {
  double s = 0;
  for (int i = 0; i < 4; i++) s += T[i] * (i + 1) * x * x;
  return s;
}

static double sorted(double x, double *out) {
  double s = table_sum(x);
  qsort(out, 4, sizeof(double), cmp);
  return s;
}

__attribute__((noinline)) void fill_ten(double *o, int n) {
  for (int i = 0; i < n; i++) o[i] = 10;
}

static double callee(double x, double *out) {
  double s = table_sum(x);
  fill_ten(out, 4);
  return s;
}

static double scaled(double x, double *out) {
  double s = table_sum(x);
  for (int i = 0; i < 4; i++) out[i] *= 2;
  return s;
}

static double region(double x, double *out) {
  double s = table_sum(x);
#pragma omp parallel for
  for (int i = 0; i < 4; i++) out[i] = 7 - i;
  return s;
}

static void reset(void) {
  G = 1;
  for (int i = 0; i < 4; i++) T[i] = 4 - i;
}

int main(void) {
  double x = 1.5, other[4];
  reset();
  CHECK_CLOSE(__parad_autodiff((void *)direct, x, parad_const, &G), 2 * x, 1e-12);
  reset();
  CHECK_CLOSE(__parad_fwddiff((void *)direct, x, 1.0, parad_const, &G), 2 * x, 1e-12);
  double want = 2 * x * (4 + 6 + 6 + 4);
#define CASE(f)                                                                 \
  reset();                                                                      \
  CHECK_CLOSE(__parad_autodiff((void *)f, x, parad_const, T), want, 1e-12);     \
  reset();                                                                      \
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, 1.0, parad_const, T), want, 1e-12); \
  reset();                                                                      \
  for (int i = 0; i < 4; i++) other[i] = i;                                     \
  CHECK_CLOSE(__parad_autodiff((void *)f, x, parad_const, other), want, 1e-12);
  CASE(sorted)
  CASE(callee)
  CASE(scaled)
  CASE(region)
  return check_done();
}
