// MPI_Alltoall: each rank holds N = 4 values and sends M = 2 values to every rank (itself included), block d
// of its send buffer a to rank d, a_j = sin(x_{j mod N} + 0.1 j) x_{(j+1) mod N} + 0.2 x_{j mod N} (j < M
// size, so that different blocks carry different functions of the values). Block s of the receive buffer b
// comes from rank s (b held x_{j mod N} before, which the Alltoall overwrites: it must not contribute). Every
// rank adds s = sum_j b_j b_{j+1} + cos(b_j) x_{j mod N} (indices of b modulo M size), and J is the
// MPI_Allreduce(SUM) of s. Reverse mode: J's adjoint is 1 on rank 0 and 0 elsewhere (a replicated result is
// seeded once); the gradient is checked against central finite differences of J over every value of every
// rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a direction v must equal sum_ranks
// grad . v (tolerance 1e-12). The second run line builds at -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, M = 2, MAXR = 8 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = M * size;
  double a[M * MAXR], b[M * MAXR], s = 0;
  for (int j = 0; j < n; j++) a[j] = sin(x[j % N] + 0.1 * j) * x[(j + 1) % N] + 0.2 * x[j % N], b[j] = x[j % N];
  MPI_Alltoall(a, M, MPI_DOUBLE, b, M, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int j = 0; j < n; j++) s += b[j] * b[(j + 1) % n] + cos(b[j]) * x[j % N];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.29 * i - 0.31 * rank + 0.13, v[i] = sin(1.1 + 2 * i - 3 * rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
