// Non-blocking exchange in both directions of a ring: every rank posts two MPI_Irecv first (a from the
// previous rank, tag 1; b from the next rank, tag 2), then computes sq_i = x_i^2 and sends x to the next
// rank (MPI_Isend, tag 1) and sq to the previous one (MPI_Isend, tag 2); each request is completed by its
// own MPI_Wait, receives first and in the other order than posted, one with a status and three with
// MPI_STATUS_IGNORE. At 1 rank both messages go to the rank itself; at 2 ranks the next and previous rank
// are the same and the tags tell the messages apart. J = sum_ranks sum_i (x_i sin(a_i) + cos(x_i) b_i +
// a_i b_{i+1}) by an MPI_Allreduce. Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked
// against central finite differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward
// mode: the tangent of J along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J must be
// the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static void exchange(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double a[N], b[N], sq[N], s = 0;
  MPI_Request ra, rb, sa, sb;
  MPI_Status st;
  MPI_Irecv(a, N, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &ra);
  MPI_Irecv(b, N, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &rb);
  for (int i = 0; i < N; i++) sq[i] = x[i] * x[i];
  MPI_Isend(x, N, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &sa);
  MPI_Isend(sq, N, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &sb);
  MPI_Wait(&rb, &st);
  MPI_Wait(&ra, MPI_STATUS_IGNORE);
  MPI_Wait(&sb, MPI_STATUS_IGNORE);
  MPI_Wait(&sa, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) s += x[i] * sin(a[i]) + cos(x[i]) * b[i] + a[i] * b[(i + 1) % N];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, exchange)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.45 * rank + 0.6, v[i] = sin(1.5 + i + 2 * rank);
  __parad_autodiff((void *)exchange, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-6, 1e-7);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)exchange, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  return mpi_check_done();
}
