// A checkpointed step that starts a persistent request bound before the loop is refused at the start,
// naming it: the buffers the request binds were never noted by the step, whose snapshots would miss what
// the start receives (tests/mpi/checkpoint_persistent.c binds them in the step). No output file.
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double u[4] = {x[0], x[1], x[2], x[3]}, ghost = 0, e = 0;
  MPI_Request req[2];
  MPI_Recv_init(&ghost, 1, MPI_DOUBLE, (rank + size - 1) % size, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(&u[3], 1, MPI_DOUBLE, (rank + 1) % size, 1, MPI_COMM_WORLD, &req[1]);
  for (int t = 0; t < 10; t++) {
    __parad_checkpoint_loop();
    // CHECK: checkpoint_mpi_persistent.c:[[@LINE+1]]:{{[0-9]+}}: error: MPI_Startall of a persistent request not bound in the loop's body (by an MPI_*_init of the step, into a local variable of it; one bound before the loop is not, and the buffers it binds would not be noted): bind and free the request in the body inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'f
    MPI_Startall(2, req);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 4; i++) u[i] = 0.9 * u[i] + 0.1 * ghost * u[i];
    e += u[0];
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  MPI_Allreduce(&e, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, J, seed = 1;
  __parad_autodiff((void *)f, x, dx, &J, &seed);
  MPI_Finalize();
  return 0;
}
