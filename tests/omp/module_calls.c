// Calls to functions of the module from inside a parallel region: a pure function of two doubles (pair), a
// function that writes its result through a pointer into the shared output (store2), and a recursive one
// (powr, x^k by repeated squaring), all noinline, so the outlined function calls their derivatives from every
// thread. y_i = pair(x_i, x_{i+1}) + powr(x_i, i mod 5) with pair(a, b) = a exp(-b^2) + sin(a b); f = sum_i
// w_i y_i. Analytic gradient (tolerance 1e-12), forward tangents along every unit direction (1e-12), central
// finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 26 };

__attribute__((noinline)) static double pair(double a, double b) { return a * exp(-b * b) + sin(a * b); }

__attribute__((noinline)) static double powr(double a, int k) {
  if (k == 0) return 1;
  double h = powr(a, k / 2);
  return k % 2 ? h * h * a : h * h;
}

__attribute__((noinline)) static void store2(double *dst, double u, double v) { *dst = u + v; }

__attribute__((noinline)) static double f(const double *x, const double *w, double *y, int n) {
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < n; i++) store2(&y[i], pair(x[i], x[(i + 1) % n]), powr(x[i], i % 5));
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * y[i];
  return s;
}

static double X0[N], W[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, W, y, N);
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, ty[N], e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.9 * sin(0.75 * i) + 0.35, W[i] = 1 + 0.1 * cos(i);
  __parad_autodiff((void *)f, x, dx, parad_const, W, y, dy, parad_const, N);
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N, p = k % 5;
    double a = x[k], b = x[kp];
    double want = W[k] * (exp(-b * b) + b * cos(a * b) + (p ? p * pow(a, p - 1) : 0.0));
    a = x[km], b = x[k];
    want += W[km] * (-2 * b * a * exp(-b * b) + a * cos(a * b));
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, W, y, ty, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
