// MPI_FLOAT data through MPI_Allreduce(SUM) and MPI_Bcast, with MPI_Barrier calls in the function: each rank
// forms a_i = sinf(x_i) x_{i+1} + 0.5 x_i^2 (single precision throughout), the Allreduce gives every rank
// b = sum_ranks a; the root (size - 1) computes c_i = 0.25 b_i^2 + cosf(x_i) b_{i+1} and broadcasts c; every
// rank adds s = sum_i c_i sinf(x_i) + 0.5 x_i c_{i+2} and J is the MPI_Allreduce(SUM) of s, also in float.
// Reverse mode: J's adjoint is 1 on rank 0 and 0 elsewhere (a replicated result is seeded once); the gradient
// is checked against central finite differences of J (evaluated in float) over every value of every rank,
// with a step suited to single precision (h = 1e-2: rounding error about 6e-8 |J| / h, truncation about h^2
// |J'''| / 6) and tolerance 1e-3. Forward mode: the tangent of J along a direction v must equal sum_ranks
// grad . v, both computed in float (tolerance 1e-4).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void f(const float *x, float *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size - 1;
  float a[N], b[N], c[N], s = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) a[i] = sinf(x[i]) * x[(i + 1) % N] + 0.5f * x[i] * x[i];
  MPI_Allreduce(a, b, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) c[i] = rank == root ? 0.25f * b[i] * b[i] + cosf(x[i]) * b[(i + 1) % N] : 0;
  MPI_Bcast(c, N, MPI_FLOAT, root, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) s += c[i] * sinf(x[i]) + 0.5f * x[i] * c[(i + 2) % N];
  MPI_Allreduce(&s, J, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

MPI_FLOAT_OBJECTIVE(objective, f, N)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  float x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3f * i - 0.35f * rank + 0.2f, v[i] = cosf(1.3f + 2 * i + rank);
  MPI_CHECK_BOTH_MODES_FLOAT(f, objective, x, N, v, 1e-2, 1e-3);
  return mpi_check_done();
}
