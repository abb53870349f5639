// Forward mode moves tangents of bytes byte for byte, whatever the bytes hold: a helper that takes void *
// buffers (not inlined, so nothing there shows what they hold) exchanges them around a ring as MPI_BYTE
// with MPI_Sendrecv. Each rank forms u_i = sin(x_i) + x_i x_{i+1} (N = 4), receives w from the previous
// rank, and J = sum_ranks sum_i (i + 1) w_i^2 + x_i w_i by an MPI_Allreduce. (Reverse mode refuses this
// helper: it could not tell where the floats are, tests/diag/mpi_bytes_unknown.c.) The tangent of J along
// each of two directions v is checked against the central finite difference (J(x + h v) - J(x - h v)) / 2h
// taken collectively (h = 1e-6, tolerance 1e-7), and the primal J against the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static void exchange(void *out, void *in, int bytes) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Sendrecv(out, bytes, MPI_BYTE, (rank + 1) % size, 0, in, bytes, MPI_BYTE, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void ring(double *x, double *J) {
  double u[N], w[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = sin(x[i]) + x[i] * x[(i + 1) % N];
  exchange(u, w, sizeof u);
  for (int i = 0; i < N; i++) s += (i + 1) * w[i] * w[i] + x[i] * w[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  const double h = 1e-6;
  double x[N], v[N], xs[N], J, tJ, hi, lo;
  for (int d = 0; d < 2; d++) {
    for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.2 * rank + 0.1, v[i] = cos(1.0 + i + 3 * rank + 5 * d);
    tJ = 0;
    __parad_fwddiff((void *)ring, x, v, &J, &tJ);
    for (int i = 0; i < N; i++) xs[i] = x[i] + h * v[i];
    ring(xs, &hi);
    for (int i = 0; i < N; i++) xs[i] = x[i] - h * v[i];
    ring(xs, &lo);
    CHECK_CLOSE(tJ, (hi - lo) / (2 * h), 1e-7);
    ring(x, &hi);
    CHECK_CLOSE(J, hi, 1e-14);
  }
  return mpi_check_done();
}
