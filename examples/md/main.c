/* md: molecular dynamics of a Lennard-Jones (or Morse) binary mixture with link cells, OpenMP threads and
 * MPI slabs; and the derivatives of its potential energy by Parad.
 *
 * Runs a short trajectory (velocity Verlet from a perturbed lattice), then, at its last configuration,
 * checks Parad's derivatives of the potential energy E(x) of all ranks' atoms against the forces the code
 * computes itself: the gradient (reverse mode, one call) must be -F on every rank, and the tangent along
 * a direction (forward mode, one call) must be the gradient's dot product with it. Prints the times of
 * one energy and one gradient, then OK, or FAIL and exits with status 1.
 *
 *   mpirun -np 2 ./md [-n atoms] [-p lj|morse] [-s steps] [-r repeats]      (threads: OMP_NUM_THREADS) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <parad.h>

#include "md.h"
#include "potential.h"
#include "system.h"

void __parad_fwddiff_void(void *, ...); /* forward mode of a function returning void: tangents land in shadows */

static const double density = 0.8, dt = 0.001;
static const double tolerance = 1e-10; /* relative; the derivatives are exact up to rounding */

typedef struct {
  int atoms, steps, repeats;
  const Potential *pot;
} Options;

static int parse(int argc, char **argv, Options *o) {
  *o = (Options){4096, 100, 5, potential_find("lj")};
  for (int k = 1; k + 1 < argc; k += 2) {
    if (strcmp(argv[k], "-n") == 0) o->atoms = atoi(argv[k + 1]);
    else if (strcmp(argv[k], "-s") == 0) o->steps = atoi(argv[k + 1]);
    else if (strcmp(argv[k], "-r") == 0) o->repeats = atoi(argv[k + 1]);
    else if (strcmp(argv[k], "-p") == 0 && potential_find(argv[k + 1])) o->pot = potential_find(argv[k + 1]);
    else return -1;
  }
  return argc % 2 == 1 && o->atoms > 0 && o->steps >= 0 && o->repeats > 0 ? 0 : -1;
}

/* The gradient of the energy with respect to this rank's positions, into g. */
static void gradient(const System *s, const Interaction *in, double *g) {
  double energy, seed = s->rank == 0; /* every rank holds the same energy: one value, seeded once */
  memset(g, 0, sizeof(double) * 3 * s->n);
  __parad_autodiff((void *)md_energy, s->x, g, parad_const, s, parad_const, in, &energy, &seed);
}

