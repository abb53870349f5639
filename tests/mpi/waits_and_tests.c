// The other ways codes send and complete messages: a Cartesian ring (MPI_Dims_create, MPI_Cart_create,
// MPI_Cart_shift) exchanging ghosts by MPI_Issend and MPI_Irecv, completed by polling MPI_Testall; every rank
// receiving from every other and handling the messages as they arrive with MPI_Waitsome, then once more with
// MPI_Testsome; MPI_Testany one request at a time; and ready sends (MPI_Rsend, MPI_Irsend) to receives posted
// before a barrier. Rank r adds s = sum of what arrived times cos(x_i) + 0.05 sum_i x_i^3, and J is the
// MPI_Allreduce(SUM) of s. Reverse mode against central finite differences of J over every value of every rank
// (h = 1e-6, tolerance 1e-7); forward mode: the tangent of J along v against sum_ranks grad . v (1e-12). Refused
// before ("cannot differentiate MPI_Issend with active data"), or, for Waitsome, stopped at run time ("an
// MPI_Isend whose request was never completed").
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 5, MAXR = 8 };

/* Receives from every other rank what it sends, completing with Waitsome (some) or Testsome polling. */
static double all_to_all(const double *mine, const double *x, int rank, int size, int some) {
  double got[MAXR][2], t = 0;
  MPI_Request r[2 * MAXR];
  int nr = 0, idx[2 * MAXR], out;
  for (int p = 0; p < size; p++)
    if (p != rank) MPI_Irecv(got[p], 2, MPI_DOUBLE, p, 7, MPI_COMM_WORLD, &r[nr++]);
  for (int p = 0; p < size; p++)
    if (p != rank) MPI_Isend(mine, 2, MPI_DOUBLE, p, 7, MPI_COMM_WORLD, &r[nr++]);
  for (int left = nr; left > 0;) {
    if (some) MPI_Waitsome(nr, r, &out, idx, MPI_STATUSES_IGNORE);
    else MPI_Testsome(nr, r, &out, idx, MPI_STATUSES_IGNORE);
    if (out == MPI_UNDEFINED) break;
    left -= out;
  }
  for (int p = 0; p < size; p++)
    if (p != rank) t += got[p][0] * cos(x[p % N]) + got[p][1] * got[p][1] * x[(p + 1) % N];
  return t;
}

__attribute__((noinline)) static void f(const double *x, double *J) {
  int size, dims[1] = {0}, periods[1] = {1}, lo, hi, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 1, dims);
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Comm_rank(ring, &rank);
  MPI_Cart_shift(ring, 0, 1, &lo, &hi);
  double u[N + 2], t = 0;
  for (int i = 0; i < N; i++) u[i + 1] = exp(0.3 * x[i]) * x[(i + 2) % N];
  MPI_Request r[4];
  MPI_Irecv(&u[0], 1, MPI_DOUBLE, lo, 0, ring, &r[0]);
  MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, hi, 1, ring, &r[1]);
  MPI_Issend(&u[N], 1, MPI_DOUBLE, hi, 0, ring, &r[2]);
  MPI_Issend(&u[1], 1, MPI_DOUBLE, lo, 1, ring, &r[3]);
  for (int flag = 0; !flag;) MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE);
  for (int i = 1; i <= N; i++) t += u[i] * (u[i - 1] + u[i + 1]) * x[i - 1];
  MPI_Comm_free(&ring);

  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mine[2] = {x[0] * x[1] + sin(x[2]), t * x[3]};
  t += all_to_all(mine, x, rank, size, 1);
  mine[0] *= x[4];
  t += all_to_all(mine, x, rank, size, 0);

  /* Testany over one receive and one send, polled */
  int next = (rank + 1) % size, prev = (rank + size - 1) % size, done = 0, k, flag;
  double a[2] = {x[2] * x[3], cos(x[0]) * t}, b[2];
  MPI_Irecv(b, 2, MPI_DOUBLE, prev, 9, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(a, 2, MPI_DOUBLE, next, 9, MPI_COMM_WORLD, &r[1]);
  while (done < 2) {
    MPI_Testany(2, r, &k, &flag, MPI_STATUS_IGNORE);
    if (flag && k != MPI_UNDEFINED) done++;
  }
  t += b[0] * b[1] * x[1];

  /* ready sends: the receives are posted before the barrier */
  double c[2], d[2] = {x[4] * x[0], sin(x[1]) * b[0]}, e[1], g = x[2] * x[2];
  MPI_Irecv(c, 2, MPI_DOUBLE, prev, 11, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(e, 1, MPI_DOUBLE, prev, 12, MPI_COMM_WORLD, &r[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(d, 2, MPI_DOUBLE, next, 11, MPI_COMM_WORLD);
  MPI_Irsend(&g, 1, MPI_DOUBLE, next, 12, MPI_COMM_WORLD, &r[2]);
  MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
  t += c[0] * c[1] * cos(x[3]) + e[0] * e[0] * x[0];
  for (int i = 0; i < N; i++) t += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&t, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_CHECK_MAIN(f, N, MAXR)
