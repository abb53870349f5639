// MPI_Bcast from a root that is not rank 0 when there are several ranks (root = size - 1): the root computes
// b_i = sin(x_i) * x_{i+1} + x_i^2 from its own values and broadcasts b (the other ranks first write 0.5 x_i
// into their b, which the broadcast overwrites: it must not contribute); every rank then adds sum_i x_i
// cos(b_i) + b_i b_{i+2}, and J is the MPI_Allreduce(SUM) of those sums. The values of the root reach every
// rank through b, so every rank's sum depends on them. Reverse mode: J's adjoint is 1 on rank 0 and 0
// elsewhere (a replicated result is seeded once); the gradient is checked against central finite differences
// of J over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a
// direction v must equal sum_ranks grad . v (tolerance 1e-12). The second run line builds at -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size - 1;
  double b[N], s = 0;
  for (int i = 0; i < N; i++) b[i] = rank == root ? sin(x[i]) * x[(i + 1) % N] + x[i] * x[i] : 0.5 * x[i];
  MPI_Bcast(b, N, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) s += x[i] * cos(b[i]) + b[i] * b[(i + 2) % N];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.4 * rank + 0.25, v[i] = cos(2.0 + i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
