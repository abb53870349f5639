// Custom derivatives: a function whose body is in another file is differentiated through the gradient the
// program registers for it (__parad_register_gradient_NAME, and Enzyme's __enzyme_register_gradient_NAME);
// with pointers, shadows and a tape passed from the augmented function to the gradient; and a
// registration that replaces the derivative of a function whose body is visible (a straight-through
// estimator for floor). Against analytic derivatives (tolerance 1e-12). No forward comparison: a registered
// gradient is a reverse-mode rule, and forward mode cannot see the bodies it stands for.
// RUN: %parad-cc %cflags %s %S/Inputs/opaque.c -o %t && %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_autodiff_v(void *, ...);

/* softplus(x) = log(1 + e^x), derivative: the logistic function */
double opaque_softplus(double x);
static double aug_softplus(double x) { return opaque_softplus(x); }
static double grad_softplus(double x, double dret) { return dret / (1 + exp(-x)); }
void *__parad_register_gradient_opaque_softplus[3] = {(void *)opaque_softplus, (void *)aug_softplus,
                                                      (void *)grad_softplus};

/* y_i = k x_i^2: the augmented function keeps 2 k x_i on a tape of its own */
void opaque_scale(const double *x, double *y, int n, double k);
typedef struct { double *twokx; } Saved;
static void *aug_scale(const double *x, double *dx, double *y, double *dy, int n, double k) {
  opaque_scale(x, y, n, k);
  double *s = malloc(n * sizeof *s);
  for (int i = 0; i < n; i++) s[i] = 2 * k * x[i];
  return s;
}
static double grad_scale(const double *x, double *dx, double *y, double *dy, int n, double k, void *tape) {
  double *s = tape, dk = 0;
  for (int i = 0; i < n; i++) {
    dx[i] += s[i] * dy[i];
    dk += x[i] * x[i] * dy[i];
    dy[i] = 0;
  }
  free(s);
  return dk;
}
void *__enzyme_register_gradient_opaque_scale[3] = {(void *)opaque_scale, (void *)aug_scale, (void *)grad_scale};

/* floor with the derivative of the identity */
static double rounded(double x) { return floor(x); }
static double aug_rounded(double x) { return floor(x); }
static double grad_rounded(double x, double dret) { return dret; }
void *__parad_register_gradient_rounded[3] = {(void *)rounded, (void *)aug_rounded, (void *)grad_rounded};

static double model(double *x, double *y, int n, double k) {
  opaque_scale(x, y, n, k);
  double s = 0;
  for (int i = 0; i < n; i++) s += opaque_softplus(y[i]) + rounded(3 * x[i]);
  return s;
}

int main(void) {
  double x[3] = {0.5, -0.2, 1.1}, dx[3] = {0}, y[3], dy[3] = {0}, k = 0.8;
  typedef struct { double dk; } G;
  double dk = __parad_autodiff((void *)model, x, dx, y, dy, parad_const, 3, k);
  double want_dk = 0;
  for (int i = 0; i < 3; i++) {
    double yi = k * x[i] * x[i], sig = 1 / (1 + exp(-yi));
    CHECK_CLOSE(dx[i], sig * 2 * k * x[i] + 3, 1e-12);
    want_dk += sig * x[i] * x[i];
  }
  CHECK_CLOSE(dk, want_dk, 1e-12);
  return check_done();
}
