// parad.h declares every name the README documents, so that a program including it needs no declarations
// of its own: the markers (split mode's parad_tape and parad_allocated too), __parad_fwddiff,
// __parad_autodiff, split mode's __parad_augmentfwd, __parad_reverse and __parad_augmentsize, and the tape
// counters. Built as C (where an undeclared function is an error in C99 and later) and as C++ (parad-c++
// compiles a .c file as C++), at -O2 and -O0; the derivatives of f(x, k) = k sum x_i^2 against the
// analytic ones (1e-12).
// RUN: %parad-cc %cflags -Werror=implicit-function-declaration %s -o %t && %t
// RUN: %parad-cc -O0 -Wall -Werror=implicit-function-declaration -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx %cflags %s -o %t1 && %t1
#include <parad.h>
#include <stdlib.h>
#include "check.h"

static double f(const double *x, double k) { return k * (x[0] * x[0] + x[1] * x[1]); }

int main(void) {
  double x[2] = {0.5, -1.5}, k = 2.0;
  double dx[2] = {0, 0}, ex[2] = {0, 0}, fx[2] = {0, 0}, t[2] = {1, 0};
  parad_tape_reset_peak();
  double dk = __parad_autodiff((void *)f, parad_dup, x, dx, parad_out, k);
  CHECK_CLOSE(dk, 2.5, 1e-12);
  CHECK_CLOSE(dx[1], 2 * k * x[1], 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)f, parad_dup, x, t, parad_const, k), 2 * k * x[0], 1e-12);
  CHECK_CLOSE(parad_tape_peak_bytes() <= parad_tape_recorded_bytes() + (1u << 20), 1, 0);

  void *tape = __parad_augmentfwd((void *)f, x, ex, k);
  CHECK_CLOSE(__parad_reverse((void *)f, x, ex, k, 1.0, parad_tape, tape), 2.5, 1e-12);
  CHECK_CLOSE(ex[0], 2 * k * x[0], 1e-12);

  int size = __parad_augmentsize((void *)f, parad_dup, parad_out);
  void *buffer = malloc(size);
  __parad_augmentfwd((void *)f, parad_allocated, size, parad_tape, buffer, x, fx, k);
  CHECK_CLOSE(__parad_reverse((void *)f, parad_allocated, size, parad_tape, buffer, x, fx, k, 1.0), 2.5, 1e-12);
  free(buffer);
  CHECK_CLOSE(fx[0], 2 * k * x[0], 1e-12);
  (void)parad_dupnoneed, (void)parad_width, (void)enzyme_tape, (void)enzyme_allocated;
  return check_done();
}
