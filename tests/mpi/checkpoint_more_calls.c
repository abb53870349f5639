// A checkpointed loop whose steps make the MPI calls a step was refused for before (found by the MPI
// fuzzer): a shift in place (MPI_Sendrecv_replace: its buffer read, then written), MPI_Allgatherv of
// counts that differ by rank (a v form on every rank, not only at a root), MPI_Reduce_scatter_block (a send
// side of count elements per rank), MPI_Scan and MPI_Exscan, MPI_Probe with MPI_Get_count sizing the
// receive, and MPI_Testall polled until the requests complete, over an array holding MPI_REQUEST_NULL
// (with Open MPI a pointer to a global of the library's, stored into memory the step's derivative shadows:
// refused before as a pointer without a shadow; such a handle is its own). Against the same function without the
// marker (taped step by step): the gradient equal to 1e-12 (relative to the largest component), with no
// budget and a budget of a few snapshots (the recomputed steps communicate again); forward mode through
// the marked loop against the gradient along a direction (1e-12); the gradient against central
// differences (h = 1e-6, 1e-6). At 1 to 4 ranks under Open MPI, 1 and 2 under MPICH (at 3 ranks and more,
// MPICH runs of checkpointed loops that communicate hang once the budget makes them recompute steps, this
// test's and mpi/checkpoint_halo.c's alike: a bug older than these calls, not found yet), -O2 and -O0.
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

enum { L = 4, T = 200, MAXR = 4 };

#define STEPS(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static void NAME(const double *x, double *J) {                               \
    int rank, size;                                                                                      \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);                                                                \
    MPI_Comm_size(MPI_COMM_WORLD, &size);                                                                \
    double u[L], w[L], all[L * MAXR], out[L * MAXR], in[L];                                              \
    int cnt[MAXR], disp[MAXR], tot = 0;                                                                  \
    for (int r = 0; r < size; r++) cnt[r] = 1 + r % L, disp[r] = tot, tot += cnt[r];                      \
    for (int i = 0; i < L; i++) u[i] = x[i], w[i] = 0.5 * x[(i + 1) % L];                                 \
    int dest = (rank + 1) % size, src = (rank + size - 1) % size;                                         \
    for (int t = 0; t < T; t++) {                                                                        \
      MARK;                                                                                              \
      MPI_Sendrecv_replace(w, L, MPI_DOUBLE, dest, t, src, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);          \
      MPI_Allgatherv(u, cnt[rank], MPI_DOUBLE, all, cnt, disp, MPI_DOUBLE, MPI_COMM_WORLD);               \
      for (int i = 0; i < L * size; i++) out[i] = u[i % L] * (1 + 0.01 * i) + all[i % tot] * 0.1;         \
      MPI_Reduce_scatter_block(out, in, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);                          \
      double s[2] = {u[0] * u[1], w[2]}, pre[2], ex[2] = {0, 0};                                         \
      MPI_Scan(s, pre, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);                                           \
      MPI_Exscan(s, ex, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);                                          \
      if (rank == 0) ex[0] = ex[1] = 0; /* undefined there */                                            \
      MPI_Request rq;                                                                                    \
      MPI_Isend(u, L, MPI_DOUBLE, dest, 100 + t, MPI_COMM_WORLD, &rq);                                    \
      MPI_Status st;                                                                                     \
      int got;                                                                                           \
      MPI_Probe(src, 100 + t, MPI_COMM_WORLD, &st);                                                       \
      MPI_Get_count(&st, MPI_DOUBLE, &got);                                                              \
      double nb[L];                                                                                      \
      MPI_Recv(nb, got, MPI_DOUBLE, src, 100 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);                      \
      MPI_Request rr[2];                                                                                 \
      rr[0] = rq, rr[1] = MPI_REQUEST_NULL;                                                              \
      for (int done = 0; !done;) MPI_Testall(2, rr, &done, MPI_STATUSES_IGNORE);                          \
      for (int i = 0; i < L; i++)                                                                        \
        u[i] = 0.9 * u[i] + 0.05 * sin(w[i] + nb[(i + 1) % L]) + 0.02 * tanh(in[i] + pre[0] - ex[1]);     \
      for (int i = 0; i < L; i++) w[i] = 0.95 * w[i] + 0.03 * cos(u[i]) + 0.01 * pre[1];                  \
    }                                                                                                    \
    double e = 0;                                                                                        \
    for (int i = 0; i < L; i++) e += (i + 1) * u[i] * u[i] + w[i];                                        \
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
