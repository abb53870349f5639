/* Communication between the slabs: ghost atoms for the pair loops, their forces back to their owners,
 * and atoms that moved into another rank's slab. Every message goes to a neighbouring slab (periodic: the
 * last rank's neighbour above is rank 0), with MPI_Sendrecv. */
#ifndef MD_HALO_H
#define MD_HALO_H

#include "system.h"

/* What a neighbour needs of an atom, packed into the messages as bytes. */
typedef struct {
  int id, type;
  double x[3];
} AtomRecord;

/* One rank's atoms for the pair loops: the owned ones, then the ghosts. */
typedef struct {
  int n, nghost;
  double *x; /* 3 coordinates per atom */
  int *type;
  int nsent, *sent; /* the owned atoms sent down as ghosts, in the order the rank below stores them */
} Halo;

/* Copies the owned positions x (s->n atoms; the caller's, not necessarily s->x) and receives as ghosts
 * the atoms of the slab above within the cutoff of this slab's upper edge, at their periodic image. The
 * link cells' half shell (cells.h) needs no others. */
void halo_exchange(const System *s, const double *x, double cutoff, Halo *h);

/* Sends the ghosts' forces (f[3 n ...]) to their owners, and adds those coming back from the rank below
 * into the forces of the atoms this rank sent it. */
void halo_return_forces(const System *s, const Halo *h, double *f);

void halo_free(Halo *h);

/* Wraps every position into the box and hands each atom that left the slab to the neighbour now owning
 * it (an atom moves less than a slab in a step), with its velocity. Reorders the atoms. */
void halo_migrate(System *s);

#endif
