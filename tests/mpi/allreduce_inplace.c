// MPI_Allreduce(SUM) with MPI_IN_PLACE on a vector: every rank fills v_i = x_i sin(x_{i+1}) + x_i^2 and the
// in-place Allreduce replaces v by its sum over the ranks; every rank then adds s = sum_i sin(v_i) x_i + v_i
// v_{i+1}, and J is a second in-place Allreduce(SUM) of s, written into J first. Reverse mode: J's adjoint is
// 1 on rank 0 and 0 elsewhere (a replicated result is seeded once); the gradient is checked against central
// finite differences of J over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the
// tangent of J along a direction v must equal sum_ranks grad . v (tolerance 1e-12). The second run line
// builds at -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 6 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  double v[N], s = 0;
  for (int i = 0; i < N; i++) v[i] = x[i] * sin(x[(i + 1) % N]) + x[i] * x[i];
  MPI_Allreduce(MPI_IN_PLACE, v, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) s += sin(v[i]) * x[i] + v[i] * v[(i + 1) % N];
  *J = s;
  MPI_Allreduce(MPI_IN_PLACE, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.25 * i - 0.35 * rank + 0.1, v[i] = cos(0.5 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
