// Reverse mode adds the adjoints of a message of bytes into the floats among them: a byte buffer that
// holds active data but whose content neither the function nor its callers show (a void * that a helper's
// callers hand doubles and floats) is refused, at the call, naming the buffer; so is the receive side (here the send side
// is found first), an int array a memcpy filled with doubles' bytes (its type no longer tells), and a heap
// buffer reused for another layout (two doubles, then a record {double; int; double}, whose type the
// function shows, but which is not all the buffer held: the second double was taken for the int), and a
// heap buffer that copies fill with doubles and ints (what copies move into a buffer nothing else touches
// is what it holds, here two kinds at offsets the copies do not say). A
// message of bytes of memory whose type the function shows is not refused (the int array nothing copies
// into), and forward mode, whose tangents travel byte for byte with the values, compiles
// (bytes_untyped_forward.c in tests/mpi checks its numbers).
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: %mpicc %cflags -DFORWARD %s -o %t.fwd
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void exchange(void *out, void *in, int bytes) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // CHECK: mpi_bytes_unknown.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Sendrecv moves active memory as bytes (its send buffer) and Parad cannot tell which of them are floats, whose adjoints reverse mode must add: send typed data (MPI_DOUBLE, a derived datatype), or bytes of memory whose type the function shows (an array of structs) in function 'exchange'
  MPI_Sendrecv(out, bytes, MPI_BYTE, (rank + 1) % size, 0, in, bytes, MPI_BYTE, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* another caller of exchange, with floats: the helper's buffers hold no one type */
__attribute__((noinline)) void exchange_floats(void) {
  float out[4] = {1, 2, 3, 4}, in[4];
  exchange(out, in, sizeof out);
}

static double f(double *x) {
  double u[4], w[4];
  int tags[2] = {1, 2}, got[2];
  for (int i = 0; i < 4; i++) u[i] = x[i] * x[i];
  exchange(u, w, sizeof u);
  MPI_Sendrecv(tags, sizeof tags, MPI_BYTE, 0, 1, got, sizeof got, MPI_BYTE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  int punned[8];
  memcpy(punned, u, sizeof u);
  // CHECK: mpi_bytes_unknown.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Send moves active memory as bytes (its send buffer) and Parad cannot tell which of them are floats
  MPI_Send(punned, sizeof punned, MPI_BYTE, 0, 3, MPI_COMM_SELF);
  typedef struct {
    double a;
    int id;
    double b;
  } Rec;
  void *buf = malloc(2 * sizeof(Rec));
  double *d = buf, e[2];
  d[0] = x[0], d[1] = x[1];
  // CHECK: mpi_bytes_unknown.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Sendrecv moves active memory as bytes (its send buffer)
  MPI_Sendrecv(buf, 2 * sizeof(double), MPI_BYTE, 0, 4, e, sizeof e, MPI_BYTE, 0, 4, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  Rec *r = buf, q[2];
  for (int k = 0; k < 2; k++) r[k].a = x[k + 2], r[k].id = k, r[k].b = 0;
  // CHECK: mpi_bytes_unknown.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Sendrecv moves active memory as bytes (its send buffer)
  MPI_Sendrecv(buf, sizeof q, MPI_BYTE, 0, 5, q, sizeof q, MPI_BYTE, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  free(buf);
  char *staged = malloc(sizeof u + sizeof tags), back[sizeof u + sizeof tags];
  memcpy(staged, u, sizeof u);
  memcpy(staged + sizeof u, tags, sizeof tags);
  // CHECK: mpi_bytes_unknown.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Sendrecv moves active memory as bytes (its send buffer)
  MPI_Sendrecv(staged, sizeof back, MPI_BYTE, 0, 6, back, sizeof back, MPI_BYTE, 0, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  free(staged);
  double v[4];
  memcpy(v, back, sizeof v);
  // CHECK-NOT: error
  return w[0] * w[1] + w[2] * w[3] + got[0] + e[0] * e[1] + q[0].a * q[1].a + v[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
#ifdef FORWARD
  __parad_fwddiff((void *)f, x, dx);
#else
  __parad_autodiff((void *)f, x, dx);
#endif
  MPI_Finalize();
  return 0;
}
