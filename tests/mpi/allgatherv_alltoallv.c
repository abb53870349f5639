// MPI_Allgatherv and MPI_Alltoallv with rank-dependent counts and gaps, as particle codes redistribute their
// particles and FFT codes transpose. Rank r contributes c_r = 1 + r mod 3 values a_i = sin(x_i) + x_{i+1} x_i
// to every rank's A, at offset sum_{s<r} c_s + r (one element left between parts, holding 0.5 x_0 from
// before: the gaps keep it); then sends to rank s the b_{r,s} = 1 + (r + 2 s) mod 3 values w_k = A_k x_{k mod N}
// (from its W, at displacements with a gap after each part) and receives rank s's b_{s,r} values into its Z,
// at displacements counted backwards with gaps. An in-place Allgatherv (each rank's part already in the
// receive buffer) and an in-place Alltoallv follow, over the same counts. Rank r adds
// s = sum_k Z_k cos(x_{k mod N}) + sum of the in-place results' squares + 0.05 sum_i x_i^3, and J is the
// MPI_Allreduce(SUM) of s. Reverse mode: against central finite differences of J over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward mode: the tangent of J along v against sum_ranks grad . v (1e-12).
// Both failed before (refused: "cannot differentiate MPI_Allgatherv with active data").
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5, MAXR = 8, MAXE = 5 * MAXR };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int c[MAXR], d[MAXR], E = 0, sc[MAXR], sd[MAXR], rc[MAXR], rd[MAXR], W = 0, Z = 0;
  for (int r = 0; r < size; r++) c[r] = 1 + r % 3, d[r] = E + (r > 0), E = d[r] + c[r];
  for (int s = 0; s < size; s++) sc[s] = 1 + (rank + 2 * s) % 3, sd[s] = W, W += sc[s] + 1;
  for (int s = 0; s < size; s++) rc[s] = 1 + (s + 2 * rank) % 3, Z += rc[s] + 1;
  for (int s = 0, end = Z; s < size; s++) rd[s] = end - rc[s] - 1, end = rd[s];
  double a[N], A[MAXE], w[MAXE], z[MAXE], B[MAXE], C[MAXE], t = 0;
  for (int i = 0; i < c[rank]; i++) a[i] = sin(x[i]) + x[i + 1] * x[i];
  for (int j = 0; j < E; j++) A[j] = 0.5 * x[0];
  MPI_Allgatherv(a, c[rank], MPI_DOUBLE, A, c, d, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int k = 0; k < W; k++) w[k] = A[k % E] * x[k % N];
  for (int k = 0; k < Z; k++) z[k] = 0.125 * x[1];
  MPI_Alltoallv(w, sc, sd, MPI_DOUBLE, z, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int k = 0; k < Z; k++) t += z[k] * cos(x[k % N]);
  /* in place: this rank's part already where it goes */
  for (int j = 0; j < E; j++) B[j] = x[j % N] * (j + 1);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, B, c, d, MPI_DOUBLE, MPI_COMM_WORLD);
  int ic[MAXR], id[MAXR], I = 0; /* Alltoallv in place: the same counts both ways */
  for (int s = 0; s < size; s++) ic[s] = 1 + (rank + s) % 2, id[s] = I, I += ic[s] + 1;
  for (int k = 0; k < I; k++) C[k] = B[k % E] * x[(k + 2) % N];
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, C, ic, id, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int j = 0; j < E; j++) t += B[j] * B[j] * 0.1;
  for (int k = 0; k < I; k++) t += C[k] * C[k] * 0.2;
  for (int i = 0; i < N; i++) t += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&t, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.28 * i - 0.33 * rank + 0.12, v[i] = sin(0.4 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
