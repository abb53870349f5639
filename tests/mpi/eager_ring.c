// A ring as programs write it when they rely on MPI buffering small messages (the eager protocol): every
// rank sends to the next (MPI_Send) before it receives from the previous one. The primal's 3200-byte
// messages go eagerly; forward mode's carry the tangents too, twice as long, past Open MPI's eager limit
// for shared memory (4 KiB): every rank waited in MPI_Send for a receive that its neighbour posts only
// after its own send returns, and the program hung. A forward-mode standard send whose message is not
// taken at once is left to complete later, from its own packed copy, as a buffered send would be.
// Forward mode's tangent of J along v against the reverse-mode gradient (1e-12), the gradient against
// central differences (1e-7); 2 to 4 ranks (at 1, Open MPI does not buffer a message to the rank itself).
// RUN: %mpicc %cflags %s -o %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 400 };

__attribute__((noinline)) static void ring(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double y[N], s = 0;
  MPI_Send(x, N, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Recv(y, N, MPI_DOUBLE, (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) s += x[i] * sin(y[i]);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, ring)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.01 * i + 0.7 * rank - 0.5, v[i] = cos(1.0 + i + rank);
  __parad_autodiff((void *)ring, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, 4, dx, 1e-6, 1e-7); /* the first four components of each rank */
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)ring, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  return mpi_check_done();
}
