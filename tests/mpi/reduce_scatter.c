// MPI_Reduce_scatter with a different count for each rank (sums), as parallel assembly hands each rank the
// summed rows it owns: rank r contributes a_k = sin(x_{k mod N}) x_{(k+1) mod N} (k + 1 + r) for all
// E = sum_s c_s elements (c_s = 1 + s mod 3) and gets the c_r elements of block r of the sum; then the same in
// place (the input in the receive buffer). Rank r adds
// s = sum of what it got times cos(x_i) + 0.05 sum_i x_i^3, and J is the MPI_Allreduce(SUM) of s. Reverse mode
// against central finite differences of J over every value of every rank (h = 1e-6, tolerance 1e-7); forward
// mode: the tangent of J along v against sum_ranks grad . v (1e-12). Refused before ("cannot differentiate
// MPI_Reduce_scatter with active data").
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5, MAXR = 8, MAXE = 3 * MAXR };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int c[MAXR], E = 0;
  for (int r = 0; r < size; r++) c[r] = 1 + r % 3, E += c[r];
  double a[MAXE], got[3], b[MAXE], t = 0;
  for (int k = 0; k < E; k++) a[k] = sin(x[k % N]) * x[(k + 1) % N] * (k + 1 + rank);
  MPI_Reduce_scatter(a, got, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < E; k++) b[k] = x[(k + 2) % N] * x[k % N] + rank;
  MPI_Reduce_scatter(MPI_IN_PLACE, b, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < c[rank]; k++) t += got[k] * cos(x[k]) + b[k] * b[k] * 0.1;
  for (int i = 0; i < N; i++) t += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&t, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.25 * i - 0.3 * rank + 0.1, v[i] = sin(0.5 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
