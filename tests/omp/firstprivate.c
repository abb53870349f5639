// 'firstprivate(a, b)': two doubles captured by value, one copy per thread; their gradients come back from the
// reverse call as the sum of every thread's contribution (a struct {da, db}), and x's in dx. y_i = a x_i^2 +
// sin(b x_i), f = sum_i y_i (serially). The private copies are modified inside the loop body too (a local copy
// scaled and then restored to a value depending only on a), so they must stay private. Analytic: df/da = sum
// x_i^2, df/db = sum x_i cos(b x_i), df/dx_i = 2 a x_i + b cos(b x_i) (tolerance 1e-12, rounding only);
// forward tangents along each of x's unit directions and along a and b (1e-12); central finite differences
// along a and b (h = 1e-6, tolerance 1e-7). Also built at -O0 (where the doubles
// travel to the outlined function as 64-bit integers).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

typedef struct { double da, db; } G2;
G2 __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 33 };

__attribute__((noinline)) static double f(const double *x, double *y, double a, double b, int n) {
#pragma omp parallel for firstprivate(a, b)
  for (int i = 0; i < n; i++) {
    a = a * 2;                      /* this thread's copy only */
    y[i] = 0.5 * a * x[i] * x[i] + sin(b * x[i]);
    a = a * 0.5;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

static double X[N];

static double along_ab(void *ctx, double t) {
  int which = *(int *)ctx;
  double y[N];
  return f(X, y, 0.7 + (which == 0) * t, -1.3 + (which == 1) * t, N);
}

int main(void) {
  double a = 0.7, b = -1.3, dx[N] = {0}, y[N], dy[N] = {0}, e[N], ty[N], zero[N] = {0};
  for (int i = 0; i < N; i++) X[i] = 0.5 * cos(0.4 * i) + 0.02 * i;
  G2 g = __parad_autodiff((void *)f, X, dx, y, dy, a, b, parad_const, N);
  double sa = 0, sb = 0;
  for (int i = 0; i < N; i++) {
    sa += X[i] * X[i], sb += X[i] * cos(b * X[i]);
    CHECK_CLOSE(dx[i], 2 * a * X[i] + b * cos(b * X[i]), 1e-12);
    for (int j = 0; j < N; j++) e[j] = j == i;
    CHECK_CLOSE(dx[i], __parad_fwddiff((void *)f, X, e, y, ty, a, 0.0, b, 0.0, parad_const, N), 1e-12);
  }
  CHECK_CLOSE(g.da, sa, 1e-12);
  CHECK_CLOSE(g.db, sb, 1e-12);
  double ta = __parad_fwddiff((void *)f, X, zero, y, ty, a, 1.0, b, 0.0, parad_const, N);
  double tb = __parad_fwddiff((void *)f, X, zero, y, ty, a, 0.0, b, 1.0, parad_const, N);
  CHECK_CLOSE(g.da, ta, 1e-12);
  CHECK_CLOSE(g.db, tb, 1e-12);
  int which = 0;
  CHECK_CLOSE(ta, fd_central(along_ab, &which, 0, 1e-6), 1e-7);
  which = 1;
  CHECK_CLOSE(tb, fd_central(along_ab, &which, 0, 1e-6), 1e-7);
  return check_done();
}
