// Persistent requests, as halo-exchange codes set them up once and start them every step: a ring of ranks
// with two ghost cells, MPI_Recv_init and MPI_Send_init made once, then T = 3 steps of MPI_Startall,
// MPI_Waitall and a nonlinear update; beside them an integer message (MPI_INT, no derivatives) in the same
// Startall. Then a column of a 3 x 2 block (an MPI_Type_vector freed right after the MPI_Recv_init that uses
// it) and an MPI_Ssend_init, each started with MPI_Start twice and completed by MPI_Waitany, which must find
// the persistent request back in its place for the next start; all freed with MPI_Request_free. Rank r adds
// s = sum of the cells times cos(x_i) + 0.05 sum_i x_i^3, and J is the MPI_Allreduce(SUM) of s. Reverse mode
// against central finite differences of J over every value of every rank (h = 1e-6, tolerance 1e-7);
// forward mode: the tangent of J along v against sum_ranks grad . v (1e-12). Refused before ("cannot
// differentiate MPI_Recv_init with active data").
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 6, MAXR = 8, T = 3 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size, count = 0, got = -1;
  double u[N + 2], un[N + 2], s = 0;
  for (int i = 0; i < N; i++) u[i + 1] = sin(x[i]) + x[i];
  MPI_Request req[6];
  MPI_Recv_init(&u[0], 1, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Recv_init(&u[N + 1], 1, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Send_init(&u[N], 1, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &req[2]);
  MPI_Send_init(&u[1], 1, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[3]);
  MPI_Recv_init(&got, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, &req[4]);
  MPI_Send_init(&count, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &req[5]);
  for (int t = 0; t < T; t++) {
    count = t + rank;
    MPI_Startall(6, req);
    MPI_Waitall(6, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= N; i++) un[i] = u[i] + 0.1 * (u[i - 1] - 2 * u[i] + u[i + 1]) * u[i] * (got == t + prev);
    for (int i = 1; i <= N; i++) u[i] = un[i];
  }
  for (int k = 0; k < 6; k++) MPI_Request_free(&req[k]);
  for (int i = 1; i <= N; i++) s += u[i] * u[i] * cos(x[i - 1]);

  /* a column of a 3 x 2 block, received through a datatype freed at once; a synchronous send */
  double blk[3][2] = {{0}}, col[3], a = x[1] * x[2], b = 0;
  MPI_Datatype column;
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Request q[3];
  MPI_Recv_init(&blk[0][1], 1, column, prev, 4, MPI_COMM_WORLD, &q[0]);
  MPI_Type_free(&column);
  MPI_Ssend_init(col, 3, MPI_DOUBLE, next, 4, MPI_COMM_WORLD, &q[1]);
  MPI_Recv_init(&b, 1, MPI_DOUBLE, next, 5, MPI_COMM_WORLD, &q[2]);
  MPI_Request sent;
  for (int round = 0; round < 2; round++) {
    for (int k = 0; k < 3; k++) col[k] = x[k] * x[k + 3] * (round + 1) + blk[k][1];
    MPI_Start(&q[0]);
    MPI_Start(&q[1]);
    MPI_Start(&q[2]);
    MPI_Isend(&a, 1, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, &sent);
    for (int done = 0, k; done < 3; done++) MPI_Waitany(3, q, &k, MPI_STATUS_IGNORE);
    MPI_Wait(&sent, MPI_STATUS_IGNORE);
    a *= b;
  }
  for (int k = 0; k < 3; k++) MPI_Request_free(&q[k]);
  for (int k = 0; k < 3; k++) s += blk[k][1] * sin(x[k + 1]) + blk[k][0];
  s += a * x[0];
  for (int i = 0; i < N; i++) s += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_CHECK_MAIN(f, N, MAXR)
