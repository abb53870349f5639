// A request inside a helper that is given the function to differentiate, as a test harness or a user's
// optimiser loop is written: `grad(fn, x, g)` calls __parad_autodiff((void *)fn, ...), and `check(fn, ...)`
// calls grad and __parad_fwddiff with its own parameter, for two functions. The request names no function
// until the helpers are inlined into their callers: a static helper is (nested: twice), at -O2 and at -O0
// (where the parameter lives in a stack slot). A helper that other files may call (not static, -DEXTERNAL)
// was refused; its request now differentiates a call through the pointer (tests/rev/request_through_pointer.c).
// A helper the program marks always_inline itself (-DALWAYS) was refused: Parad ran the inliner only for
// the helpers it marked.
//   f(x) = sum_i sin(x_i) x_{i+1}: df/dx_k = cos(x_k) x_{k+1} + sin(x_{k-1});
//   h(x) = prod_i (1 + x_i / 10):  dh/dx_k = h / (10 + x_k)   (indices mod N)
// Gradients and tangents along each unit direction against the analytic derivatives (1e-12).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -DALWAYS %s -o %ta -lm && %ta
// RUN: %parad-cc -O0 -I%S/../include -DALWAYS %s -o %ta0 -lm && %ta0
// RUN: %parad-cc %cflags -DEXTERNAL %s -o %te -lm && %te
// RUN: %parad-cc -O0 -I%S/../include -DEXTERNAL %s -o %te0 -lm && %te0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 6 };
typedef double (*Fn)(const double *);

static double f(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += sin(x[i]) * x[(i + 1) % N];
  return s;
}

static double h(const double *x) {
  double p = 1;
  for (int i = 0; i < N; i++) p *= 1 + x[i] / 10;
  return p;
}

#ifdef EXTERNAL
void grad(Fn fn, const double *x, double *g) {
  __parad_autodiff((void *)fn, x, g);
}
#elif defined ALWAYS
static inline __attribute__((always_inline)) void grad(Fn fn, const double *x, double *g) {
  __parad_autodiff((void *)fn, x, g);
}
#else
static void grad(Fn fn, const double *x, double *g) { __parad_autodiff((void *)fn, x, g); }
#endif

static void check(Fn fn, const double *x, const double *want) {
  double g[N] = {0};
  grad(fn, x, g);
  for (int k = 0; k < N; k++) {
    double v[N] = {0};
    v[k] = 1;
    CHECK_CLOSE(g[k], want[k], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)fn, x, v), want[k], 1e-12);
  }
}

int main(void) {
  double x[N], df[N], dh[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i;
  for (int k = 0; k < N; k++) {
    df[k] = cos(x[k]) * x[(k + 1) % N] + sin(x[(k + N - 1) % N]);
    dh[k] = h(x) / (10 + x[k]);
  }
  check(f, x, df);
  check(h, x, dh);
  return check_done();
}
