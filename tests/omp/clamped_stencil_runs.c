// Reads at clamped indices (an image's edge pixel read for the pixels beyond it) through a stencil's short
// offset loops, in a parallel region: noted and decided once per run of the row loop, their addresses
// bounded by the corners of the offsets' box (reverse/rev_monotone.c), not one by one.
//   smooth:  a 3 x 3 stencil, rows and columns clamped, the row length known at run time (a clamped row
//            times it: a direction known only at run time), the values read needed in the reverse
//            (v + 0.1 v^2: read back from the thread's copy);
//   edges:   a 3-point stencil clamped by hand, no offset loop (the row loop alone);
//   mirror:  offsets counting down, a mirrored column (n - 1 - clamp(...): addresses going down), and an
//            offset times a sign known at run time (1 and -1);
//   chunked: smooth's stencil under schedule(static, 3);
//   halo:    no clamp, a border of one pixel around the image instead: linear addresses in the offset
//            loops, whose index arithmetic clang leaves without nsw (linear arithmetic that may wrap, as
//            rev_loops.c's linear forms may);
//   coarse:  a coarse grid's value read at (i / 2, j / 2) and a neighbour's at ((i + 1) / 2, j / 2), as a
//            prolongation reads it: divisions by constants, monotone.
// f(x) = the sum of the weighted outputs squared; gradients against tangents (1e-11) and central
// differences (h = 1e-5, tolerance 1e-6), at 1 to 4 threads at -O2, 3 at -O0. Built with
// PARAD_CHECK_CLEAN (`check`), every add of a run decided as the thread's own is checked against its own
// part, and each stencil alone must have made some: the last stop's compiler made none for smooth, mirror
// and coarse.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_CHECK_CLEAN=1 %parad-cc %cflags -fopenmp %s -o %t.check -lm && OMP_NUM_THREADS=2 %t.check check && OMP_NUM_THREADS=3 %t.check check && OMP_NUM_THREADS=4 %t.check check
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);
extern unsigned long long __parad_rt_clean_adds; /* PARAD_CHECK_CLEAN's count */

enum { ROWS = 23, COLS = 19, N = ROWS * COLS };
static int cols, sign; /* COLS and 1, set where the optimiser cannot see them */

static int clamp(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

__attribute__((noinline)) static void smooth(const double *a, double *b, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) {
          double v = a[clamp(i + di, ROWS - 1) * n + clamp(j + dj, n - 1)];
          acc += (di == 0 && dj == 0 ? 0.4 : 0.075) * (v + 0.1 * v * v);
        }
      b[i * n + j] = acc;
    }
}

__attribute__((noinline)) static void chunked(const double *a, double *b, int n) {
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) acc += (0.1 + 0.05 * di + 0.02 * dj) * a[clamp(i + di, ROWS - 1) * n + clamp(j + dj, n - 1)];
      b[i * n + j] = acc;
    }
}

__attribute__((noinline)) static void edges(const double *a, double *b) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      const double *row = a + i * COLS;
      double l = row[j > 0 ? j - 1 : 0], c = row[j], r = row[j < COLS - 1 ? j + 1 : COLS - 1];
      b[i * COLS + j] = 0.25 * l + 0.5 * c * c + 0.25 * r;
    }
}

__attribute__((noinline)) static void mirror(const double *a, double *b, int s) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      double acc = 0;
      for (int dj = 1; dj >= -1; dj--) acc += (0.3 + 0.1 * dj) * a[i * COLS + COLS - 1 - clamp(j + s * dj, COLS - 1)];
      for (int dj = -2; dj <= 2; dj++) acc += 0.05 * a[clamp(i + dj, ROWS - 1) * COLS + clamp(j + 2 * dj, COLS - 1)];
      b[i * COLS + j] = acc;
    }
}

static void smooth_only(const double *a, double *b) { smooth(a, b, cols); }
static void mirror_only(const double *a, double *b) { mirror(a, b, sign); }

enum { W = COLS + 2, H = ROWS + 2 }; /* with the border */

__attribute__((noinline)) static void halo(const double *a, double *b) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      double acc = 0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) acc += (0.1 + 0.03 * di * dj) * a[(i + 1 + di) * W + j + 1 + dj];
      b[i * COLS + j] = acc * acc;
    }
}

__attribute__((noinline)) static void coarse(const double *a, double *b) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      double c = a[(i / 2) * COLS + j / 2], d = a[((i + 1) / 2) * COLS + (j + 1) / 2];
      b[i * COLS + j] = 0.6 * c + 0.4 * d * c;
    }
}

static double f(const double *x) {
  double b[N], c[N], d[N], e[N], g[N], bordered[W * H], total = 0;
  smooth(x, b, cols);
  chunked(b, c, cols);
  edges(c, d);
  mirror(d, e, sign);
  mirror(e, g, -sign);
  for (int p = 0; p < W * H; p++) bordered[p] = 0.1;
  for (int p = 0; p < N; p++) bordered[(p / COLS + 1) * W + p % COLS + 1] = g[p];
  halo(bordered, b);
  coarse(b, c);
  for (int p = 0; p < N; p++) total += (1 + 0.01 * (p % 7)) * c[p] * c[p];
  return total;
}

int main(int argc, char **argv) {
  int checking = argc > 1 && !strcmp(argv[1], "check");
  cols = argc > 5 ? COLS - 1 : COLS, sign = argc > 5 ? -1 : 1;
  double x[N];
  for (int p = 0; p < N; p++) x[p] = 0.5 + 0.3 * sin(0.37 * p) + 0.1 * cos(1.7 * p);
  CHECK_GRADIENT(f, x, N, 1e-11, 1e-5, 1e-6);
  if (checking) { /* each stencil alone: some of its runs were the threads' own */
    double a[N], da[N], b[N], db[N];
#define CLEAN_ADDS(stencil)                                                                 \
  do {                                                                                     \
    for (int p = 0; p < N; p++) a[p] = x[p], da[p] = 0, b[p] = 0, db[p] = 1;              \
    __parad_rt_clean_adds = 0;                                                             \
    __parad_autodiff((void *)stencil, a, da, b, db);                                       \
    CHECK_CLOSE((double)(__parad_rt_clean_adds > 0), 1, 0);                                \
  } while (0)
    CLEAN_ADDS(smooth_only);
    CLEAN_ADDS(edges);
    CLEAN_ADDS(mirror_only);
    CLEAN_ADDS(coarse);
  }
  return check_done();
}
