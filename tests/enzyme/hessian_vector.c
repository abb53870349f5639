// Forward mode over reverse mode, written as Enzyme's users write it: __enzyme_fwddiff of a function that
// calls __enzyme_autodiff gives a Hessian-vector product (the reverse sweep's tape gets a tangent twin).
//   rosen:  f(x) = sum_i 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, n = 6: H v against the analytic Hessian
//           (tridiagonal; 1e-10) and against central differences of the gradient along v (1e-6);
//   chain:  a heap copy of x relaxed in place three times (y_i = 0.9 y_i + 0.1 tanh y_{i-1}), then
//           sum sin(y_i y_{i+1}) + y_i^2 y_{i+1} through a called function, at n = 20,000 (the tape spans
//           several chunks, and so does its twin) and n = 7: against differences of the gradient (1e-6);
//   scalar: the derivative returned by value (an active double), differentiated again:
//           g(x) = x^2 e^-x + x^2 sin x^2, g'' against the analytic one (1e-10);
//   grown:  a buffer grown by realloc inside the function: against differences of the gradient (1e-6).
// At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);
extern double __enzyme_fwddiff_scalar(void *, ...) __asm__("__enzyme_fwddiff");
int enzyme_dup, enzyme_const, enzyme_out;

static double rosen(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) f += 100 * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) + (1 - x[i]) * (1 - x[i]);
  return f;
}

static double pair(double a, double b) { return sin(a * b) + a * a * b; }

static double chain(const double *x, int n) {
  double *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) y[i] = x[i];
  for (int s = 0; s < 3; s++)
    for (int i = 1; i < n; i++) y[i] = y[i] * 0.9 + 0.1 * tanh(y[i - 1]);
  double e = 0;
  for (int i = 0; i + 1 < n; i++) e += pair(y[i], y[i + 1]);
  free(y);
  return e;
}

static double grown(const double *x, int n) {
  double *buf = NULL, s = 0;
  for (int i = 0; i < n; i++) {
    buf = realloc(buf, sizeof(double) * (i + 1));
    buf[i] = x[i] * x[i];
    s += buf[i] * (i > 0 ? buf[i - 1] : 1.0);
  }
  free(buf);
  return s;
}

static void grad_rosen(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g, enzyme_const, n);
}
static void grad_chain(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)chain, enzyme_dup, x, g, enzyme_const, n);
}
static void grad_grown(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)grown, enzyme_dup, x, g, enzyme_const, n);
}

static void point(double *x, double *v, int n) {
  for (int i = 0; i < n; i++) x[i] = 0.8 * sin(0.37 * i + 0.2), v[i] = cos(0.11 * i);
}

/* hv (by forward over reverse) against central differences of the gradient along v: the worst component */
static void check_against_differences(void (*grad)(const double *, double *, int), const double *x, const double *v,
                                      const double *hv, int n) {
  double *gp = malloc(sizeof(double) * n), *gm = malloc(sizeof(double) * n), *xp = malloc(sizeof(double) * n),
         *xm = malloc(sizeof(double) * n), h = 1e-6;
  for (int i = 0; i < n; i++) xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  grad(xp, gp, n);
  grad(xm, gm, n);
  double worst = -1, want = 0, got = 0;
  for (int i = 0; i < n; i++) {
    double fd = (gp[i] - gm[i]) / (2 * h), d = fabs(hv[i] - fd) / (1 + fabs(fd));
    if (d > worst) worst = d, want = fd, got = hv[i];
  }
  CHECK_CLOSE(got, want, 1e-6);
  free(gp), free(gm), free(xp), free(xm);
}

#define HESSIAN_VECTOR(grad, n)                                                                                       \
  do {                                                                                                                \
    double *x = malloc(sizeof(double) * (n)), *v = malloc(sizeof(double) * (n)), *g = malloc(sizeof(double) * (n)), \
           *hv = calloc((n), sizeof(double));                                                                         \
    point(x, v, (n));                                                                                                 \
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, (n));                           \
    check_against_differences(grad, x, v, hv, (n));                                                                   \
    free(x), free(v), free(g), free(hv);                                                                              \
  } while (0)

static double scalar(double x) { return x * x * exp(-x) + x * x * sin(x * x); }
static double d_scalar(double x) { return __enzyme_autodiff((void *)scalar, enzyme_out, x); }

int main(void) {
  enum { R = 6 };
  double x[R], v[R], g[R], hv[R] = {0};
  point(x, v, R);
  __enzyme_fwddiff((void *)grad_rosen, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, R);
  check_against_differences(grad_rosen, x, v, hv, R);
  for (int i = 0; i < R; i++) { /* the Hessian's row i times v */
    double want = 0;
    if (i + 1 < R) want += (1200 * x[i] * x[i] - 400 * x[i + 1] + 2) * v[i] - 400 * x[i] * v[i + 1];
    if (i > 0) want += 200 * v[i] - 400 * x[i - 1] * v[i - 1];
    CHECK_CLOSE(hv[i], want, 1e-10);
  }
  HESSIAN_VECTOR(grad_chain, 20000);
  HESSIAN_VECTOR(grad_chain, 7);
  HESSIAN_VECTOR(grad_grown, 5);
  double t = 0.8, e = exp(-t), s = sin(t * t), c = cos(t * t);
  double want = (2 - 4 * t + t * t) * e + 2 * s + 10 * t * t * c - 4 * t * t * t * t * s;
  CHECK_CLOSE(__enzyme_fwddiff_scalar((void *)d_scalar, t, 1.0), want, 1e-10);
  return check_done();
}
