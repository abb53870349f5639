// Mutable global variables holding active data, as older C codes keep their workspace: a file-scope
// array written and read back (`work`), a scalar accumulator (`energy`), a static array inside a function
// (`history`), a global struct of doubles and an int (`state`), and an array whose value on entry is the
// previous call's (`carry`: state, not an input). Each is used by one function the derivative reaches (the
// test's own reads in main do not count) and gets a shadow global per mode, zero at every derivative's
// entry. They were refused ("Parad gives globals no shadow"). Globals that carry derivatives from one
// function to another: tests/rev/global_across_functions.c.
//   work_i = sin x_i, work_i += work_{i-1} / 2 (i = 1..N-1); energy = sum_i x_i work_i;
//   history_k = x_k^2 (k < 3); state.a = x_0 x_1, state.b = history_2 + energy; carry_i = x_i (after it is read)
//   f(x) = work_{N-1} + energy + state.a state.b + sum_i carry_i (old) x_i + history_0 history_1.
// The derivative of work_{N-1} and energy is taken by forward tangents of a copy written with locals
// (`reference`, the same arithmetic): the gradient against them (1e-12). Called three times in a row (a
// shadow left non-zero by the call before would show), and in split mode; forward mode along each unit
// direction against the same (1e-12); at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
void __parad_reverse(void *, ...);

enum { N = 6 };

static double work[64], energy;
double carry[N]; /* external linkage: a shadow too */
static struct {
  double a, b;
  int calls;
} state;

static void record(const double *x, double *out) {
  static double history[3];
  for (int k = 0; k < 3; k++) history[k] = x[k] * x[k];
  out[0] = history[0] * history[1], out[1] = history[2];
}

__attribute__((noinline)) static double f(const double *x) {
  for (int i = 0; i < N; i++) work[i] = sin(x[i]);
  for (int i = 1; i < N; i++) work[i] += work[i - 1] / 2;
  energy = 0;
  for (int i = 0; i < N; i++) energy += x[i] * work[i];
  double h[2];
  record(x, h);
  state.a = x[0] * x[1], state.b = h[1] + energy, state.calls++;
  double s = 0;
  for (int i = 0; i < N; i++) s += carry[i] * x[i], carry[i] = x[i];
  return work[N - 1] + energy + state.a * state.b + s + h[0];
}

/* the same with locals; carry as it is before the call */
static double reference(const double *x, const double *old) {
  double w[N], e = 0;
  for (int i = 0; i < N; i++) w[i] = sin(x[i]);
  for (int i = 1; i < N; i++) w[i] += w[i - 1] / 2;
  for (int i = 0; i < N; i++) e += x[i] * w[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += old[i] * x[i];
  return w[N - 1] + e + x[0] * x[1] * (x[2] * x[2] + e) + s + x[0] * x[0] * x[1] * x[1];
}

int main(void) {
  double x[N], old[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.15 * i, carry[i] = 0.5 - 0.1 * i;
  for (int round = 0; round < 3; round++) {
    memcpy(old, carry, sizeof old);
    for (int j = 0; j < N; j++) {
      double v[N] = {0};
      v[j] = 1;
      want[j] = __parad_fwddiff((void *)reference, x, v, parad_const, old);
      memcpy(carry, old, sizeof old);
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[j], 1e-12);
    }
    memcpy(carry, old, sizeof old);
    double g[N] = {0};
    __parad_autodiff((void *)f, x, g);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    memcpy(carry, old, sizeof old);
    double gs[N] = {0};
    void *tape = __parad_augmentfwd((void *)f, x, gs);
    __parad_reverse((void *)f, x, gs, 1.0, tape);
    for (int j = 0; j < N; j++) CHECK_CLOSE(gs[j], want[j], 1e-12);
    for (int i = 0; i < N; i++) x[i] += 0.05; /* carry now holds this round's x */
  }
  CHECK_CLOSE(state.calls, 3 * (N + 2), 0);
  return check_done();
}
