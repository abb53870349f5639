// Time stepping with a single buffer updated in place, in reverse mode: 300 steps of a Gauss-Seidel
// style nonlinear diffusion where each u[i] is overwritten using the already-updated u[i-1], the old
// u[i] and the not-yet-updated u[i+1], plus a boundary value overwritten from the interior each step.
// Every element is overwritten 300 times, so the reverse sweep needs each old value from the tape. The
// gradient with respect to the initial state and to the diffusion coefficient nu (an active scalar);
// central finite differences (h = 1e-6, tolerance 1e-6: 300 steps amplify rounding) and forward tangents
// along every unit direction (tolerance 1e-11).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double relax(double *u, int n, int steps, double nu) {
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i + 1 < n; i++) u[i] = u[i] + nu * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.002 * u[i] * u[i] * u[i];
    u[0] = 0.5 * (u[0] + u[1]) + 0.01 * sin(u[0] + 0.01 * s);
    u[n - 1] = u[n - 2];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i] * (1 + 0.1 * i);
  return e;
}

enum { N = 10, STEPS = 300 };
static double U0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double u[N];
  for (int i = 0; i < N; i++) u[i] = U0[i] + (i == k) * t;
  return relax(u, N, STEPS, 0.2 + (k == N) * t);
}

int main(void) {
  double u[N], du[N] = {0};
  for (int i = 0; i < N; i++) U0[i] = u[i] = sin(0.7 * i) + 0.2;
  double dnu = __parad_autodiff((void *)relax, u, du, parad_const, N, parad_const, STEPS, 0.2);
  for (int k = 0; k <= N; k++) {
    double got = k < N ? du[k] : dnu;
    CHECK_CLOSE(got, fd_central(along, &k, 0, 1e-6), 1e-6);
    double u2[N], e[N];
    for (int i = 0; i < N; i++) u2[i] = U0[i], e[i] = i == k;
    CHECK_CLOSE(got, __parad_fwddiff((void *)relax, u2, e, parad_const, N, parad_const, STEPS, 0.2, (double)(k == N)), 1e-11);
  }
  return check_done();
}
