// A checkpointed time loop whose step scatters pair forces through a contact list into an array of grains,
// each through a pointer of its own (`Grain *a = &g[ci[q]]; a->f[0] -= ...`), as DEM codes write it. The
// runtime follows what each store wrote by a hull per site and base pointer; the base was the pointer in
// the local, which the optimiser made each element's own address: every contact found no hull of its
// base, evicted one and listed it (a sort, a hash table's insert and removal), and the gradient took 200
// times the primal (40 times the taped gradient). The notes' bases are the objects again now
// (ad/checkpoint_notes.c, checkpoint_rebase_notes). Also stores into an array that follows the grains in
// their block and into a block the step allocates. Checked: the gradient against the taped loop's
// (relative 1e-12 of the largest component) and central differences (h = 1e-6, 1e-6), without a budget
// and under budgets that make the reverse sweep recompute steps from snapshots (more than 2 runs a step);
// at -O2 and -O0 (budgets three times larger: its step tapes are larger), and under valgrind.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 3
// RUN: %parad-cc -O1 -gdwarf-4 -I%S/../include %s -o %tv -lm && valgrind -q --error-exitcode=9 %tv
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_checkpoint_loop(void);
void __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);

typedef struct { double x[2], v[2], f[2]; } Grain;
enum { N = 40, NC = 90, T = 30 };
static int ci[NC], cj[NC];

static void step(Grain *g, double *extra, double dt) {
  double *scratch = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) g[i].f[0] = 0, g[i].f[1] = -0.1, scratch[i] = 0;
  for (int q = 0; q < NC; q++) {
    Grain *a = &g[ci[q]], *b = &g[cj[q]];
    double dx = b->x[0] - a->x[0], dy = b->x[1] - a->x[1], d = sqrt(dx * dx + dy * dy), w = 0.01 * (1.5 - d);
    a->f[0] -= w * dx, a->f[1] -= w * dy;
    b->f[0] += w * dx, b->f[1] += w * dy;
    double *e = &extra[cj[q] % 8];
    *e += 0.001 * w;
    scratch[ci[q]] += w;
  }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 2; k++) g[i].v[k] += dt * (g[i].f[k] + 0.01 * scratch[i] + 0.01 * extra[i % 8]), g[i].x[k] += dt * g[i].v[k];
  free(scratch);
}

static double result(const Grain *g) {
  double s = 0;
  for (int i = 0; i < N; i++) s += g[i].x[1] * g[i].x[1] + 0.5 * g[i].x[0];
  return s;
}

static double run(Grain *g, double *extra, double dt) {
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    step(g, extra, dt);
  }
  return result(g);
}

static double taped(Grain *g, double *extra, double dt) {
  for (int t = 0; t < T; t++) step(g, extra, dt);
  return result(g);
}

static Grain *grains; /* with the extra array right after them, in one block */

static void start(const double *v0) {
  double *extra = (double *)(grains + N);
  for (int i = 0; i < N; i++) grains[i] = (Grain){{i % 6, i / 6 * 0.9}, {v0[i], 0}, {0, 0}};
  for (int k = 0; k < 8; k++) extra[k] = 0;
}

static double energy(const double *v0) {
  start(v0);
  return run(grains, (double *)(grains + N), 0.05);
}

int main(int argc, char **argv) {
  size_t f = argc > 1 ? (size_t)atoi(argv[1]) : 1; /* -O0's step tapes are larger */
  for (int q = 0; q < NC; q++) ci[q] = (q * 7) % N, cj[q] = (q * 13 + 5) % N, cj[q] = cj[q] == ci[q] ? (cj[q] + 1) % N : cj[q];
  grains = malloc(sizeof(Grain) * N + 8 * sizeof(double));
  Grain *dg = malloc(sizeof(Grain) * N + 8 * sizeof(double));
  double v0[N];
  for (int i = 0; i < N; i++) v0[i] = 0.1 * sin(i);
  /* the taped gradient with respect to the initial velocities */
  double want[N], g[N];
  start(v0);
  memset(dg, 0, sizeof(Grain) * N + 8 * sizeof(double));
  __parad_autodiff((void *)taped, grains, dg, (double *)(grains + N), (double *)(dg + N), 0.05);
  for (int i = 0; i < N; i++) want[i] = dg[i].v[0];
  const size_t budgets[] = {0, 128 * 1024 * f, 64 * 1024 * f};
  for (int b = 0; b < 3; b++) {
    parad_set_tape_limit(budgets[b]);
    start(v0);
    memset(dg, 0, sizeof(Grain) * N + 8 * sizeof(double));
    long s0, r0, s1, r1;
    parad_checkpoint_counts(&s0, &r0);
    __parad_autodiff((void *)run, grains, dg, (double *)(grains + N), (double *)(dg + N), 0.05);
    parad_checkpoint_counts(&s1, &r1);
    double scale = 0;
    for (int i = 0; i < N; i++) g[i] = dg[i].v[0], scale = fmax(scale, fabs(want[i]));
    for (int i = 0; i < N; i++) CHECK_CLOSE(g[i] / scale, want[i] / scale, 1e-12);
    if (b == 2) CHECK_CLOSE((double)(r1 - r0 > 2 * T), 1.0, 0);
  }
  parad_set_tape_limit(0);
  for (int i = 0; i < N; i += 7) CHECK_CLOSE(g[i], fd_component(energy, v0, N, i, 1e-6), 1e-6);
  free(grains);
  free(dg);
  return check_done();
}
