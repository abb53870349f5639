// MPI handles passed to the differentiated function without a marker: a communicator (a duplicate of
// MPI_COMM_WORLD), a datatype and an op, handed on to a helper. Under Open MPI they are pointers, which
// took the default marker of pointers, duplicated, and the request failed for want of shadows ("too few
// arguments"); under MPICH they are integers, constant. A parameter only ever passed to MPI calls, not as
// a buffer, is taken as constant now.
//   a_i = x_i^2 + sin x_i, b = Allreduce(a), s = sum_i b_i x_i, J = Allreduce(s)
// Reverse mode (J seeded on rank 0) against central differences over every value of every rank (h 1e-6,
// 1e-7); forward mode against sum_ranks grad . v (1e-12); at -O2 and -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 2 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static void sum_all(double *in, double *out, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  MPI_Allreduce(in, out, n, type, op, comm);
}

__attribute__((noinline)) static void f(double *x, double *J, MPI_Comm comm, MPI_Datatype type, MPI_Op op) {
  double a[N], b[N], s = 0;
  for (int i = 0; i < N; i++) a[i] = x[i] * x[i] + sin(x[i]);
  sum_all(a, b, N, type, op, comm);
  for (int i = 0; i < N; i++) s += b[i] * x[i];
  MPI_Allreduce(&s, J, 1, type, op, comm);
}

static MPI_Comm dup;
static double objective(void *ctx, double *x) {
  (void)ctx;
  double J;
  f(x, &J, dup, MPI_DOUBLE, MPI_SUM);
  return J;
}

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  double x[N], v[N], dx[N] = {0}, tx[N], J, dJ = rank == 0, tJ = 0, dot = 0;
  for (int i = 0; i < N; i++) x[i] = 0.21 * i - 0.3 * rank + 0.15, v[i] = tx[i] = cos(0.3 + 2 * i + rank);
  __parad_autodiff((void *)f, x, dx, &J, &dJ, dup, MPI_DOUBLE, MPI_SUM);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-6, 1e-7);
  __parad_fwddiff((void *)f, x, tx, &J, &tJ, dup, MPI_DOUBLE, MPI_SUM);
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  MPI_Comm_free(&dup);
  return mpi_check_done();
}
