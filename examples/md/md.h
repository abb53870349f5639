/* One rank's part of the whole computation: energies, forces, time steps (everything collective). */
#ifndef MD_MD_H
#define MD_MD_H

#include "potential.h"
#include "system.h"

/* The potential energy of all ranks' atoms into *energy (on every rank), with this rank's atoms at x
 * (3 s->n coordinates). Reads nothing else of s that moves: its gradient with respect to x is minus the
 * forces on this rank's atoms. */
void md_energy(const double *x, const System *s, const Interaction *in, double *energy);

/* The forces on this rank's atoms into s->f; returns the potential energy of all ranks' atoms. */
double md_forces(System *s, const Interaction *in);

/* The kinetic energy of all ranks' atoms. */
double md_kinetic(const System *s);

/* One velocity-Verlet step of length dt; s->f holds the forces at the current positions, before and after.
 * Returns the potential energy at the new positions. */
double md_step(System *s, const Interaction *in, double dt);

#endif
