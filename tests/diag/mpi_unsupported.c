// An MPI call Parad has no derivative for (MPI_Bsend, MPI_Put's kin) with active data is refused
// in both modes, at the call, naming it; the same call with integer data is not (it carries no
// derivative), nor is MPI_Comm_rank. A matched receive (MPI_Mprobe, then MPI_Mrecv) of doubles is
// refused though nothing active is stored into its buffer: its sender sends derivatives with the
// message, and reverse mode hung, forward mode stopped in MPI ("message truncated"). Of ints, it is not.
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
  MPI_Message msg;
  double z[4];
  MPI_Mprobe(0, 3, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
  MPI_Mrecv(mi, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
  MPI_Send(y, 4, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
  MPI_Mprobe(0, 4, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
  // CHECK: mpi_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate MPI_Mrecv with active data: {{.*}} in function 'f'
  MPI_Mrecv(z, 4, MPI_DOUBLE, &msg, MPI_STATUS_IGNORE);
  return y[0] * y[0] + rank + mi[0] + z[1];
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
