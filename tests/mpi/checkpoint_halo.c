// A checkpointed time loop whose steps communicate: a 1-D heat equation with a nonlinear source
// distributed over the ranks (L cells each, in a local array with two ghost cells), each step exchanging
// ghosts with the neighbours (MPI_Irecv, MPI_Isend, MPI_Waitall), damping by the global energy of the
// step before (MPI_Allreduce), and updating a second field kept on the heap; T = 200 steps. Against the
// same function without the marker (taped step by step): the result and the gradient equal (1e-12
// relative to the largest component), with no budget and budgets of a few snapshots (every rank runs the
// same schedule: the runtime agrees on its choices); forward mode through the marked loop against the
// gradient along a direction (1e-12); the gradient against central differences (h = 1e-6, 1e-6). With
// GATHER, the energy goes round by MPI_Allgather and MPI_Alltoall into heap arrays of one element per
// rank, which the next step reads: state a snapshot must hold for every rank's element. With ROOT, rank 0
// gathers the energies (MPI_Gather, MPI_Gatherv at strided places, MPI_Reduce) into arrays only it has
// (NULL elsewhere, and MPI_DATATYPE_NULL for their type) and the next step scatters them back (MPI_Scatter,
// MPI_Scatterv) from there: state only the root holds, of the communicator's size, and a v form's extent
// (fails at np 1 and 2 when the root's buffers are not noted).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 2 %t0
// RUN: %mpicc %cflags -DGATHER %s -o %t1 && %mpirun 1 %t1 && %mpirun 2 %t1
// RUN: %mpicc -O0 -DGATHER -I%S/../include %s -o %t2 && %mpirun 2 %t2
// RUN: %mpicc %cflags -DROOT %s -o %t3 && %mpirun 1 %t3 && %mpirun 2 %t3
// RUN: %mpicc -O0 -DROOT -I%S/../include %s -o %t4 && %mpirun 2 %t4
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { L = 6, T = 200 };

#ifdef GATHER /* per rank: every rank's energy (all), what this rank sent to each and received from each */
#define ENERGY_BEGIN                                                                                        \
  double *all = calloc(size, sizeof(double)), *out = calloc(size, sizeof(double)),                         \
         *in = calloc(size, sizeof(double));
#define ENERGY_READ(e)                                                                                      \
  e = 0;                                                                                                   \
  for (int r = 0; r < size; r++) e += all[r] + 0.1 * in[r];
#define ENERGY(local, e)                                                                                    \
  MPI_Allgather(&local, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);                                \
  for (int r = 0; r < size; r++) out[r] = local * (1 + 0.1 * r);                                           \
  MPI_Alltoall(out, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, MPI_COMM_WORLD);
#define ENERGY_END free(all), free(out), free(in);
#elif defined ROOT /* at the root: the energies by Gather (all[0, size)), by Gatherv (all[size + 2r]), their sum */
#define ENERGY_BEGIN                                                                                        \
  double *all = rank == 0 ? calloc(3 * size, sizeof(double)) : NULL, *back = calloc(2, sizeof(double));    \
  double *tot = rank == 0 ? calloc(1, sizeof(double)) : NULL;                                              \
  int *counts = rank == 0 ? malloc(size * sizeof(int)) : NULL, *displs = rank == 0 ? malloc(size * sizeof(int)) : NULL; \
  for (int r = 0; r < size && rank == 0; r++) counts[r] = 1, displs[r] = size + 2 * r;
#define ENERGY_READ(e)                                                                                      \
  MPI_Scatter(all, 1, rank ? MPI_DATATYPE_NULL : MPI_DOUBLE, &back[0], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);   \
  MPI_Scatterv(all, counts, displs, MPI_DOUBLE, &back[1], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);              \
  e = back[0] + 0.5 * back[1] + (rank == 0 ? 0.1 * tot[0] : 0);
