// Misuse at run time ends with a message, not a hang. Rank 0 sends from differentiated code; rank 1
// receives with code Parad did not differentiate (a plain MPI_Recv in main).
//  - reverse mode: the adjoint of rank 0's send waits for an adjoint that never comes, and gives up after
//    PARAD_MPI_TIMEOUT seconds (2 here), naming the call and the peer;
//  - forward mode, the other way round: rank 1 receives in differentiated code a message sent without its
//    tangent, and says so.
// RUN: %mpicc %cflags %s -o %t
// RUN: not env PARAD_MPI_TIMEOUT=2 %mpilaunch -np 2 %t 2>&1 | FileCheck %s --check-prefix=REVERSE
// RUN: not %mpilaunch -np 2 %t forward 2>&1 | FileCheck %s --check-prefix=FORWARD
// REVERSE: parad: rank 0: the adjoint of MPI_Send waited 2 s for rank 1, which never took part
// FORWARD: parad: rank 1: MPI_Recv from rank 0 received a message without its tangent
#include <mpi.h>
#include <string.h>

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void send_square(double *x) {
  double y[2] = {x[0] * x[0], x[1] * x[1]};
  MPI_Send(y, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}

__attribute__((noinline)) static void receive(double *y) {
  MPI_Recv(y, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[2] = {1, 2}, dx[2] = {0}, y[2], dy[2] = {1, 1};
  if (argc > 1 && !strcmp(argv[1], "forward")) {
    if (rank == 0) MPI_Send(x, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    else __parad_fwddiff((void *)receive, y, dy);
  } else {
    if (rank == 0) __parad_autodiff((void *)send_square, x, dx);
    else MPI_Recv(y, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
