// A pipeline in single precision: rank 0 starts from ones, every rank r > 0 receives the float vector
// `in` from rank r-1 (MPI_Recv, MPI_FLOAT), computes out_i = in_i cos(x_i) + x_i^2 / 2 in float and passes
// it on to rank r+1 with MPI_Ssend (MPI_FLOAT); the last rank sends nothing (a chain, valid at any rank
// count, at 1 rank no message at all). J = sum_ranks sum_i (out_i^2 + sin(x_i) in_i), summed in double
// by an MPI_Allreduce, so the derivative of every x_i flows through all ranks downstream of it.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank with h = 1e-2 and tolerance 1e-3 (float rounding of about
// 1e-7 divided by 2h, plus truncation h^2 f''' / 6). Forward mode: the tangent of J along v must equal
// sum_ranks grad . v to 1e-4 (both are computed in float), and the primal J of the differentiated call
// must equal the plain one to 1e-6.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static void chain(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = 1.0f;
  if (rank > 0) MPI_Recv(in, N, MPI_FLOAT, rank - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) {
    float xi = (float)x[i];
    out[i] = in[i] * cosf(xi) + 0.5f * xi * xi;
  }
  if (rank + 1 < size) MPI_Ssend(out, N, MPI_FLOAT, rank + 1, 3, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < N; i++) s += (double)out[i] * out[i] + sin(x[i]) * in[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, chain)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.4 * i - 0.3 * rank + 0.2, v[i] = sin(2.0 + i - rank);
  __parad_autodiff((void *)chain, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-2, 1e-3);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)chain, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-4);
  CHECK_CLOSE(J, objective(NULL, x), 1e-6);
  return mpi_check_done();
}
