// A cell list's gather over an array of particles (a struct each) that stores each particle's own result
// into another field of the same array, as a density pass does: `s += p[j].m * w(p[i].x - p[j].x)` over
// the neighbours j, then `p[i].rho = s`. The store writes the array the gather reads, so the gather's
// reads were copied per particle (the span between its lowest and highest neighbour: most of the
// array), n^2 bytes: 1.4 GB a gradient at 8,000 particles, 178 times the primal, 1,000 times at 32,000.
// The store and the reads touch different fields of the elements, whatever the indices, and the reads
// are copied once for the whole loop now (rev_snapshot.c, fields_apart). The gradient against central
// differences (h = 1e-6, relative 1e-6) at a few particles; the tape of 4,000 particles less than
// 64 bytes a neighbour pair (it was some 5,000 times that); at -O2, -O0 and with -fopenmp (parallel over
// particles, 1 and 2 threads).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fopenmp %s -o %t2 -lm && OMP_NUM_THREADS=1 %t2 && OMP_NUM_THREADS=2 %t2
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

typedef struct { double x, m, rho; } Particle;
typedef struct { int n, nc; int *start, *count, *order, *cell; } Cells;

static long pairs;

static double density(Particle *p, const Cells *c) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < c->n; i++) {
    double s = 0;
    for (int d = -1; d <= 1; d++) {
      int nb = (c->cell[i] + d + c->nc) % c->nc;
      for (int k = c->start[nb]; k < c->start[nb] + c->count[nb]; k++) {
        int j = c->order[k];
        double r = p[i].x - p[j].x;
        s += p[j].m * exp(-r * r);
      }
    }
    p[i].rho = s;
  }
  double e = 0;
  for (int i = 0; i < c->n; i++) e += p[i].rho * p[i].rho;
  return e;
}

static void make_cells(Cells *c, Particle *p, int n) {
  c->n = n, c->nc = n / 8 > 1 ? n / 8 : 1;
  c->start = calloc(c->nc, sizeof(int)), c->count = calloc(c->nc, sizeof(int));
  c->order = malloc(sizeof(int) * n), c->cell = malloc(sizeof(int) * n);
  int *fill = calloc(c->nc, sizeof(int));
  srand(1);
  for (int i = 0; i < n; i++) {
    p[i].x = rand() / (double)RAND_MAX, p[i].m = 0.5 + rand() / (double)RAND_MAX, p[i].rho = 0;
    c->cell[i] = (int)(p[i].x * c->nc) % c->nc;
    c->count[c->cell[i]]++;
  }
  for (int k = 1; k < c->nc; k++) c->start[k] = c->start[k - 1] + c->count[k - 1];
  for (int i = 0; i < n; i++) c->order[c->start[c->cell[i]] + fill[c->cell[i]]++] = i;
  pairs = 0;
  for (int i = 0; i < n; i++)
    for (int d = -1; d <= 1; d++) pairs += c->count[(c->cell[i] + d + c->nc) % c->nc];
  free(fill);
}

static void free_cells(Cells *c) { free(c->start), free(c->count), free(c->order), free(c->cell); }

int main(void) {
  enum { SMALL = 40, LARGE = 4000 };
  Particle p[SMALL], dp[SMALL], q[SMALL];
  Cells c;
  make_cells(&c, p, SMALL);
  memcpy(q, p, sizeof p);
  memset(dp, 0, sizeof dp);
  __parad_autodiff((void *)density, p, dp, parad_const, &c);
  for (int i = 0; i < SMALL; i += 3)
    for (int f = 0; f < 2; f++) {
      double h = 1e-6, *v = f ? &q[i].m : &q[i].x, keep = *v;
      *v = keep + h;
      double up = density(q, &c);
      *v = keep - h;
      double down = density(q, &c);
      *v = keep;
      CHECK_CLOSE(f ? dp[i].m : dp[i].x, (up - down) / (2 * h), 1e-6);
    }
  free_cells(&c);

  Particle *big = malloc(sizeof(Particle) * LARGE), *dbig = calloc(LARGE, sizeof(Particle));
  make_cells(&c, big, LARGE);
  parad_tape_reset_peak();
  __parad_autodiff((void *)density, big, dbig, parad_const, &c);
  double per_pair = (double)parad_tape_peak_bytes() / (double)pairs;
  if (per_pair >= 64) printf("tape: %.1f bytes a pair\n", per_pair);
  CHECK_CLOSE((double)(per_pair < 64), 1.0, 0);
  free_cells(&c);
  free(big), free(dbig);
  return check_done();
}
