// A message of bytes that is a heap block with a header and a flexible array member (struct { int count,
// tag; double vals[]; }, allocated for K values), sent whole to the next rank in a ring by MPI_Sendrecv as
// MPI_BYTE, at -O0, where the struct type tells the layout. The layout was once taken for an array of such
// structs, repeating every sizeof bytes: the values' derivatives crossed to the wrong bytes, silently (all
// 5 gradient components wrong on every rank at 2 ranks). At -O2 the block's addresses are bytes and no
// type tells which are floats: it was refused; each side's layout now comes from its block's accesses
// (two int fields, then doubles written at fixed offsets on the send side, indexed on the receive side).
// J = sum over ranks of tag_prev sum_i v_i x_i, v the previous rank's x_i^2 + sin(x_{i+1}); the ints must
// arrive exactly. Reverse mode against central finite differences over every value of every rank
// (h = 1e-6, tolerance 1e-7); forward mode's tangent against sum_ranks grad . v (1e-12).
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
// RUN: %mpicc %cflags %s -o %t && %mpirun 2 %t && %mpirun 3 %t
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { K = 5 };

typedef struct {
  int count, tag;
  double vals[];
} Message;

static void ring(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  size_t bytes = sizeof(Message) + K * sizeof(double);
  Message *out = malloc(bytes), *in = malloc(bytes);
  out->count = K, out->tag = rank + 1;
  for (int i = 0; i < K; i++) out->vals[i] = x[i] * x[i] + sin(x[(i + 1) % K]);
  MPI_Sendrecv(out, (int)bytes, MPI_BYTE, next, 0, in, (int)bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 0; i < in->count; i++) s += in->tag * in->vals[i] * x[i];
  free(out), free(in);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, ring)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[K], v[K];
  for (int i = 0; i < K; i++) x[i] = 0.25 * i - 0.3 * rank + 0.1, v[i] = cos(1.0 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(ring, objective, x, K, v, 1e-6, 1e-7);
  return mpi_check_done();
}
