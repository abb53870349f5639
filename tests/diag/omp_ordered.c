// The reverse of an ordered construct would have to run the iterations' ordered parts in the opposite
// order: refused in reverse mode (forward mode keeps the order and needs nothing more).
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);

static double f(double *x, int n) {
  double s = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
    // CHECK: omp_ordered.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate an ordered construct (its reverse would need the iterations in the opposite order) in function 'f'
#pragma omp ordered
    s = s * 0.5 + x[i];
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __parad_autodiff((void *)f, x, dx, 4);
  return 0;
}
