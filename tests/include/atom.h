/* atom.h: the atom record MPI tests send as bytes and as a derived datatype, and the pair term of their
 * energies.
 *
 *   Atom                 struct {int id; double x[3]; int type;}: doubles between ints (40 bytes)
 *   atom_pair(a, g)      (1 + type_g / 2) exp(-|x_a - x_g|^2 / 2) + 0.001 id_g: the ints weigh and shift it */
#ifndef PARAD_TEST_ATOM_H
#define PARAD_TEST_ATOM_H

#include <math.h>

typedef struct {
  int id;
  double x[3];
  int type;
} Atom;

__attribute__((unused)) static double atom_pair(const Atom *a, const Atom *g) {
  double d2 = 0;
  for (int k = 0; k < 3; k++) d2 += (a->x[k] - g->x[k]) * (a->x[k] - g->x[k]);
  return (1 + 0.5 * g->type) * exp(-0.5 * d2) + 0.001 * g->id;
}

#endif
