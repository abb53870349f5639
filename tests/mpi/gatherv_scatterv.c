// MPI_Gatherv and MPI_Scatterv with rank-dependent counts to and from a root (rank 1, or 0 alone). Rank r
// gathers c_r = 1 + r mod 3 values g_i = sin(x_i) x_{i+1} + x_i (of its N = 5) into the root's G, at offset
// sum_{s<r} c_s + r, so that one element of G is left between consecutive parts; E is the extent of G. Before
// the gather the root fills all of G with 0.25 x_{N-1}: the gaps keep it (the gather must not touch them),
// the parts are overwritten (their old values must not contribute). The root computes y_j = G_k
// G_{k+1} + sin(G_k) with k = j mod E (indices of G modulo E) for j < E + 2, and scatters y back with other
// counts, d_r = 3 - r mod 3 values to rank r, from the end of y backwards (rank 0's part last; E + 2 is
// enough room for them) into z, which held x_i before (overwritten, must not contribute). Rank r adds
// s = sum_{i<d_r} z_i cos(x_{N-1-i}) + 0.05 sum_i x_i^3, and J is the MPI_Allreduce(SUM) of s. Reverse mode:
// J's adjoint is 1 on rank 0 and 0 elsewhere (a replicated result is seeded once); the gradient is checked
// against central finite differences of J over every value of every rank (h = 1e-6, tolerance 1e-7). Forward
// mode: the tangent of J along a direction v must equal sum_ranks grad . v (tolerance 1e-12).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5, MAXR = 8, MAXE = 4 * MAXR + 2 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size > 1 ? 1 : 0, gc[MAXR], gd[MAXR], sc[MAXR], sd[MAXR], E = 0;
  for (int r = 0; r < size; r++) gc[r] = 1 + r % 3, gd[r] = E + (r > 0), E = gd[r] + gc[r];
  for (int r = 0, end = E + 2; r < size; r++) sc[r] = 3 - r % 3, sd[r] = end - sc[r], end = sd[r];
  double g[N], G[MAXE], y[MAXE], z[N], s = 0;
  for (int i = 0; i < gc[rank]; i++) g[i] = sin(x[i]) * x[i + 1] + x[i];
  for (int i = 0; i < N; i++) z[i] = x[i];
  if (rank == root)
    for (int j = 0; j < E; j++) G[j] = 0.25 * x[N - 1];
  MPI_Gatherv(g, gc[rank], MPI_DOUBLE, G, gc, gd, MPI_DOUBLE, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int j = 0; j < E + 2; j++) y[j] = G[j % E] * G[(j + 1) % E] + sin(G[j % E]);
  MPI_Scatterv(y, sc, sd, MPI_DOUBLE, z, sc[rank], MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < sc[rank]; i++) s += z[i] * cos(x[N - 1 - i]);
  for (int i = 0; i < N; i++) s += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.28 * i - 0.33 * rank + 0.12, v[i] = sin(0.4 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
