// while loops whose trip count is known only at run time and depends on active data, in reverse mode: a
// fixed-point iteration x <- cos(p x) + q run until the step is below 1e-14 (the tape holds as many
// iterations as were taken), and a do-while that shrinks an array's values until all are below 1,
// summing along the way. The fixed point's gradient against the implicit-function-theorem value
// dx/dp = -x sin(p x) / (1 + p sin(p x)), dx/dq = 1 / (1 + p sin(p x)) (tolerance 1e-10: the iteration's
// derivative converges like the iteration), the shrinking loop against central finite differences
// (h = 1e-6, tolerance 1e-7); both against forward tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double dp, dq; } G2;
G2 __parad_autodiff2(void *, ...);
void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static int iterations;

__attribute__((noinline)) static double fixed_point(double p, double q) {
  double x = 0.5, step;
  iterations = 0;
  do {
    double nx = cos(p * x) + q;
    step = fabs(nx - x);
    x = nx;
    iterations++;
  } while (step > 1e-14);
  return x;
}

__attribute__((noinline)) static double shrink(double *v, int n) {
  double s = 0, big;
  int passes = 0;
  do {
    big = 0;
    for (int i = 0; i < n; i++) {
      if (v[i] > 1) v[i] = 0.6 * v[i] + 0.02 * v[i] * v[i] / (passes + 1);
      s += v[i] * (i + 1);
      if (v[i] > big) big = v[i];
    }
    passes++;
  } while (big > 1);
  return s + passes;
}

enum { N = 6 };
static const double V0[N] = {0.5, 3.0, 1.2, 7.5, 0.9, 2.2};

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double v[N];
  for (int i = 0; i < N; i++) v[i] = V0[i] + (i == k) * t;
  return shrink(v, N);
}

int main(void) {
  double ps[] = {0.3, 0.8, 1.1}, q = 0.2;
  for (int i = 0; i < 3; i++) {
    double p = ps[i];
    G2 g = __parad_autodiff2((void *)fixed_point, p, q);
    CHECK_CLOSE(iterations > 5, 1, 0);
    double x = fixed_point(p, q), d = 1 + p * sin(p * x);
    CHECK_CLOSE(g.dp, -x * sin(p * x) / d, 1e-10);
    CHECK_CLOSE(g.dq, 1 / d, 1e-10);
    CHECK_CLOSE(g.dp, __parad_fwddiff((void *)fixed_point, p, 1.0, q, 0.0), 1e-12);
    CHECK_CLOSE(g.dq, __parad_fwddiff((void *)fixed_point, p, 0.0, q, 1.0), 1e-12);
  }
  double v[N], dv[N] = {0}, e[N];
  for (int i = 0; i < N; i++) v[i] = V0[i];
  __parad_autodiff((void *)shrink, v, dv, parad_const, N);
  for (int k = 0; k < N; k++) {
    double d = dv[k];
    CHECK_CLOSE(d, fd_central(along, &k, 0, 1e-6), 1e-7);
    double v2[N];
    for (int i = 0; i < N; i++) v2[i] = V0[i], e[i] = i == k;
    CHECK_CLOSE(d, __parad_fwddiff((void *)shrink, v2, e, parad_const, N), 1e-12);
  }
  return check_done();
}
