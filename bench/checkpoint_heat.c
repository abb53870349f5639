/* Checkpointed time loop: a 2-D heat stencil with a nonlinear source on an n x n grid over T steps,
 *
 *   v = u + k (u_W + u_E + u_S + u_N - 4 u) + s sin(u),  then u and v swap,   J = sum u^2 (1 + i % 3),
 *
 * differentiated with respect to the initial grid, once without the marker (every step taped: 16 bytes
 * per cell and step, the sine's argument and the stencil's sum) and then with __parad_checkpoint_loop()
 * under tape budgets from 16 MB to 4 GB (parad_set_tape_limit). Prints the primal time, the taped
 * gradient's time and peak tape (skipped when that tape would pass 8 GB), and per budget the gradient
 * time, its ratio to the primal, step runs per step (parad_checkpoint_counts: 2 is the least, a forward
 * run and a taped one), the peak of tape and snapshots (parad_tape_peak_bytes), and the target bound:
 * 1.1 x (the taped gradient's time + the primal's time per step x the untaped step runs, which revolve
 * counts: the forward sweep's and the recomputations, all runs but the one taped run per step).
 * Times are the faster of two runs (the first pays the page faults of fresh tape and snapshot memory; one
 * run where the primal takes over 20 s). Where every step's tape would pass 8 GB, the taped gradient runs
 * over the steps 4 GB hold and its time per step counts for all. Each checkpointed gradient equals the
 * taped one (relative 1e-10, when that was run over all the steps). Exits non-zero when one does not, or
 * a peak passes its budget. Budgets too small for one step's tape and a few copies of the state (the
 * runtime would stop the program) are skipped.
 *   checkpoint_heat [n T [budget in MB ...]]     (default 300 200, budgets 16 to 4096; the size:
 *                                                 1000 10000 256) */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);
void parad_checkpoint_counts(long *steps, long *runs);
void __parad_checkpoint_loop(void);

static int n = 300, steps = 200;

#define HEAT(NAME, MARK)                                                                                   \
  __attribute__((noinline)) double NAME(const double *u0) {                                              \
    size_t cells = (size_t)n * n;                                                                        \
    double *u = malloc(sizeof(double) * cells), *v = malloc(sizeof(double) * cells);                      \
    memcpy(u, u0, sizeof(double) * cells);                                                               \
    memcpy(v, u0, sizeof(double) * cells);                                                               \
    for (int t = 0; t < steps; t++) {                                                                    \
      MARK;                                                                                              \
      for (int i = 1; i < n - 1; i++)                                                                    \
        for (int j = 1; j < n - 1; j++) {                                                                \
          double c = u[i * n + j];                                                                       \
          v[i * n + j] = c + 0.2 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1] - 4 * c) + \
                         0.01 * sin(c);                                                                  \
        }                                                                                                \
      double *w = u;                                                                                     \
      u = v, v = w;                                                                                      \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (size_t i = 0; i < cells; i++) J += u[i] * u[i] * (1 + i % 3);                                   \
    free(u), free(v);                                                                                    \
    return J;                                                                                            \
  }
HEAT(heat_checkpointed, __parad_checkpoint_loop())
HEAT(heat_taped, (void)0)

/* The faster of `rounds` runs of f's gradient into g (the first pays the page faults of fresh tape and
 * snapshot memory); the peak of tapes and snapshots is the last's. (A macro: a request names its function.) */
static int rounds = 2;
#define GRADIENT_TIME(f, u0, g, cells, best)                                                                \
  do {                                                                                                     \
    for (int round = 0; round < rounds; round++) {                                                         \
      parad_tape_reset_peak();                                                                             \
      memset(g, 0, sizeof(double) * (cells));                                                              \
      double t0 = now_seconds();                                                                           \
      __parad_autodiff((void *)f, u0, g);                                                                  \
      double t = now_seconds() - t0;                                                                       \
      if (!round || t < (best)) (best) = t;                                                                \
    }                                                                                                      \
  } while (0)

