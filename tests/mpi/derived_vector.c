// Columns of a row-major matrix as derived datatypes, through MPI_Isend and MPI_Irecv: each rank holds
// m (R = 3 rows, C = 4 columns, m_ij = x_ij (1 + j / 10)) and a second matrix w, first w_ij = m_ij^2 / 2;
// it sends column 2 of m to the next rank in a ring with MPI_Type_vector(R, 1, C, MPI_DOUBLE), received
// into column 1 of w from the previous rank, and column 3 of m to the previous rank with
// MPI_Type_create_hvector(R, 1, 8 C, MPI_DOUBLE), received into column 3 of w from the next rank. Both
// types are freed as soon as the calls are posted, before the MPI_Waitall (the library keeps them for
// the calls in flight; Parad's records keep their own). J = sum_ranks sum_ij (i + j + 1) w_ij^2 / 4 +
// sin(w_ij) x_ij by an MPI_Allreduce. Columns 0 and 2 of w stay the rank's own, inside the bytes the
// received columns span: their derivatives must survive the receives' adjoints. At 1 rank the columns go
// to the rank itself. Before derived datatypes were read from the library, the run stopped (the datatype
// was not one Parad knew).
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { R = 3, C = 4 };

__attribute__((noinline)) static void columns(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double m[R][C], w[R][C], s = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) m[i][j] = x[i * C + j] * (1 + 0.1 * j), w[i][j] = 0.5 * m[i][j] * m[i][j];
  MPI_Datatype column, hcolumn;
  MPI_Type_vector(R, 1, C, MPI_DOUBLE, &column);
  MPI_Type_create_hvector(R, 1, C * sizeof(double), MPI_DOUBLE, &hcolumn);
  MPI_Type_commit(&column);
  MPI_Type_commit(&hcolumn);
  MPI_Request req[4];
  MPI_Irecv(&w[0][1], 1, column, prev, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&w[0][3], 1, hcolumn, next, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&m[0][2], 1, column, next, 0, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&m[0][3], 1, hcolumn, prev, 1, MPI_COMM_WORLD, &req[3]);
  MPI_Type_free(&column);
  MPI_Type_free(&hcolumn);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) s += 0.25 * (i + j + 1) * w[i][j] * w[i][j] + sin(w[i][j]) * x[i * C + j];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, columns)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[R * C], v[R * C];
  for (int i = 0; i < R * C; i++) x[i] = 0.15 * i - 0.2 * rank - 0.3, v[i] = cos(0.9 + i + 2 * rank);
  MPI_CHECK_BOTH_MODES(columns, objective, x, R * C, v, 1e-6, 1e-7);
  return mpi_check_done();
}
