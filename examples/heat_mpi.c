/* Example: the gradient of a heat simulation distributed over MPI ranks, with reverse-mode AD.
 *
 * A 240 x 240 plate, split by rows over the ranks, diffuses heat for 100 explicit steps; neighbouring
 * ranks exchange their edge rows with MPI_Isend / MPI_Irecv / MPI_Waitall every step (examples/halo.h).
 * The objective J (the mean square temperature at the end) is summed over the ranks with MPI_Allreduce.
 * One reverse sweep gives dJ/dkappa and dJ/du0 for every cell of every rank; Parad turns each halo
 * exchange around (the adjoints of the ghost rows go back to the ranks they came from).
 *
 * J is replicated on every rank after the Allreduce; its adjoint is seeded on rank 0 only.
 *
 * Build and run:
 *   OMPI_CC=$PWD/bin/parad-cc mpicc -O2 examples/heat_mpi.c -o heat_mpi
 *   mpirun -np 2 ./heat_mpi            (as root: --allow-run-as-root; more ranks than cores: --oversubscribe) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <parad.h>

#include "halo.h"

enum { N = 240, STEPS = 100 };

static int rank, size, rows;
static double *u0, *work;
static const double kappa = 0.2;

static double objective(double k) {
  double J;
  memset(work, 0, sizeof(double) * 2 * (rows + 2) * N);
  halo_heat(u0, work, k, rows, N, STEPS, MPI_COMM_WORLD, &J);
  return J;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (N % size) {
    if (rank == 0) fprintf(stderr, "run with a number of ranks that divides %d\n", N);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  rows = N / size;
  size_t local = (size_t)rows * N, with_ghosts = 2 * (size_t)(rows + 2) * N;
  u0 = malloc(sizeof(double) * local);
  double *du0 = calloc(local, sizeof(double)), *dwork = calloc(with_ghosts, sizeof(double));
  work = calloc(with_ghosts, sizeof(double));
  for (size_t k = 0; k < local; k++) {
    int i = rank * rows + (int)(k / N), j = (int)(k % N);
    u0[k] = (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? 0 : sin(0.05 * i) * cos(0.03 * j) + 0.5;
  }

  double t0 = MPI_Wtime();
  double J = objective(kappa);
  double t_primal = MPI_Wtime() - t0;

  /* the gradient, twice: the first call also maps the tape's memory; the second is timed */
  double dkappa_local = 0, t_gradient = 0;
  for (int run = 0; run < 2; run++) {
    double dJ = rank == 0 ? 1 : 0; /* a replicated result: seeded once */
    memset(work, 0, sizeof(double) * with_ghosts);
    memset(dwork, 0, sizeof(double) * with_ghosts);
    memset(du0, 0, sizeof(double) * local);
    t0 = MPI_Wtime();
    dkappa_local = __parad_autodiff((void *)halo_heat, u0, du0, work, dwork, kappa, parad_const, rows, parad_const,
                                    N, parad_const, STEPS, parad_const, MPI_COMM_WORLD, &J, &dJ);
    t_gradient = MPI_Wtime() - t0;
  }
  double dkappa; /* kappa is used on every rank: its adjoint is the sum of theirs */
  MPI_Allreduce(&dkappa_local, &dkappa, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  /* finite differences: kappa, and one interior cell on each rank (perturbed on its owner only) */
  double h = 1e-5;
  double fd = (objective(kappa + h) - objective(kappa - h)) / (2 * h);
  int bad = fabs(fd - dkappa) > 1e-6 * fabs(fd);
  if (rank == 0)
    printf("J = %.12f on %d ranks (a %d x %d plate, %d steps)\n  dJ/dkappa     = % .10e   finite difference % .10e\n",
           J, size, N, N, STEPS, dkappa, fd);
  for (int r = 0; r < size; r++) {
    size_t k = (size_t)(rows / 2) * N + N / 3;
    double save = u0[k], d = du0[k];
    if (rank == r) u0[k] = save + 1e-3;
    double hi = objective(kappa);
    if (rank == r) u0[k] = save - 1e-3;
    double lo = objective(kappa);
    u0[k] = save;
    double f = (hi - lo) / 2e-3;
    if (rank == r) {
      bad += fabs(f - d) > 1e-6 * fabs(f) + 1e-14;
      printf("  dJ/du0[%d][%d] = % .10e   finite difference % .10e   (rank %d)\n", r * rows + rows / 2, N / 3, d, f, r);
    }
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int any_bad;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("  primal %.2f ms, gradient (%zu values per rank and kappa) %.2f ms: ratio %.2f\n", t_primal * 1e3,
           local, t_gradient * 1e3, t_gradient / t_primal);
    printf("  check against finite differences (relative 1e-6): %s\n", any_bad ? "FAILED" : "ok");
  }
  free(u0), free(du0), free(work), free(dwork);
  MPI_Finalize();
  return any_bad;
}