int main(int argc, char **argv) {
  if (argc > 2) n = atoi(argv[1]), steps = atoi(argv[2]);
  size_t cells = (size_t)n * n;
  double *u0 = malloc(sizeof(double) * cells), *want = calloc(cells, sizeof(double)), *g = malloc(sizeof(double) * cells);
  for (size_t i = 0; i < cells; i++) u0[i] = 1 + sin(0.01 * (double)i) * cos(0.003 * (double)i);
  double J = 0, primal = 0;
  for (int round = 0; round < 2; round++) { /* as the gradients: the faster of two */
    double t0 = now_seconds();
    J = heat_taped(u0);
    double t = now_seconds() - t0;
    if (!round || t < primal) primal = t;
  }
  if (primal > 20) rounds = 1; /* page faults are lost in a run this long */
  double taped_bytes = 16.0 * (double)cells * steps;
  printf("Checkpointed 2-D heat: %d x %d cells, %d steps, state %.1f MB (two grids), J = %.10g\n", n, n, steps,
         2 * 8.0 * (double)cells / 1e6, J);
  printf("  primal: %.3f s (%.3f ms per step)\n", primal, 1e3 * primal / steps);
  double taped = 0; /* the taped gradient's time over all the steps (measured, or from fewer steps) */
  bool compared = taped_bytes < 8e9;
  if (compared) {
    GRADIENT_TIME(heat_taped, u0, want, cells, taped);
    printf("  gradient, every step taped: %.3f s (%.2f primals), peak tape %.1f MB\n", taped, taped / primal,
           parad_tape_peak_bytes() / 1e6);
  } else { /* too much tape for all the steps: its time per step over the steps 4 GB of tape hold */
    int all = steps;
    steps = (int)(4e9 / (16.0 * (double)cells));
    double part = 0, part_primal = 0;
    for (int round = 0; round < 2; round++) {
      double t0 = now_seconds();
      heat_taped(u0);
      double t = now_seconds() - t0;
      if (!round || t < part_primal) part_primal = t;
    }
    int saved = rounds;
    rounds = 2;
    GRADIENT_TIME(heat_taped, u0, want, cells, part);
    rounds = saved;
    taped = part / steps * all;
    printf("  gradient, every step taped: about %.0f GB of tape; over %d steps %.3f s (%.2f primals of as many "
           "steps): %.3f s for %d steps\n", taped_bytes / 1e9, steps, part, part / part_primal, taped, all);
    steps = all;
  }
  printf("  %8s %11s %8s %14s %12s %12s\n", "budget", "gradient", "ratio", "runs per step", "peak (MB)", "target (s)");
  double budgets_mb[8] = {16, 64, 256, 1024, 4096};
  int nbudgets = 5;
  if (argc > 3) { /* the budgets asked for, in MB */
    nbudgets = 0;
    for (int a = 3; a < argc && nbudgets < 8; a++) budgets_mb[nbudgets++] = atof(argv[a]);
  }
  int bad = 0;
  /* below room for one step's tape (the runtime keeps twice its chunks free, which may be twice its
     records) and a few copies of the state (a snapshot and its log, the memory after the loop), the
     runtime would stop the program: not run */
  double least = 12 * 16.0 * (double)cells + (1 << 20);
  for (int b = 0; b < nbudgets; b++) {
    if (budgets_mb[b] * (1 << 20) < least) {
      printf("  %6.0fMB    too small (about %.0f MB needed)\n", budgets_mb[b], least / (1 << 20));
      continue;
    }
    parad_set_tape_limit((size_t)(budgets_mb[b] * (1 << 20)));
    double grad = 0;
    GRADIENT_TIME(heat_checkpointed, u0, g, cells, grad);
    long st, runs;
    parad_checkpoint_counts(&st, &runs);
    size_t peak = parad_tape_peak_bytes();
    double target = taped > 0 ? 1.1 * (taped + primal / steps * (double)(runs - st)) : 0;
    char tgt[32] = "-";
    if (taped > 0) snprintf(tgt, sizeof tgt, "%.3f%s", target, grad <= target ? "" : " (over)");
    printf("  %6.0fMB %9.3f s %8.2f %14.2f %12.1f %12s\n", budgets_mb[b], grad, grad / primal, (double)runs / st,
           peak / 1e6, tgt);
    if (peak > (size_t)(budgets_mb[b] * (1 << 20))) printf("    peak over the budget\n"), bad = 1;
    if (compared) {
      double worst = 0;
      for (size_t i = 0; i < cells; i++) {
        double d = fabs(g[i] - want[i]) / (fabs(want[i]) + 1e-300);
        if (fabs(want[i]) > 1e-200 && d > worst) worst = d;
      }
      if (worst > 1e-10) printf("    gradient differs from the taped one: %.2e\n", worst), bad = 1;
    }
    if (budgets_mb[b] != 256) continue;
    /* the same loop without the marker: chosen by the budget (its taped gradient held more than half) */
    double chosen = 0;
    GRADIENT_TIME(heat_taped, u0, g, cells, chosen);
    long st2, runs2;
    parad_checkpoint_counts(&st2, &runs2);
    printf("  %6.0fMB %9.3f s %8.2f %14.2f %12.1f   (no marker: the loop chosen under the budget)\n", budgets_mb[b],
           chosen, chosen / primal, (double)runs2 / st2, parad_tape_peak_bytes() / 1e6);
    if (parad_tape_peak_bytes() > (size_t)(budgets_mb[b] * (1 << 20))) printf("    peak over the budget\n"), bad = 1;
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok");
  return bad;
}
