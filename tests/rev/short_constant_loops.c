// Loops of a few iterations between constant bounds (a stencil's offsets) inside longer loops: their
// counts are computed in the reverse sweep, not recorded. A 3 x 3 smoothing of an image with edges
// clamped and a leaky rectifier, the offsets run upwards (-1 to 1, `<=`), downwards (1 to -1, `>=`), and
// as `!=` from 0 to 3 over a table of weights; f = sum of the squares of the result.
// Gradients against tangents (tolerance 1e-12) and central differences (h = 1e-6, tolerance 1e-6). The
// tape of one gradient stays under 12 bytes per pixel for the first two at -O2 (8.7: the sum, recorded
// once after the offset loops, rev_values.c's used_after_loop; recomputing it there recorded its last
// term's inputs and the offsets' last counters, 16.7 and 24.7) and under 20 for the third (16.7);
// recording the offsets' counts too took 48 and 56. At -O0 the gradients are checked alone.
// RUN: %parad-cc %cflags %s -o %t && %t tape
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);

enum { G = 24, N = G * G };

static int clamp(int i) { return i < 0 ? 0 : i >= G ? G - 1 : i; }
static double leaky(double a) { return a > 0 ? a : 0.1 * a; }

static double upwards(const double *img) {
  double s = 0;
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      double acc = 0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) acc += (di == 0 && dj == 0 ? 0.5 : 0.0625) * img[clamp(i + di) * G + clamp(j + dj)];
      double o = leaky(acc - 0.4);
      s += o * o;
    }
  return s;
}

static double downwards(const double *img) {
  double s = 0;
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      double acc = 0;
      for (int di = 1; di >= -1; di--)
        for (int dj = 1; dj >= -1; dj--) acc += (di == dj ? 0.25 : 0.0625) * sin(img[clamp(i + di) * G + clamp(j + dj)]);
      double o = leaky(acc - 0.2);
      s += o * o;
    }
  return s;
}

static const double W[3] = {0.25, 0.5, 0.25};
static double weighted(const double *img) {
  double s = 0;
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      double acc = 0;
      for (int d = 0; d != 3; d++) acc += W[d] * img[i * G + clamp(j + d - 1)] * img[clamp(i + d - 1) * G + j];
      s += leaky(acc - 0.3) * acc;
    }
  return s;
}

static void check(double (*f)(const double *), const double *x, int tape, double per_pixel) {
  static double g[N], v[N];
  memset(g, 0, sizeof g);
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)f, x, g);
  size_t taped = parad_tape_recorded_bytes() - before;
  if (tape) {
    CHECK_CLOSE((double)(taped < per_pixel * N), 1.0, 0);
    if (taped >= per_pixel * N) printf("%zu bytes taped, %.1f per pixel\n", taped, (double)taped / N);
  }
  for (int j = 0; j < N; j += 23) {
    memset(v, 0, sizeof v);
    v[j] = 1;
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)f, x, v), 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-6);
  }
}

int main(int argc, char **argv) {
  static double x[N];
  int tape = argc > 1 && !strcmp(argv[1], "tape");
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.4 * sin(0.37 * i) * cos(0.11 * i);
  check(upwards, x, tape, 12);
  check(downwards, x, tape, 12);
  check(weighted, x, tape, 20);
  return check_done();
}
