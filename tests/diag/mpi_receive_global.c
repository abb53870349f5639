// A receive of floating-point data into memory that has no shadow (a global array defined in a file Parad does
// not see) would lose the derivative of what arrives: refused in both modes, at the call, saying which memory
// and what to do.
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t && not %mpicc %cflags -DFORWARD %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

extern double halo[3]; /* defined in a file Parad does not see */

static double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // CHECK: mpi_receive_global.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Sendrecv receives floating-point data into memory that has no shadow (the global variable 'halo', which has no shadow: Parad gives one to a global of floats and integers that the file defines (not thread-local)): its derivative would be lost; pass that memory with a shadow in function 'f'
  MPI_Sendrecv(x, 3, MPI_DOUBLE, (rank + 1) % size, 0, halo, 3, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return x[0] * halo[0] + halo[1] * halo[2];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[3] = {1, 2, 3}, dx[3] = {0};
#ifdef FORWARD
  __parad_fwddiff((void *)f, x, dx);
#else
  __parad_autodiff((void *)f, x, dx);
#endif
  MPI_Finalize();
  return 0;
}