#define ENERGY(local, e)                                                                                    \
  MPI_Gather(&local, 1, MPI_DOUBLE, all, 1, rank ? MPI_DATATYPE_NULL : MPI_DOUBLE, 0, MPI_COMM_WORLD);   \
  MPI_Gatherv(&local, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);                  \
  MPI_Reduce(&local, tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);                                      \
  for (int r = 0; r < size && rank == 0; r++) all[r] *= 1 + 0.1 * r;
#define ENERGY_END free(all), free(back), free(tot), free(counts), free(displs);
#else
#define ENERGY_BEGIN
#define ENERGY_READ(e)
#define ENERGY(local, e) MPI_Allreduce(&local, &e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#define ENERGY_END
#endif

#define HEAT(NAME, MARK)                                                                                    \
  __attribute__((noinline)) static void NAME(const double *x, double *J) {                                \
    int rank, size;                                                                                        \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);                                                                  \
    MPI_Comm_size(MPI_COMM_WORLD, &size);                                                                  \
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;    \
    double u[L + 2], un[L + 2], e = 0, s = 0;                                                              \
    double *w = malloc(sizeof(double) * L);                                                                \
    ENERGY_BEGIN                                                                                           \
    u[0] = u[L + 1] = 0;                                                                                   \
    for (int i = 1; i <= L; i++) u[i] = x[i - 1], w[i - 1] = 0.5 * x[i - 1];                               \
    for (int t = 0; t < T; t++) {                                                                          \
      MARK;                                                                                                \
      MPI_Request req[4];                                                                                  \
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);                                   \
      MPI_Irecv(&u[L + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);                              \
      MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);                                   \
      MPI_Isend(&u[L], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);                                  \
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);                                                            \
      ENERGY_READ(e)                                                                                       \
      double damp = 1e-3 * e;                                                                              \
      for (int i = 1; i <= L; i++)                                                                         \
        un[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]) * w[i - 1] - damp * u[i]; \
      double local = 0;                                                                                    \
      for (int i = 1; i <= L; i++) u[i] = un[i], w[i - 1] = 0.99 * w[i - 1] + 0.01 * u[i], local += u[i] * u[i]; \
      ENERGY(local, e)                                                                                     \
    }                                                                                                      \
    for (int i = 1; i <= L; i++) s += u[i] * u[i] + w[i - 1];                                              \
    free(w);                                                                                               \
    ENERGY_END                                                                                             \
    MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);                                          \
  }
HEAT(heat_checkpointed, __parad_checkpoint_loop())
HEAT(heat_taped, (void)0)

MPI_OBJECTIVE(objective, heat_checkpointed)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[L], want[L] = {0}, v[L], tx[L], J, J2, dJ = rank == 0, tJ = 0, largest = 0;
  for (int i = 0; i < L; i++) x[i] = sin(0.7 * (L * rank + i)) + 0.5, v[i] = cos(1.0 + 3 * i + rank);
  __parad_autodiff((void *)heat_taped, x, want, &J, &dJ);
  for (int i = 0; i < L; i++) largest = fmax(largest, fabs(want[i]));
  const size_t budgets[] = {0, 300u << 10, 400u << 10};
  for (int b = 0; b < 3; b++) {
    parad_set_tape_limit(budgets[b]);
    double dx[L] = {0};
    dJ = rank == 0;
    __parad_autodiff((void *)heat_checkpointed, x, dx, &J2, &dJ);
    CHECK_CLOSE(J2, J, 1e-12);
    for (int i = 0; i < L; i++) CHECK_CLOSE(dx[i] / largest, want[i] / largest, 1e-12);
  }
  parad_set_tape_limit(0);
  mpi_fd_gradient(objective, NULL, x, L, want, 1e-6, 1e-6);
  for (int i = 0; i < L; i++) tx[i] = v[i];
  __parad_fwddiff((void *)heat_checkpointed, x, tx, &J2, &tJ);
  double dot = 0;
  for (int i = 0; i < L; i++) dot += want[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J2, objective(NULL, x), 1e-14);
  return mpi_check_done();
}
