// Loops checkpointed without a marker, when a tape budget is set: a 1-D heat solver (two heap arrays
// swapped, a nonlinear source) whose time loop is a top-level loop of the differentiated function, with no
// __parad_checkpoint_loop() anywhere. Without a budget the gradient tapes every step (no checkpointed loop
// runs: parad_checkpoint_counts stays 0, and the tape peaks at the whole run's, over 10 MB at -O0); under
// budgets of 1 MB and 400 KB the time loop is checkpointed (every step runs at least twice, the tape and
// the snapshots stay under the budget) and the gradient equals the taped one to 1e-12; back without a
// budget, taped again, and so under a budget of 64 MB (the call site's plain gradient held less than half
// of it the last time: it would fit). A function whose twin is refused (its time loop calls through a function pointer,
// which a step's notes could not follow) still compiles, and is taped. One
// component against central differences (1e-6). And a loop whose step is given the time as the counter
// times the time step (`forced(t * dt, ...)`, as ODE codes write it): the counter's uses were all taken
// for possible addresses, the loop was left taped under any budget and the gradient stopped over it
// (a float made of the counter is no address now): checkpointed under 1 MB, equal to the taped gradient.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);
static double opaque_scale(double s) { return s; }
static double (*volatile scale_by)(double) = opaque_scale; /* a call through it: no note follows */

enum { N = 120, T = 1500 };

double heat(const double *x) {
  double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N), s = 0;
  for (int i = 0; i < N; i++) u[i] = v[i] = x[i];
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < N - 1; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
    double *w = u;
    u = v, v = w;
  }
  for (int i = 0; i < N; i++) s += (i % 3 + 1) * u[i] * u[i];
  free(u), free(v);
  return s;
}

/* The twin of this one is refused: a step would call through a function pointer, whose writes no note
 * could follow. */
double heat_opaque(const double *x) {
  double u[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
  for (int t = 0; t < 50; t++)
    for (int i = 0; i < N; i++) u[i] = 0.5 * u[i] + 0.5 * sin(u[(i + 1) % N]) * scale_by(1.0);
  for (int i = 0; i < N; i++) s += u[i] * u[i];
  return s;
}

/* a forced heat equation, the source at the step's time */
__attribute__((noinline)) static void forced(double time, double *u, double *v) {
  for (int i = 1; i < N - 1; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i] + time);
}

double heat_forced(const double *x) {
  double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N), s = 0;
  for (int i = 0; i < N; i++) u[i] = v[i] = x[i];
  for (int t = 0; t < T; t++) {
    forced(t * 1e-3, u, v);
    double *w = u;
    u = v, v = w;
  }
  for (int i = 0; i < N; i++) s += (i % 3 + 1) * u[i] * u[i];
  free(u), free(v);
  return s;
}

static double along5(void *ctx, double x5) {
  double *x = ctx, keep = x[5];
  x[5] = x5;
  double J = heat(x);
  x[5] = keep;
  return J;
}

int main(void) {
  double x[N], want[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x[i] = 0.6 + 0.3 * sin(0.1 * i);
  long steps = -1, runs = -1;
  parad_tape_reset_peak();
  __parad_autodiff((void *)heat, x, want);
  parad_checkpoint_counts(&steps, &runs);
  CHECK_CLOSE(steps, 0, 0);
  CHECK_CLOSE(runs, 0, 0);
  size_t taped_peak = parad_tape_peak_bytes();
  for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));
  const size_t budgets[] = {1u << 20, 400u << 10};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    parad_tape_reset_peak();
    double g[N] = {0};
    __parad_autodiff((void *)heat, x, g);
    parad_checkpoint_counts(&steps, &runs);
    CHECK_CLOSE(steps, T + 1, 0);
    CHECK_CLOSE(runs >= 2 * steps, 1, 0);
    CHECK_CLOSE(parad_tape_peak_bytes() <= budgets[b] && parad_tape_peak_bytes() < taped_peak, 1, 0);
    for (int i = 0; i < N; i++) CHECK_CLOSE(g[i] / largest, want[i] / largest, 1e-12);
  }
  /* a budget the site's plain gradient held less than half of, the last time it ran: taped */
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(b ? 64u << 20 : 0);
    parad_tape_reset_peak();
    double again[N] = {0};
    __parad_autodiff((void *)heat, x, again);
    CHECK_CLOSE(parad_tape_peak_bytes(), taped_peak, 0);
    for (int i = 0; i < N; i++) CHECK_CLOSE(again[i], want[i], 1e-15);
  }
  parad_set_tape_limit(0);
  CHECK_CLOSE(want[5], fd_central(along5, x, x[5], 1e-6), 1e-6);
  double go[N] = {0}, go2[N] = {0};
  __parad_autodiff((void *)heat_opaque, x, go);
  CHECK_CLOSE(go[3], fd_component(heat_opaque, x, N, 3, 1e-6), 1e-6);
  parad_set_tape_limit(1u << 20); /* refused twin: taped under the budget too (its tape is small) */
  __parad_autodiff((void *)heat_opaque, x, go2);
  parad_set_tape_limit(0);
  for (int i = 0; i < N; i++) CHECK_CLOSE(go2[i], go[i], 1e-15);
  double taped[N] = {0}, checkpointed[N] = {0};
  __parad_autodiff((void *)heat_forced, x, taped);
  parad_set_tape_limit(1u << 20);
  __parad_autodiff((void *)heat_forced, x, checkpointed);
  parad_checkpoint_counts(&steps, &runs);
  parad_set_tape_limit(0);
  CHECK_CLOSE(steps, T + 1, 0);
  for (int i = 0; i < N; i++) CHECK_CLOSE(checkpointed[i], taped[i], 1e-12);
  return check_done();
}
