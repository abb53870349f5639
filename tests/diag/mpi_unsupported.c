// An MPI call Parad has no derivative for (MPI_Bsend, MPI_Put's kin) with active data is refused
// in both modes, at the call, naming it; the same call with integer data is not (it carries no
// derivative), nor is MPI_Comm_rank.
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t && not %mpicc %cflags -DFORWARD %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

static double f(double *x, int *counts) {
  double y[4];
  int rank, mi[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Bsend(counts, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  MPI_Recv(mi, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CHECK: mpi_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate MPI_Bsend with active data: Parad differentiates point-to-point {{.*}} in function 'f'
  MPI_Bsend(x, 4, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  MPI_Recv(y, 4, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return y[0] * y[0] + rank + mi[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, tx[4] = {1};
  int counts[4] = {1, 2, 3, 4};
#ifdef FORWARD
  __parad_fwddiff((void *)f, x, tx, parad_const, counts);
#else
  __parad_autodiff((void *)f, x, dx, parad_const, counts);
#endif
  MPI_Finalize();
  return 0;
}
