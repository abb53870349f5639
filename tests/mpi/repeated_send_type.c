// A send datatype that names one element twice (MPI_Type_indexed with displacements {0, 0}: legal for a
// send, never for a receive). Forward mode sends the tangent through it twice, as the value: right. In
// reverse mode the adjoints come back through the same datatype, into one place, which kept one of them
// and added it twice (10 where 6 is right, no message): stopped at run time now, saying why.
//   Each rank sends a_0 twice to the next; J = sum over ranks of (b_0 + 5 b_1) = 6 sum a_0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 2 %t fwd && not %mpirun 2 %t 2>&1 | FileCheck %s
// CHECK: reverse mode cannot send through a datatype that names one element twice
#include <string.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void f(double *a, double *J) {
  int p, r, bl[2] = {1, 1}, dp[2] = {0, 0};
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Datatype t;
  MPI_Type_indexed(2, bl, dp, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  double b[2];
  MPI_Sendrecv(a, 1, t, (r + 1) % p, 0, b, 2, MPI_DOUBLE, (r + p - 1) % p, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  double s = b[0] + 5 * b[1];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 8);
  double a[1] = {1.0 + rank}, da[1] = {0}, J, dJ = rank == 0;
  if (argc > 1 && !strcmp(argv[1], "fwd")) {
    double v[1] = {1}, tJ = 0;
    __parad_fwddiff((void *)f, a, v, &J, &tJ);
    CHECK_CLOSE(tJ, 6.0 * mpi_sum(1.0), 1e-12); /* every rank's a_0 moves by 1 */
  } else {
    __parad_autodiff((void *)f, a, da, &J, &dJ);
    CHECK_CLOSE(da[0], 6.0, 1e-12);
  }
  return mpi_check_done();
}
