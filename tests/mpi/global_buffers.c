// A rank's cells and its ghost values kept in pointer globals (`static double *u, *ghost`) that main
// allocates, as MPI codes keep their state; the halo exchange sends from and receives into them
// (MPI_Sendrecv both ways round a ring), the energy is summed with MPI_Allreduce. The globals get shadows
// holding zeroed shadows of their blocks at each derivative's entry (ad/global_blocks.h).
//   J = sum over ranks and cells of u_i (u_left + u_right) + sin u_i, u = x^2: the gradient (seeded on
//   rank 0) against central finite differences over every value of every rank (h = 1e-6, tolerance
//   1e-7), the forward tangent against sum_ranks gradient . v (1e-12); twice, the second time after
//   main moved the cells to a new block. 1 to 4 ranks, Open MPI and MPICH; under valgrind in valgrind.test.
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };
static double *u, *ghost;

__attribute__((noinline)) static void energy(double *x, double *out) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; i++) u[i] = x[i] * x[i];
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Sendrecv(&u[N - 1], 1, MPI_DOUBLE, right, 0, &ghost[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[0], 1, MPI_DOUBLE, left, 1, &ghost[1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double e = 0;
  for (int i = 0; i < N; i++) {
    double l = i ? u[i - 1] : ghost[0], r = i < N - 1 ? u[i + 1] : ghost[1];
    e += u[i] * (l + r) + sin(u[i]);
  }
  MPI_Allreduce(&e, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(energy_objective, energy)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  u = malloc(N * sizeof *u);
  ghost = calloc(2, sizeof *ghost);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i + 0.05 * rank, v[i] = cos(0.3 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(energy, energy_objective, x, N, v, 1e-6, 1e-7);
  free(u);
  u = malloc(N * sizeof *u);
  MPI_CHECK_BOTH_MODES(energy, energy_objective, x, N, v, 1e-6, 1e-7);
  free(u), free(ghost);
  return mpi_check_done();
}
