// Derivatives of functions defined in other files: this file asks for gradients and tangents of
// model_energy (model.c), which calls pair_term from a static library (pairs.c in libpairs.a) and statics of
// its own (a static named like one of pairs.c: they must stay distinct), and of a function that calls an
// integrator in a third file (integrate.c) through a callback, picked from a table in model.c. Compiled file
// by file (as make does) and linked through the library; and in one command. Checked against analytic
// gradients for the energy (tolerance 1e-12) and central finite differences for the integrator
// (h = 1e-6, tolerance 1e-7), reverse against forward (1e-12).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -I%S/Inputs/multifile -c %s -o %t/main.o
// RUN: %parad-cc %cflags -c %S/Inputs/multifile/model.c -o %t/model.o
// RUN: %parad-cc %cflags -c %S/Inputs/multifile/pairs.c -o %t/pairs.o && ar rcs %t/libpairs.a %t/pairs.o
// RUN: %parad-cc -O1 -c %S/Inputs/multifile/integrate.c -o %t/integrate.o
// RUN: %parad-cc %t/main.o %t/model.o %t/integrate.o -L%t -lpairs -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O0 -I%S/../include -I%S/Inputs/multifile %s %S/Inputs/multifile/model.c %S/Inputs/multifile/pairs.c %S/Inputs/multifile/integrate.c -o %t/prog0 -lm && %t/prog0
// With -S no link follows where model.c is seen: refused with a note saying where the derivative is made.
// RUN: not %parad-cc %cflags -I%S/Inputs/multifile -S %s -o %t/main.s 2> %t/s.err && test ! -e %t/main.s
// RUN: grep -q "cannot differentiate 'model_energy', which no file" %t/s.err && grep -q 'note: with -S or -emit-llvm Parad sees this file alone' %t/s.err
#include <math.h>
#include "check.h"
#include "model.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static double trajectory(const double *p, int which) {
  double y[2] = {1.0, 0.5};
  integrate(rhs_table[which], y, p, 30, 0.05);
  return y[0] * y[0] + y[1];
}

static double P[2] = {0.7, 0.3};
static int WHICH;
static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double p[2] = {P[0] + (k == 0) * t, P[1] + (k == 1) * t};
  return trajectory(p, WHICH);
}

/* d/da of 2 * (0.5 sin(ab) + exp(-(a-b)^2)) */
static double dpair(double a, double b) { return 2 * (0.5 * b * cos(a * b) - 2 * (a - b) * exp(-(a - b) * (a - b))); }

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 * i - 0.7;
  __parad_autodiff((void *)model_energy, x, dx, N);
  for (int k = 0; k < N; k++) {
    double want = 0.75 * x[k] * x[k];
    for (int j = 0; j < N; j++)
      if (j != k) want += dpair(x[k], x[j]);
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(__parad_fwddiff((void *)model_energy, x, e, N), dx[k], 1e-12);
  }
  for (WHICH = 0; WHICH < 2; WHICH++) {
    double dp[2] = {0};
    __parad_autodiff((void *)trajectory, P, dp, WHICH);
    for (int k = 0; k < 2; k++) {
      CHECK_CLOSE(dp[k], fd_central(along, &k, 0, 1e-6), 1e-7);
      double t[2] = {k == 0, k == 1};
      CHECK_CLOSE(__parad_fwddiff((void *)trajectory, P, t, WHICH), dp[k], 1e-12);
    }
  }
  return check_done();
}
