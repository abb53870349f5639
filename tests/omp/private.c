// 'private': a scalar temporary and a small local array, each private to the threads of the region, are
// overwritten in every iteration (the reverse sweep needs each iteration's values, from the thread's own
// tape). y_i = t sin(t) + b_0 b_1 b_2 with t = x_i^2, b_r = x_i + r x_{i+1} (mod n); f = sum_i y_i serially.
// Reverse gradient checked against the analytic gradient (tolerance 1e-12), against forward tangents along
// every unit direction (1e-12), and forward tangents against central finite differences (h = 1e-6, tolerance
// 1e-7). Also built at -O0, where the private copies stay in memory.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 30 };

__attribute__((noinline)) static double f(const double *x, double *y, int n) {
  double t, b[3];
#pragma omp parallel for private(t, b)
  for (int i = 0; i < n; i++) {
    t = x[i] * x[i];
    for (int r = 0; r < 3; r++) b[r] = x[i] + r * x[(i + 1) % n];
    y[i] = t * sin(t) + b[0] * b[1] * b[2];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, N);
}

/* d/dx_i and d/dx_{i+1} of b0 b1 b2 = x_i (x_i + x_{i+1}) (x_i + 2 x_{i+1}) */
static double db_da(double a, double c) { return (a + c) * (a + 2 * c) + a * (a + 2 * c) + a * (a + c); }
static double db_dc(double a, double c) { return a * (a + 2 * c) + 2 * a * (a + c); }

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, e[N], ty[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.9 * sin(0.6 * i + 0.3);
  __parad_autodiff((void *)f, x, dx, y, dy, parad_const, N);
  for (int k = 0; k < N; k++) {
    int km = (k + N - 1) % N, kp = (k + 1) % N;
    double t = x[k] * x[k];
    double want = (sin(t) + t * cos(t)) * 2 * x[k] + db_da(x[k], x[kp]) + db_dc(x[km], x[k]);
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double tf = __parad_fwddiff((void *)f, x, e, y, ty, parad_const, N);
    CHECK_CLOSE(dx[k], tf, 1e-12);
    CHECK_CLOSE(tf, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
