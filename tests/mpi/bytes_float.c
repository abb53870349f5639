// Records of floats and an int, struct {float q; int n; float v[2];}, sent as MPI_UNSIGNED_CHAR by blocking
// MPI_Send and MPI_Recv around a ring (even ranks send first; at 1 rank the records are copied): each rank
// fills N = 3 records (q = sinf(x_i), n = rank + i, v = (x_i x_{i+1}, x_i / 2)), and with the previous
// rank's records r adds s = sum_i (q_i^2 + cosf(x_i) v_i0 + x_{i+2} v_i1) (1 + n_i / 4); J is the
// MPI_Allreduce(SUM) of s, in float. Only the floats among the bytes carry derivatives, as floats (4 bytes
// each, between an int); n must arrive exactly. Before bytes were read by what the buffer holds, the
// gradient missed every term through r, silently.
// Reverse mode: J's adjoint is 1 on rank 0 and 0 elsewhere; the gradient is checked against central
// finite differences of J (evaluated in float) over every value of every rank, with a step suited to
// single precision (h = 1e-2: rounding error about 6e-8 |J| / h, truncation about h^2 |J'''| / 6) and
// tolerance 1e-3. Forward mode: the tangent of J along v must equal sum_ranks grad . v, both computed in
// float (tolerance 1e-4); the primal J the plain one (1e-6).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

typedef struct {
  float q;
  int n;
  float v[2];
} Rec;

enum { N = 3 };

__attribute__((noinline)) static void f(const float *x, float *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  Rec mine[N], r[N];
  float s = 0;
  for (int i = 0; i < N; i++) {
    mine[i].q = sinf(x[i]);
    mine[i].n = rank + i;
    mine[i].v[0] = x[i] * x[(i + 1) % N];
    mine[i].v[1] = 0.5f * x[i];
  }
  if (size == 1) {
    for (int i = 0; i < N; i++) r[i] = mine[i];
  } else if (rank % 2 == 0) {
    MPI_Send(mine, sizeof mine, MPI_UNSIGNED_CHAR, next, 3, MPI_COMM_WORLD);
    MPI_Recv(r, sizeof r, MPI_UNSIGNED_CHAR, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(r, sizeof r, MPI_UNSIGNED_CHAR, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(mine, sizeof mine, MPI_UNSIGNED_CHAR, next, 3, MPI_COMM_WORLD);
  }
  for (int i = 0; i < N; i++)
    s += (r[i].q * r[i].q + cosf(x[i]) * r[i].v[0] + x[(i + 2) % N] * r[i].v[1]) * (1 + 0.25f * r[i].n);
  MPI_Allreduce(&s, J, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

MPI_FLOAT_OBJECTIVE(objective, f, N)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  float x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.4f * i - 0.3f * rank + 0.2f, v[i] = cosf(0.7f + 2 * i + rank);
  MPI_CHECK_BOTH_MODES_FLOAT(f, objective, x, N, v, 1e-2, 1e-3);
  return mpi_check_done();
}
