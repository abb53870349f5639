// MPI_Pack and MPI_Unpack with MPI_PACKED messages: each of 2 steps, every rank packs an int header (its rank
// and the step) and its state u (N = 3 doubles, u = x at first) into one buffer and sends that one packed
// buffer to both neighbours in a ring (two MPI_Isend of it), receiving a packed message from each (two
// MPI_Irecv into buffers of their own, one MPI_Waitall); it unpacks each header and the neighbours' states
// a (from the left) and b (from the right), and updates u_i <- sin(u_i) + 0.3 a_i b_{i+1} + 0.01 hl_0 hr_1.
// The same buffers serve both steps. J = sum_ranks sum_i (i + 1) u_i^2 by an MPI_Allreduce. The headers
// must arrive exactly (they shift u, checked through the plain J); only the packed doubles carry
// derivatives, and the adjoints of the one buffer sent twice add up. At 1 rank both neighbours are the
// rank itself; at 2 ranks they are the same rank (the tags tell the messages apart). Before MPI_Pack was
// differentiated, it was refused.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 3, STEPS = 2, BUF = 256 };

__attribute__((noinline)) static void exchange(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double u[N], a[N], b[N], s = 0;
  char out[BUF], from_left[BUF], from_right[BUF];
  for (int i = 0; i < N; i++) u[i] = x[i];
  for (int step = 0; step < STEPS; step++) {
    int pos = 0, head[2] = {rank, step}, hl[2], hr[2];
    MPI_Pack(head, 2, MPI_INT, out, BUF, &pos, MPI_COMM_WORLD);
    MPI_Pack(u, N, MPI_DOUBLE, out, BUF, &pos, MPI_COMM_WORLD);
    MPI_Request req[4];
    MPI_Irecv(from_left, BUF, MPI_PACKED, left, step, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(from_right, BUF, MPI_PACKED, right, 10 + step, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(out, pos, MPI_PACKED, right, step, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(out, pos, MPI_PACKED, left, 10 + step, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    pos = 0;
    MPI_Unpack(from_left, BUF, &pos, hl, 2, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(from_left, BUF, &pos, a, N, MPI_DOUBLE, MPI_COMM_WORLD);
    pos = 0;
    MPI_Unpack(from_right, BUF, &pos, hr, 2, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(from_right, BUF, &pos, b, N, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) u[i] = sin(u[i]) + 0.3 * a[i] * b[(i + 1) % N] + 0.01 * hl[0] * hr[1];
  }
  for (int i = 0; i < N; i++) s += (i + 1) * u[i] * u[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, exchange)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.35 * i - 0.25 * rank + 0.15, v[i] = sin(0.5 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(exchange, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