/* The energy's tangent along dir (3 per atom of this rank), the same on every rank. */
static double tangent(const System *s, const Interaction *in, const double *dir) {
  double energy, t = 0;
  __parad_fwddiff_void((void *)md_energy, s->x, dir, parad_const, s, parad_const, in, &energy, &t);
  return t;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Seconds of the slowest rank, median of t[0 .. n-1] (each rank's own times). */
static double slowest_median(const System *s, double *t, int n) {
  MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, s->comm);
  qsort(t, n, sizeof *t, by_value);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static double global(const System *s, double local, MPI_Op op) {
  double r;
  MPI_Allreduce(&local, &r, 1, MPI_DOUBLE, op, s->comm);
  return r;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Options o;
  if (parse(argc, argv, &o)) {
    if (rank == 0) {
      fprintf(stderr, "usage: %s [-n atoms] [-s steps] [-r repeats] [-p potential], potentials:", argv[0]);
      for (int k = 0; k < npotentials; k++) fprintf(stderr, " %s (%s)", potentials[k].name, potentials[k].description);
      fprintf(stderr, "\n");
    }
    MPI_Finalize();
    return 2;
  }
  Interaction in;
  interaction_init(&in, o.pot);
  System s;
  if (system_create(&s, o.atoms, density, in.cutoff, MPI_COMM_WORLD)) {
    MPI_Finalize();
    return 2;
  }
  int natoms = system_count(&s);
  if (rank == 0)
    printf("md: %d atoms, %s, density %.2f, box %.3f, cutoff %.2f; %d ranks x %d threads\n", natoms,
           o.pot->description, density, s.box, in.cutoff, s.nranks, omp_get_max_threads());

  /* the trajectory */
  double t0 = MPI_Wtime(), potential = md_forces(&s, &in), start = potential + md_kinetic(&s);
  for (int step = 1; step <= o.steps; step++) potential = md_step(&s, &in, dt);
  double kinetic = md_kinetic(&s), seconds = global(&s, MPI_Wtime() - t0, MPI_MAX);
  if (rank == 0)
    printf("  %d steps of %g in %.3f s: potential %.6f, kinetic %.6f, total %.6f (drift %.1e per atom)\n", o.steps,
           dt, seconds, potential, kinetic, potential + kinetic, (potential + kinetic - start) / natoms);

  /* the derivatives at the last configuration, against the forces md_step left in s.f */
  double *g = malloc(sizeof(double) * 3 * s.n), *dir = malloc(sizeof(double) * 3 * s.n);
  double energy, *t_energy = malloc(sizeof(double) * o.repeats), *t_gradient = malloc(sizeof(double) * o.repeats);
  gradient(&s, &in, g); /* once untimed: the first gradient also maps its tape's memory */
  for (int r = 0; r < o.repeats; r++) {
    MPI_Barrier(s.comm);
    t0 = MPI_Wtime();
    md_energy(s.x, &s, &in, &energy);
    t_energy[r] = MPI_Wtime() - t0;
    MPI_Barrier(s.comm);
    t0 = MPI_Wtime();
    gradient(&s, &in, g);
    t_gradient[r] = MPI_Wtime() - t0;
  }
  double force_max = 0, mismatch = 0, dot = 0, scale = 0;
  for (int k = 0; k < 3 * s.n; k++) force_max = fmax(force_max, fabs(s.f[k]));
  force_max = global(&s, force_max, MPI_MAX);
  int wrong = 0;
  for (int i = 0; i < s.n; i++)
    for (int a = 0; a < 3; a++) {
      int k = 3 * i + a;
      double e = fabs(g[k] + s.f[k]);
      mismatch = fmax(mismatch, e);
      wrong += !(e <= tolerance * force_max); /* a NaN is wrong too */
      dir[k] = sin(0.37 * s.id[i] + a);       /* a direction that does not depend on the number of ranks */
      dot += g[k] * dir[k];
      scale += fabs(g[k] * dir[k]);
    }
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, s.comm);
  mismatch = global(&s, mismatch, MPI_MAX), dot = global(&s, dot, MPI_SUM), scale = global(&s, scale, MPI_SUM);
  double fwd = tangent(&s, &in, dir);
  double primal = slowest_median(&s, t_energy, o.repeats), reverse = slowest_median(&s, t_gradient, o.repeats);

  int energy_ok = fabs(energy - potential) <= tolerance * fabs(potential);
  int gradient_ok = wrong == 0, tangent_ok = fabs(fwd - dot) <= tolerance * scale;
  int ok = energy_ok && gradient_ok && tangent_ok;
  if (rank == 0) {
    printf("  energy          % .12e   (from the force loop % .12e)%s\n", energy, potential, energy_ok ? "" : "  FAIL");
    printf("  max |grad + F|   %.2e   (max |F| %.2e)", mismatch, force_max);
    printf(gradient_ok ? "\n" : "  FAIL: %d components\n", wrong);
    printf("  tangent         % .12e   (grad . dir % .12e)%s\n", fwd, dot, tangent_ok ? "" : "  FAIL");
    printf("  primal %.3f ms, gradient %.3f ms: ratio %.2f (medians of %d, slowest rank)\n", primal * 1e3,
           reverse * 1e3, reverse / primal, o.repeats);
    printf("%s\n", ok ? "OK" : "FAIL");
  }
  free(g), free(dir), free(t_energy), free(t_gradient);
  system_destroy(&s);
  MPI_Finalize();
  return !ok;
}
