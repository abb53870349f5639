// A global table the gradient's function fills the first time it runs, read in a parallel region and in a
// helper the region calls: read again in the reverse sweep, not recorded (a pair's kind says which globals
// hold from its call on). And where that must not happen: the table read by one region, then rewritten by
// a second region (T_i <- 3 T_i + 1), then read by a third; and read by a region, then rewritten by a helper
// called after it. f = sum over samples s of sum_i tanh(sum_j W_ij x_sj) (lazy), and for the rewritten
// table sum_i x_i T_i + x_i^2 T'_i, whose gradient T_i + 2 x_i T'_i is known. Gradients against the analytic
// ones (1e-12) and central differences (h = 1e-6, 1e-7), at 1, 2 and 3 threads at -O2 and 2 at -O0; the
// lazy table's tape stays under 32 bytes per row of a sample (recording W takes 8 H = 128 per row).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t tape && OMP_NUM_THREADS=2 %t tape && OMP_NUM_THREADS=3 %t tape
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);

enum { H = 16, S = 24, R = 8 };

static double W[H][H];
static int filled;

__attribute__((noinline)) static double row(int i, const double *h) {
  double a = 0;
  for (int j = 0; j < H; j++) a += W[i][j] * h[j];
  return tanh(a);
}

static double lazy(const double *x) {
  if (!filled) {
    for (int i = 0; i < H; i++)
      for (int j = 0; j < H; j++) W[i][j] = 0.05 * ((i * 7 + j * 13) % 17 - 8);
    filled = 1;
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int s = 0; s < S; s++)
    for (int i = 0; i < H; i++) J += row(i, x + s * H);
  return J;
}

static void lazy_gradient(const double *x, double *want) {
  memset(want, 0, sizeof(double) * S * H);
  for (int s = 0; s < S; s++)
    for (int i = 0; i < H; i++) {
      double a = 0;
      for (int j = 0; j < H; j++) a += W[i][j] * x[s * H + j];
      double t = tanh(a);
      for (int j = 0; j < H; j++) want[s * H + j] += (1 - t * t) * W[i][j];
    }
}

static double T[R];

static double by_region(const double *x) {
  double s = 0;
  for (int i = 0; i < R; i++) T[i] = 0.5 + 0.25 * i;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < R; i++) s += x[i] * T[i];
#pragma omp parallel for schedule(static)
  for (int i = 0; i < R; i++) T[i] = 3 * T[i] + 1;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < R; i++) s += x[i] * x[i] * T[i];
  return s;
}

__attribute__((noinline)) static void rewrite_T(void) {
  for (int i = 0; i < R; i++) T[i] = 3 * T[i] + 1;
}

static double by_helper(const double *x) {
  double s = 0;
  for (int i = 0; i < R; i++) T[i] = 0.5 + 0.25 * i;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < R; i++) s += x[i] * T[i];
  rewrite_T();
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < R; i++) s += x[i] * x[i] * T[i];
  return s;
}

static void check_rewritten(double (*f)(const double *), const double *x) {
  double g[R] = {0};
  __parad_autodiff((void *)f, x, g);
  for (int i = 0; i < R; i++) {
    double t = 0.5 + 0.25 * i;
    CHECK_CLOSE(g[i], t + 2 * x[i] * (3 * t + 1), 1e-12);
    CHECK_CLOSE(g[i], fd_component(f, x, R, i, 1e-6), 1e-7);
  }
}

int main(int argc, char **argv) {
  static double x[S * H], g[S * H], want[S * H];
  int tape = argc > 1 && !strcmp(argv[1], "tape");
  for (int i = 0; i < S * H; i++) x[i] = 0.3 + 0.05 * (i % 11) - 0.01 * (i % 7);
  for (int round = 0; round < 2; round++) { /* the first call fills the table, the second finds it filled */
    memset(g, 0, sizeof g);
    size_t before = parad_tape_recorded_bytes();
    __parad_autodiff((void *)lazy, x, g);
    size_t taped = parad_tape_recorded_bytes() - before;
    lazy_gradient(x, want);
    for (int j = 0; j < S * H; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    for (int j = 0; j < S * H; j += 37) CHECK_CLOSE(g[j], fd_component(lazy, x, S * H, j, 1e-6), 1e-7);
    if (tape) {
      CHECK_CLOSE((double)(taped < 32 * S * H), 1.0, 0);
      if (taped >= 32 * S * H) printf("lazy table, round %d: %zu bytes taped\n", round, taped);
    }
  }
  check_rewritten(by_region, x);
  check_rewritten(by_helper, x);
  return check_done();
}
