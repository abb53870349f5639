/* Tape memory of reverse mode against the length of a loop: a small nonlinear recurrence run for n steps,
 *
 *   x_0 = p0,  x_{i+1} = 0.6 x_i + p1 sin(x_i + p2) + p3 cos(x_i) x_i / (1 + x_i^2),  f = (1/n) sum x_i^2,
 *
 * differentiated with __parad_autodiff with respect to p (4 numbers) for n = 10^3 .. 10^6. The reverse
 * sweep needs each step's x_i, so the tape grows linearly with n. Prints n, the peak tape memory of one
 * gradient call (parad_tape_peak_bytes after parad_tape_reset_peak: chunk memory held, so it moves in the
 * steps of the tape's chunks, which double in size up to 64 MB), bytes per iteration, and the bytes per
 * iteration added from one n to the next. Each gradient is checked against central finite differences
 * (relative 1e-6). Exits non-zero when a check fails. Built with parad-cc -O2 by scripts/bench. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adcheck.h"

void __parad_autodiff(void *, ...);
extern int parad_const;

__attribute__((noinline)) static double recurrence(const double *p, int n) {
  double x = p[0], s = 0;
  for (int i = 0; i < n; i++) {
    x = 0.6 * x + p[1] * sin(x + p[2]) + p[3] * cos(x) * x / (1 + x * x);
    s += x * x;
  }
  return s / n;
}

static double p[4] = {0.3, 0.25, 0.5, 0.1};
static int n_steps;
static double eval(void) { return recurrence(p, n_steps); }

int main(void) {
  static const int sizes[] = {1000, 10000, 100000, 1000000};
  int bad = 0;
  size_t prev_bytes = 0;
  int prev_n = 0;
  printf("Tape growth: the gradient of an n-step nonlinear recurrence (4 parameters)\n");
  printf("  %9s %14s %12s %18s %12s\n", "n", "peak tape", "bytes/iter", "added bytes/iter", "grad time");
  for (int s = 0; s < 4; s++) {
    n_steps = sizes[s];
    double g[4] = {0, 0, 0, 0};
    /* The first gradient call of the program allocates the tape's first chunk, which later calls reuse;
     * resetting before it makes that chunk count in every figure. */
    parad_tape_reset_peak();
    double t0 = now_seconds();
    __parad_autodiff((void *)recurrence, p, g, parad_const, n_steps);
    double t = now_seconds() - t0;
    size_t bytes = parad_tape_peak_bytes();
    char what[32];
    snprintf(what, sizeof what, "recurrence n=%d", n_steps);
    /* All four components, with the stencil of fd_check (adcheck.h). */
    for (int i = 0; i < 4; i++) {
      double save = p[i], h = 1e-3, f[4];
      static const double off[4] = {1, -1, 2, -2};
      for (int k = 0; k < 4; k++) p[i] = save + off[k] * h, f[k] = eval();
      p[i] = save;
      double fd = (8 * (f[0] - f[1]) - (f[2] - f[3])) / (12 * h);
      double scale = fabs(g[i]) > 1e-3 * max_abs(g, 4) ? fabs(g[i]) : 1e-3 * max_abs(g, 4);
      double rel = fabs(fd - g[i]) / scale;
      if (!(rel <= 1e-6)) {
        printf("FAIL %s: component %d: gradient %.17g, finite differences %.17g (relative error %.3g)\n", what, i,
               g[i], fd, rel);
        bad++;
      }
    }
    if (s == 0)
      printf("  %9d %11.3f MB %12.1f %18s %9.3f ms\n", n_steps, bytes / 1048576.0, (double)bytes / n_steps, "",
             t * 1e3);
    else
      printf("  %9d %11.3f MB %12.1f %18.1f %9.3f ms\n", n_steps, bytes / 1048576.0, (double)bytes / n_steps,
             ((double)bytes - prev_bytes) / (n_steps - prev_n), t * 1e3);
    prev_bytes = bytes, prev_n = n_steps;
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (all 4 components against finite differences to 1e-6, each n)");
  return bad != 0;
}
