// A checkpointed loop that nothing active reaches: the loop is in a helper that gets inlined, and writes
// only constants through the pointer it is given (into the caller's stack array, a calloc'ed block that is
// freed after, or a block's interior). The caller's activity analysis gives that pointer no shadow, while
// the loop's custom functions (ad/checkpoint.c) would write through the shadow of every variable that holds
// a pointer: reverse mode now runs such a loop as the program does, with no reverse (rev_call.c
// custom_applies; the fuzzer's OpenMP seed 10748 crashed). Beside it, a loop of the same helper that one
// active array does reach, and one with an active and a constant array together. Gradients against the
// analytic ones (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 6 };

static void fill(double *p, int m) { /* inlined into each caller */
  for (int i = 0; i < m; i++) {
    __parad_checkpoint_loop();
    p[i] = 0.5 + 0.1 * i;
  }
}

static void scale(double *p, double *q, int m, double t) {
  for (int i = 0; i < m; i++) {
    __parad_checkpoint_loop();
    p[i] = 0.25 * i;     /* constant */
    q[i] = q[i] * t + p[i];
  }
}

/* y0 = x0 * sum of the constants */
__attribute__((noinline)) static void on_stack(const double *x, double *y) {
  double h[N + 2] = {0};
  fill(h + 1, N);
  double s = 0;
  for (int i = 1; i <= N; i++) s += h[i];
  y[0] = x[0] * s;
}

/* the same through a calloc'ed block, freed after */
__attribute__((noinline)) static void on_heap(const double *x, double *y) {
  double *h = calloc(N + 2, sizeof *h);
  fill(h + 1, N);
  double s = 0;
  for (int i = 1; i <= N; i++) s += h[i];
  free(h);
  y[0] = x[0] * s;
}

/* the loop reaching active data: y0 = sum_i (x_i (0.5 + 0.1 i))^2 */
__attribute__((noinline)) static void active(const double *x, double *y) {
  double h[N];
  for (int i = 0; i < N; i++) h[i] = x[i];
  double c[N];
  fill(c, N);
  for (int i = 0; i < N; i++) h[i] *= c[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += h[i] * h[i];
  y[0] = s;
}

/* a constant array and an active one in one loop: q_i = x_i t + 0.25 i, y0 = sum q_i^2 */
__attribute__((noinline)) static void mixed(const double *x, double *y, double t) {
  double p[N], q[N];
  for (int i = 0; i < N; i++) q[i] = x[i];
  scale(p, q, N, t);
  double s = 0;
  for (int i = 0; i < N; i++) s += q[i] * q[i];
  y[0] = s;
}

int main(void) {
  double x[N], dx[N], y[1], dy[1];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i;
  double consts = 0;
  for (int i = 0; i < N; i++) consts += 0.5 + 0.1 * i;

  for (int f = 0; f < 2; f++) {
    for (int i = 0; i < N; i++) dx[i] = 0;
    dy[0] = 1;
    if (f == 0) __parad_autodiff((void *)on_stack, x, dx, y, dy);
    else __parad_autodiff((void *)on_heap, x, dx, y, dy);
    CHECK_CLOSE(y[0], x[0] * consts, 1e-12);
    CHECK_CLOSE(dx[0], consts, 1e-12);
    for (int i = 1; i < N; i++) CHECK_CLOSE(dx[i], 0, 0);
  }

  for (int i = 0; i < N; i++) dx[i] = 0;
  dy[0] = 1;
  __parad_autodiff((void *)active, x, dx, y, dy);
  for (int i = 0; i < N; i++) {
    double c = 0.5 + 0.1 * i;
    CHECK_CLOSE(dx[i], 2 * x[i] * c * c, 1e-12);
  }

  double t = 0.7;
  for (int i = 0; i < N; i++) dx[i] = 0;
  dy[0] = 1;
  __parad_autodiff((void *)mixed, x, dx, y, dy, parad_const, t);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 2 * (x[i] * t + 0.25 * i) * t, 1e-12);
  return check_done();
}
