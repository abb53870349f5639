// A datatype the differentiated function builds, uses in the steps of a checkpointed loop, and frees after
// the loop (MPI_Type_vector of every other element, MPI_Sendrecv of it to the next rank each step). The
// reverse sweep runs the steps again with the program's handle, which MPI_Type_free had freed: Open MPI
// stopped in MPI_Type_get_envelope, MPICH crashed. The free is kept until the tape ends now, as a freed
// communicator's (runtime/mpi.c; the program's handle is MPI_DATATYPE_NULL at once, checked below). A
// second type is built and freed inside each step: freed with the tape too.
//   u = x; per step: g = u's even elements from the rank before, u_2i = sin(u_2i + g_2i) u_2i+1;
//   J = Allreduce(SUM) of sum u^2
// The gradient with the marker against the same function without it (1e-12), with no budget and with one
// that makes the reverse sweep run steps again; against central differences over every value of every
// rank (h = 1e-6, 1e-6). At 1 to 3 ranks, and at -O0.
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 -lm && %mpirun 2 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 4, STEPS = 40 };
static int freed_to_null = 1;

#define SWEEP(name, MARK)                                                                                     \
  static void name(double *x, double *out) {                                                              \
    int rank, size;                                                                                       \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);                                                                 \
    MPI_Comm_size(MPI_COMM_WORLD, &size);                                                                 \
    MPI_Datatype even;                                                                                    \
    MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &even);                                                          \
    MPI_Type_commit(&even);                                                                               \
    double u[2 * N], g[2 * N] = {0};                                                                      \
    for (int i = 0; i < 2 * N; i++) u[i] = x[i];                                                          \
    for (int s = 0; s < STEPS; s++) {                                                                     \
      MARK;                                                                                               \
      MPI_Datatype odd;                                                                                   \
      MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &odd);                                                         \
      MPI_Type_commit(&odd);                                                                              \
      MPI_Sendrecv(u, 1, even, (rank + 1) % size, 0, g, 1, even, (rank + size - 1) % size, 0, MPI_COMM_WORLD, \
                   MPI_STATUS_IGNORE);                                                                    \
      for (int i = 0; i < N; i++) u[2 * i] = sin(u[2 * i] + g[2 * i]) * u[2 * i + 1];                     \
      MPI_Sendrecv(u, 1, odd, (rank + 1) % size, 1, g + 1, 1, odd, (rank + size - 1) % size, 1, MPI_COMM_WORLD, \
                   MPI_STATUS_IGNORE);                                                                    \
      for (int i = 0; i < N; i++) u[2 * i + 1] = 0.9 * u[2 * i + 1] + 0.1 * cos(g[2 * i + 1]);           \
      MPI_Type_free(&odd);                                                                                \
    }                                                                                                     \
    MPI_Type_free(&even);                                                                                 \
    freed_to_null &= even == MPI_DATATYPE_NULL;                                                           \
    double l = 0;                                                                                         \
    for (int i = 0; i < 2 * N; i++) l += u[i] * u[i];                                                     \
    MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);                                       \
  }

SWEEP(sweep_taped, (void)0)
SWEEP(sweep_checkpointed, __parad_checkpoint_loop())
MPI_OBJECTIVE(objective, sweep_checkpointed)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[2 * N], want[2 * N] = {0}, J, J2, dJ = rank == 0;
  for (int i = 0; i < 2 * N; i++) x[i] = 0.3 + 0.1 * i + 0.05 * rank;
  __parad_autodiff((void *)sweep_taped, x, want, &J, &dJ);
  const size_t budgets[] = {0, 6u << 10};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    double dx[2 * N] = {0};
    dJ = rank == 0;
    __parad_autodiff((void *)sweep_checkpointed, x, dx, &J2, &dJ);
    long steps, runs;
    parad_checkpoint_counts(&steps, &runs);
    if (b && !(runs > steps)) printf("FAIL: the budget ran no step again (%ld runs of %ld steps)\n", runs, steps), check_failures++;
    CHECK_CLOSE(J2, J, 1e-12);
    for (int i = 0; i < 2 * N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  }
  parad_set_tape_limit(0);
  mpi_fd_gradient(objective, NULL, x, 2 * N, want, 1e-6, 1e-6);
  CHECK_CLOSE(freed_to_null, 1, 0);
  return mpi_check_done();
}
