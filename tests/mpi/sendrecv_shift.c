// A periodic shift by MPI_Sendrecv, three times: at step s every rank sends its state u to rank
// (rank + k) % size and receives w from rank (rank - k) % size, k = (s + 1) % size (so at 1 rank, and at
// some steps with 2 or 3 ranks, a rank shifts to itself), then updates nonlinearly,
// u_i <- sin(u_i) (1 + 0.3 w_i) + 0.2 w_{i+1}^2. u starts as the rank's x; each step has its own tag and
// a status the program does not read. J = sum_ranks sum_i (i + 1) u_i^2 by an MPI_Allreduce.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J must be the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 3, STEPS = 3 };

__attribute__((noinline)) static void shift(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double u[N], w[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
  for (int step = 0; step < STEPS; step++) {
    int k = (step + 1) % size;
    int dest = (rank + k) % size, src = (rank - k + size) % size;
    MPI_Status st;
    MPI_Sendrecv(u, N, MPI_DOUBLE, dest, 10 + step, w, N, MPI_DOUBLE, src, 10 + step, MPI_COMM_WORLD, &st);
    for (int i = 0; i < N; i++) u[i] = sin(u[i]) * (1 + 0.3 * w[i]) + 0.2 * w[(i + 1) % N] * w[(i + 1) % N];
  }
  for (int i = 0; i < N; i++) s += (i + 1) * u[i] * u[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, shift)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.5 * i + 0.35 * rank - 0.4, v[i] = cos(0.5 + 2 * i + rank);
  __parad_autodiff((void *)shift, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-6, 1e-7);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)shift, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  return mpi_check_done();
}
