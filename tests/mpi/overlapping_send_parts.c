// Send buffers whose parts overlap, which MPI allows (a send buffer is only read): an MPI_Scatterv whose root
// sends every rank c = 2 values from displacement r mod 2 of its Y (so parts of consecutive ranks share a
// value), as a stencil code hands each rank its cells and a halo from one global array; an MPI_Iscatterv of
// the same shape; and an MPI_Alltoallv (and MPI_Ialltoallv) whose send part to rank s starts at s mod 2 of
// the rank's W, 2 values long. The adjoint of a value sent in several parts is the sum of the parts'
// adjoints, each weighted by the receiving rank here (s = (r + 1) times a sum of squares). Before, the
// transposed gather received each part's adjoints at the program's send displacements, one part over the
// other, and added what the last left into every part: rank 0's gradient at 3 ranks was 54 for 36 (Scatterv)
// and 54 for 36 (Alltoallv, every rank sent its one value to all). Y = sin(x_i) + x_{i+1} on the root,
// W_i = x_i x_{i+1} + x_i on every rank; J is the MPI_Allreduce(SUM) of s.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, MAX_RANKS = 4 };

__attribute__((noinline)) static void overlap(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int counts[MAX_RANKS], displs[MAX_RANKS], rcounts[MAX_RANKS], rdispls[MAX_RANKS];
  double y[N], w[N], a[2], b[2], z[2 * MAX_RANKS], z2[2 * MAX_RANKS], s = 0;
  for (int i = 0; i < size; i++) counts[i] = 2, displs[i] = i % 2, rcounts[i] = 2, rdispls[i] = 2 * i;
  for (int i = 0; i < N; i++) y[i] = sin(x[i]) + x[(i + 1) % N], w[i] = x[i] * x[(i + 1) % N] + x[i];
  MPI_Scatterv(y, counts, displs, MPI_DOUBLE, a, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Request q[2];
  MPI_Iscatterv(w, counts, displs, MPI_DOUBLE, b, 2, MPI_DOUBLE, size - 1, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Alltoallv(w, counts, displs, MPI_DOUBLE, z, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Ialltoallv(y, counts, displs, MPI_DOUBLE, z2, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD, &q[1]);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  for (int i = 0; i < 2; i++) s += a[i] * a[i] + b[i] * a[1 - i];
  for (int i = 0; i < 2 * size; i++) s += (i + 1) * z[i] * z[i] + z2[i] * z[i];
  s *= rank + 1;
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_CHECK_MAIN(overlap, N, MAX_RANKS)
