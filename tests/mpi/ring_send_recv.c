// A ring: every rank sends its values to the next rank (MPI_Send) and receives the previous rank's
// (MPI_Recv, from MPI_ANY_SOURCE with MPI_ANY_TAG on odd ranks), then all ranks sum
// J = sum_ranks sum_i x_i sin(y_i) with an MPI_Allreduce into an output buffer. Ranks send and receive in
// an order that cannot deadlock (even ranks send first). Reverse mode: J's adjoint is 1 on rank 0 and 0
// elsewhere (a replicated result is seeded once); the gradient is checked against central finite
// differences of J over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent
// of J along a direction v must equal sum_ranks grad . v (tolerance 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void ring(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double y[N], s = 0;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  if (size == 1) {
    for (int i = 0; i < N; i++) y[i] = x[i];
  } else if (rank % 2 == 0) {
    MPI_Send(x, N, MPI_DOUBLE, next, 7, MPI_COMM_WORLD);
    MPI_Recv(y, N, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Status st;
    MPI_Recv(y, N, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MPI_Send(x, N, MPI_DOUBLE, next, 7, MPI_COMM_WORLD);
  }
  for (int i = 0; i < N; i++) s += x[i] * sin(y[i]);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, ring)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.3 * i + 0.7 * rank - 0.5, v[i] = cos(1.0 + i + rank);
  __parad_autodiff((void *)ring, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-6, 1e-7);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)ring, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  return mpi_check_done();
}
