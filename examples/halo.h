/* A 2-D heat solver distributed over MPI ranks by blocks of rows, with halo exchange through
 * non-blocking calls; used by examples/heat_mpi.c and bench/halo_mpi.c.
 *
 *   u_{t+1}[i][j] = u_t[i][j] + kappa (u_t[i-1][j] + u_t[i+1][j] + u_t[i][j-1] + u_t[i][j+1] - 4 u_t[i][j])
 *   J(u_0, kappa) = (1/N^2) sum_ij u_T[i][j]^2          (the grid's outer cells stay zero)
 *
 * Each rank holds `rows` rows of N columns, and one ghost row above and below for its neighbours' edges. */
#ifndef PARAD_EXAMPLES_HALO_H
#define PARAD_EXAMPLES_HALO_H

#include <mpi.h>
#include <stddef.h>

/* Fills the ghost rows of u ((rows + 2) x n) from the neighbouring ranks; the first and last rank have
 * MPI_PROC_NULL for a neighbour, whose messages are empty. */
static void halo_exchange(double *u, int rows, int n, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  MPI_Request req[4];
  MPI_Irecv(u, n, MPI_DOUBLE, up, 0, comm, &req[0]);
  MPI_Irecv(u + (size_t)(rows + 1) * n, n, MPI_DOUBLE, down, 1, comm, &req[1]);
  MPI_Isend(u + n, n, MPI_DOUBLE, up, 1, comm, &req[2]);
  MPI_Isend(u + (size_t)rows * n, n, MPI_DOUBLE, down, 0, comm, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

/* One explicit step from u to v over this rank's rows; the grid's first and last row and column stay. */
static void halo_step(const double *u, double *v, double kappa, int rows, int n, int first_row, int global_rows) {
  for (int i = 1; i <= rows; i++) {
    int g = first_row + i - 1;
    if (g == 0 || g == global_rows - 1) continue;
    for (int j = 1; j < n - 1; j++) {
      const double *c = u + (size_t)i * n + j;
      v[(size_t)i * n + j] = c[0] + kappa * (c[-n] + c[n] + c[-1] + c[1] - 4 * c[0]);
    }
  }
}

/* J over the whole grid, into *J on every rank. work: 2 (rows + 2) n doubles, zero on entry. */
__attribute__((noinline)) static void halo_heat(const double *u0, double *work, double kappa, int rows, int n,
                                                int steps, MPI_Comm comm, double *J) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int global_rows = rows * size, first_row = rows * rank;
  double *a = work, *b = work + (size_t)(rows + 2) * n;
  for (size_t k = 0; k < (size_t)rows * n; k++) a[n + k] = b[n + k] = u0[k];
  for (int t = 0; t < steps; t++) {
    halo_exchange(a, rows, n, comm);
    halo_step(a, b, kappa, rows, n, first_row, global_rows);
    double *s = a;
    a = b;
    b = s;
  }
  double local = 0;
  for (size_t k = 0; k < (size_t)rows * n; k++) local += a[n + k] * a[n + k];
  local /= (double)global_rows * n;
  MPI_Allreduce(&local, J, 1, MPI_DOUBLE, MPI_SUM, comm);
}

#endif
