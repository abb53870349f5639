// MPI_Reduce_scatter_block with MPI_SUM, as a distributed matrix-vector product sums its partial results:
// rank r computes a_{s,j} = sin(x_j) x_{(j + s) mod N} + s x_j for every rank s's block (N elements each),
// and receives block r of the sum over the ranks. Then, in place (the input in the receive buffer, the
// result over its first block; the rest keeps its values and is read after), b_{s,j} = x_j^2 + 0.1 s.
// Rank r adds s = sum_j y_j cos(x_j) + sum_j z_j x_{(j+1) mod N} + sum of z's unreduced tail (j >= N) times
// 0.3 + 0.05 sum_j x_j^3, and J is the MPI_Allreduce(SUM) of s. Reverse mode against central finite
// differences of J over every value of every rank (h = 1e-6, tolerance 1e-7); forward mode: the tangent of J
// along v against sum_ranks grad . v (1e-12). Refused before ("cannot differentiate
// MPI_Reduce_scatter_block with active data").
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 -lm && %mpirun 2 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, MAXR = 8 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a[MAXR * N], y[N], z[MAXR * N], s = 0;
  for (int b = 0; b < size; b++)
    for (int j = 0; j < N; j++) a[b * N + j] = sin(x[j]) * x[(j + b) % N] + b * x[j];
  MPI_Reduce_scatter_block(a, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int b = 0; b < size; b++)
    for (int j = 0; j < N; j++) z[b * N + j] = x[j] * x[j] + 0.1 * b;
  MPI_Reduce_scatter_block(MPI_IN_PLACE, z, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int j = 0; j < N; j++) s += y[j] * cos(x[j]) + z[j] * x[(j + 1) % N] + 0.05 * x[j] * x[j] * x[j];
  for (int j = N; j < size * N; j++) s += 0.3 * z[j];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.31 * i - 0.27 * rank + 0.2, v[i] = cos(0.5 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
