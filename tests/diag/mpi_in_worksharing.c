// An MPI call inside a parallel region that every thread may make at once (in a worksharing loop) is
// refused in reverse mode, at the call, naming it and what is supported: one thread at a time, in a single
// or master block (mpi/hybrid_single_master.c). No output file.
// RUN: rm -f %t && not %mpicc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <mpi.h>
void __parad_autodiff(void *, ...);

double f(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    double t;
    // CHECK: mpi_in_worksharing.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate MPI_Allreduce inside an OpenMP parallel region in reverse mode, except in a single or master block (one thread at a time) in function 'f'
    MPI_Allreduce(&x[i], &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s += t * t;
  }
  return s;
}

int main(int argc, char **argv) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  MPI_Init(&argc, &argv);
  __parad_autodiff((void *)f, x, dx, 4);
  MPI_Finalize();
  return 0;
}
