// A communicator made and freed inside the differentiated function: MPI_Comm_split into the even and the odd
// ranks, an Allreduce(SUM) on the half, MPI_Comm_free; then MPI_Comm_dup of MPI_COMM_WORLD, a ring shift
// (Sendrecv) on the duplicate, MPI_Comm_free. The reverse sweep sends the adjoints on both communicators after
// the forward sweep has gone past their frees: they are freed when the tape ends (the program's handles are
// MPI_COMM_NULL at once, as the check of the handle below sees). The reverse sweep once used the freed
// communicators: a crash in MPI_Iallreduce (Open MPI), an invalid communicator (MPICH).
//   v = sum over the half of sum_i x_i^2 (1 + r_i), w = v^2 + x_0 received from the rank before, J the
//   Allreduce(SUM) of w over all ranks.
// Reverse mode against central finite differences of J over every value of every rank (h = 1e-6, tolerance
// 1e-7); forward mode against the gradient (tolerance 1e-12); at 1 to 4 ranks, and at -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half, ring;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  double mine = 0, v, w, before;
  for (int i = 0; i < N; i++) mine += x[i] * x[i] * (1 + rank);
  MPI_Allreduce(&mine, &v, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Comm_free(&half);
  if (half != MPI_COMM_NULL) {
    printf("FAIL: MPI_Comm_free left the handle set\n");
    abort();
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &ring);
  MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, (rank + 1) % size, 5, &before, 1, MPI_DOUBLE, (rank + size - 1) % size, 5, ring,
               MPI_STATUS_IGNORE);
  MPI_Comm_free(&ring);
  w = v * v + sin(before) * x[1];
  MPI_Allreduce(&w, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 0.15 * rank + 0.3, v[i] = cos(0.5 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
