// Ordered constructs in reverse mode: the iterations' ordered parts run in the loop's order, so their
// reverses must run in the opposite order across the threads. The forward sweep takes a ticket as each
// part starts (a critical section entered in the iterations' order), the reverse sweep waits for each
// ticket in turn from the last, as it does for critical sections that overwrite shared data.
//   chain:   s = s/2 + x_i in an ordered part (was refused): ds/dx_i = 2^-(n-1-i), analytic (1e-14);
//   mixed:   a prefix sum and a running value that overwrites (sin of itself) in ordered parts of a
//            schedule(static, 3) loop, then a schedule(dynamic, 2) loop's ordered part, with work and a
//            reduction outside them: against central finite differences (h = 1e-6, 1e-7) and forward
//            tangents (1e-12).
// Forward mode needed nothing. At 1, 2, 3 and 4 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 41 };

__attribute__((noinline)) static double chain(double *x, int n) {
  double s = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    s = s * 0.5 + x[i];
  }
  return s;
}

__attribute__((noinline)) static double mixed(const double *x) {
  double pre[N + 1], run = 0, last = 0, s = 0;
  pre[0] = 0;
#pragma omp parallel for ordered schedule(static, 3) reduction(+ : last)
  for (int i = 0; i < N; i++) {
    double t = exp(0.1 * x[i]) * x[(i + 5) % N];
#pragma omp ordered
    {
      pre[i + 1] = pre[i] + t;
      run = sin(run) + pre[i + 1] * x[i];
    }
    last += t * t;
  }
#pragma omp parallel for ordered schedule(dynamic, 2) reduction(+ : s)
  for (int i = 0; i < N; i++) {
    double u = pre[i + 1] * pre[i + 1];
#pragma omp ordered
    run = run * 0.9 + u * x[i];
    s += u;
  }
  return run + s + last;
}

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * sin(1.1 * i) + 0.05 * i, v[i] = cos(i);
  __parad_autodiff((void *)chain, x, g, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], ldexp(1, -(N - 1 - i)), 1e-14);
  for (int i = 0; i < N; i++) g[i] = 0;
  __parad_autodiff((void *)mixed, x, g);
  double along = 0;
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], fd_component(mixed, x, N, i, 1e-6), 1e-7);
    along += g[i] * v[i];
  }
  CHECK_CLOSE(__parad_fwddiff((void *)mixed, x, v), along, 1e-12);
  return check_done();
}
