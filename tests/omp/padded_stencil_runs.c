// Reads a stencil makes only under a condition, in a parallel region: a convolution whose zero padding is
// the taps outside the image skipped (`if (iy < 0 || iy >= n) continue;`), as CNN code writes it. Their
// addresses are computed whether the read runs or not, by offsets, sums and products of the counters, so
// the corners of the offsets' box bound them (reverse/rev_monotone.c, off_path_defined): noted and decided
// once per run of the row loop, where they were noted one row of taps at a time (the forward sweep of an
// 8-channel 96 x 96 layer took 2.5 primals, most of it comparisons).
//   padded:   3 x 3 taps, both tests by `continue`, eight channels (their loop kept: the taps' rows are
//             noted per run of the pixel loop around it), parallel over output rows;
//   masked:   the taps also skipped where a mask (data) says so;
//   unsigned: the column index widened as unsigned under its test (a plain zext: at a corner it may wrap,
//             so these reads stay noted one by one).
// f(x) = the weighted outputs squared; gradients against tangents (1e-11) and central differences
// (h = 1e-5, 1e-6), at 1 to 4 threads at -O2, 3 at -O0; and built with PARAD_CHECK_CLEAN, where every add
// of a run decided as the thread's own is checked against its own part (a run bounded too narrowly would
// stop the program).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_CHECK_CLEAN=1 %parad-cc %cflags -fopenmp %s -o %t.check -lm && OMP_NUM_THREADS=2 %t.check && OMP_NUM_THREADS=3 %t.check
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { G = 9, C = 8, N = C * G * G, NW = C * C * 9 };
static int mask[G * G];

__attribute__((noinline)) static void padded(const double *in, const double *w, double *out) {
#pragma omp parallel for schedule(static)
  for (int oy = 0; oy < G; oy++)
    for (int co = 0; co < C; co++)
      for (int ox = 0; ox < G; ox++) {
        double s = 0;
        for (int ci = 0; ci < C; ci++)
          for (int ky = 0; ky < 3; ky++) {
            int iy = oy + ky - 1;
            if (iy < 0 || iy >= G) continue;
            for (int kx = 0; kx < 3; kx++) {
              int ix = ox + kx - 1;
              if (ix < 0 || ix >= G) continue;
              s += in[(ci * G + iy) * G + ix] * w[((co * C + ci) * 3 + ky) * 3 + kx];
            }
          }
        out[(co * G + oy) * G + ox] = s > 0 ? s : 0.1 * s;
      }
}

__attribute__((noinline)) static void masked(const double *in, const double *w, double *out) {
#pragma omp parallel for schedule(static)
  for (int oy = 0; oy < G; oy++)
    for (int ox = 0; ox < G; ox++) {
      double s = 0;
      for (int ky = 0; ky < 3; ky++)
        for (int kx = 0; kx < 3; kx++) {
          int iy = oy + ky - 1, ix = ox + kx - 1;
          if (iy < 0 || iy >= G || ix < 0 || ix >= G || mask[iy * G + ix]) continue;
          s += in[iy * G + ix] * w[ky * 3 + kx] + 0.1 * in[G * G + iy * G + ix];
        }
      out[oy * G + ox] = s * s;
    }
}

__attribute__((noinline)) static void unsigned_columns(const double *in, const double *w, double *out) {
#pragma omp parallel for schedule(static)
  for (int oy = 0; oy < G; oy++)
    for (int ox = 0; ox < G; ox++) {
      double s = in[oy * G + ox] * w[4];
      if (ox >= 1) {
        unsigned left = (unsigned)(ox - 1);
        s += in[oy * G + left] * w[3];
      }
      out[oy * G + ox] = s;
    }
}

static double f(const double *x) {
  double a[N], b[N] = {0}, c[N] = {0}, total = 0;
  padded(x, x + N, a);
  masked(a, x + N + 9, b);
  unsigned_columns(b, x + N + 18, c);
  for (int p = 0; p < N; p++) total += (1 + 0.01 * (p % 7)) * (a[p] * a[p] + b[p] + c[p] * c[p]);
  return total;
}

int main(void) {
  for (int p = 0; p < G * G; p++) mask[p] = p % 5 == 3;
  double x[N + NW];
  for (int p = 0; p < N + NW; p++) x[p] = 0.5 + 0.3 * sin(0.37 * p) + 0.1 * cos(1.7 * p);
  for (int p = N; p < N + NW; p++) x[p] *= 0.3;
  CHECK_GRADIENT(f, x, N + NW, 1e-11, 1e-5, 1e-6);
  return check_done();
}
