// MPI and OpenMP together in C++: each rank copies its N values into a std::vector, sums over it in a
// '#pragma omp parallel for reduction(+ : a, b)' and combines the ranks' sums by MPI_Allreduce (outside the
// parallel region, MPI_THREAD_FUNNELED), then a second parallel loop uses the global sums:
//   A = sum_ranks sum_i sin(x_i) x_i,  B = sum_ranks sum_i x_i^2,
//   J = sum_ranks sum_i (A x_i - B)^2 / 100 + A B   (the second loop's reduction, then an MPI_Allreduce).
// Reverse mode (J's adjoint 1 on rank 0 only) against central finite differences over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward tangent along v against sum_ranks gradient . v (1e-12); primal J
// against the plain one (1e-14). Also checked: the team really has OMP_NUM_THREADS threads. At 1 and 2
// ranks of 2 threads each.
// RUN: %mpicxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=2 %mpirun 1 %t && OMP_NUM_THREADS=2 %mpirun 2 %t
#include <omp.h>
#include <cmath>
#include <cstdlib>
#include <vector>
#include "mpicheck.h"

extern "C" void __parad_autodiff(void *, ...);
extern "C" void __parad_fwddiff(void *, ...); /* f returns nothing: its tangent is J's shadow */

enum { N = 40 };

__attribute__((noinline)) static void f(double *x, double *J) {
  std::vector<double> u(x, x + N);
  double ab[2] = {0, 0}, AB[2];
  double a = 0, b = 0;
#pragma omp parallel for reduction(+ : a, b)
  for (int i = 0; i < N; i++) {
    a += std::sin(u[i]) * u[i];
    b += u[i] * u[i];
  }
  ab[0] = a, ab[1] = b;
  MPI_Allreduce(ab, AB, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++) {
    double d = AB[0] * u[i] - AB[1];
    s += d * d / 100;
  }
  double total;
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *J = total + AB[0] * AB[1];
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 2) {
    if (rank == 0) printf("FAIL: at most 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const char *env = std::getenv("OMP_NUM_THREADS");
  if (env) {
    int team = 0;
#pragma omp parallel
#pragma omp single
    team = omp_get_num_threads();
    CHECK_CLOSE(team, std::atoi(env), 0);
  }
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 * std::sin(0.3 * i + rank) + 0.01 * i, v[i] = std::cos(0.9 * i - 2 * rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
