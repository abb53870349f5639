// Registered functions whose bodies the optimiser could see through: their calls keep their registered
// meaning. Before, the light optimisation ahead of the generators inferred `returned` on a function
// returning its argument and replaced the call's result by the argument, and propagated a constant a
// function returns into its callers, so the argument's derivative flowed through as if nothing were
// registered (at -O1 and up; the constant at -O0 too):
//   stop(x) = x, inactive (a stop-gradient), in a loop and in an OpenMP loop: d/dx sum x_i stop(x_i) = x_i;
//   grl(x) = x with a custom gradient -dret and a custom tangent -dx (a gradient reversal layer):
//   d/dx x grl(x) = x - x = 0, in reverse and forward mode;
//   one(x) = 1 (static) with a custom gradient dret (a straight-through estimator): d/dx x one(x) = 1 + x.
// Against the analytic derivatives (1e-12). At -O2, -O3, -Os and -O0; -fopenmp at 2 threads.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fopenmp %s -o %tp -lm && env OMP_NUM_THREADS=2 %tp
#include <math.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double stop(double x) { return x; }
void *__enzyme_inactivefn[] = {(void *)stop};

__attribute__((noinline)) double grl(double x) { return x; }
static double grl_aug(double x) { return x; }
static double grl_grad(double x, double dret) { return -dret; }
static double grl_fwd(double x, double dx) { return -dx; }
void *__enzyme_register_gradient_grl[3] = {(void *)grl, (void *)grl_aug, (void *)grl_grad};
void *__enzyme_register_derivative_grl[2] = {(void *)grl, (void *)grl_fwd};

static __attribute__((noinline)) double one(double x) { return 1.0; }
static double one_aug(double x) { return 1.0; }
static double one_grad(double x, double dret) { return dret; }
void *__enzyme_register_gradient_one[3] = {(void *)one, (void *)one_aug, (void *)one_grad};

static double stopped(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * stop(x[i]);
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += 0.5 * x[i] * stop(x[i]);
  return s;
}
static double reversed(double x) { return x * grl(x); }
static double straight(double x) { return x * one(x); }

int main(void) {
  enum { N = 7 };
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + i;
    v[i] = 1;
  }
  __enzyme_autodiff((void *)stopped, enzyme_dup, x, dx, enzyme_const, N);
  double t = __enzyme_fwddiff((void *)stopped, enzyme_dup, x, v, enzyme_const, N), want = 0;
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 1.5 * x[i], 1e-12);
    want += 1.5 * x[i];
  }
  CHECK_CLOSE(t, want, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)reversed, 3.0), 0.0, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)reversed, 3.0, 1.0), 0.0, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)straight, 3.0), 4.0, 1e-12);
  return check_done();
}
