// The optimiser's messages, as clang prints them and once: a 'parallel for simd' loop whose body calls
// cos() (errno: it cannot be vectorised) gets clang's one warning, at the loop. The derivatives' copies of
// a loop carry the program's hints too: each once warned again, at <unknown>:0:0 where its locations were
// dropped (7 lines at -O2, 7 located ones under -g), with as many remarks. h is such a loop the program
// only runs; f's loop, differentiated, is held scalar until its derivatives are made (ad/forced_vectors.h)
// and is not compiled on its own (the program only differentiates it): no warning about it at all. The
// gradient against the analytic one, f(x) = sum_i x_i x_{(i+3) mod n} + cos(x_i):
// df/dx_k = x_{k+3} + x_{k-3} - sin(x_k) (tolerance 1e-12), and h's value, at 1 and 3 threads.
// RUN: %parad-cc -O2 -fopenmp -I%S/../include %s -o %t -lm 2>%t.err && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=3 %t
// RUN: FileCheck %s --check-prefix=ONCE --implicit-check-not=vectorized --implicit-check-not=unknown < %t.err
// RUN: %parad-cc -O2 -g -fopenmp -I%S/../include %s -o %tg -lm 2>%tg.err && OMP_NUM_THREADS=3 %tg
// RUN: FileCheck %s --check-prefix=ONCE --implicit-check-not=vectorized --implicit-check-not=unknown < %tg.err
// ONCE: optimiser_messages_once.c:[[@LINE+15]]:1: loop not vectorized: the optimizer was unable to perform the requested transformation
#include <math.h>
#include "check.h"

enum { N = 37 };

static double f(const double *x) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(simd : static)
  for (int i = 0; i < N; i++) s += x[i] * x[(i + 3) % N] + cos(x[i]);
  return s;
}

__attribute__((noinline)) static double h(const double *x) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(simd : static)
  for (int i = 0; i < N; i++) s += x[i] * x[(i + 3) % N] + cos(x[i]);
  return s;
}

double __parad_autodiff(void *, ...);

int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * i + 0.3;
  __parad_autodiff((void *)f, x, g);
  for (int k = 0; k < N; k++) CHECK_CLOSE(g[k], x[(k + 3) % N] + x[(k + N - 3) % N] - sin(x[k]), 1e-12);
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[(i + 3) % N] + cos(x[i]);
  CHECK_CLOSE(h(x), s, 1e-12);
  return check_done();
}
