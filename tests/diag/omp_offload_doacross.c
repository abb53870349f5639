// OpenMP constructs Parad does not differentiate are refused at the construct with what it is: a target
// (teams) region, compiled for the host, and a doacross loop (ordered(1) with depend(sink/source)). Once
// the message named task reductions for any such construct. No output file.
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
void __parad_autodiff(void *, ...);

enum { N = 16 };

double offloaded(double *x) {
  double s = 0;
  // CHECK-DAG: omp_offload_doacross.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this OpenMP construct (__kmpc_fork_teams): teams and target regions (offloading) are not supported; a parallel region is
#pragma omp target teams distribute parallel for reduction(+ : s) map(to : x[0:N])
  for (int i = 0; i < N; i++) s += sin(x[i]);
  return s;
}

double wavefront(double *x) {
  double y[N];
  y[0] = x[0];
#pragma omp parallel for ordered(1)
  for (int i = 1; i < N; i++) {
    // CHECK-DAG: omp_offload_doacross.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this OpenMP construct (__kmpc_doacross_wait): loops with ordered(n) and depend(sink/source) (doacross) are not supported
#pragma omp ordered depend(sink : i - 1)
    y[i] = y[i - 1] * 0.5 + sin(x[i]);
#pragma omp ordered depend(source)
  }
  return y[N - 1];
}

int main(void) {
  double x[N] = {0}, dx[N] = {0};
  __parad_autodiff((void *)offloaded, x, dx);
  __parad_autodiff((void *)wavefront, x, dx);
  return 0;
}
