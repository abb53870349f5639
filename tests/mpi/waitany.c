// All-to-all by hand, completed in whatever order the messages come: every rank posts an MPI_Irecv from
// each rank q (itself included) into buf[q], then sends y_i = x_i exp(0.1 x_i) to each rank (MPI_Isend
// of one buffer to all), and completes all 2 size requests with MPI_Waitany in a loop. When the index
// names a receive (idx < size, the source rank, also checked against the status), the message is folded
// in nonlinearly with weights that depend on idx: t = sum_j (1 + 0.1 j) buf[idx][j]^2,
// p *= 1 + 0.05 (idx + 1) sin(t), s += cos(idx + 0.5) exp(0.3 buf[idx][0]). Products and sums do not
// depend on the completion order (up to rounding), so finite differences see the same function whatever
// order each run takes. J = sum_ranks (p + s) by an MPI_Allreduce.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J must be the plain one (1e-12,
// the order of the products may differ between runs).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 3, MAXRANKS = 8 };

static int bad_source; /* a status whose source is not the index Waitany returned */

__attribute__((noinline)) static void combine(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXRANKS) MPI_Abort(MPI_COMM_WORLD, 2);
  double buf[MAXRANKS][N], y[N], p = 1, s = 0;
  MPI_Request req[2 * MAXRANKS];
  for (int q = 0; q < size; q++) MPI_Irecv(buf[q], N, MPI_DOUBLE, q, 4, MPI_COMM_WORLD, &req[q]);
  for (int i = 0; i < N; i++) y[i] = x[i] * exp(0.1 * x[i]);
  for (int q = 0; q < size; q++) MPI_Isend(y, N, MPI_DOUBLE, q, 4, MPI_COMM_WORLD, &req[size + q]);
  for (int k = 0; k < 2 * size; k++) {
    int idx;
    MPI_Status st;
    MPI_Waitany(2 * size, req, &idx, &st);
    if (idx < size) {
      if (st.MPI_SOURCE != idx) bad_source++;
      double t = 0;
      for (int j = 0; j < N; j++) t += (1 + 0.1 * j) * buf[idx][j] * buf[idx][j];
      p *= 1 + 0.05 * (idx + 1) * sin(t);
      s += cos(idx + 0.5) * exp(0.3 * buf[idx][0]);
    }
  }
  s += p;
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, combine)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.4 * i - 0.25 * rank + 0.3, v[i] = cos(0.3 + 2 * i + rank);
  __parad_autodiff((void *)combine, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-6, 1e-7);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)combine, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-12);
  CHECK_CLOSE(bad_source, 0, 0);
  return mpi_check_done();
}
