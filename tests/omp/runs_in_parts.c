// A thread's share of a 1-D worksharing loop is cut into its first 8 iterations, its middle and its last
// 8 before differentiating (omp_segment_runs.c), so that the middle's reverse finds its reads the thread's
// own. What the cut must keep: every iteration once, in order, for shares shorter than the edges (n from 3
// to 1001 at 1 to 4 threads, so shares of 0 to 500 iterations); a reduction carried through the parts; a
// libm call in the loop; a value of the last iteration used after the loop (lastprivate), from a last part
// that may be empty; T steps over two arrays swapped (jacobi1d's shape). Each primal against a serial loop (exactly: the same
// operations in the same order per element, and sums to 1e-12), each gradient against the analytic one
// (1e-12), three times over (an add taken as the thread's own where it is not would be a race).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);

enum { NMAX = 1001, T = 5, REPEAT = 3 };

/* J = sum_{0 < i < n-1} w_i (a_{i-1} + a_i^2 + a_i a_{i+1})^2 */
__attribute__((noinline)) static double sum3(const double *restrict a, const double *restrict w, int n) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 1; i < n - 1; i++) {
    double b = a[i - 1] + a[i] * a[i] + a[i] * a[i + 1];
    J += w[i] * b * b;
  }
  return J;
}

/* J = sum_{0 < i < n-1} w_i a_i sin(a_{i-1} + a_{i+1}): a libm call in the loop (it may write errno), which
   must not make the loop reload the bound libomp wrote (omp_prepare.c: bounds_not_kept) */
__attribute__((noinline)) static double wave(const double *restrict a, const double *restrict w, int n) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 1; i < n - 1; i++) J += w[i] * a[i] * sin(a[i - 1] + a[i + 1]);
  return J;
}

/* J = sum_i w_i a_{i-1} a_{i+1} + t^2, t the last iteration's a_{i-1} a_{i+1} (i = n - 2) */
__attribute__((noinline)) static double last(const double *restrict a, const double *restrict w, int n) {
  double J = 0, t = 0;
#pragma omp parallel for schedule(static) reduction(+ : J) lastprivate(t)
  for (int i = 1; i < n - 1; i++) {
    t = a[i - 1] * a[i + 1];
    J += w[i] * t;
  }
  return J + t * t;
}

/* T steps of the 3-point average on the interior, two arrays swapped; J = sum_i w_i u_T[i]^2 */
__attribute__((noinline)) static double steps(const double *restrict u0, double *restrict work, const double *restrict w, int n) {
  double *a = work, *b = work + n;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) a[i] = b[i] = u0[i];
  for (int s = 0; s < T; s++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
    double *x = a;
    a = b, b = x;
  }
  double J = 0;
  for (int i = 0; i < n; i++) J += w[i] * a[i] * a[i];
  return J;
}

static double a[NMAX], w[NMAX], da[NMAX], want[NMAX], work[2 * NMAX], dwork[2 * NMAX], u[T + 1][NMAX];

static void check_gradient(const char *what, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++) bad += !(fabs(da[i] - want[i]) <= 1e-12 * fmax(1, fabs(want[i])));
  if (bad) printf("%s, n = %d: %d wrong components\n", what, n, bad);
  CHECK_CLOSE((double)bad, 0, 0);
}

int main(void) {
  for (int i = 0; i < NMAX; i++) a[i] = 0.3 + 0.7 * sin(0.37 * i), w[i] = 1 + 0.25 * cos(0.11 * i);
  static const int sizes[] = {3, 4, 5, 10, 17, 18, 19, 33, 34, 40, 1001};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    int n = sizes[k];
    double J = 0;
    memset(want, 0, sizeof want);
    for (int i = 1; i < n - 1; i++) {
      double b = a[i - 1] + a[i] * a[i] + a[i] * a[i + 1], g = 2 * w[i] * b;
      J += w[i] * b * b;
      want[i - 1] += g, want[i] += (2 * a[i] + a[i + 1]) * g, want[i + 1] += a[i] * g;
    }
    CHECK_CLOSE(sum3(a, w, n), J, 1e-12);
    for (int r = 0; r < REPEAT; r++) {
      memset(da, 0, sizeof da);
      __parad_autodiff((void *)sum3, a, da, parad_const, w, parad_const, n);
      check_gradient("sum3", n);
    }

    J = 0;
    memset(want, 0, sizeof want);
    for (int i = 1; i < n - 1; i++) {
      double c = cos(a[i - 1] + a[i + 1]) * w[i] * a[i];
      J += w[i] * a[i] * sin(a[i - 1] + a[i + 1]);
      want[i] += w[i] * sin(a[i - 1] + a[i + 1]), want[i - 1] += c, want[i + 1] += c;
    }
    CHECK_CLOSE(wave(a, w, n), J, 1e-12);
    for (int r = 0; r < REPEAT; r++) {
      memset(da, 0, sizeof da);
      __parad_autodiff((void *)wave, a, da, parad_const, w, parad_const, n);
      check_gradient("wave", n);
    }

    double t = 0;
    J = 0;
    memset(want, 0, sizeof want);
    for (int i = 1; i < n - 1; i++) t = a[i - 1] * a[i + 1], J += w[i] * t, want[i - 1] += w[i] * a[i + 1], want[i + 1] += w[i] * a[i - 1];
    if (n > 2) want[n - 3] += 2 * t * a[n - 1], want[n - 1] += 2 * t * a[n - 3];
    CHECK_CLOSE(last(a, w, n), J + t * t, 1e-12);
    for (int r = 0; r < REPEAT; r++) {
      memset(da, 0, sizeof da);
      __parad_autodiff((void *)last, a, da, parad_const, w, parad_const, n);
      check_gradient("last", n);
    }

    /* the steps serially, then the adjoint back through them: the transposed average on the interior,
       the end points passing their own adjoint on */
    memcpy(u[0], a, sizeof(double) * (size_t)n);
    for (int s = 0; s < T; s++) {
      u[s + 1][0] = u[0][0], u[s + 1][n - 1] = u[0][n - 1];
      for (int i = 1; i < n - 1; i++) u[s + 1][i] = (u[s][i - 1] + u[s][i] + u[s][i + 1]) / 3;
    }
    J = 0;
    for (int i = 0; i < n; i++) J += w[i] * u[T][i] * u[T][i], want[i] = 2 * w[i] * u[T][i];
    for (int s = 0; s < T; s++) {
      double g[NMAX] = {0};
      g[0] = want[0], g[n - 1] += want[n - 1];
      for (int i = 1; i < n - 1; i++) g[i - 1] += want[i] / 3, g[i] += want[i] / 3, g[i + 1] += want[i] / 3;
      memcpy(want, g, sizeof(double) * (size_t)n);
    }
    CHECK_CLOSE(steps(a, work, w, n), J, 1e-12);
    for (int r = 0; r < REPEAT; r++) {
      memset(da, 0, sizeof da), memset(dwork, 0, sizeof dwork);
      __parad_autodiff((void *)steps, a, da, work, dwork, parad_const, w, parad_const, n);
      check_gradient("steps", n);
    }
  }
  return check_done();
}
