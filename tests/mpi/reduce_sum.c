// MPI_Reduce(SUM) to a root (root = size / 2: 0, 1, 1, 2 for 1 to 4 ranks): every rank contributes
// p_i = sin(x_i) + x_i x_{i+1}, the root receives r = sum_ranks p (every rank first writes x_i^3 into r,
// which the reduction overwrites at the root: it must not contribute). A second MPI_Reduce(SUM) to the same
// root is made in place at the root (MPI_IN_PLACE as its send buffer, q its receive buffer; the other ranks
// send their q, with a null receive buffer): q_i = x_i^2 cos(x_i), summed into the root's q. The root then
// computes J = sum_i sin(r_i) q_i + r_i r_{i+2} and broadcasts it (MPI_Bcast into J). Reverse mode: J's
// adjoint is 1 on rank 0 and 0 elsewhere (a replicated result is seeded once; rank 0 is not the root for 2 to
// 4 ranks); the gradient is checked against central finite differences of J over every value of every rank
// (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a direction v must equal sum_ranks grad .
// v (tolerance 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size / 2;
  double p[N], r[N], q[N];
  for (int i = 0; i < N; i++) p[i] = sin(x[i]) + x[i] * x[(i + 1) % N], r[i] = x[i] * x[i] * x[i];
  MPI_Reduce(p, r, N, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) q[i] = x[i] * x[i] * cos(x[i]);
  if (rank == root)
    MPI_Reduce(MPI_IN_PLACE, q, N, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  else
    MPI_Reduce(q, NULL, N, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  if (rank == root) {
    double s = 0;
    for (int i = 0; i < N; i++) s += sin(r[i]) * q[i] + r[i] * r[(i + 2) % N];
    *J = s;
  }
  MPI_Bcast(J, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.35 * i - 0.3 * rank + 0.15, v[i] = sin(1.5 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
