// A tiled Cholesky factorisation built without OpenMP, as tiled_cholesky.c is when its pragmas are
// ignored: the tile operations are inlined into one function, tiles are found as tile i * T + k of one
// array (the optimiser writes the sum as an or of disjoint bits) and the diagonal tile as k * (T + 1),
// and the trailing update's column bound is a select (`diagonal ? i + 1 : B`). The dependence test
// must still see that the finished tiles a step reads are never written again, so the tape holds less
// than a double per multiply-add (analysis/dependence.c: choices, split strides). Beside it, loops one
// step away whose bound is a choice that lets a later store overwrite what was read (a select either
// way round, a maximum), a loop to 4 i + 1 whose store overwrites its last read: each must keep its
// reads. Every gradient against central finite differences (h = 1e-5, tolerance 1e-6), every component,
// at -O2 and -O0; the tape bound at -O2.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 0
#include <stddef.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
enum { B = 8, T = 4, N = B * T };
typedef double Tile[B][B];

static void potrf(double (*a)[B]) {
  for (int j = 0; j < B; j++) {
    double s = a[j][j];
    for (int k = 0; k < j; k++) s -= a[j][k] * a[j][k];
    a[j][j] = sqrt(s);
    for (int i = j + 1; i < B; i++) {
      double t = a[i][j];
      for (int k = 0; k < j; k++) t -= a[i][k] * a[j][k];
      a[i][j] = t / a[j][j];
    }
  }
}

static void trsm(const double (*l)[B], double (*b)[B]) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      double t = b[i][j];
      for (int k = 0; k < j; k++) t -= b[i][k] * l[j][k];
      b[i][j] = t / l[j][j];
    }
}

static void update(const double (*a)[B], const double (*b)[B], double (*c)[B], int diagonal) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < (diagonal ? i + 1 : B); j++) {
      double t = c[i][j];
      for (int k = 0; k < B; k++) t -= a[i][k] * b[j][k];
      c[i][j] = t;
    }
}

__attribute__((noinline)) static double tiled(const double *restrict A, double *restrict work, const double *restrict W) {
  Tile *a = (Tile *)work;
  for (int t = 0; t < T * T; t++)
    for (int i = 0; i < B; i++)
      for (int j = 0; j < B; j++) a[t][i][j] = A[((t / T) * B + i) * N + (t % T) * B + j];
  for (int k = 0; k < T; k++) {
    potrf(a[k * T + k]);
    for (int i = k + 1; i < T; i++) trsm(a[k * T + k], a[i * T + k]);
    for (int i = k + 1; i < T; i++)
      for (int j = k + 1; j <= i; j++) update(a[i * T + k], a[j * T + k], a[i * T + j], i == j);
  }
  double J = 0;
  for (int ti = 0; ti < T; ti++)
    for (int tj = 0; tj <= ti; tj++)
      for (int i = 0; i < B; i++)
        for (int j = 0; j < (ti == tj ? i + 1 : B); j++) J += W[(ti * B + i) * N + tj * B + j] * a[ti * T + tj][i][j];
  return J;
}

static volatile int one = 1, half = N / 2;

/* x[j] for j < N, not only j < i, when wide: the later x[j] are read, then overwritten at step j */
__attribute__((noinline)) static double select_wide(const double *restrict A, double *restrict x, const double *restrict W) {
  int wide = one;
  for (int i = 0; i < N; i++) x[i] = A[i];
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < (wide ? N : i); j++) s += 0.1 * A[i * N + j] * x[j] * x[j];
    x[i] = tanh(s + x[i]);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i];
  return J;
}

/* the same with the select's operands the other way round */
__attribute__((noinline)) static double select_narrow(const double *restrict A, double *restrict x, const double *restrict W) {
  int narrow = !one;
  for (int i = 0; i < N; i++) x[i] = A[i];
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < (narrow ? i : N); j++) s += 0.1 * A[i * N + j] * x[j] * x[j];
    x[i] = tanh(s + x[i]);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i];
  return J;
}

/* a maximum: up to N / 2 at the first steps, elements written later */
__attribute__((noinline)) static double maximum(const double *restrict A, double *restrict x, const double *restrict W) {
  int lim = half;
  for (int i = 0; i < N; i++) x[i] = A[i];
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < (i > lim ? i : lim); j++) s += 0.1 * A[i * N + j] * x[j] * x[j];
    x[i] = tanh(s + x[i]);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i];
  return J;
}

