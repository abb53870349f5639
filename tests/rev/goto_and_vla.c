// Unstructured control flow and scoped stack memory in reverse mode: a loop entered in its middle by a
// goto when the input is positive (an irreducible loop: two entry blocks), and a variable-length array
// declared inside a loop body (a fresh stack block of a different size every iteration, released at the
// end of each). Central finite differences (h = 1e-6, tolerance 1e-7) and forward tangents along every
// unit direction (tolerance 1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_autodiff_v(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double irreducible(double x, int n) {
  double s = 0;
  int i = 0;
  if (x > 0) goto inside;
loop:
  s += x * x;
inside:
  s += sin(x * s + i);
  if (++i < n) goto loop;
  return s;
}

__attribute__((noinline)) static double vla_loop(const double *x, int n) {
  double s = 0;
  for (int k = 1; k <= n; k++) {
    double buf[k];
    for (int i = 0; i < k; i++) buf[i] = x[i] * (k - i) + sin(x[k - 1 - i]);
    for (int i = 0; i < k; i++) s += buf[i] * buf[k - 1 - i];
  }
  return s;
}

enum { N = 5 };
static double X0[N] = {0.3, -0.2, 0.5, 0.9, -0.7};

static double fd_irr(void *ctx, double x) { return irreducible(x, *(int *)ctx); }
static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return vla_loop(x, N);
}

int main(void) {
  for (int n = 1; n <= 6; n += 5)
    for (double x = -0.5; x < 1; x += 0.7) { /* both entries of the loop */
      double g = __parad_autodiff((void *)irreducible, x, n);
      CHECK_CLOSE(g, fd_central(fd_irr, &n, x, 1e-6), 1e-7);
      CHECK_CLOSE(g, __parad_fwddiff((void *)irreducible, x, 1.0, n), 1e-12);
    }
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) x[i] = X0[i];
  __parad_autodiff_v((void *)vla_loop, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)vla_loop, x, e, parad_const, N), 1e-12);
  }
  return check_done();
}
