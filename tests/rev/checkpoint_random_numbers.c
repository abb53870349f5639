// Random numbers in a time loop, under checkpointing. A seed kept in a variable of the loop (rand_r)
// is a loop variable like any other: a marked loop's snapshots keep it, a recomputed step draws what the
// forward run drew, and the gradient equals forward mode's tangent (1e-12) and central differences
// (1e-6). rand() keeps its seed out of sight: a function whose time loop calls it gets no checkpointed
// twin under a budget (it would differentiate another trajectory: it did, a few percent off, with no
// message); its gradient is taped as without a budget, equal to it to the bit, and the program's rand()
// sequence afterwards is the one a single primal call leaves.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 40, T = 400 };

/* a stochastic ODE, Euler-Maruyama, its noise from a seed in a variable */
double walk(const double *p) {
  unsigned seed = 12345;
  double x = 1, dt = 1.0 / T;
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    double z = (double)rand_r(&seed) / RAND_MAX - 0.5;
    x = x - p[0] * x * dt + p[1] * x * sqrt(dt) * z;
  }
  return x * x;
}

/* a heat rod kicked by rand() every step, with no marker */
double kicked(const double *x) {
  double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N), s = 0;
  for (int i = 0; i < N; i++) u[i] = v[i] = x[i];
  for (int t = 0; t < T; t++) {
    double kick = 0.01 * ((double)rand() / RAND_MAX - 0.5);
    for (int i = 1; i < N - 1; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + kick * u[i];
    double *w = u;
    u = v, v = w;
  }
  for (int i = 0; i < N; i++) s += u[i] * u[i];
  free(u), free(v);
  return s;
}

int main(void) {
  double p[2] = {0.7, 0.3};
  for (int j = 0; j < 2; j++) {
    double g[2] = {0}, v[2] = {j == 0, j == 1};
    long steps, runs;
    __parad_autodiff((void *)walk, p, g);
    parad_checkpoint_counts(&steps, &runs);
    CHECK_CLOSE(steps >= T && runs >= 2 * T, 1, 0);
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)walk, p, v), 1e-12);
    CHECK_CLOSE(g[j], fd_component(walk, p, 2, j, 1e-6), 1e-6);
  }

  double x[N], want[N] = {0}, got[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.6 + 0.3 * sin(0.1 * i);
  srand(7);
  kicked(x);
  int after_primal = rand();
  srand(7);
  __parad_autodiff((void *)kicked, x, want);
  CHECK_CLOSE(rand(), after_primal, 0);
  parad_set_tape_limit(64u << 10); /* far below the taped gradient's */
  srand(7);
  __parad_autodiff((void *)kicked, x, got);
  CHECK_CLOSE(rand(), after_primal, 0);
  parad_set_tape_limit(0);
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i], want[i], 0);
  srand(7);
  double hi, lo, h = 1e-6, keep = x[5];
  x[5] = keep + h, hi = kicked(x), srand(7);
  x[5] = keep - h, lo = kicked(x), x[5] = keep;
  CHECK_CLOSE(want[5], (hi - lo) / (2 * h), 1e-6);
  return check_done();
}
