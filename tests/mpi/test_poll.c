// Completion by polling: every rank posts an MPI_Irecv of y from the previous rank of a ring, computes
// z_i = exp(0.5 x_i) + x_i, sends z to the next rank with MPI_Isend, and then polls both requests with
// MPI_Test in one loop (each request tested only until its flag is set; the number of polls varies from
// run to run, most tests fail, and nothing active depends on that number). The receive's status is read
// (its source must be the previous rank). Then a second exchange the other way round (w from the next
// rank, tag 6, sent as y_i z_i) is completed by two MPI_Test loops, on the receive until it is done and
// then on the send. J = sum_ranks sum_i (x_i y_i + sin(y_i z_i) + w_i^2 cos(x_i)) by an
// MPI_Allreduce. At 1 rank every message goes to the rank itself.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J must be the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4 };

static int bad_source; /* a status whose source is not the previous rank */

__attribute__((noinline)) static void polled(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double y[N], z[N], yz[N], w[N], s = 0;
  MPI_Request rr, rs;
  MPI_Status st;
  MPI_Irecv(y, N, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, &rr);
  for (int i = 0; i < N; i++) z[i] = exp(0.5 * x[i]) + x[i];
  MPI_Isend(z, N, MPI_DOUBLE, next, 5, MPI_COMM_WORLD, &rs);
  int got = 0, sent = 0;
  while (!(got && sent)) {
    if (!got) MPI_Test(&rr, &got, &st);
    if (!sent) MPI_Test(&rs, &sent, MPI_STATUS_IGNORE);
  }
  if (st.MPI_SOURCE != prev) bad_source++;
  for (int i = 0; i < N; i++) yz[i] = y[i] * z[i];
  MPI_Irecv(w, N, MPI_DOUBLE, next, 6, MPI_COMM_WORLD, &rr);
  MPI_Isend(yz, N, MPI_DOUBLE, prev, 6, MPI_COMM_WORLD, &rs);
  got = sent = 0;
  do MPI_Test(&rr, &got, MPI_STATUS_IGNORE);
  while (!got);
  do MPI_Test(&rs, &sent, MPI_STATUS_IGNORE);
  while (!sent);
  for (int i = 0; i < N; i++) s += x[i] * y[i] + sin(yz[i]) + w[i] * w[i] * cos(x[i]);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, polled)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.35 * i - 0.2 * rank + 0.1, v[i] = sin(0.7 + i + 3 * rank);
  __parad_autodiff((void *)polled, x, dx, &J, &dJ);
  mpi_fd_gradient(objective, NULL, x, N, dx, 1e-6, 1e-7);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  __parad_fwddiff((void *)polled, x, tx, &J, &tJ);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(NULL, x), 1e-14);
  CHECK_CLOSE(bad_source, 0, 0);
  return mpi_check_done();
}
