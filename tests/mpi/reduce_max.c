// MPI_Reduce with MPI_MAX to a root (root = size - 1), into a separate buffer and in place at the root: rank
// r holds x_i = 0.5 + 0.1 i + 0.31 ((r + i) mod size) (at most 1.93), a_i = x_i^2 + sin(x_i) increases with
// x_i and b_i = 2 - x_i^2 + 0.1 sin(x_i) decreases with it, so the maximum of a_i is on the rank with
// (r + i) mod size = size - 1 and the maximum of b_i on the rank with (r + i) mod size = 0: a different rank
// for each element, and for a and b. The values of different ranks differ by at least 0.25 in a and b, far
// more than the finite-difference step, so the owners do not change at the perturbed points (no ties).
// m = max_ranks a arrives in a separate buffer, b is reduced in place at the root (the other ranks send their
// b with a null receive buffer). Every rank adds s = 0.1 sum_i x_i^2, the root adds sum_i sin(m_i) b_i + m_i
// m_{i+1} to its s, and J is the MPI_Allreduce(SUM) of s. Reverse mode: J's adjoint is 1 on rank 0 and 0
// elsewhere (a replicated result is seeded once); the gradient is checked against central finite differences
// of J over every value of every rank (h = 1e-6, tolerance 1e-7): only the owner of each maximum gets its
// derivative. Forward mode: the tangent of J along a direction v must equal sum_ranks grad . v (tolerance
// 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 6 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size - 1;
  double a[N], m[N], b[N], s = 0;
  for (int i = 0; i < N; i++) {
    a[i] = x[i] * x[i] + sin(x[i]);
    b[i] = 2 - x[i] * x[i] + 0.1 * sin(x[i]);
    s += 0.1 * x[i] * x[i];
  }
  MPI_Reduce(a, m, N, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
  if (rank == root)
    MPI_Reduce(MPI_IN_PLACE, b, N, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
  else
    MPI_Reduce(b, NULL, N, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int i = 0; i < N; i++) s += sin(m[i]) * b[i] + m[i] * m[(i + 1) % N];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.1 * i + 0.31 * ((rank + i) % size), v[i] = cos(0.3 + 2 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
