// Messages whose size the receiver learns by probing, as codes exchange particles or variable-length lists:
// rank r sends its right neighbour 1 + r mod 3 doubles and an integer count; the neighbour sizes its receive
// with MPI_Probe and MPI_Get_count (a heap buffer of that many), receives the integers after MPI_Iprobe polling
// with MPI_ANY_TAG, then takes a second message of doubles after an MPI_Probe from MPI_ANY_SOURCE. In forward
// mode a message carries its tangents too: before, the probe counted values and tangents together and the
// program allocated garbage ("out of memory (18446744073709027372 bytes)"). Rank r adds s = sum of what arrived
// times cos(x_i) + 0.05 sum_i x_i^3, and J is the MPI_Allreduce(SUM) of s. Reverse mode against central finite
// differences of J over every value of every rank (h = 1e-6, tolerance 1e-7); forward mode: the tangent of J
// along v against sum_ranks grad . v (1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, MAXR = 8 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size, n = 1 + rank % 3, ints[2] = {n, 7 * rank};
  double a[N], c[2] = {x[3] * x[0], sin(x[1])}, s = 0;
  for (int i = 0; i < n; i++) a[i] = sin(x[i]) * x[(i + 1) % N];
  MPI_Request q[3];
  MPI_Isend(a, n, MPI_DOUBLE, next, 3, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(ints, 2, MPI_INT, next, 4, MPI_COMM_WORLD, &q[1]);
  MPI_Isend(c, 2, MPI_DOUBLE, next, 5, MPI_COMM_WORLD, &q[2]);
  MPI_Status st;
  MPI_Probe(prev, 3, MPI_COMM_WORLD, &st);
  int m, k, flag = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &m);
  double *b = malloc(sizeof(double) * m);
  MPI_Recv(b, m, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  while (!flag) MPI_Iprobe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  int got[2];
  MPI_Get_count(&st, MPI_INT, &k);
  MPI_Recv(got, k, MPI_INT, prev, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &k);
  double e[2];
  MPI_Recv(e, k, MPI_DOUBLE, st.MPI_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
  for (int i = 0; i < m; i++) s += b[i] * cos(x[i]) * (i + got[1] + 1);
  s += (m == got[0]) * e[0] * e[1] * x[2] + m * 0.5 * x[0];
  free(b);
  for (int i = 0; i < N; i++) s += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_CHECK_MAIN(f, N, MAXR)
