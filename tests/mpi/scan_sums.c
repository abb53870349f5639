// Prefix sums over the ranks, both modes: MPI_Scan of a vector of two local sums (rank r gets the sums of
// ranks 0..r), an in-place MPI_Scan, and MPI_Exscan (ranks 0..r-1; rank 0's result is undefined and the
// program sets it), then a nonlinear use of each.
//   a = (sum_i x_i^2, sum_i sin x_i), b = x_0 x_1, c = x_2: A, B, C their prefixes;
//   v = sin(A_0) A_1 + B^2 + 0.5 C'^2 (C' = C, 0 on rank 0), J = Allreduce(SUM) of v.
// Reverse mode: J's adjoint seeded on rank 0; the gradient against central finite differences of J over
// every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a direction
// against sum_ranks grad . v (1e-12). At 1 to 4 ranks, and at -O0. A product is stopped at run time with the
// reason (the second program).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
// RUN: %mpicc %cflags -DPRODUCT %s -o %tp && not %mpirun 2 %tp 2>&1 | FileCheck %s
// CHECK: MPI_Scan with active data and an operation other than MPI_SUM
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double a[2] = {0, 0}, A[2], b = x[0] * x[1], c = x[2], C = 0;
  for (int i = 0; i < N; i++) a[0] += x[i] * x[i], a[1] += sin(x[i]);
  MPI_Scan(a, A, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&c, &C, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) C = 0;
  double v = sin(A[0]) * A[1] + b * b + 0.5 * C * C;
#ifdef PRODUCT
  double p;
  MPI_Scan(&v, &p, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  v += p;
#endif
  MPI_Allreduce(&v, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.15 * i - 0.1 * rank + 0.3, v[i] = cos(0.5 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
