/* The pair loops: potential energy, and energy and forces, of one rank's atoms over link cells. */
#ifndef MD_FORCES_H
#define MD_FORCES_H

#include "cells.h"
#include "potential.h"

/* x: 3 coordinates per atom (owned atoms, then ghosts, as sorted into c); type: each atom's type.
 * Every pair within its cutoff with at least one owned atom is counted once. */
double forces_energy(const Cells *c, const double *x, const int *type, const Interaction *in);

/* The same energy, and the forces of those pairs, written into f (3 per atom, ghosts included: a
 * ghost's force belongs to the rank that owns it). */
double forces_compute(const Cells *c, const double *x, const int *type, const Interaction *in, double *f,
                      int natoms);

#endif