/* the inner loop runs to 4 i + 1; the store after it overwrites the last element it read (the same
 * bound as an or of disjoint bits, fixed in the IR: tests/ir/dependence_shapes.ll) */
__attribute__((noinline)) static double or_bound(const double *restrict A, double *restrict x, const double *restrict W) {
  for (int i = 0; i < N; i++) x[i] = A[i];
  for (int i = 0; i < N / 4; i++) {
    double s = 0;
    for (int j = 0; j < 4 * i + 1; j++) s += 0.5 * x[j] * x[j];
    x[4 * i] = tanh(s + A[i]);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i];
  return J;
}

/* tiles of T + 1 columns' stride with a read reaching the next tile row: tile i * 5 + k, k <= 5, and the
 * diagonal tile k * 6: a later diagonal tile is the element-wise same as a tile read before */
__attribute__((noinline)) static double overlapping_tiles(const double *restrict A, double *restrict work, const double *restrict W) {
  enum { BT = 2, TT = 5 }; /* 25 tiles of 2 x 2, 100 doubles: within work's N * N */
  double(*a)[BT][BT] = (double(*)[BT][BT])work;
  for (int t = 0; t < TT * TT; t++)
    for (int i = 0; i < BT; i++)
      for (int j = 0; j < BT; j++) a[t][i][j] = A[t * BT * BT + i * BT + j];
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < BT; i++) a[k * 6][i][i] = sin(a[k * 6][i][i]) + 1.5 * a[k * 6][i][i];
    for (int q = 0; q <= 5; q++)
      for (int i = 0; i < BT; i++) a[k * 5 + q][i][0] += 0.2 * a[k * 5 + q][i][i] * a[k * 5 + q][i][i];
  }
  double J = 0;
  for (int t = 0; t < TT * TT; t++)
    for (int i = 0; i < BT; i++)
      for (int j = 0; j < BT; j++) J += W[t * BT * BT + i * BT + j] * a[t][i][j];
  return J;
}

typedef double (*Kernel)(const double *restrict, double *restrict, const double *restrict);

static double A[N * N], W[N * N], work[N * N], dA[N * N], dwork[N * N];

static double at(Kernel f, int i, double v) {
  double saved = A[i], r;
  A[i] = v;
  r = f(A, work, W);
  A[i] = saved;
  return r;
}

/* the gradient against finite differences; returns the tape bytes it recorded */
static size_t check(Kernel f) {
  memset(dA, 0, sizeof dA);
  memset(dwork, 0, sizeof dwork);
  size_t before = parad_tape_recorded_bytes();
  if (f == tiled) __parad_autodiff((void *)tiled, A, dA, work, dwork, parad_const, W);
  if (f == select_wide) __parad_autodiff((void *)select_wide, A, dA, work, dwork, parad_const, W);
  if (f == select_narrow) __parad_autodiff((void *)select_narrow, A, dA, work, dwork, parad_const, W);
  if (f == maximum) __parad_autodiff((void *)maximum, A, dA, work, dwork, parad_const, W);
  if (f == or_bound) __parad_autodiff((void *)or_bound, A, dA, work, dwork, parad_const, W);
  if (f == overlapping_tiles) __parad_autodiff((void *)overlapping_tiles, A, dA, work, dwork, parad_const, W);
  size_t bytes = parad_tape_recorded_bytes() - before;
  const double h = 1e-5;
  for (int i = 0; i < N * N; i++) CHECK_CLOSE(dA[i], (at(f, i, A[i] + h) - at(f, i, A[i] - h)) / (2 * h), 1e-6);
  return bytes;
}

int main(int argc, char **argv) {
  int check_tape = argc < 2; /* at -O0 nothing is promised about the tape */
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      A[i * N + j] = A[j * N + i] = 0.3 * sin(1.3 * i + 0.7 * j + 0.1) + (i == j ? 2.0 + 0.1 * i : 0);
      W[i * N + j] = cos(0.23 * i - 0.41 * j), W[j * N + i] = cos(0.31 * j + 0.17 * i);
    }
  size_t tiled_bytes = check(tiled);
  check(select_wide);
  check(select_narrow);
  check(maximum);
  check(or_bound);
  check(overlapping_tiles);
  /* N^3 / 6 multiply-adds in the factorisation; recorded, each would take two doubles */
  if (check_tape) CHECK_CLOSE((double)(tiled_bytes < sizeof(double) * N * N * N / 6), 1, 0);
  return check_done();
}
