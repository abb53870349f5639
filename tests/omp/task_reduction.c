// Task reductions of sums, both modes: a task group's task_reduction with tasks in_reduction, tasks that
// create tasks reducing into the same variables (a double, a float and an int count), and a parallel
// region's reduction(task, +) fed by tasks created in a work-shared loop. Each task's part is its own and
// is added into the variable when the task returns, so the reduced value may be used nonlinearly after
// the group: f(x) = g(x)^2 with g = sum_i sin(x_i) x_i; k(x) = S T / c with S = sum_i exp(x_i / 10),
// T = sum_i 2 x_i in float, c the count; h(x) = sum_i x_i sin(x_i) + cos(x_i) x_{i+1}; and q(x) = (sum_i
// x_i x_{i+3})^2, each task adding through a helper given the variable's address.
// Gradients and tangents (width 1 and 2) against the analytic derivatives (1e-12; 1e-6 for k, whose T is
// a float) and central differences (h = 1e-6: 1e-7 relative; k with h = 1e-2: 1e-3, for the float sum's
// rounding over 2h), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

typedef struct {
  double d[2];
} Two;
double __parad_fwddiff(void *, ...);
Two __parad_fwddiff2(void *, ...) __asm__("__parad_fwddiff");
double __parad_autodiff(void *, ...);

enum { N = 23 };

static double f(const double *x) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : s)
    for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
      s += sin(x[i]) * x[i];
    }
  }
  return s * s;
}

static double k(const double *x) {
  double s = 0;
  float t = 0;
  int c = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : s, t, c)
  for (int b = 0; b < N; b += 4) {
#pragma omp task in_reduction(+ : s, t, c) firstprivate(b)
    for (int i = b; i < b + 4 && i < N; i++) {
#pragma omp task in_reduction(+ : s, t, c) firstprivate(i)
      {
        s += exp(0.1 * x[i]);
        t += (float)x[i] * 2.0f;
        c += 1;
      }
    }
  }
  return s * t / c;
}

static double h(const double *x) {
  double s = 0;
#pragma omp parallel reduction(task, + : s)
  {
#pragma omp for
    for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
      s += x[i] * sin(x[i]) + cos(x[i]) * x[(i + 1) % N];
    }
  }
  return s;
}

/* a helper adding into the reduction through its address */
__attribute__((noinline)) static void add_to(double *s, double v) { *s += v; }

static double q(const double *x) {
  double s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : s)
  for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
    add_to(&s, x[i] * x[(i + 3) % N]);
  }
  return s * s;
}

/* a macro: a request names its function */
#define CHECK_ALL(F, want, tol, h_fd, tol_fd)                                                                    \
  do {                                                                                                         \
    double x[N], g[N] = {0}, v[2][N];                                                                      \
    for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.9;                                                          \
    __parad_autodiff((void *)F, x, g);                                                                         \
    for (int j = 0; j + 1 < N; j += 2) {                                                                       \
      for (int l = 0; l < 2; l++)                                                                              \
        for (int i = 0; i < N; i++) v[l][i] = i == j + l;                                                      \
      Two t = __parad_fwddiff2((void *)F, parad_width, 2, x, v[0], v[1]);                                      \
      for (int l = 0; l < 2; l++) {                                                                            \
        CHECK_CLOSE(g[j + l], want[j + l], tol);                                                               \
        CHECK_CLOSE(__parad_fwddiff((void *)F, x, v[l]), want[j + l], tol);                                    \
        CHECK_CLOSE(t.d[l], want[j + l], tol);                                                                 \
        CHECK_CLOSE(g[j + l], fd_component(F, x, N, j + l, h_fd), tol_fd);                                     \
      }                                                                                                        \
    }                                                                                                          \
  } while (0)

int main(void) {
  double x[N], df[N], dk[N], dh[N], dq[N], g = 0, S = 0, T = 0, Q = 0;
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.9;
  for (int i = 0; i < N; i++) g += sin(x[i]) * x[i], S += exp(0.1 * x[i]), T += 2 * x[i], Q += x[i] * x[(i + 3) % N];
  for (int i = 0; i < N; i++) {
    df[i] = 2 * g * (cos(x[i]) * x[i] + sin(x[i]));
    dk[i] = (0.1 * exp(0.1 * x[i]) * T + S * 2) / N;
    int p = (i + N - 1) % N;
    dh[i] = sin(x[i]) + x[i] * cos(x[i]) - sin(x[i]) * x[(i + 1) % N] + cos(x[p]);
    dq[i] = 2 * Q * (x[(i + 3) % N] + x[(i + N - 3) % N]);
  }
  CHECK_ALL(f, df, 1e-12, 1e-6, 1e-7);
  CHECK_ALL(k, dk, 1e-6, 1e-2, 1e-3);
  CHECK_ALL(h, dh, 1e-12, 1e-6, 1e-7);
  CHECK_ALL(q, dq, 1e-12, 1e-6, 1e-7);
  return check_done();
}
