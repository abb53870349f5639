// A region's object read element by element in a loop (a streamed input: each thread's run of it is
// copied as the run starts) and once more outside any loop, at an index from a table: the read outside
// is recorded, not read back from a copy it has none of. The compiler dereferenced the missing loop of
// that read (fuzz seed omp 3593, a segmentation fault under the fuzzer's memory limit). The array is
// overwritten after the regions, so that the reverse sweeps read the copies and the record.
// Gradients against tangents (1e-11) and central differences (1e-6), at 1-3 threads at -O2, 2 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 64 };
static const int IX[4] = {2, 0, 17, 63};
static double work[N];

static double sum_then(const double *p, int m, double t) {
  double acc = 0.5;
  for (int i = 0; i < m; i++) acc += p[i] * p[i];
  return atan(t + 0.01 * acc);
}

static double f(const double *z) {
  double *x = work, J = 0;
  for (int i = 0; i < N; i++) x[i] = z[i] * (1 + 0.1 * i);
  for (int r = 0; r < 4; r++) {
#pragma omp parallel reduction(+ : J)
    {
      J += sum_then(x, N, x[IX[r]]); /* the single read comes first */
#pragma omp barrier
    }
  }
  for (int i = 0; i < N; i++) x[i] = 0;
  return J;
}

int main(void) {
  double z[N];
  for (int i = 0; i < N; i++) z[i] = 0.3 + 0.4 * sin(1.3 * i);
  CHECK_GRADIENT(f, z, N, 1e-11, 1e-5, 1e-6);
  return check_done();
}
