// Built with -g at -O2 and -O0: a gradient with a choice of two versions (pointer parameters without
// restrict, ad/apart.h) joins their results in a phi, and a worksharing loop's share split in three parts
// (omp/omp_segment_runs.c) enters them through phis; both were put after the block's debug records, and
// the module was invalid ("PHI Node must not have any attached DbgRecords": an internal error at -O2, a
// fallback to the code without the choice, or to the unoptimised code at -O0, with a warning). The
// compile must print nothing; the gradients against the analytic ones (1e-12) at 1 and 3 threads.
// RUN: %parad-cc %cflags -g -fopenmp %s -o %t 2>&1 | count 0
// RUN: env OMP_NUM_THREADS=1 %t && env OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -g -fopenmp -I%S/../include %s -o %t0 2>&1 | count 0
// RUN: env OMP_NUM_THREADS=3 %t0
#include "check.h"

double __parad_autodiff(void *, ...);

__attribute__((noinline)) static double chunked(const double *x, double *y, double c, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static, 3)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * c;
  (void)y;
  return s;
}

__attribute__((noinline)) static double plain(const double *x, double *y, double c, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * c;
  (void)y;
  return s;
}

int main(void) {
  enum { N = 10 };
  double x[N], g[N] = {0}, y[N], dy[N] = {0}, h[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.1 * i;
  double dc = __parad_autodiff((void *)chunked, x, g, y, dy, 0.5, N), sum2 = 0, sum = 0;
  double dc2 = __parad_autodiff((void *)plain, x, h, y, dy, 0.5, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], 2 * x[i] * 0.5, 1e-12);
    CHECK_CLOSE(h[i], 0.5, 1e-12);
    sum2 += x[i] * x[i], sum += x[i];
  }
  CHECK_CLOSE(dc, sum2, 1e-12);
  CHECK_CLOSE(dc2, sum, 1e-12);
  return check_done();
}
