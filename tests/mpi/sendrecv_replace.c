// MPI_Sendrecv_replace, as ring shifts and Cannon's algorithm use it: the buffer is sent to one neighbour and
// overwritten by what the other sends. Rank r holds a_i = sin(x_i) x_{i+1} + x_i (N = 6), shifts it twice
// around the ring (to r + 1, from r - 1), multiplying by x_i between the shifts; then shifts a buffer of
// records {int id; double v[2];} as MPI_BYTE (the bytes' floats found from the memory) one step the other
// way, and a buffer it did not differentiate into (b_i = 0.5 i, inactive until it receives an active
// value: it gets a shadow) from rank 0 to rank 1 only (MPI_PROC_NULL at the others' ends). Rank r adds
// s = sum_i a_i cos(x_i) + sum records' v[0] v[1] x_0 + sum_i b_i x_i + 0.05 sum_i x_i^3, and J is the
// MPI_Allreduce(SUM) of s. Reverse mode against central finite differences of J over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward mode: the tangent of J along v against sum_ranks grad . v (1e-12).
// Refused before ("cannot differentiate MPI_Sendrecv_replace with active data").
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 2 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 6, MAXR = 8 };

typedef struct {
  int id;
  double v[2];
} Rec;

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double a[N], b[N], s = 0;
  Rec rec[3];
  for (int i = 0; i < N; i++) a[i] = sin(x[i]) * x[(i + 1) % N] + x[i], b[i] = 0.5 * i;
  MPI_Sendrecv_replace(a, N, MPI_DOUBLE, next, 1, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) a[i] *= x[i];
  MPI_Sendrecv_replace(a, N, MPI_DOUBLE, next, 2, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int k = 0; k < 3; k++) rec[k].id = k, rec[k].v[0] = x[k] * x[k + 1], rec[k].v[1] = cos(x[k + 2]);
  MPI_Sendrecv_replace(rec, (int)sizeof rec, MPI_BYTE, prev, 3, next, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0) b[2] = x[3] * x[4];
  MPI_Sendrecv_replace(b, N, MPI_DOUBLE, rank == 0 && size > 1 ? 1 : MPI_PROC_NULL, 4,
                       rank == 1 ? 0 : MPI_PROC_NULL, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) s += a[i] * cos(x[i]) + b[i] * x[i] + 0.05 * x[i] * x[i] * x[i];
  for (int k = 0; k < 3; k++) s += rec[k].v[0] * rec[k].v[1] * x[0] * (rec[k].id + 1);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_CHECK_MAIN(f, N, MAXR)
