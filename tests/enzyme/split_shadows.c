// Split mode written as Enzyme's users write it: each step of a time loop taped by __enzyme_augmentfwd,
// reversed by __enzyme_reverse. Parad's reverse sweep adds into the shadows its augmented forward call was
// given (its frame keeps them); Enzyme's takes those of its own call. A program that tapes with a scratch
// shadow and reverses with the real adjoint got the seed back unchanged and dk = 0, silently; the
// reverse call compares its shadows with the augmented call's now, and stops the program where they
// differ. Same shadows: the steps' chained gradient against the analytic one (1e-12) and central
// differences (h = 1e-6, 1e-7); other shadows: the message, with the reverse call's line.
//   step: u_i <- k u_i^2 (in place), T steps; J = sum_i u_i at the end.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: not --crash %t other 2>&1 | FileCheck %s
// RUN: not --crash %t0 other 2>&1 | FileCheck %s
// CHECK: split_shadows.c:[[# @LINE + 30]]: __enzyme_reverse of 'step' was given other shadows than the augmented forward call whose tape it reverses
#include <math.h>
#include <string.h>
#include "check.h"

void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

enum { N = 3, T = 4 };

__attribute__((noinline)) void step(double *u, double k) {
  for (int i = 0; i < N; i++) u[i] = k * u[i] * u[i];
}

static double run(const double *u0, double k) {
  double u[N], J = 0;
  memcpy(u, u0, sizeof u);
  for (int t = 0; t < T; t++) step(u, k);
  for (int i = 0; i < N; i++) J += u[i];
  return J;
}

int main(int argc, char **argv) {
  const double u0[N] = {0.9, 1.1, 0.7}, k = 0.8;
  double u[N], du[N], scratch[N] = {0}, dk = 0;
  void *tapes[T];
  memcpy(u, u0, sizeof u);
  for (int t = 0; t < T; t++) tapes[t] = __enzyme_augmentfwd((void *)step, enzyme_dup, u, du, enzyme_out, k);
  for (int i = 0; i < N; i++) du[i] = 1;
  if (argc > 1 && !strcmp(argv[1], "other")) { /* taped with du, one step reversed with scratch */
    dk += __enzyme_reverse((void *)step, enzyme_dup, u, scratch, enzyme_out, k, tapes[T - 1]);
    return 0;
  }
  for (int t = T - 1; t >= 0; t--) dk += __enzyme_reverse((void *)step, enzyme_dup, u, du, enzyme_out, k, tapes[t]);
  /* u_T = k^(2^T - 1) u0^(2^T): dJ/du0_i = 2^T k^(2^T - 1) u0_i^(2^T - 1), dJ/dk = (2^T - 1) J / k */
  double J = run(u0, k), p = 1 << T;
  for (int i = 0; i < N; i++) CHECK_CLOSE(du[i], p * pow(k, p - 1) * pow(u0[i], p - 1), 1e-12);
  CHECK_CLOSE(dk, (p - 1) * J / k, 1e-12);
  const double h = 1e-6;
  CHECK_CLOSE(dk, (run(u0, k + h) - run(u0, k - h)) / (2 * h), 1e-7);
  return check_done();
}
