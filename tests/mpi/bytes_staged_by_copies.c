// Messages of bytes staged through heap buffers that only memcpy fills and empties: a rank copies its
// doubles x (a parameter) into a malloc'd char buffer and sends it as N * 8 MPI_BYTE to the next rank by
// MPI_Sendrecv, receiving into another char buffer that it copies out into a local array of doubles w;
// then the same with floats (a float array copied into the buffer, N * 4 MPI_BYTE by MPI_Isend/MPI_Irecv
// and MPI_Waitall, copied out into floats). Nothing reads or writes the buffers but the copies, so what
// they hold is what the copies move: doubles, then floats. Both were refused before ("moves active memory
// as bytes ... cannot tell which of them are floats"). J = sum_ranks sum_i ((i + 1) w_i^2 x_i + v_i x_i)
// by an MPI_Allreduce, w from the previous rank, v (floats) from the next.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient against the analytic one, 2 (i + 1) w_i x_i
// summed with (i + 1) w'_i^2 + v_i from the neighbours' terms (1e-6: floats in between), and against central
// finite differences over every rank's x (h = 1e-4, 1e-3: the floats' rounding over h). Forward mode: the tangent of J along a unit
// direction of rank 0 equals the gradient's component (1e-6).
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 -lm && %mpirun 2 %t0
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 9 };

void energy(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  char *out = malloc(N * sizeof(double)), *in = malloc(N * sizeof(double));
  memcpy(out, x, N * sizeof(double));
  MPI_Sendrecv(out, N * sizeof(double), MPI_BYTE, next, 1, in, N * sizeof(double), MPI_BYTE, prev, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double w[N];
  memcpy(w, in, sizeof w);
  float xf[N], v[N];
  for (int i = 0; i < N; i++) xf[i] = (float)x[i];
  char *fout = malloc(N * sizeof(float)), *fin = malloc(N * sizeof(float));
  memcpy(fout, xf, sizeof xf);
  MPI_Request req[2];
  MPI_Irecv(fin, N * sizeof(float), MPI_BYTE, next, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(fout, N * sizeof(float), MPI_BYTE, prev, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  memcpy(v, fin, sizeof v);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * w[i] * w[i] * x[i] + v[i] * x[i];
  free(out), free(in), free(fout), free(fin);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static double value(int r, int i) { return 0.5 + 0.25 * r + 0.125 * sin(1.0 + i + 3 * r); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double x[N], dx[N] = {0}, J, dJ = rank == 0;
  for (int i = 0; i < N; i++) x[i] = value(rank, i);
  __parad_autodiff((void *)energy, x, dx, &J, &dJ);
  for (int i = 0; i < N; i++) { /* dJ/dx_i: its own term, the next rank's w, the previous rank's v */
    double w = value(prev, i), xn = value(next, i);
    CHECK_CLOSE(dx[i], (i + 1) * w * w + (float)xn + 2 * (i + 1) * x[i] * xn + value(prev, i), 1e-6);
  }
  for (int r = 0; r < size; r++)
    for (int i = 0; i < N; i++) {
      double h = 1e-4, keep = x[i], up, down;
      if (rank == r) x[i] = keep + h;
      energy(x, &up);
      if (rank == r) x[i] = keep - h;
      energy(x, &down);
      if (rank == r) x[i] = keep;
      if (rank == r) CHECK_CLOSE(dx[i], (up - down) / (2 * h), 1e-3); /* floats: rounding 1e-7 / h */
    }
  double t[N] = {0}, Jt = 0, dJt = 0;
  if (rank == 0) t[2] = 1;
  __parad_fwddiff((void *)energy, x, t, &Jt, &dJt);
  double g2 = dx[2];
  MPI_Bcast(&g2, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  CHECK_CLOSE(dJt, g2, 1e-6);
  int failed = check_done();
  MPI_Finalize();
  return failed;
}
