// A local record holding an active array beside a constant one, passed to a function that is not
// inlined: `Batch b = {X, Y, n}` with X differentiated and Y passed as constant (the targets of a fit),
// then mse(w, &b) reads both through the record. The shadow record needs something at Y's field: Y
// shadows itself (a view), and the loads through the record's fields in mse compare each shadow address
// with its address (equal: constant memory, zeros read, adjoints dropped). Once refused at -O2 ("needs a
// shadow for memory that has none"; -O0 built). Y and the weights are static const tables in read-only
// memory: an adjoint added into them would fault.
//   by_inputs:  d/dX of mean (w0 tanh(X_i) + w1 - Y_i)^2, w and Y constant;
//   by_weights: d/dw of the same, X and Y constant (both fields stand in for themselves), the record passed
//               on one level more (mse calls a residual function with it);
//   both:       X and w active at once.
// Analytic gradients (1e-12), tangents along each direction (1e-12), central differences (h = 1e-6,
// tolerance 1e-7), at -O2, -O0 and -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  const double *X, *Y;
  int n;
} Batch;

enum { N = 7 };
static const double TARGET[N] = {0.2, 0.1, 0.0, 0.4, -0.3, 0.25, 0.6};
static const double WEIGHTS[2] = {1.3, -0.2};
static const double INPUTS[N] = {0.1, 0.5, -0.3, 0.8, -0.9, 0.05, 1.1};

__attribute__((noinline)) static double residual(const double *w, const Batch *b, int i) { return w[0] * tanh(b->X[i]) + w[1] - b->Y[i]; }

__attribute__((noinline)) static double mse(const double *w, const Batch *b) {
  double L = 0;
  for (int i = 0; i < b->n; ++i) {
    double r = w[0] * tanh(b->X[i]) + w[1] - b->Y[i];
    L += r * r;
  }
  return L / b->n;
}

__attribute__((noinline)) static double mse_by_residuals(const double *w, const Batch *b) {
  double L = 0;
  for (int i = 0; i < b->n; ++i) L += residual(w, b, i) * residual(w, b, i);
  return L / b->n;
}

static double by_inputs(const double *X, const double *Y, const double *w, int n) {
  Batch b = {X, Y, n};
  return mse(w, &b);
}

static double by_weights(const double *w, const double *X, const double *Y, int n) {
  Batch b = {X, Y, n};
  return mse_by_residuals(w, &b);
}

static double both(const double *X, const double *w, const double *Y, int n) {
  Batch b = {X, Y, n};
  return mse(w, &b) + 0.1 * mse_by_residuals(w, &b);
}

/* d/dX_i and d/dw of mean r^2, scaled by s */
static double dX_of(const double *X, const double *w, int i, double s) {
  double t = tanh(X[i]), r = w[0] * t + w[1] - TARGET[i];
  return s * 2 * r * w[0] * (1 - t * t) / N;
}

static double dw_of(const double *X, const double *w, int k, double s) {
  double d = 0;
  for (int i = 0; i < N; i++) {
    double t = tanh(X[i]), r = w[0] * t + w[1] - TARGET[i];
    d += 2 * r * (k == 0 ? t : 1) / N;
  }
  return s * d;
}

static double of_inputs(const double *X) { return by_inputs(X, TARGET, WEIGHTS, N); }
static double of_weights(const double *w) { return by_weights(w, INPUTS, TARGET, N); }

int main(void) {
  const double h = 1e-6;
  double X[N], dX[N] = {0}, vX[N] = {0};
  for (int i = 0; i < N; i++) X[i] = INPUTS[i];

  __parad_autodiff((void *)by_inputs, X, dX, parad_const, TARGET, parad_const, WEIGHTS, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dX[i], dX_of(X, WEIGHTS, i, 1), 1e-12);
    vX[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)by_inputs, X, vX, parad_const, TARGET, parad_const, WEIGHTS, N), dX[i], 1e-12);
    vX[i] = 0;
    CHECK_CLOSE(dX[i], fd_component(of_inputs, X, N, i, h), 1e-7);
  }

  double w[2] = {WEIGHTS[0], WEIGHTS[1]}, dw[2] = {0}, vw[2] = {0};
  __parad_autodiff((void *)by_weights, w, dw, parad_const, INPUTS, parad_const, TARGET, N);
  for (int k = 0; k < 2; k++) {
    CHECK_CLOSE(dw[k], dw_of(INPUTS, w, k, 1), 1e-12);
    vw[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)by_weights, w, vw, parad_const, INPUTS, parad_const, TARGET, N), dw[k], 1e-12);
    vw[k] = 0;
    CHECK_CLOSE(dw[k], fd_component(of_weights, w, 2, k, h), 1e-7);
  }

  double dX2[N] = {0}, dw2[2] = {0};
  __parad_autodiff((void *)both, X, dX2, w, dw2, parad_const, TARGET, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dX2[i], dX_of(X, w, i, 1.1), 1e-12);
  for (int k = 0; k < 2; k++) CHECK_CLOSE(dw2[k], dw_of(X, w, k, 1.1), 1e-12);
  vX[3] = 1, vw[1] = 1;
  CHECK_CLOSE(__parad_fwddiff((void *)both, X, vX, w, vw, parad_const, TARGET, N), dX2[3] + dw2[1], 1e-12);
  return check_done();
}
