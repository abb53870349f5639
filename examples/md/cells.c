#include "cells.h"

#include <stdlib.h>

static const int half_shell[HALF_SHELL][3] = {
    {1, -1, -1}, {1, -1, 0}, {1, -1, 1}, {1, 0, -1}, {1, 0, 0}, {1, 0, 1}, {1, 1, -1},
    {1, 1, 0},   {1, 1, 1},  {0, 1, -1}, {0, 1, 0},  {0, 1, 1}, {0, 0, 1},
};

/* The cell of coordinate u in cells of width w, n of them; rounding at the upper edge stays inside. */
static int bin(double u, double w, int n) {
  int k = (int)(u / w);
  return k < 0 ? 0 : k >= n ? n - 1 : k;
}

/* k + step wrapped into [0, n), and the shift that brings the wrapped cell's atoms next to cell k. */
static int wrap(int k, int step, int n, double box, double *shift) {
  k += step;
  *shift = k >= n ? box : k < 0 ? -box : 0;
  return k >= n ? k - n : k < 0 ? k + n : k;
}

void cells_build(Cells *c, const double *x, int nowned, int nghost, double lo, double hi, double box,
                 double cutoff) {
  int layers = (int)((hi - lo) / cutoff);
  c->nx = layers + 1;
  c->ny = c->nz = (int)(box / cutoff);
  c->nowned = layers * c->ny * c->nz;
  double wx = (hi - lo) / layers, wyz = box / c->ny;
  int ncells = c->nx * c->ny * c->nz, natoms = nowned + nghost;

  c->head = malloc(sizeof(int) * ncells);
  c->next = malloc(sizeof(int) * natoms);
  for (int k = 0; k < ncells; k++) c->head[k] = -1;
  /* backwards, so that each cell lists its atoms in increasing order */
  for (int i = natoms - 1; i >= 0; i--) {
    int ix = i < nowned ? bin(x[3 * i] - lo, wx, layers) : layers;
    int cell = (ix * c->ny + bin(x[3 * i + 1], wyz, c->ny)) * c->nz + bin(x[3 * i + 2], wyz, c->nz);
    c->next[i] = c->head[cell];
    c->head[cell] = i;
  }

  c->shell = malloc(sizeof(Neighbour) * HALF_SHELL * c->nowned);
  for (int cell = 0; cell < c->nowned; cell++) {
    int ix = cell / (c->ny * c->nz), iy = cell / c->nz % c->ny, iz = cell % c->nz;
    for (int k = 0; k < HALF_SHELL; k++) {
      Neighbour *nb = &c->shell[HALF_SHELL * cell + k];
      int jy = wrap(iy, half_shell[k][1], c->ny, box, &nb->sy);
      int jz = wrap(iz, half_shell[k][2], c->nz, box, &nb->sz);
      nb->cell = ((ix + half_shell[k][0]) * c->ny + jy) * c->nz + jz;
    }
  }
}

void cells_free(Cells *c) {
  free(c->head);
  free(c->next);
  free(c->shell);
}
