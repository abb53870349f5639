// Forward mode over a gradient whose function sums with MPI_Allreduce (a Hessian-vector product of a
// likelihood split over ranks) is refused once, at the request, naming the function and the MPI call, as
// through a parallel region (hvp_region.c). It gave three errors without a location, naming Parad's own
// functions ('__parad_mpi_aug_MPI_Allreduce' in 'augmented.nll.dccd.body'). No output file.
// RUN: rm -f %t && not %mpicc %cflags %s -o %t 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t
// CHECK: hvp_mpi.c:[[@LINE+13]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': forward mode over a reverse-mode derivative computed here cannot differentiate MPI communication ('MPI_Allreduce') in it yet
#include <mpi.h>
extern double __parad_autodiff(void *, ...);
extern double __parad_fwddiff(void *, ...);

static double nll(const double *b, int n) {
  double local = 0, total = 0;
  for (int i = 0; i < n; i++) local += b[i] * b[i] * b[i];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}
static void grad(const double *b, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __parad_autodiff((void *)nll, b, g, n);
}
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double b[3] = {1, 2, 3}, v[3] = {1, 0, 0}, g[3], hv[3];
  __parad_fwddiff((void *)grad, b, v, g, hv, 3);
  MPI_Finalize();
  return hv[0] != 6;
}
