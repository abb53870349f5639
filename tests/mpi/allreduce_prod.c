// MPI_Allreduce with MPI_PROD, into a separate buffer and in place: every rank forms a_i = +-(1.2 + 0.5
// sin(x_i)) (negative for odd i; |a_i| >= 0.7, away from 0) and b_i = 1 + 0.3 x_i cos(x_i) (between 0.6 and
// 1.4 on these values), P = prod_ranks a (separate buffer) and Q = prod_ranks b (in place). Every rank adds
// s = sum_i x_i P_i + sin(P_i) Q_{i+1} and J is the MPI_Allreduce(SUM) of s. The derivative of a product with
// respect to one rank's factor is the product of the other ranks' factors. Reverse mode: J's adjoint is 1 on
// rank 0 and 0 elsewhere (a replicated result is seeded once); the gradient is checked against central finite
// differences of J over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along a direction v must equal sum_ranks grad . v (tolerance 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  double a[N], P[N], b[N], s = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i % 2 ? -1 : 1) * (1.2 + 0.5 * sin(x[i]));
    b[i] = 1 + 0.3 * x[i] * cos(x[i]);
  }
  MPI_Allreduce(a, P, N, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, b, N, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) s += x[i] * P[i] + sin(P[i]) * b[(i + 1) % N];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.45 * rank + 0.2, v[i] = sin(0.7 + i + 2 * rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
