// OpenMP tasks move their data through the runtime, out of Parad's sight: refused in both modes, at the
// task, naming the construct.
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);

static double f(double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // CHECK: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this OpenMP construct (__kmpc_omp_task{{[a-z_]*}}): tasks, copyprivate and the like are not supported in function 'f'
#pragma omp task shared(s)
    {
#pragma omp atomic
      s += x[i] * x[i];
    }
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __parad_autodiff((void *)f, x, dx, 4);
  return 0;
}
