/* Lennard-Jones and Morse pair potentials for the Kob-Andersen binary mixture, behind one table. */
#include "potential.h"

#include <math.h>
#include <string.h>

/* Kob and Andersen's mixture: epsilon and sigma of each pair of types (A = 0, B = 1). */
static const double mix_epsilon[NTYPES][NTYPES] = {{1.0, 1.5}, {1.5, 0.5}};
static const double mix_sigma[NTYPES][NTYPES] = {{1.0, 0.8}, {0.8, 0.88}};

/* Lennard-Jones, U(r) = 4 eps ((sigma/r)^12 - (sigma/r)^6) = a / r^12 - b / r^6. */
static void lj_setup(PairCoeff *c, double epsilon, double sigma) {
  double s6 = pow(sigma, 6);
  c->a = 4 * epsilon * s6 * s6;
  c->b = 4 * epsilon * s6;
}

static double lj_energy(const PairCoeff *c, double r2) {
  double ir6 = 1 / (r2 * r2 * r2);
  return ir6 * (c->a * ir6 - c->b) - c->shift;
}

static double lj_force(const PairCoeff *c, double r2) {
  double ir2 = 1 / r2, ir6 = ir2 * ir2 * ir2;
  return ir6 * (12 * c->a * ir6 - 6 * c->b) * ir2;
}

/* Morse, U(r) = D (e^2 - 2 e) with e = exp(-alpha (r - r0)): the well of depth D = eps at LJ's minimum
 * r0 = 2^(1/6) sigma, softer than LJ's (alpha = 3 / sigma) and finite at r = 0. a = D, b = alpha, c = r0. */
static void morse_setup(PairCoeff *c, double epsilon, double sigma) {
  c->a = epsilon;
  c->b = 3 / sigma;
  c->c = pow(2, 1.0 / 6) * sigma;
}

static double morse_energy(const PairCoeff *c, double r2) {
  double e = exp(-c->b * (sqrt(r2) - c->c));
  return c->a * e * (e - 2) - c->shift;
}

static double morse_force(const PairCoeff *c, double r2) {
  double r = sqrt(r2), e = exp(-c->b * (r - c->c));
  return 2 * c->a * c->b * e * (e - 1) / r;
}

const Potential potentials[] = {
    {"lj", "Lennard-Jones 12-6", 2.5, lj_setup, lj_energy, lj_force},
    {"morse", "Morse, alpha = 3/sigma", 2.5, morse_setup, morse_energy, morse_force},
};

const int npotentials = sizeof potentials / sizeof *potentials;

const Potential *potential_find(const char *name) {
  for (int k = 0; k < npotentials; k++)
    if (strcmp(potentials[k].name, name) == 0) return &potentials[k];
  return NULL;
}

void interaction_init(Interaction *in, const Potential *pot) {
  in->pot = pot;
  in->cutoff = 0;
  for (int ti = 0; ti < NTYPES; ti++)
    for (int tj = 0; tj < NTYPES; tj++) {
      PairCoeff *c = &in->pair[ti][tj];
      double rc = pot->cutoff * mix_sigma[ti][tj];
      *c = (PairCoeff){0};
      pot->setup(c, mix_epsilon[ti][tj], mix_sigma[ti][tj]);
      c->rc2 = rc * rc;
      c->shift = pot->energy(c, c->rc2); /* with shift 0: U(rc) */
      in->cutoff = fmax(in->cutoff, rc);
    }
}
