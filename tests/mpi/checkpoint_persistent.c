// A checkpointed loop whose steps bind persistent requests, start them and free them (the MPI fuzzer's
// last refusal: "MPI_Recv_init inside a loop checkpointed with __parad_checkpoint_loop() is not supported
// yet"): each step makes a ring exchange of two ghost cells with MPI_Recv_init and MPI_Send_init, starts
// the four with MPI_Startall and one receive again with MPI_Start, completes them with MPI_Waitall and
// MPI_Wait, and frees them with MPI_Request_free. The inits' buffers are noted as MPI_Irecv's and
// MPI_Isend's are, and a start is accepted only where the same function binds its request into a local of
// its own (tests/diag/checkpoint_mpi.c: a request bound before the loop is refused). Against the same
// function without the marker (taped step by step): the gradient equal to 1e-12 (relative to the largest
// component), with no budget and a budget of a few snapshots (the recomputed steps bind and start their
// requests again); forward mode against the gradient along a direction (1e-12); the gradient against
// central differences (h = 1e-6, 1e-6). At 1 to 4 ranks under Open MPI, 1 and 2 under MPICH (see
// mpi/checkpoint_more_calls.c), -O2 and -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t
// RUN: %if openmpi %{ %mpirun 3 %t && %mpirun 4 %t %}
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 2 %t0
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { L = 6, T = 150, MAXR = 4 };

#define STEPS(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static void NAME(const double *x, double *J) {                               \
    int rank, size;                                                                                      \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);                                                                \
    MPI_Comm_size(MPI_COMM_WORLD, &size);                                                                \
    double u[L + 2], un[L + 2], extra = 0;                                                               \
    for (int i = 0; i < L; i++) u[i + 1] = x[i];                                                         \
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;                                        \
    for (int t = 0; t < T; t++) {                                                                        \
      MARK;                                                                                              \
      MPI_Request req[4];                                                                                \
      MPI_Recv_init(&u[0], 1, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &req[0]);                              \
      MPI_Recv_init(&u[L + 1], 1, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[1]);                          \
      MPI_Send_init(&u[L], 1, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &req[2]);                              \
      MPI_Send_init(&u[1], 1, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[3]);                              \
      MPI_Startall(4, req);                                                                              \
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);                                                          \
      double left = u[0];                                                                                \
      MPI_Start(&req[0]); /* the left ghost again, sent by the neighbour's second start */                \
      MPI_Start(&req[2]);                                                                                \
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);                                                              \
      MPI_Wait(&req[2], MPI_STATUS_IGNORE);                                                              \
      for (int k = 0; k < 4; k++) MPI_Request_free(&req[k]);                                             \
      for (int i = 1; i <= L; i++)                                                                       \
        un[i] = u[i] + 0.1 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.02 * sin(u[i] * left);                 \
      for (int i = 1; i <= L; i++) u[i] = un[i];                                                         \
      extra += 0.001 * u[0] * u[L + 1];                                                                  \
    }                                                                                                    \
    double e = extra;                                                                                    \
    for (int i = 1; i <= L; i++) e += i * u[i] * u[i];                                                    \
    MPI_Allreduce(&e, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);                                         \
  }
STEPS(checkpointed, __parad_checkpoint_loop())
STEPS(taped, (void)0)

MPI_OBJECTIVE(objective, checkpointed)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[L], v[L], want[L] = {0}, J, seed = rank == 0; /* the adjoint of J: the call consumes it */
  for (int i = 0; i < L; i++) x[i] = 0.3 * i - 0.2 * rank + 0.1, v[i] = cos(0.3 + 2 * i + rank);
  __parad_autodiff((void *)taped, x, want, &J, &seed);
  double scale = 0;
  for (int i = 0; i < L; i++) scale = fmax(scale, fabs(want[i]));
  const size_t budgets[] = {0, 300u << 10};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    double got[L] = {0};
    seed = rank == 0;
    __parad_autodiff((void *)checkpointed, x, got, &J, &seed);
    for (int i = 0; i < L; i++) CHECK_CLOSE(got[i] / scale, want[i] / scale, 1e-12);
  }
  parad_set_tape_limit(0);
  MPI_CHECK_BOTH_MODES(checkpointed, objective, x, L, v, 1e-6, 1e-6);
  return mpi_check_done();
}
