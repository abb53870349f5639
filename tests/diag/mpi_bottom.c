// MPI_BOTTOM with a datatype of absolute addresses (MPI_Get_address of separate arrays): the datatype
// reaches the values but not their shadows, so both modes refuse the call at its line (once), saying how to
// build the datatype instead (tests/mpi/get_address.c has the relative form). No output file.
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

static void f(double *x, double *J) {
  double a[2] = {x[0] * x[0], x[1]}, b[2];
  MPI_Aint at[2];
  int lengths[2] = {1, 1};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE}, t;
  MPI_Get_address(&a[0], &at[0]);
  MPI_Get_address(&a[1], &at[1]);
  MPI_Type_create_struct(2, lengths, at, types, &t);
  MPI_Type_commit(&t);
  // CHECK: mpi_bottom.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate MPI_Send of MPI_BOTTOM with a datatype of absolute addresses: build the datatype from displacements relative to the buffer
  MPI_Send(MPI_BOTTOM, 1, t, 0, 0, MPI_COMM_WORLD);
  MPI_Recv(b, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  *J = b[0] * b[1];
}

int main(int argc, char **argv) {
  double x[2] = {1, 2}, dx[2] = {0}, J, dJ = 1, v[2] = {1, 0};
  MPI_Init(&argc, &argv);
  __parad_autodiff((void *)f, x, dx, &J, &dJ);
  __parad_fwddiff((void *)f, x, v, &J, &dJ);
  MPI_Finalize();
  return 0;
}
