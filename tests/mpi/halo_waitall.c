// A 1-D explicit heat equation with a nonlinear source, distributed over the ranks: each rank owns L
// cells u[1..L] (its x) and two ghost cells u[0], u[L+1], zero at the start. Each of T time steps
// exchanges ghosts with the left and right neighbours (MPI_Irecv of both ghosts, then MPI_Isend of both
// edge cells, completed by one MPI_Waitall with MPI_STATUSES_IGNORE) and then updates
// u_i <- u_i + c (u_{i-1} - 2 u_i + u_{i+1}) + 0.1 sin(u_i) u_i. Boundaries are not periodic: the first
// and last ranks talk to MPI_PROC_NULL, so their outer ghosts stay zero (at 1 rank both neighbours are
// MPI_PROC_NULL). J = sum over all ranks and cells of u_i^2, by an MPI_Allreduce.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every cell of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J must be the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { L = 4, T = 5 };

__attribute__((noinline)) static void heat(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  const double c = 0.2;
  double u[L + 2], un[L + 2], s = 0;
  u[0] = u[L + 1] = 0;
  for (int i = 1; i <= L; i++) u[i] = x[i - 1];
  for (int t = 0; t < T; t++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[L + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[L], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= L; i++) un[i] = u[i] + c * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.1 * sin(u[i]) * u[i];
    for (int i = 1; i <= L; i++) u[i] = un[i];
  }
  for (int i = 1; i <= L; i++) s += u[i] * u[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, heat)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[L], dx[L] = {0}, v[L], tx[L], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < L; i++) x[i] = sin(0.7 * (L * rank + i)) + 0.5, v[i] = cos(1.0 + 3 * i + rank);
  __parad_autodiff((void *)heat, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, L, dx, 1e-6, 1e-7);
  for (int i = 0; i < L; i++) tx[i] = v[i];
  __parad_fwddiff((void *)heat, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < L; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  return mpi_check_done();
}
