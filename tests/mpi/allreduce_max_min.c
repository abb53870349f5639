// MPI_Allreduce with MPI_MAX (into a separate buffer) and MPI_MIN (in place) on vectors whose extremum is on
// a different rank for each element: rank r holds x_i = 0.5 + 0.1 i + 0.31 ((r + i) mod size) (at most 1.93),
// a_i = x_i^2 + sin(x_i) and c_i = sin(x_i) + 0.5 x_i both increase with x_i on these values, so the maximum
// of a_i is on the rank with (r + i) mod size = size - 1 and the minimum of c_i on the rank with
// (r + i) mod size = 0; the values of different ranks differ by at least 0.04, far more than the
// finite-difference step, so the owners do not change at the perturbed points (no ties). The buffer m that
// receives the maximum first holds x_i^2, which the Allreduce overwrites (it must not contribute). Every rank
// adds s = sum_i m_i sin(c_i) + x_i m_i c_{i+1} (m the maximum of a, c the minimum) and J is the
// MPI_Allreduce(SUM) of s. Reverse mode: J's adjoint is 1 on rank 0 and 0 elsewhere (a replicated result is
// seeded once); the gradient is checked against central finite differences of J over every value of every
// rank (h = 1e-6, tolerance 1e-7): only the owner of each extremum gets its derivative. Forward mode: the
// tangent of J along a direction v must equal sum_ranks grad . v (tolerance 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 6 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  double a[N], m[N], c[N], s = 0;
  for (int i = 0; i < N; i++) a[i] = x[i] * x[i] + sin(x[i]), c[i] = sin(x[i]) + 0.5 * x[i], m[i] = x[i] * x[i];
  MPI_Allreduce(a, m, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, c, N, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) s += m[i] * sin(c[i]) + x[i] * m[i] * c[(i + 1) % N];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[N], v[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.5 + 0.1 * i + 0.31 * ((rank + i) % size), v[i] = cos(1.0 + 2 * i + 3 * rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
