// Where the derivative of a message cannot be placed, the run ends with a message naming the call, on
// 2 ranks, in reverse mode (the datatypes are known only at run time, so the compiler let them pass):
//  - bytes: a derived datatype of bytes (MPI_Type_contiguous of MPI_BYTE) of memory whose layout the
//    compiler could not tell (void * buffers in a helper that its callers hand doubles and floats): which
//    bytes are floats is unknown;
//  - relay: packed bytes received and sent on without being unpacked: which of them are floats is unknown;
//  - op: MPI_Allreduce of a derived datatype of doubles with a user-defined operation (Open MPI and MPICH
//    reduce derived datatypes with user operations only), whose derivative Parad does not know.
// Each message names the call's file:line (the generated code tells the runtime where the call is).
// RUN: %mpicc %cflags %s -o %t
// RUN: not %mpilaunch -np 2 %t bytes 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not %mpilaunch -np 2 %t relay 2>&1 | FileCheck %s --check-prefix=RELAY
// RUN: not %mpilaunch -np 2 %t op 2>&1 | FileCheck %s --check-prefix=OP
// BYTES: parad: rank {{[01]}}: MPI_Sendrecv moves active data as bytes, and Parad could not tell at compile time which of them are floats{{.*}}(the MPI call at {{.*}}misuse_datatypes.c:[[# @LINE + 16]])
// RELAY: parad: rank {{[01]}}: MPI_Sendrecv sends MPI_PACKED bytes that arrived by a receive and were not unpacked on this rank{{.*}}(the MPI call at {{.*}}misuse_datatypes.c:[[# @LINE + 46]])
// OP: parad: rank {{[01]}}: MPI_Allreduce with a reduction operation Parad cannot differentiate{{.*}}(the MPI call at {{.*}}misuse_datatypes.c:
#include <mpi.h>
#include <string.h>

void __parad_autodiff(void *, ...);

enum { N = 4, BUF = 128 };

static int mode;

__attribute__((noinline)) static void exchange(void *out, void *in, MPI_Datatype t) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Sendrecv(out, 1, t, (rank + 1) % size, 0, in, 1, t, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void add(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  for (int i = 0; i < 3 * *len; i++) ((double *)inout)[i] += ((double *)in)[i];
}

/* another caller of exchange, with floats: the helper's buffers hold no one type */
__attribute__((noinline)) void exchange_floats(MPI_Datatype t) {
  float out[N] = {1, 2, 3, 4}, in[N];
  exchange(out, in, t);
}

__attribute__((noinline)) static void f(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size, pos = 0;
  double u[N], w[N] = {0};
  char out[BUF], in[BUF], again[BUF];
  for (int i = 0; i < N; i++) u[i] = x[i] * x[i];
  if (mode == 0) {
    MPI_Datatype bytes;
    MPI_Type_contiguous(sizeof u, MPI_BYTE, &bytes);
    MPI_Type_commit(&bytes);
    exchange(u, w, bytes);
    MPI_Type_free(&bytes);
  } else if (mode == 1) {
    MPI_Pack(u, N, MPI_DOUBLE, out, BUF, &pos, MPI_COMM_WORLD);
    MPI_Sendrecv(out, pos, MPI_PACKED, next, 0, in, BUF, MPI_PACKED, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(in, pos, MPI_PACKED, next, 1, again, BUF, MPI_PACKED, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pos = 0;
    MPI_Unpack(again, BUF, &pos, w, N, MPI_DOUBLE, MPI_COMM_WORLD);
  } else {
    MPI_Datatype point;
    MPI_Op sum;
    MPI_Type_contiguous(3, MPI_DOUBLE, &point);
    MPI_Type_commit(&point);
    MPI_Op_create(add, 1, &sum);
    MPI_Allreduce(u, w, 1, point, sum, MPI_COMM_WORLD);
    MPI_Op_free(&sum);
    MPI_Type_free(&point);
  }
  *J = w[0] * w[1] + w[2] * w[3];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mode = argc > 1 && !strcmp(argv[1], "bytes") ? 0 : argc > 1 && !strcmp(argv[1], "relay") ? 1 : 2;
  double x[N] = {1, 2, 3, 4}, dx[N] = {0}, J, dJ = 1;
  __parad_autodiff((void *)f, x, dx, &J, &dJ);
  MPI_Finalize();
  return 0;
}
