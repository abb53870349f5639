/* The hot loops, parallel over the owned cells with OpenMP. */
#include "forces.h"

#include <string.h>

/* The squared distance from atom i to the image (shifted by sy, sz) of atom j, and the vector between them. */
static double distance2(const double *xi, const double *xj, double sy, double sz, double d[3]) {
  d[0] = xi[0] - xj[0];
  d[1] = xi[1] - (xj[1] + sy);
  d[2] = xi[2] - (xj[2] + sz);
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

double forces_energy(const Cells *c, const double *x, const int *type, const Interaction *in) {
  const Potential *pot = in->pot;
  double energy = 0;
#pragma omp parallel for schedule(static) reduction(+ : energy)
  for (int cell = 0; cell < c->nowned; cell++) {
    const Neighbour *shell = &c->shell[HALF_SHELL * cell];
    for (int i = c->head[cell]; i >= 0; i = c->next[i]) {
      const PairCoeff *pair = in->pair[type[i]];
      double d[3];
      for (int j = c->next[i]; j >= 0; j = c->next[j]) { /* the pairs inside the cell: j after i */
        double r2 = distance2(&x[3 * i], &x[3 * j], 0, 0, d);
        if (r2 < pair[type[j]].rc2) energy += pot->energy(&pair[type[j]], r2);
      }
      for (int k = 0; k < HALF_SHELL; k++)
        for (int j = c->head[shell[k].cell]; j >= 0; j = c->next[j]) {
          double r2 = distance2(&x[3 * i], &x[3 * j], shell[k].sy, shell[k].sz, d);
          if (r2 < pair[type[j]].rc2) energy += pot->energy(&pair[type[j]], r2);
        }
    }
  }
  return energy;
}

/* A pair's force on i, and its opposite on j. */
static void add_force(double *f, int i, int j, double w, const double d[3]) {
  for (int a = 0; a < 3; a++) {
    f[3 * i + a] += w * d[a];
    f[3 * j + a] -= w * d[a];
  }
}

double forces_compute(const Cells *c, const double *x, const int *type, const Interaction *in, double *f,
                      int natoms) {
  const Potential *pot = in->pot;
  double energy = 0;
  memset(f, 0, sizeof(double) * 3 * natoms);
  /* a pair adds to both its atoms, which other threads' cells may hold: each thread sums into a copy of
   * f of its own, and the copies are added at the end */
#pragma omp parallel for schedule(static) reduction(+ : energy, f[:3 * natoms])
  for (int cell = 0; cell < c->nowned; cell++) {
    const Neighbour *shell = &c->shell[HALF_SHELL * cell];
    for (int i = c->head[cell]; i >= 0; i = c->next[i]) {
      const PairCoeff *pair = in->pair[type[i]];
      double d[3];
      for (int j = c->next[i]; j >= 0; j = c->next[j]) {
        double r2 = distance2(&x[3 * i], &x[3 * j], 0, 0, d);
        if (r2 < pair[type[j]].rc2) {
          energy += pot->energy(&pair[type[j]], r2);
          add_force(f, i, j, pot->force(&pair[type[j]], r2), d);
        }
      }
      for (int k = 0; k < HALF_SHELL; k++)
        for (int j = c->head[shell[k].cell]; j >= 0; j = c->next[j]) {
          double r2 = distance2(&x[3 * i], &x[3 * j], shell[k].sy, shell[k].sz, d);
          if (r2 < pair[type[j]].rc2) {
            energy += pot->energy(&pair[type[j]], r2);
            add_force(f, i, j, pot->force(&pair[type[j]], r2), d);
          }
        }
    }
  }
  return energy;
}
