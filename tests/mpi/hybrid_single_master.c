// MPI calls inside OpenMP parallel regions, made by one thread at a time (MPI_THREAD_SERIALIZED): a ring
// smoothing whose ghost values are exchanged each step in a single block, once directly (MPI_Sendrecv) and
// once through a helper the block calls (MPI_Irecv, MPI_Isend, MPI_Waitall), between worksharing loops over
// the values; the ranks' sums combined in a master block (MPI_Allreduce, then a barrier), an MPI_Bcast of a
// scale in a single block. Reverse mode runs each call's adjoint on the thread that made the call, between
// the same barriers. J: the smoothed values squared, weighted, summed over all ranks, times the scale.
// Reverse mode (J's adjoint on rank 0 only) against central finite differences over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward tangent against sum_ranks gradient . v (1e-12). At 1 to 3 ranks
// of 1 and 3 threads, -O2 and -O0, with Open MPI and MPICH.
// RUN: %mpicc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=3 %mpirun 1 %t && OMP_NUM_THREADS=3 %mpirun 2 %t && OMP_NUM_THREADS=1 %mpirun 3 %t && OMP_NUM_THREADS=3 %mpirun 3 %t
// RUN: %mpicc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %mpirun 2 %t0
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 12, STEPS = 4 };
static int rank, size;

/* the right ghost from the right neighbour, this rank's first value to the left one */
__attribute__((noinline)) static void exchange_right(double *u, int left, int right) {
  MPI_Request rq[2];
  MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

__attribute__((noinline)) static void f(double *x, double *J) {
  double *u = malloc(sizeof(double) * (N + 2)), *next = malloc(sizeof(double) * (N + 2)), local = 0, scale = 0;
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int i = 0; i < N; i++) u[i + 1] = x[i];
#pragma omp parallel
  {
#pragma omp single
    {
      scale = 1 + x[0] * x[0]; /* rank 0's, broadcast */
      MPI_Bcast(&scale, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    for (int s = 0; s < STEPS; s++) {
#pragma omp single
      {
        MPI_Sendrecv(&u[N], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        exchange_right(u, left, right);
      }
#pragma omp for
      for (int i = 1; i <= N; i++) next[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1] + 0.1 * sin(u[i]);
#pragma omp for
      for (int i = 1; i <= N; i++) u[i] = next[i];
    }
#pragma omp for reduction(+ : local)
    for (int i = 1; i <= N; i++) local += (1 + 0.1 * i) * u[i] * u[i];
#pragma omp master
    {
      double total;
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      *J = scale * total;
    }
#pragma omp barrier
  }
  free(u), free(next);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 * sin(0.4 * i + rank) + 0.03 * i, v[i] = cos(0.9 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
