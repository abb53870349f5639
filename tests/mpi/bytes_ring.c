// Doubles sent as bytes, which carry derivatives where the buffer holds doubles: every rank forms
// u_i = sin(x_i) + x_i x_{i+1} in a stack array and sends it to the next rank in a ring as N * 8 MPI_BYTE by
// MPI_Sendrecv, receiving w from the previous rank; then forms p_i = w_i x_i in a heap block and sends it
// to the previous rank as N * 8 MPI_CHAR by MPI_Isend, receiving q from the next rank by MPI_Irecv (one
// MPI_Waitall). Last it sends a constant table (a global: it has no shadow) to the next rank as MPI_BYTE,
// receiving c into memory that has one: the rank without a shadow sends zeros and drops the adjoint that
// comes back, so both sides make the same messages. J = sum_ranks sum_i ((i + 1) w_i^2 + cos(x_i) q_i +
// c_i x_i) by an MPI_Allreduce. At 1 rank the messages go to the rank itself. Before bytes were read by what the buffer holds, the messages carried
// no derivative and the gradient missed every term through w and q, silently.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 3 };

static const double table[N] = {0.5, -1.25, 2};

__attribute__((noinline)) static void ring(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double u[N], w[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = sin(x[i]) + x[i] * x[(i + 1) % N];
  MPI_Sendrecv(u, N * sizeof(double), MPI_BYTE, next, 0, w, N * sizeof(double), MPI_BYTE, prev, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double *p = malloc(N * sizeof(double)), *q = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) p[i] = w[i] * x[i];
  MPI_Request req[2];
  MPI_Irecv(q, N * sizeof(double), MPI_CHAR, next, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(p, N * sizeof(double), MPI_CHAR, prev, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double c[N];
  MPI_Sendrecv(table, sizeof table, MPI_BYTE, next, 2, c, sizeof c, MPI_BYTE, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) s += (i + 1) * w[i] * w[i] + cos(x[i]) * q[i] + c[i] * x[i];
  free(p), free(q);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, ring)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i + 0.2 * rank - 0.1, v[i] = cos(1.0 + i + rank);
  MPI_CHECK_BOTH_MODES(ring, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
