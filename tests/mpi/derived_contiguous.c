// A derived datatype, MPI_Type_contiguous(3, MPI_DOUBLE) (a point), through MPI_Sendrecv, MPI_Bcast and
// MPI_Allgather: each rank forms N = 2 points p_ik = sin(x_{3i+k}) + x_{3i+k}^2 / 2 and sends them to the next
// rank in a ring (MPI_Sendrecv of N points), receiving q from the previous rank; the last rank makes one
// point c_k = sum_i q_ik x_{3i+k} and broadcasts it (MPI_Bcast of 1 point); every rank contributes
// e_k = c_k q_0k and MPI_Allgather gives every rank all of them, g (one point per rank). The type is
// created and committed in the function and freed before it returns. s = sum_ik q_ik^2 / (i + 1) +
// sum_k c_k x_k + sum_rk g_rk x_{k+3} / (r + 1), and J is the MPI_Allreduce(SUM) of s. Before derived
// datatypes were read from the library, the messages carried no derivative (the datatype was not one
// Parad knew): the run stopped.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 2, MAX_RANKS = 4 };

__attribute__((noinline)) static void points(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Datatype point;
  MPI_Type_contiguous(3, MPI_DOUBLE, &point);
  MPI_Type_commit(&point);
  double p[N][3], q[N][3], c[3], e[3], g[MAX_RANKS][3], s = 0;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 3; k++) p[i][k] = sin(x[3 * i + k]) + 0.5 * x[3 * i + k] * x[3 * i + k];
  MPI_Sendrecv(p, N, point, next, 0, q, N, point, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int k = 0; k < 3; k++) {
    c[k] = 0;
    for (int i = 0; i < N; i++) c[k] += q[i][k] * x[3 * i + k];
  }
  MPI_Bcast(c, 1, point, size - 1, MPI_COMM_WORLD);
  for (int k = 0; k < 3; k++) e[k] = c[k] * q[0][k];
  MPI_Allgather(e, 1, point, g, 1, point, MPI_COMM_WORLD);
  MPI_Type_free(&point);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 3; k++) s += q[i][k] * q[i][k] / (i + 1);
  for (int k = 0; k < 3; k++) s += c[k] * x[k];
  for (int r = 0; r < size; r++)
    for (int k = 0; k < 3; k++) s += g[r][k] * x[k + 3] / (r + 1);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, points)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAX_RANKS);
  double x[3 * N], v[3 * N];
  for (int i = 0; i < 3 * N; i++) x[i] = 0.2 * i - 0.3 * rank + 0.1, v[i] = cos(0.3 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(points, objective, x, 3 * N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
