// An MPI call inside a parallel region that every thread may make at once (in a worksharing loop) is
// refused in reverse mode, at the call, naming it and what is supported: one thread at a time, in a single
// or master block (mpi/hybrid_single_master.c), or a block the program gives one thread by its number
// (mpi/hybrid_thread_zero.c); a test of the number that may hold for several threads (`< 2`) is not one.
// No output file.
// RUN: rm -f %t && not %mpicc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
#include <omp.h>
void __parad_autodiff(void *, ...);

double f(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    double t;
    // CHECK: mpi_in_worksharing.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate MPI_Allreduce inside an OpenMP parallel region in reverse mode, except in a single or master block or one that `omp_get_thread_num() == k` guards (one thread at a time) in function 'f'
    MPI_Allreduce(&x[i], &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s += t * t;
  }
  return s;
}

double g(double *x) {
  double s = 0;
#pragma omp parallel
  if (omp_get_thread_num() < 2) {
    double t;
    // CHECK: mpi_in_worksharing.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate MPI_Allreduce inside an OpenMP parallel region in reverse mode, except in a single or master block or one that `omp_get_thread_num() == k` guards (one thread at a time) in function 'g'
    MPI_Allreduce(x, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma omp atomic
    s += t * t;
  }
  return s;
}

int main(int argc, char **argv) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  MPI_Init(&argc, &argv);
  __parad_autodiff((void *)f, x, dx, 4);
  __parad_autodiff((void *)g, x, dx);
  MPI_Finalize();
  return 0;
}
