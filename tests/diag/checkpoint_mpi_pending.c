// A checkpointed step that waits for a receive posted before it (before the loop, or again as the step
// before ended) is refused at the wait, and the receive it posts and leaves pending at its end is refused
// at the post: a step is run again from a snapshot in the reverse sweep, and must post and complete its own
// requests. Before, the program itself went wrong (the loop's variables are copies while it runs, and MPI
// wrote into the variable, not the copy: J = 0) and its gradient crashed in MPI. Found by a probe. No output
// file. A step that posts and completes its requests: tests/mpi/checkpoint_halo.c.
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double u = x[0], g;
  MPI_Request rr;
  MPI_Irecv(&g, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &rr);
  for (int t = 0; t < 3; t++) {
    __parad_checkpoint_loop();
    MPI_Send(&u, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
    // CHECK: checkpoint_mpi_pending.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Wait of a request posted before the step (before the loop, or by the step before: each step must post and complete its own requests) inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'f'
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    u = u * g;
    // CHECK: checkpoint_mpi_pending.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Irecv of a request the step leaves pending as it ends (each step must complete the requests it posts) inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'f'
    if (t < 2) MPI_Irecv(&g, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &rr);
  }
  MPI_Allreduce(&u, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[1] = {1.1}, dx[1] = {0}, J, dJ = 1;
  __parad_autodiff((void *)f, x, dx, &J, &dJ);
  MPI_Finalize();
  return 0;
}
