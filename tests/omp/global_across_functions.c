// Globals shared by a parallel region and the function around it, both modes: the function fills one that
// the region reads through a callee (`smooth`, no active argument), the region fills another that a callee
// after it rescales (`scale`), and a second region reduces into a global; and tasks whose callee sums
// blocks of a global into another (`tasks`: its block's shadow now made, so that its pair runs). The
// region's callee adds its
// adjoints of `u` atomically: the threads share the global's shadow. (Refused before: a call carried
// derivatives only through its arguments; tests/rev/global_across_functions.c for the serial shapes.)
//   u_i = sin x_i, s_i = u_{i-1} + 2 u_i + u_{i+1} (0 outside), w_i = s_i x_i, v_i = x_0 w_i,
//   f = sum_i v_i^2 + u_3
//   df/dx_k = 2 x_0^2 (w_k s_k + cos x_k (w_{k-1} x_{k-1} + 2 w_k x_k + w_{k+1} x_{k+1})) + [k=0] 2 x_0 sum_i w_i^2
//             + [k=3] cos x_3
//   tasks = sum_b (b + 1) sum_{i in block b} sin^2 x_i, d/dx_i = (b + 1) 2 sin x_i cos x_i
// Gradient and tangents along each unit direction against the analytic derivative (1e-12), and two
// directions at a time in vector forward mode, called twice,
// at 1, 2 and 4 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_w2(void *, ...);

enum { N = 200 };
static double u[N], v[N], total, part[4];

__attribute__((noinline)) static double smooth(int i) { return (i > 0 ? u[i - 1] : 0) + 2 * u[i] + (i < N - 1 ? u[i + 1] : 0); }
__attribute__((noinline)) static void scale(double a) {
  for (int i = 0; i < N; i++) v[i] *= a;
}

static double f(const double *x) {
  for (int i = 0; i < N; i++) u[i] = sin(x[i]);
#pragma omp parallel for
  for (int i = 0; i < N; i++) v[i] = smooth(i) * x[i];
  scale(x[0]);
  total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < N; i++) total += v[i] * v[i];
  return total + u[3];
}

__attribute__((noinline)) static double block_sum(int b) {
  double s = 0;
  for (int i = b * (N / 4); i < (b + 1) * (N / 4); i++) s += u[i] * u[i];
  return s;
}

static double tasks(const double *x) {
  for (int i = 0; i < N; i++) u[i] = sin(x[i]);
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < 4; b++) {
#pragma omp task firstprivate(b)
    part[b] = block_sum(b);
  }
  return part[0] + 2 * part[1] + 3 * part[2] + 4 * part[3];
}

static void analytic(const double *x, double *g) {
  double s[N], w[N], ww = 0;
  for (int i = 0; i < N; i++) s[i] = (i > 0 ? sin(x[i - 1]) : 0) + 2 * sin(x[i]) + (i < N - 1 ? sin(x[i + 1]) : 0);
  for (int i = 0; i < N; i++) w[i] = s[i] * x[i], ww += w[i] * w[i];
  for (int k = 0; k < N; k++) {
    double near = (k > 0 ? w[k - 1] * x[k - 1] : 0) + 2 * w[k] * x[k] + (k < N - 1 ? w[k + 1] * x[k + 1] : 0);
    g[k] = 2 * x[0] * x[0] * (w[k] * s[k] + cos(x[k]) * near) + (k == 0 ? 2 * x[0] * ww : 0) + (k == 3 ? cos(x[3]) : 0);
  }
}

int main(void) {
  double x[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.003 * i;
  for (int round = 0; round < 2; round++) {
    analytic(x, want);
    double g[N] = {0};
    __parad_autodiff((void *)f, x, g);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    for (int j = 0; j < N; j += 13) {
      double d[N] = {0};
      d[j] = 1;
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, d), want[j], 1e-12);
    }
    for (int j = 0; j < N; j += 41) { /* vector forward mode: a shadow global per direction */
      double d0[N] = {0}, d1[N] = {0};
      d0[j] = d1[j + 1] = 1;
      Two t = __parad_fwddiff_w2((void *)f, parad_width, 2, x, d0, d1);
      CHECK_CLOSE(t.d[0], want[j], 1e-12);
      CHECK_CLOSE(t.d[1], want[j + 1], 1e-12);
      t = __parad_fwddiff_w2((void *)tasks, parad_width, 2, x, d0, d1);
      CHECK_CLOSE(t.d[0], (1 + j / (N / 4)) * 2 * sin(x[j]) * cos(x[j]), 1e-12);
      CHECK_CLOSE(t.d[1], (1 + (j + 1) / (N / 4)) * 2 * sin(x[j + 1]) * cos(x[j + 1]), 1e-12);
    }
    double gt[N] = {0};
    __parad_autodiff((void *)tasks, x, gt);
    for (int j = 0; j < N; j++) CHECK_CLOSE(gt[j], (1 + j / (N / 4)) * 2 * sin(x[j]) * cos(x[j]), 1e-12);
    for (int j = 0; j < N; j += 17) {
      double d[N] = {0};
      d[j] = 1;
      CHECK_CLOSE(__parad_fwddiff((void *)tasks, x, d), (1 + j / (N / 4)) * 2 * sin(x[j]) * cos(x[j]), 1e-12);
    }
    for (int i = 0; i < N; i++) x[i] += 0.01;
  }
  return check_done();
}
