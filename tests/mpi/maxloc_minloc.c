// MPI_MAXLOC and MPI_MINLOC reductions of value-index pairs (MPI_DOUBLE_INT), both modes: the result's
// value is the winning rank's, whose pair (value and index) the result holds, so its derivative is that
// rank's alone; on a tie of values the reduction takes the lower index, and so does the derivative. They
// were refused at run time ("reduces active data that is not floats").
//   J = 2 max_loc(...).v + max_loc(...).index / 1000 + min over ranks (by MPI_Reduce to the last rank,
//       broadcast back) + sum of squares, two pairs per MPI_Allreduce: central finite differences over
//       every value of every rank (h = 1e-6, tolerance 1e-7), forward tangents against sum_ranks gradient . v
//       (1e-12);
//   a tie: every rank holds the same value, the rank with the lowest index (rank 0) wins: the gradient of
//       the sum over the ranks of the result is there alone (exact), and each rank's tangent is rank 0's.
// 1 to 4 ranks, Open MPI and MPICH.
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 6 };
typedef struct {
  double v;
  int at;
} Pair;
static int rank, size;

__attribute__((noinline)) static void f(double *x, double *J) {
  Pair in[2] = {{-1e300, -1}, {-1e300, -1}}, out[2], low = {1e300, -1}, lowest;
  for (int i = 0; i < N; i++) {
    double t = sin(x[i]) * x[i], u = cos(x[i]) + x[i];
    if (t > in[0].v) in[0].v = t, in[0].at = rank * N + i;
    if (u > in[1].v) in[1].v = u, in[1].at = rank * N + i;
    if (x[i] * x[i] < low.v) low.v = x[i] * x[i], low.at = rank * N + i;
  }
  MPI_Allreduce(in, out, 2, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  MPI_Reduce(&low, &lowest, 1, MPI_DOUBLE_INT, MPI_MINLOC, size - 1, MPI_COMM_WORLD);
  MPI_Bcast(&lowest, 1, MPI_DOUBLE_INT, size - 1, MPI_COMM_WORLD);
  double s = 0, total;
  for (int i = 0; i < N; i++) s += x[i] * x[i];
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *J = 2 * out[0].v + out[0].at / 1000.0 + 3 * out[1].v + lowest.v * 5 + total;
}

MPI_OBJECTIVE(objective, f)

/* every rank offers the same value: rank 0's index is the lowest */
__attribute__((noinline)) static double tie(double *x) {
  Pair in = {x[0] * x[0], rank}, out;
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  return out.v;
}

int main(int argc, char **argv) {
  rank = mpi_start(&argc, &argv, 4);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * sin(1.7 * i + 2.1 * rank), v[i] = cos(i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  double t[1] = {0.75}, dt[1] = {0}, one[1] = {1};
  __parad_autodiff((void *)tie, t, dt);
  CHECK_CLOSE(dt[0], rank == 0 ? 1.5 * size : 0, 0); /* every rank's result seeded: the sum over the ranks */
  double tangent = __parad_fwddiff((void *)tie, t, one); /* every rank moves its value: the winner's moves */
  CHECK_CLOSE(tangent, 1.5, 0);
  return mpi_check_done();
}
