/* Forward-mode cost: the tangent of a 1,000-element loop of math calls against the loop itself, and
 * vector mode (4 directions per call) against scalar mode (1 direction per call).
 *
 * Prints primal time, tangent time and their ratio; the time of one width-4 call against one width-1
 * call; and checks every tangent against central finite differences (relative tolerance 1e-6), so that
 * a fast wrong answer cannot pass. Built with parad-cc -O2 by scripts/bench. */
#include <math.h>
#include <stdio.h>

#include "timing.h"

typedef struct { double d[4]; } Four;
double __parad_fwddiff(void *, ...);
Four __parad_fwddiff4(void *, ...);
extern int parad_const, parad_width;

enum { N = 1000 };

/* The loop: transcendental calls, a division, a square root. */
__attribute__((noinline)) static double kernel(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    s += sin(v) * exp(-0.5 * v * v) + log1p(v * v) / (1 + sqrt(fabs(v)));
  }
  return s;
}

static double x[N], dir[4][N];
static volatile double sink;

/* Each measured call goes through an opaque pointer, so that no work is hoisted out of the timing loop. */
__attribute__((noinline)) static double primal(void) { return kernel(x, N); }
__attribute__((noinline)) static double tangent1(int k) {
  return __parad_fwddiff((void *)kernel, x, dir[k], parad_const, N);
}
__attribute__((noinline)) static Four tangent4(void) {
  return __parad_fwddiff4((void *)kernel, parad_width, 4, x, dir[0], dir[1], dir[2], dir[3], parad_const, N);
}
static double (*volatile primal_p)(void) = primal;
static double (*volatile tangent1_p)(int) = tangent1;
static Four (*volatile tangent4_p)(void) = tangent4;

static void run_primal(void *c) { (void)c, sink = primal_p(); }
static void run_tangent1(void *c) { (void)c, sink = tangent1_p(0); }
static void run_tangent4(void *c) { (void)c, sink = tangent4_p().d[3]; }

static double directional_fd(int k) {
  static double xp[N];
  double h = 1e-6, hi, lo;
  for (int i = 0; i < N; i++) xp[i] = x[i] + h * dir[k][i];
  hi = kernel(xp, N);
  for (int i = 0; i < N; i++) xp[i] = x[i] - h * dir[k][i];
  lo = kernel(xp, N);
  return (hi - lo) / (2 * h);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = sin(0.37 * i + 0.1) * 2; /* never 0: sqrt(|x|) has no derivative there */
    for (int k = 0; k < 4; k++) dir[k][i] = cos(0.11 * i * (k + 1));
  }
  int bad = 0;
  Four t4 = tangent4();
  for (int k = 0; k < 4; k++) {
    double fd = directional_fd(k), t1 = tangent1(k);
    double tol = 1e-6 * (fabs(fd) > 1 ? fabs(fd) : 1);
    if (!(fabs(t1 - fd) <= tol) || !(fabs(t4.d[k] - t1) <= 1e-12 * (fabs(t1) > 1 ? fabs(t1) : 1))) {
      printf("FAIL direction %d: width-1 %.15g, width-4 %.15g, finite differences %.15g\n", k, t1, t4.d[k], fd);
      bad = 1;
    }
  }
  double tp = seconds_per_call(run_primal, NULL, 7, 0.2);
  double t1 = seconds_per_call(run_tangent1, NULL, 7, 0.2);
  double tv = seconds_per_call(run_tangent4, NULL, 7, 0.2);
  printf("forward mode, loop of %d math calls (sin, exp, log1p, sqrt, fabs, division)\n", N);
  printf("  %-34s %10.2f us\n", "primal", tp * 1e6);
  printf("  %-34s %10.2f us   tangent/primal = %.2f   (target <= 3)\n", "tangent, width 1", t1 * 1e6, t1 / tp);
  printf("  %-34s %10.2f us   width-4/width-1 = %.2f  (target <= 2.5)\n", "tangents, width 4 (one call)", tv * 1e6, tv / t1);
  printf("  %-34s %10.2f us   per direction = %.2f x primal\n", "", tv / 4 * 1e6, tv / 4 / tp);
  printf("  check against finite differences: %s\n", bad ? "FAILED" : "ok (4 directions, tolerance 1e-6)");
  return bad;
}
