// 1-D loops whose runs are the threads' whole shares: each run's first and last iterations read points
// other threads read too, so the reverse sweep cannot decide the run as the thread's own (rev_shared.c).
// Shapes: a 3-point stencil going up, a 5-point one going down, a stride of 3, chunks of 7 (several runs per
// thread), an array of structs read as doubles and floats (no private buffer: the shared reads' adds are
// atomic), a float array. Each gradient is checked against the analytic one (1e-12; 1e-5 where floats are
// summed), five times over (an add taken as the thread's own where it is not would be a race) at 1 to 4
// threads. With `count` (a build with PARAD_COUNT_UPDATES): the array of structs has atomic adds at 2 or
// more threads (its shared reads are not the thread's own) and only plain ones at 1.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -fopenmp %s -o %t.count && OMP_NUM_THREADS=1 %t.count count && OMP_NUM_THREADS=2 %t.count count && OMP_NUM_THREADS=3 %t.count count
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <omp.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 1001, REPEAT = 5 };

typedef struct {
  double v;
  float s;
} Point;

__attribute__((noinline)) static double up3(const double *restrict a, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 1; i < N - 1; i++) {
    double b = 0.25 * a[i - 1] + sin(a[i]) + 0.5 * a[i + 1] * a[i + 1];
    J += w[i] * b * b;
  }
  return J;
}

__attribute__((noinline)) static double down5(const double *restrict a, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = N - 3; i >= 2; i--) {
    double c = a[i - 2] * a[i + 2] + a[i];
    J += w[i] * c * c;
  }
  return J;
}

__attribute__((noinline)) static double stride3(const double *restrict a, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 3; i < N - 3; i += 3) J += w[i] * a[i - 3] * a[i + 3] * a[i];
  return J;
}

__attribute__((noinline)) static double chunks(const double *restrict a, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static, 7) reduction(+ : J)
  for (int i = 1; i < N - 1; i++) {
    double b = 0.25 * a[i - 1] + sin(a[i]) + 0.5 * a[i + 1] * a[i + 1];
    J += w[i] * b * b;
  }
  return J;
}

__attribute__((noinline)) static double points(const Point *restrict p, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 1; i < N - 1; i++) J += w[i] * (p[i - 1].v * p[i + 1].v + p[i].s * p[i].v);
  return J;
}

__attribute__((noinline)) static double floats(const float *restrict f, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 1; i < N - 1; i++) J += w[i] * (double)(f[i - 1] * f[i + 1] + f[i]);
  return J;
}

static double a[N], w[N], da[N], want[N];
static Point p[N], dp[N];
static float f[N], df[N];

static void want_up3(int first, int step) {
  memset(want, 0, sizeof want);
  for (int i = first; i < N - 1; i += step) {
    double b = 0.25 * a[i - 1] + sin(a[i]) + 0.5 * a[i + 1] * a[i + 1], g = 2 * w[i] * b;
    want[i - 1] += 0.25 * g, want[i] += cos(a[i]) * g, want[i + 1] += a[i + 1] * g;
  }
}

/* da against want, REPEAT times; the request names the function (a macro, not a pointer) */
#define CHECK_DOUBLE(fn, what)                                                                  \
  for (int r = 0; r < REPEAT; r++) {                                                            \
    memset(da, 0, sizeof da);                                                                   \
    __parad_autodiff((void *)fn, a, da, parad_const, w);                                        \
    int bad = 0;                                                                                \
    for (int i = 0; i < N; i++) bad += !(fabs(da[i] - want[i]) <= 1e-12 * fmax(1, fabs(want[i]))); \
    if (bad) printf("%s, round %d: %d wrong components\n", what, r, bad);                       \
    CHECK_CLOSE((double)bad, 0, 0);                                                             \
  }

int main(int argc, char **argv) {
  int counting = argc > 1 && !strcmp(argv[1], "count");
  for (int i = 0; i < N; i++) {
    a[i] = 0.3 + 0.7 * sin(0.37 * i), w[i] = 1 + 0.25 * cos(0.11 * i);
    p[i].v = 0.5 + 0.3 * cos(0.23 * i), p[i].s = (float)(0.2 + 0.1 * sin(0.41 * i)), f[i] = (float)(0.4 + 0.3 * sin(0.19 * i));
  }
  if (!counting) {
    want_up3(1, 1);
    CHECK_DOUBLE(up3, "3-point, up");
    CHECK_DOUBLE(chunks, "3-point, chunks of 7");
    memset(want, 0, sizeof want);
    for (int i = 2; i <= N - 3; i++) {
      double c = a[i - 2] * a[i + 2] + a[i], g = 2 * w[i] * c;
      want[i - 2] += a[i + 2] * g, want[i + 2] += a[i - 2] * g, want[i] += g;
    }
    CHECK_DOUBLE(down5, "5-point, down");
    memset(want, 0, sizeof want);
    for (int i = 3; i < N - 3; i += 3)
      want[i - 3] += w[i] * a[i + 3] * a[i], want[i + 3] += w[i] * a[i - 3] * a[i], want[i] += w[i] * a[i - 3] * a[i + 3];
    CHECK_DOUBLE(stride3, "stride 3");
    for (int r = 0; r < REPEAT; r++) { /* float adjoints: summed in float */
      memset(df, 0, sizeof df);
      __parad_autodiff((void *)floats, f, df, parad_const, w);
      for (int i = 0; i < N; i++) {
        double g = 0;
        if (i >= 2) g += w[i - 1] * f[i - 2];
        if (i + 2 < N) g += w[i + 1] * f[i + 2];
        if (i >= 1 && i < N - 1) g += w[i];
        CHECK_CLOSE(df[i], g, 1e-5);
      }
    }
  }
  for (int r = 0; r < REPEAT; r++) {
    unsigned long long plain0, atomic0, plain1, atomic1;
    memset(dp, 0, sizeof dp);
    parad_adjoint_update_counts(&plain0, &atomic0);
    __parad_autodiff((void *)points, p, dp, parad_const, w);
    parad_adjoint_update_counts(&plain1, &atomic1);
    for (int i = 0; i < N; i++) {
      double gv = 0, gs = 0;
      if (i >= 2) gv += w[i - 1] * p[i - 2].v;
      if (i + 2 < N) gv += w[i + 1] * p[i + 2].v;
      if (i >= 1 && i < N - 1) gv += w[i] * p[i].s, gs = w[i] * p[i].v;
      CHECK_CLOSE(dp[i].v, gv, 1e-12);
      CHECK_CLOSE(dp[i].s, gs, 1e-5);
    }
    if (counting) {
      unsigned long long atomics = atomic1 - atomic0;
      if (omp_get_max_threads() == 1) CHECK_CLOSE((double)(atomics == 0 && plain1 - plain0 > 0), 1, 0);
      else CHECK_CLOSE((double)(atomics > 0), 1, 0); /* the shared reads are not the thread's own */
    }
  }
  return check_done();
}
