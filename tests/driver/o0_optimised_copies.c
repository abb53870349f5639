// At -O0 the derivatives are made from optimised copies of the functions they reach, and the program's
// own functions stay as clang compiled them (optnone, their locals in stack slots, their calls in place),
// for the debugger. Checked at -O0 and -O0 -g, against analytic derivatives (tolerance 1e-12):
//   - a chain through a static helper, with locals in a loop; its tape: the optimised copy's reverse
//     sweep rereads x and records nothing per iteration (the derivative of the unoptimised code records
//     its locals: 48 bytes per iteration), so fewer than 4 bytes per iteration are allowed;
//   - a call through a function pointer, whose target is differentiated as it is (no copy: the pointer
//     keeps its identity);
//   - a function with a registered gradient (a straight-through floor), which is not copied, so that its
//     registered gradient is the one used (the true derivative of floor would be 0);
//   - the program's own function, which the program also calls itself, and its attributes in the IR
//     (FileCheck): as clang left it.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O0 -g -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -S -emit-llvm -o - | FileCheck %s
// CHECK: define internal double @chain(ptr noundef %{{.*}}, i32 noundef %{{.*}}) {{.*}}#[[PROGRAM:[0-9]+]]
// CHECK: alloca double
// CHECK: call double @square(
// CHECK: attributes #[[PROGRAM]] = { {{.*}}optnone
#include <math.h>
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

static double square(double v) { return v * v; }

/* sum_i (x_i - x_{i-1})^2 + x_0^2 */
static double chain(const double *x, int n) {
  double s = square(x[0]);
  for (int i = 1; i < n; i++) {
    double d = x[i] - x[i - 1];
    s += square(d);
  }
  return s;
}

static double cube(double v) { return v * v * v; }
static double through(double (*f)(double), double x) { return f(x) + square(x); }

static double rounded(double x) { return floor(x); }
static double aug_rounded(double x) { return floor(x); }
static double grad_rounded(double x, double dret) { return dret; }
void *__parad_register_gradient_rounded[3] = {(void *)rounded, (void *)aug_rounded, (void *)grad_rounded};
static double stepped(double x) { return rounded(3 * x) * x; }

enum { N = 1000 };

int main(void) {
  static double x[N], dx[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.1 * i);
  double J = x[0] * x[0];
  for (int i = 1; i < N; i++) J += (x[i] - x[i - 1]) * (x[i] - x[i - 1]);
  CHECK_CLOSE(chain(x, N), J, 1e-12);
  parad_tape_reset_peak();
  __parad_autodiff((void *)chain, x, dx, N);
  size_t tape = parad_tape_recorded_bytes();
  for (int i = 0; i < N; i++) {
    double want = (i ? 2 * (x[i] - x[i - 1]) : 2 * x[0]) - (i + 1 < N ? 2 * (x[i + 1] - x[i]) : 0);
    CHECK_CLOSE(dx[i], want, 1e-12);
  }
  CHECK_CLOSE(tape < 4 * N, 1, 0);
  if (tape >= 4 * N) printf("tape: %zu bytes for %d iterations\n", tape, N);

  double v = 1.3, dv = __parad_autodiff((void *)through, parad_const, cube, v);
  CHECK_CLOSE(dv, 3 * v * v + 2 * v, 1e-12);

  double w = 0.7, dw = __parad_autodiff((void *)stepped, w);
  CHECK_CLOSE(dw, 3 * w + floor(3 * w), 1e-12);
  return check_done();
}
