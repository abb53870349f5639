// The non-blocking collectives, as codes overlap communication with work: MPI_Ibcast (from rank 1 mod size,
// of doubles, and of records {int id; double v[2];} as MPI_BYTE), MPI_Igather and MPI_Igatherv to rank 0,
// MPI_Iscatter and MPI_Iscatterv from it, MPI_Iallgather, MPI_Iallgatherv (in place), MPI_Ialltoall and
// MPI_Ialltoallv (rank-dependent counts), completed by MPI_Waitall, by MPI_Waitany one at a time, by MPI_Wait
// and by polling MPI_Testall; then an MPI_Iallreduce and an MPI_Ibcast that even ranks complete in one order and
// odd ranks in the other (legal: only the posting order must agree; the reverse sweep must still start the
// adjoints in one order on every rank, else MPICH matched an Igather with an Igatherv: 11 of 18 checks failed);
// then MPI_Iscan in place and MPI_Iexscan, completed in the reverse of their posting order. While the Ibcast is under way the root reads its own buffer (its adjoint,
// added then, must stay beside the copies' adjoints that the transposed reduction brings). Rank r adds
// s = sum of what arrived times cos(x_i) + 0.05 sum_i x_i^3, and J is the MPI_Allreduce(SUM) of s. Reverse
// mode against central finite differences of J over every value of every rank (h = 1e-6, tolerance 1e-7);
// forward mode: the tangent of J along v against sum_ranks grad . v (1e-12). Refused before ("cannot
// differentiate MPI_Ibcast with active data").
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include <stdio.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, MAXR = 8 };

typedef struct {
  int id;
  double v[2];
} Rec;

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = 1 % size, c[MAXR], d[MAXR], E = 0;
  for (int r = 0; r < size; r++) c[r] = 1 + r % 2, d[r] = E + 1, E = d[r] + c[r];
  double b[N], g[MAXR * 3] = {0}, gv[MAXR * 3] = {0}, sc[2], sv[2], A[MAXR * N], B[MAXR * 3], t = 0;
  Rec rec[2];
  for (int i = 0; i < N; i++) b[i] = rank == root ? sin(x[i]) * x[(i + 1) % N] : 0.25 * i;
  for (int k = 0; k < 2; k++) rec[k].id = k, rec[k].v[0] = rank == root ? x[k] * x[k + 1] : 0, rec[k].v[1] = cos(x[k + 2]);
  MPI_Request q[4];
  MPI_Ibcast(b, N, MPI_DOUBLE, root, MPI_COMM_WORLD, &q[0]);
  MPI_Ibcast(rec, (int)sizeof rec, MPI_BYTE, root, MPI_COMM_WORLD, &q[1]);
  if (rank == root) t += b[0] * b[1] * x[2]; /* the root reads its buffer while the broadcast is under way */
  double mine = x[0] * x[1] + x[2], two[2] = {x[1] * x[3], exp(0.1 * x[0])};
  MPI_Igather(&mine, 1, MPI_DOUBLE, g, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[2]);
  MPI_Igatherv(two, c[rank], MPI_DOUBLE, gv, c, d, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[3]);
  MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
  for (int i = 0; i < N; i++) t += b[i] * cos(x[i] + i);
  for (int k = 0; k < 2; k++) t += rec[k].v[0] * rec[k].v[1] * (rec[k].id + 1) * x[3];
  if (rank == 0)
    for (int k = 0; k < E; k++) g[k % size] *= 1 + 0.1 * k, gv[k] = gv[k] * x[k % N] + g[k % size];
  MPI_Iscatter(g, 1, MPI_DOUBLE, &sc[0], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[0]);
  MPI_Iscatterv(gv, c, d, MPI_DOUBLE, sv, c[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[1]);
  for (int done = 0, k; done < 2; done++) MPI_Waitany(2, q, &k, MPI_STATUS_IGNORE);
  t += sc[0] * sc[0] * x[1];
  for (int k = 0; k < c[rank]; k++) t += sv[k] * sin(x[k]);
  double a[N];
  for (int i = 0; i < N; i++) a[i] = sc[0] * x[i] + sv[0];
  MPI_Iallgather(a, N, MPI_DOUBLE, A, N, MPI_DOUBLE, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  for (int k = 0; k < E; k++) B[k] = 0.5 * x[k % N];
  for (int k = 0; k < c[rank]; k++) B[d[rank] + k] = A[(k + 1) % (N * size)] * x[k];
  MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, B, c, d, MPI_DOUBLE, MPI_COMM_WORLD, &q[0]);
  double w[MAXR * 2], z[MAXR * 2];
  int sc2[MAXR], sd2[MAXR], rc2[MAXR], rd2[MAXR], W = 0, Z = 0;
  for (int s = 0; s < size; s++) sc2[s] = 1 + (rank + s) % 2, sd2[s] = W, W += sc2[s];
  for (int s = 0; s < size; s++) rc2[s] = 1 + (s + rank) % 2, rd2[s] = Z, Z += rc2[s];
  for (int k = 0; k < W; k++) w[k] = A[k % (N * size)] * x[k % N];
  MPI_Ialltoallv(w, sc2, sd2, MPI_DOUBLE, z, rc2, rd2, MPI_DOUBLE, MPI_COMM_WORLD, &q[1]);
  double u[MAXR], y[MAXR];
  for (int s = 0; s < size; s++) u[s] = x[s % N] * (s + 1) + A[s];
  MPI_Ialltoall(u, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, MPI_COMM_WORLD, &q[2]);
  for (int flag = 0; !flag;) MPI_Testall(3, q, &flag, MPI_STATUSES_IGNORE);
  for (int k = 0; k < E; k++) t += B[k] * B[k] * 0.1;
  for (int k = 0; k < Z; k++) t += z[k] * cos(x[k % N]);
  for (int s = 0; s < size; s++) t += y[s] * y[s] * 0.2;
  /* completed in an order that depends on the rank: the adjoints must still start in one order everywhere */
  double p = x[0] * x[1] * t, P, e[2] = {z[0] * x[2], 0};
  MPI_Iallreduce(&p, &P, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[0]);
  MPI_Ibcast(e, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[1]);
  MPI_Wait(&q[rank % 2], MPI_STATUS_IGNORE);
  MPI_Wait(&q[1 - rank % 2], MPI_STATUS_IGNORE);
  t += 0.01 * P * P + e[0] * x[3];
  /* prefix sums: inclusive in place, exclusive (rank 0's result undefined: left out), completed last first */
  double pre[2] = {x[1] * x[2], sin(x[0]) * t}, ex[2] = {x[0] * x[3], cos(x[2])}, exo[2];
  MPI_Iscan(MPI_IN_PLACE, pre, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[0]);
  MPI_Iexscan(ex, exo, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[1]);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  t += pre[0] * pre[1] * x[2] + (rank > 0 ? exo[0] * exo[1] * x[1] : 0);
  for (int i = 0; i < N; i++) t += 0.05 * x[i] * x[i] * x[i];
  MPI_Allreduce(&t, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAXR);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.23 * i - 0.31 * rank + 0.17, v[i] = cos(0.2 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
