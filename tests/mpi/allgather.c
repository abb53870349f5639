// MPI_Allgather into a separate buffer, and a second one with MPI_IN_PLACE. Each rank holds N = 4 values and
// forms a_i = sin(x_i) x_{i+1} + x_i^2 (M = 3 of them); the first Allgather gives every rank A (M per rank,
// rank by rank; A held x_{j mod N} before, which the Allgather overwrites: it must not contribute). Every
// rank first fills all of B with x_{j mod N} + 1 (the parts of the other ranks are overwritten by the
// in-place Allgather, so these values must not contribute either). Rank r then writes b_i = x_i
// cos(x_{i+1}) + 0.3 x_i straight into its own part of B (offset M r) and the in-place Allgather
// (MPI_IN_PLACE, send type MPI_DATATYPE_NULL) fills in the other ranks' parts. Every rank adds s = sum_j
// (r + 1) sin(A_j) x_{j mod N} + A_j B_{j+1} (indices of B modulo M size, so that every rank's part meets
// another's), and J is the MPI_Allreduce(SUM) of s. Reverse mode: J's adjoint is 1 on rank 0 and 0 elsewhere
// (a replicated result is seeded once); the gradient is checked against central finite differences of J over
// every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a direction v
// must equal sum_ranks grad . v (tolerance 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, M = 3, MAXR = 8 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = M * size;
  double a[M], A[M * MAXR], B[M * MAXR], s = 0;
  for (int i = 0; i < M; i++) a[i] = sin(x[i]) * x[i + 1] + x[i] * x[i];
  for (int j = 0; j < n; j++) A[j] = x[j % N], B[j] = x[j % N] + 1;
  MPI_Allgather(a, M, MPI_DOUBLE, A, M, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < M; i++) B[M * rank + i] = x[i] * cos(x[i + 1]) + 0.3 * x[i];
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, B, M, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int j = 0; j < n; j++) s += (rank + 1) * sin(A[j]) * x[j % N] + A[j] * B[(j + 1) % n];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.32 * i - 0.27 * rank + 0.11, v[i] = cos(0.9 + 2 * i + 3 * rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
