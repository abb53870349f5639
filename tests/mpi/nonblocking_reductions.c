// Non-blocking reductions (sums), both modes: MPI_Iallreduce of two local sums with work overlapped before
// the wait, MPI_Ireduce to rank 0 (then MPI_Bcast), and an in-place MPI_Iallreduce, completed together by
// MPI_Waitall; then a MAX through MPI_Iallreduce on integers (no derivative: copied as it is).
//   a = sum_i x_i^2, b = sum_i sin x_i, c = sum_i e^{x_i / 10}, p = x_0 x_1, q = x_2 (each summed over the
//   ranks), J = sum over ranks of [A B + C (1 + rank) + P Q] with A, B, C, P, Q the sums.
// Reverse mode: J's adjoint seeded on rank 0; the gradient against central finite differences of J over
// every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a direction
// against sum_ranks grad . v (1e-12). At 1 to 4 ranks, and at -O0. Other operations than sums are stopped at
// run time with the reason (the second program).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
// RUN: %mpicc %cflags -DMAX_OP %s -o %tm && not %mpirun 2 %tm 2>&1 | FileCheck %s
// CHECK: MPI_Iallreduce with active data and an operation other than MPI_SUM
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double loc[2] = {0, 0}, tot[2], mine = 0, at_root = 0, both[2];
  for (int i = 0; i < N; i++) loc[0] += x[i] * x[i], loc[1] += sin(x[i]);
  MPI_Request r[4];
  MPI_Iallreduce(loc, tot, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[0]);
  for (int i = 0; i < N; i++) mine += exp(0.1 * x[i]); /* while the first one is under way */
  MPI_Ireduce(&mine, &at_root, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &r[1]);
  both[0] = x[0] * x[1], both[1] = x[2];
  MPI_Iallreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[2]);
  int steps = rank + 3, most;
  MPI_Iallreduce(&steps, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  MPI_Bcast(&at_root, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double v = tot[0] * tot[1] + at_root * (1 + rank) + both[0] * both[1];
#ifdef MAX_OP
  double top;
  MPI_Request q;
  MPI_Iallreduce(&v, &top, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  v += top;
#endif
  if (most != size + 2) v = NAN; /* the integer MAX arrived: else every check fails */
  MPI_Allreduce(&v, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 0.1 * rank + 0.35, v[i] = cos(0.5 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
