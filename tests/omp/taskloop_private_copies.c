// A task loop with a firstprivate array and a lastprivate value, beside tasks with a firstprivate struct
// (a double, an int, a pointer, a double): a task loop's header is 80 bytes, and its private copies'
// accesses are aligned as locals (the array 16-aligned at offset 80): the shadow blocks put them 64-aligned
// (with a 40-byte header assumed, the -O2 gradient crashed at 1 thread). Gradient and tangents against
// central differences (worst component, 1e-6), at 1, 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <stdio.h>
#include <math.h>
#include "check.h"
double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);
enum { N = 10 };
typedef struct { double a; int k; double *dst; double c; } Job;
static double f(const double *x) {
  double out[N], y[N], s = 0, last = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; i++) out[i] = exp(0.1 * x[i]) * x[(i + 1) % N];
#pragma omp single
    for (int k = 0; k < 3; k++) {
      Job j = {x[k], k, &y[k], x[k + 3]};
#pragma omp task firstprivate(j)
      *j.dst = j.a * j.a + j.c * j.k;
    }
#pragma omp single
    {
      double arr[2] = {x[7], x[8]};
#pragma omp taskloop firstprivate(arr) lastprivate(last) grainsize(2)
      for (int i = 3; i < N; i++) { y[i] = arr[0] * x[i] + arr[1]; last = y[i]; }
    }
  }
  for (int i = 0; i < N; i++) s += out[i] + y[i];
  return s + last;
}
int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 0.4;
  __parad_autodiff((void *)f, x, g);
  double we = 0, wf = 0;
  for (int j = 0; j < N; j++) {
    double v[N] = {0}; v[j] = 1;
    double d = __parad_fwddiff((void *)f, x, v);
    double h = 1e-6, xp[N], xm[N];
    for (int i = 0; i < N; i++) xp[i] = xm[i] = x[i];
    xp[j] += h; xm[j] -= h;
    double fd = (f(xp) - f(xm)) / (2 * h);
    if (fabs(g[j] - fd) > we) we = fabs(g[j] - fd);
    if (fabs(d - fd) > wf) wf = fabs(d - fd);
  }
  CHECK_CLOSE(we, 0, 1e-6);
  CHECK_CLOSE(wf, 0, 1e-6);
  return check_done();
}
