/* Pair potentials, chosen by name at run time, and the coefficients of every pair of atom types. */
#ifndef MD_POTENTIAL_H
#define MD_POTENTIAL_H

enum { NTYPES = 2 }; /* a binary mixture: type 0 (A, 80%) and type 1 (B, 20%) */

/* The coefficients of one pair of types: a, b, c belong to the potential; rc2 is the squared cutoff and
 * shift the energy at the cutoff, subtracted so that the energy is continuous there. */
typedef struct {
  double a, b, c;
  double rc2, shift;
} PairCoeff;

/* A potential is a table of operations. The energy and the force are functions of the squared distance
 * r2 < rc2, so that the pair loop takes no square root for potentials that need none. */
typedef struct Potential {
  const char *name, *description;
  double cutoff; /* in units of the pair's sigma */
  void (*setup)(PairCoeff *c, double epsilon, double sigma);
  double (*energy)(const PairCoeff *c, double r2); /* U(r) - U(rc) */
  double (*force)(const PairCoeff *c, double r2);  /* -U'(r) / r: the force on i is force * (r_i - r_j) */
} Potential;

/* The table, and the potential of a name in it (NULL if none). */
extern const Potential potentials[];
extern const int npotentials;
const Potential *potential_find(const char *name);

/* What the force loops need: the potential and the coefficients of each pair of types. */
typedef struct {
  const Potential *pot;
  PairCoeff pair[NTYPES][NTYPES];
  double cutoff; /* the largest cutoff of any pair: the edge of a link cell */
} Interaction;

void interaction_init(Interaction *in, const Potential *pot);

#endif
