// MPI_Gather to a root (root = size - 1), nonlinear work on the root that mixes the ranks' parts, MPI_Scatter
// back; then an MPI_Gather with MPI_IN_PLACE at root 0. Each rank holds N = 4 values and forms g_i = x_i
// sin(x_i) + 0.5 x_{i+1} (M = 3 of them); the root gathers them into G (M per rank, rank by rank), computes
// y_j = sin(G_j) G_{j+1} + G_j^2 (indices modulo M size, so each part depends on the next rank's) and
// scatters y, M values to each rank, into z. Every rank adds s = sum_i z_i x_i + cos(z_i). Then every rank
// forms w_i = x_i x_{i+1} + 0.2 x_i: rank 0 writes its own w straight into its part of W and gathers in
// place, the other ranks send w (null receive buffer), and rank 0 adds sum_j sin(W_j) W_{j+2} to its s. J is
// the MPI_Allreduce(SUM) of s. Reverse mode: J's adjoint is 1 on rank 0 and 0 elsewhere (a replicated result
// is seeded once); the gradient is checked against central finite differences of J over every value of every
// rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J along a direction v must equal sum_ranks
// grad . v (tolerance 1e-12). The second run line builds at -O0.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, M = 3, MAXR = 8 };

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size - 1, n = M * size;
  double g[M], G[M * MAXR], y[M * MAXR], z[M], w[M], W[M * MAXR], s = 0;
  for (int i = 0; i < M; i++) g[i] = x[i] * sin(x[i]) + 0.5 * x[i + 1];
  MPI_Gather(g, M, MPI_DOUBLE, G, M, MPI_DOUBLE, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int j = 0; j < n; j++) y[j] = sin(G[j]) * G[(j + 1) % n] + G[j] * G[j];
  MPI_Scatter(y, M, MPI_DOUBLE, z, M, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < M; i++) s += z[i] * x[i] + cos(z[i]);
  if (rank == 0) {
    for (int i = 0; i < M; i++) W[i] = x[i] * x[i + 1] + 0.2 * x[i];
    MPI_Gather(MPI_IN_PLACE, M, MPI_DOUBLE, W, M, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++) s += sin(W[j]) * W[(j + 2) % n];
  } else {
    for (int i = 0; i < M; i++) w[i] = x[i] * x[i + 1] + 0.2 * x[i];
    MPI_Gather(w, M, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.25 * rank + 0.17, v[i] = cos(1.2 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
