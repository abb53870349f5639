/* The particle system: a cubic periodic box cut into slabs along x, one slab per MPI rank; each rank
 * owns the atoms inside its slab. */
#ifndef MD_SYSTEM_H
#define MD_SYSTEM_H

#include <mpi.h>

typedef struct {
  double box;    /* edge of the periodic box */
  double lo, hi; /* this rank's slab: lo <= x < hi */
  MPI_Comm comm;
  int rank, nranks;
  int down, up; /* the ranks of the slabs below and above, periodically */

  int n, capacity; /* atoms owned, room for */
  int *id, *type;
  double *x, *v, *f; /* positions, velocities, forces: 3 per atom (unit masses) */
} System;

/* A simple cubic lattice of about natoms sites (the nearest cube) at the density, every site moved by up to
 * a tenth of the lattice spacing (a pseudo-random function of the site, so the same on any number of
 * ranks), every fifth atom of type 1; at rest. Returns 0, or -1 with a message on rank 0 when the slabs
 * or the box are too thin for link cells of edge cutoff (at least one slab and three cells across). */
int system_create(System *s, int natoms, double density, double cutoff, MPI_Comm comm);
void system_destroy(System *s);

/* Room for n atoms. */
void system_reserve(System *s, int n);

/* The rank whose slab holds x (0 <= x < box). */
int system_owner(const System *s, double x);

/* All ranks' atoms. */
int system_count(const System *s);

#endif
