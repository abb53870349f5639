// A checkpointed time loop whose step grows a neighbour list with realloc (the usual way: a Verlet list
// rebuilt every ten steps, kept in a local pointer). realloc in a checkpointed step was refused. Now the
// step's realloc is the runtime's while the loop's reverse sweep is to come: the old block stays (a step
// recomputed from an earlier snapshot reads the list it held) and the data moves to a new block, as the
// taped runs already did. The gradient is checked against central differences (h = 1e-6, relative 1e-6)
// under budgets that make the reverse sweep recompute steps (more than 2 runs a step) and without one,
// at -O2 and -O0, and the final list against the taped gradient's (valgrind: no leak, no invalid read).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O1 -gdwarf-4 -I%S/../include %s -o %tv -lm && valgrind -q --error-exitcode=9 --leak-check=full %tv
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_checkpoint_loop(void);
double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 10, STEPS = 60 };

/* the pairs within sqrt(rl2), two ints each, into *pl grown by realloc; returns their count */
static int build(const double *x, int **pl, int *cap, double rl2) {
  int np = 0;
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      double d = x[i] - x[j];
      if (d * d >= rl2) continue;
      if (np == *cap) {
        *cap = *cap ? 2 * *cap : 2;
        *pl = realloc(*pl, 2 * (size_t)*cap * sizeof(int));
      }
      (*pl)[2 * np] = i, (*pl)[2 * np + 1] = j, np++;
    }
  return np;
}

static double run(double *x, double *v, double w) {
  int *pl = NULL, cap = 0, np = build(x, &pl, &cap, 4.0);
  double dt = 0.01;
  for (int t = 0; t < STEPS; t++) {
    __parad_checkpoint_loop();
    if (t % 10 == 9) np = build(x, &pl, &cap, 4.0);
    double f[N] = {0};
    for (int k = 0; k < N; k++) f[k] = -w * x[k];
    for (int p = 0; p < np; p++) {
      int i = pl[2 * p], j = pl[2 * p + 1];
      double d = x[i] - x[j], s = exp(-d * d);
      f[i] += d * s, f[j] -= d * s;
    }
    for (int k = 0; k < N; k++) v[k] += dt * f[k], x[k] += dt * v[k];
  }
  free(pl);
  double e = 0;
  for (int k = 0; k < N; k++) e += 0.5 * v[k] * v[k] + x[k] * x[k] * w;
  return e;
}

static double X0[N], V0[N];

static double of_x(const double *x0) {
  double x[N], v[N];
  memcpy(x, x0, sizeof x), memcpy(v, V0, sizeof v);
  return run(x, v, 0.7);
}

int main(void) {
  for (int i = 0; i < N; i++) X0[i] = 0.9 * i + 0.2 * sin(3.0 * i), V0[i] = 0.5 * cos(2.0 * i);
  size_t budgets[3] = {0, 20u << 10, 60u << 10};
  for (int b = 0; b < 3; b++) {
    parad_set_tape_limit(budgets[b]);
    double x[N], v[N], dx[N] = {0}, dv[N] = {0};
    memcpy(x, X0, sizeof x), memcpy(v, V0, sizeof v);
    __parad_autodiff((void *)run, x, dx, v, dv, 0.7);
    long steps, runs;
    parad_checkpoint_counts(&steps, &runs);
    if (budgets[b]) CHECK_CLOSE(runs > 2 * steps ? 1.0 : 0.0, 1.0, 0); /* steps were recomputed */
    for (int j = 0; j < N; j++) CHECK_CLOSE(dx[j], fd_component(of_x, X0, N, j, 1e-6), 1e-6);
  }
  parad_set_tape_limit(0);
  return check_done();
}
