// Persistent requests the program's set-up makes (MPI_Send_init and MPI_Recv_init once in main), started
// inside the differentiated function: the derivative cannot know the buffer's derivatives there, and gave
// zero for everything through those messages, in both modes, without a word. The compiler notes each such
// request (mpi/mpi_set_up.c), and a derivative that starts one stops the program, saying so; requests of
// integers only (no derivatives) start as they are. Made inside the function, the same requests give the
// right derivatives: 6 x on each rank (reverse), sum_ranks 6 x (forward), at 2 ranks.
// RUN: %mpicc %cflags %s -o %t
// RUN: %mpilaunch -np 2 %t inside
// RUN: not %mpilaunch -np 2 %t 2>&1 | FileCheck %s
// RUN: not %mpilaunch -np 2 %t forward 2>&1 | FileCheck %s
// CHECK: MPI_Start of a persistent request made before the derivative (by MPI_Send_init or MPI_Recv_init in code it does not run), whose data may carry derivatives
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

static double *buf;       /* buf[0] is sent, buf[1] received */
static int counts[2];     /* counts[0] is sent, counts[1] received */
static MPI_Request rq[2], rqi[2];
static int rank, size, inside;

__attribute__((noinline)) static void f(const double *x, double *J) {
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  if (inside) {
    MPI_Send_init(&buf[0], 1, MPI_DOUBLE, next, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(&buf[1], 1, MPI_DOUBLE, prev, 0, MPI_COMM_WORLD, &rq[1]);
  }
  buf[0] = x[0] * x[0];
  counts[0] = rank;
  MPI_Startall(2, rqi); /* integers: no derivatives */
  MPI_Waitall(2, rqi, MPI_STATUSES_IGNORE);
  MPI_Startall(2, rq);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  double s = 3 * buf[1] * (counts[1] == prev);
  if (inside) MPI_Request_free(&rq[0]), MPI_Request_free(&rq[1]);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  inside = argc > 1 && !strcmp(argv[1], "inside");
  int forward = argc > 1 && !strcmp(argv[1], "forward");
  buf = calloc(2, sizeof(double));
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Send_init(&counts[0], 1, MPI_INT, next, 1, MPI_COMM_WORLD, &rqi[0]);
  MPI_Recv_init(&counts[1], 1, MPI_INT, prev, 1, MPI_COMM_WORLD, &rqi[1]);
  if (!inside) {
    MPI_Send_init(&buf[0], 1, MPI_DOUBLE, next, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(&buf[1], 1, MPI_DOUBLE, prev, 0, MPI_COMM_WORLD, &rq[1]);
  }
  double x = 1.0 + rank, dx = 0, J, dJ = rank == 0, tx = 1, tJ = 0, want = 0;
  for (int r = 0; r < size; r++) want += 6 * (1.0 + r);
  if (!forward) __parad_autodiff((void *)f, &x, &dx, &J, &dJ);
  __parad_fwddiff((void *)f, &x, &tx, &J, &tJ);
  int bad = !inside || dx != 6 * x || tJ != want;
  if (bad) printf("rank %d: reverse %g (want %g), forward %g (want %g)\n", rank, dx, 6 * x, tJ, want);
  if (!inside) MPI_Request_free(&rq[0]), MPI_Request_free(&rq[1]);
  MPI_Request_free(&rqi[0]), MPI_Request_free(&rqi[1]);
  MPI_Finalize();
  return bad;
}
