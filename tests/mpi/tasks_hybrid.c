// MPI and OpenMP tasks together: each rank splits its values into chunks, one task per chunk (created in a
// single construct, firstprivate bounds), then a task loop over the values with a dependence-free body,
// combining the ranks' sums with MPI_Allreduce outside the parallel regions (MPI_THREAD_FUNNELED):
//   A = sum_ranks sum_chunks (sum_{i in chunk} sin(x_i) x_i)^2,   J = A + sum_ranks sum_i A x_i^2 / 100.
// Reverse mode (J's adjoint on rank 0 only) against central finite differences over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward tangent against sum_ranks gradient . v (1e-12). At 1 and 2
// ranks of 2 threads each, with Open MPI and MPICH.
// RUN: %mpicc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=2 %mpirun 1 %t && OMP_NUM_THREADS=2 %mpirun 2 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 24, C = 5 };

__attribute__((noinline)) static void f(double *x, double *J) {
  double parts[(N + C - 1) / C], a = 0, A, s = 0, total;
#pragma omp parallel
#pragma omp single
  for (int c = 0; c * C < N; c++) {
#pragma omp task firstprivate(c) shared(parts)
    {
      double t = 0;
      for (int i = c * C; i < N && i < (c + 1) * C; i++) t += sin(x[i]) * x[i];
      parts[c] = t * t;
    }
  }
  for (int c = 0; c * C < N; c++) a += parts[c];
  MPI_Allreduce(&a, &A, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double y[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(6) firstprivate(A)
  for (int i = 0; i < N; i++) y[i] = A * x[i] * x[i] / 100;
  for (int i = 0; i < N; i++) s += y[i];
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *J = A + total;
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 2) {
    if (rank == 0) printf("FAIL: at most 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 * sin(0.3 * i + rank) + 0.02 * i, v[i] = cos(0.7 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
