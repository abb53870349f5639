#include "md.h"

#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "forces.h"
#include "halo.h"

void md_energy(const double *x, const System *s, const Interaction *in, double *energy) {
  Halo h;
  Cells c;
  halo_exchange(s, x, in->cutoff, &h);
  cells_build(&c, h.x, h.n, h.nghost, s->lo, s->hi, s->box, in->cutoff);
  double local = forces_energy(&c, h.x, h.type, in);
  cells_free(&c);
  halo_free(&h);
  MPI_Allreduce(&local, energy, 1, MPI_DOUBLE, MPI_SUM, s->comm);
}

double md_forces(System *s, const Interaction *in) {
  Halo h;
  Cells c;
  halo_exchange(s, s->x, in->cutoff, &h);
  cells_build(&c, h.x, h.n, h.nghost, s->lo, s->hi, s->box, in->cutoff);
  double *f = malloc(sizeof(double) * 3 * (h.n + h.nghost)), local, energy;
  local = forces_compute(&c, h.x, h.type, in, f, h.n + h.nghost);
  halo_return_forces(s, &h, f);
  memcpy(s->f, f, sizeof(double) * 3 * s->n);
  free(f);
  cells_free(&c);
  halo_free(&h);
  MPI_Allreduce(&local, &energy, 1, MPI_DOUBLE, MPI_SUM, s->comm);
  return energy;
}

double md_kinetic(const System *s) {
  double local = 0, total;
  for (int k = 0; k < 3 * s->n; k++) local += 0.5 * s->v[k] * s->v[k];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, s->comm);
  return total;
}

double md_step(System *s, const Interaction *in, double dt) {
  for (int k = 0; k < 3 * s->n; k++) {
    s->v[k] += 0.5 * dt * s->f[k];
    s->x[k] += dt * s->v[k];
  }
  halo_migrate(s);
  double energy = md_forces(s, in);
  for (int k = 0; k < 3 * s->n; k++) s->v[k] += 0.5 * dt * s->f[k];
  return energy;
}
