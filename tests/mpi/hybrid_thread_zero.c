// MPI calls in OpenMP parallel regions made by the thread the program picks itself, as code written before
// `master` existed does: `if (omp_get_thread_num() == 0)` (and `tid != 0 ... else`) around the exchange of a
// ring's ghost values and the ranks' sum, with the program's own barriers after them. Reverse mode runs
// each call's adjoint on thread 0, as for a master block (it was refused: "cannot differentiate
// MPI_Sendrecv inside an OpenMP parallel region in reverse mode"). J: the smoothed values squared, weighted,
// summed over all ranks. Reverse mode (J's adjoint on rank 0 only) against central finite differences over
// every value of every rank (h = 1e-6, tolerance 1e-7); forward tangent against sum_ranks gradient . v
// (1e-12). At 1 to 3 ranks of 1 and 3 threads, -O2 and -O0, with Open MPI and MPICH. A test of another
// thread's number (`== 1`, which may be no thread) picks one thread too; a test that is not (`< 1`) stays
// refused: tests/diag/mpi_thread_test.c.
// RUN: %mpicc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=3 %mpirun 1 %t && OMP_NUM_THREADS=3 %mpirun 2 %t && OMP_NUM_THREADS=1 %mpirun 3 %t && OMP_NUM_THREADS=3 %mpirun 3 %t
// RUN: %mpicc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %mpirun 2 %t0
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 12, STEPS = 4 };
static int rank, size;

__attribute__((noinline)) static void f(double *x, double *J) {
  double *u = malloc(sizeof(double) * (N + 2)), *next = malloc(sizeof(double) * (N + 2)), local = 0;
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int i = 0; i < N; i++) u[i + 1] = x[i];
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
    for (int s = 0; s < STEPS; s++) {
      if (tid == 0) {
        MPI_Sendrecv(&u[N], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
#pragma omp barrier
#pragma omp for
      for (int i = 1; i <= N; i++) next[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1] + 0.1 * sin(u[i]);
#pragma omp for
      for (int i = 1; i <= N; i++) u[i] = next[i];
    }
#pragma omp for reduction(+ : local)
    for (int i = 1; i <= N; i++) local += (1 + 0.1 * i) * u[i] * u[i];
    if (tid != 0) {
    } else {
      double total;
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      *J = total;
    }
#pragma omp barrier
  }
  free(u), free(next);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 * sin(0.4 * i + rank) + 0.03 * i, v[i] = cos(0.9 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
