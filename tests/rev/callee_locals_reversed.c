// A stack array of a function the gradient calls (so differentiated as a forward sweep and a separate
// reverse sweep), given to something whose reverse sweep reads the array itself rather than a record: a
// registered custom gradient that reads its input, and a helper whose checkpointed loop relaxes the array
// in place (its reverse sweep puts snapshots back into it and recomputes). The array must outlive the
// forward sweep's frame: before, the custom gradient read whatever the stack held by then (relative
// errors of 0.9 to 8) and the checkpointed loop wrote its snapshots into the reverse sweep's own frame
// (a crash). One step away, the array is reused while the gradient still has to read what it held: the
// helper inlined into the caller's loop (its array one slot for every row), the array a local of the loop
// itself, or a global the loop refills (weights the gradient reads); each call now keeps a copy, put back
// before its gradient runs (before, every row's gradient read the last row's data: 30 of the 30 new checks
// failed at -O2, 20 at -O0, where the helper was not inlined).
// Against central differences (h = 1e-6, 1e-6) and, for the checkpointed loop, against the same program
// without the marker (1e-12 relative to the largest component), at -O2, -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 10, ROWS = 5 };

__attribute__((noinline)) double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
static double aug_sumsq(const double *x, double *dx, int n) { return sumsq(x, n); }
static void grad_sumsq(const double *x, double *dx, int n, double dret) {
  for (int i = 0; i < n; i++) dx[i] += 2 * x[i] * dret; /* reads x when the reverse sweep runs */
}
void *__parad_register_gradient_sumsq[3] = {(void *)sumsq, (void *)aug_sumsq, (void *)grad_sumsq};

__attribute__((noinline)) static double custom_row(const double *x, int r) {
  double u[N];
  for (int i = 0; i < N; i++) u[i] = sin(x[i] * (1 + 0.1 * r));
  return sumsq(u, N);
}
double custom_rows(const double *x) {
  double s = 0;
  for (int r = 0; r < ROWS; r++) s += custom_row(x, r) * (r + 1) + 0.1 * s * custom_row(x, r + 2);
  return s;
}

static double inlined_row(const double *x, int r) {
  double u[N];
  for (int i = 0; i < N; i++) u[i] = sin(x[i] * (1 + 0.1 * r));
  return sumsq(u, N);
}
double inlined_rows(const double *x) {
  double s = 0;
  for (int r = 0; r < ROWS; r++) s += inlined_row(x, r) * (r + 1);
  return s;
}
double loop_rows(const double *x) {
  double s = 0, u[N];
  for (int r = 0; r < ROWS; r++) {
    for (int i = 0; i < N; i++) u[i] = cos(x[i] * (1 + 0.1 * r));
    s += sumsq(u, N) * (r + 1);
  }
  return s;
}
/* sum_i w_i x_i^2, its gradient reading the weights too: the weights a global the loop refills */
__attribute__((noinline)) double weighted(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
  return s;
}
static double aug_weighted(const double *x, double *dx, const double *w, double *dw, int n) { return weighted(x, w, n); }
static void grad_weighted(const double *x, double *dx, const double *w, double *dw, int n, double dret) {
  for (int i = 0; i < n; i++) dx[i] += 2 * w[i] * x[i] * dret;
}
void *__parad_register_gradient_weighted[3] = {(void *)weighted, (void *)aug_weighted, (void *)grad_weighted};
static double global_w[N];
double global_rows(const double *x) {
  double s = 0;
  for (int r = 0; r < ROWS; r++) {
    for (int i = 0; i < N; i++) global_w[i] = 1 + 0.3 * r + 0.1 * i;
    s += weighted(x, global_w, N) * (r + 1);
  }
  return s;
}

#define RELAX(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static void NAME(double *u) {                                                  \
    for (int t = 0; t < 12; t++) {                                                                         \
      MARK;                                                                                                \
      for (int i = 1; i < N - 1; i++) u[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.05 * sin(u[i]); \
    }                                                                                                      \
  }
RELAX(relax_checkpointed, __parad_checkpoint_loop())
RELAX(relax_taped, (void)0)

#define ROWS_OF(NAME, RELAX)                                                                                \
  __attribute__((noinline)) static double NAME##_row(const double *x, int r) {                             \
    double u[N], s = 0;                                                                                    \
    for (int i = 0; i < N; i++) u[i] = x[i] * (1 + 0.05 * r);                                              \
    RELAX(u);                                                                                              \
    for (int i = 0; i < N; i++) s += u[i] * u[i] * (i + 1);                                                \
    return s;                                                                                              \
  }                                                                                                        \
  double NAME(const double *x) {                                                                           \
    double s = 0;                                                                                          \
    for (int r = 0; r < ROWS; r++) s += NAME##_row(x, r) * (1 + 0.01 * s);                                 \
    return s;                                                                                              \
  }
ROWS_OF(checkpointed_rows, relax_checkpointed)
ROWS_OF(taped_rows, relax_taped)

int main(void) {
  double x[N], g[N] = {0}, want[N] = {0}, got[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.05 * i;
  __parad_autodiff((void *)custom_rows, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], fd_component(custom_rows, x, N, i, 1e-6), 1e-6);
  double gi[N] = {0}, gl[N] = {0}, gg[N] = {0};
  __parad_autodiff((void *)inlined_rows, x, gi);
  __parad_autodiff((void *)loop_rows, x, gl);
  __parad_autodiff((void *)global_rows, x, gg);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(gi[i], fd_component(inlined_rows, x, N, i, 1e-6), 1e-6);
    CHECK_CLOSE(gl[i], fd_component(loop_rows, x, N, i, 1e-6), 1e-6);
    CHECK_CLOSE(gg[i], fd_component(global_rows, x, N, i, 1e-6), 1e-6);
  }
  __parad_autodiff((void *)taped_rows, x, want);
  __parad_autodiff((void *)checkpointed_rows, x, got);
  for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(got[i] / largest, want[i] / largest, 1e-12);
    CHECK_CLOSE(got[i], fd_component(checkpointed_rows, x, N, i, 1e-6), 1e-6);
  }
  return check_done();
}
