// Halo exchange with subarray datatypes (MPI_Type_create_subarray), as structured-grid codes describe
// faces: a rank's last interior row goes up into the next rank's ghost row (C order), a column of the
// interior rows (Fortran order, the same memory described with the dimensions swapped) goes down into
// another column, and two entries of a row by an indexed datatype. Each rank's part of the field is a
// 2-D array with two ghost rows. Subarrays were refused at run time ("a datatype Parad cannot
// differentiate"); the runtime now flattens them into the runs of elements they select, in the order of
// their addresses. Reverse mode (J's adjoint on rank 0 only) against central finite differences over every
// value of every rank (h = 1e-6, tolerance 1e-7); forward tangents against sum_ranks gradient . v (1e-12).
// 1 to 3 ranks, Open MPI and MPICH, and -O0.
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 -lm && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { NX = 6, NY = 5 };
static int rank, size;
static MPI_Datatype last_row, ghost_row, column2, column4, pair;

__attribute__((noinline)) static void f(double *x, double *J) {
  double u[NX + 2][NY]; /* ghost rows 0 and NX + 1 */
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) u[i + 1][j] = x[i * NY + j];
  for (int j = 0; j < NY; j++) u[0][j] = u[NX + 1][j] = 0.1 * x[j];
  int up = (rank + 1) % size, down = (rank + size - 1) % size;
  MPI_Sendrecv(u, 1, last_row, up, 0, u, 1, ghost_row, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(u, 1, column2, down, 1, u, 1, column4, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double two[2];
  MPI_Sendrecv(&u[1][0], 1, pair, down, 2, two, 2, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  u[NX + 1][1] = two[0], u[NX + 1][3] = two[1];
  double local = 0;
  for (int i = 1; i <= NX; i++)
    for (int j = 0; j < NY; j++) local += u[i][j] * (u[i - 1][j] + u[i + 1][j]) + sin(u[i][j]) * (j + 1);
  MPI_Allreduce(&local, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  rank = mpi_start(&argc, &argv, 4);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sizes[2] = {NX + 2, NY}, row[2] = {1, NY}, at_last[2] = {NX, 0}, at_ghost[2] = {0, 0};
  MPI_Type_create_subarray(2, sizes, row, at_last, MPI_ORDER_C, MPI_DOUBLE, &last_row);
  MPI_Type_create_subarray(2, sizes, row, at_ghost, MPI_ORDER_C, MPI_DOUBLE, &ghost_row);
  /* Fortran order: the first dimension runs fastest, so the array is (NY, NX + 2) */
  int fsizes[2] = {NY, NX + 2}, col[2] = {1, NX}, at2[2] = {2, 1}, at4[2] = {4, 1};
  MPI_Type_create_subarray(2, fsizes, col, at2, MPI_ORDER_FORTRAN, MPI_DOUBLE, &column2);
  MPI_Type_create_subarray(2, fsizes, col, at4, MPI_ORDER_FORTRAN, MPI_DOUBLE, &column4);
  int lengths[2] = {1, 1}, displs[2] = {1, 3};
  MPI_Type_indexed(2, lengths, displs, MPI_DOUBLE, &pair);
  MPI_Datatype *all[5] = {&last_row, &ghost_row, &column2, &column4, &pair};
  for (int k = 0; k < 5; k++) MPI_Type_commit(all[k]);
  double x[NX * NY], v[NX * NY];
  for (int i = 0; i < NX * NY; i++) x[i] = 0.3 * sin(0.7 * i + rank) + 0.02 * i, v[i] = cos(0.2 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, NX * NY, v, 1e-6, 1e-7);
  for (int k = 0; k < 5; k++) MPI_Type_free(all[k]);
  return mpi_check_done();
}
