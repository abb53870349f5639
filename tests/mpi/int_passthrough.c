// Integer and floating-point messages in one function: a request-reply gather over a ring. Every rank
// wants K of the next rank's N values, at indices want_j = (2 j + rank + 1) % N; it sends them to the next
// rank as MPI_INT by MPI_Sendrecv (receiving the previous rank's list, `asked`). It also sends a tag (an
// int, 100 + rank) with MPI_Isend/MPI_Irecv of MPI_INT. Then it gathers out_j = x[asked_j]^2 and
// sends them back to the previous rank (MPI_Isend of MPI_DOUBLE) while receiving its own reply `in` from
// the next rank (MPI_Irecv); the four non-blocking requests (two int, two double) end in one MPI_Waitall.
// The received integers are copied to `got` (a parad_const argument), so the test sees what the
// differentiated code received: it must be the previous rank's list and tag, exactly, after the reverse
// and after the forward call. Last, ranks in pairs (0-1, 2-3; a rank without a partner sits out) make
// one MPI_Sendrecv whose halves differ: the even rank sends its reply `in` as MPI_DOUBLE and receives the
// odd rank's `asked` as MPI_INT (lst), the odd rank the other way round (back): each half carries
// derivatives as its own datatype says. J = sum_ranks (sum_j (sin(in_j) x[want_j] + 0.1 x_j^2) +
// 0.01 sum_j lst_j x_j (even ranks) + sum_j back_j x_j^2 (odd ranks)) by an MPI_Allreduce.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J must be the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 6, K = 4 };

__attribute__((noinline)) static void gather(const double *x, int *got, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int want[K], asked[K], mytag = 100 + rank, histag = -1;
  double out[K], in[K], s = 0;
  for (int j = 0; j < K; j++) want[j] = (2 * j + rank + 1) % N;
  MPI_Sendrecv(want, K, MPI_INT, next, 1, asked, K, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request req[4];
  MPI_Irecv(&histag, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(in, K, MPI_DOUBLE, next, 3, MPI_COMM_WORLD, &req[1]);
  for (int j = 0; j < K; j++) out[j] = x[asked[j]] * x[asked[j]];
  MPI_Isend(&mytag, 1, MPI_INT, next, 2, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(out, K, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  for (int j = 0; j < K; j++) got[j] = asked[j];
  got[K] = histag;
  for (int j = 0; j < K; j++) s += sin(in[j]) * x[want[j]];
  for (int j = 0; j < N; j++) s += 0.1 * x[j] * x[j];
  int partner = rank ^ 1, lst[K];
  double back[K];
  if (partner < size && rank % 2 == 0) {
    MPI_Sendrecv(in, K, MPI_DOUBLE, partner, 4, lst, K, MPI_INT, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int j = 0; j < K; j++) s += 0.01 * lst[j] * x[j];
  } else if (partner < size) {
    MPI_Sendrecv(asked, K, MPI_INT, partner, 4, back, K, MPI_DOUBLE, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int j = 0; j < K; j++) s += back[j] * x[j] * x[j];
  }
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static double objective(void *ctx, double *x) {
  double J;
  gather(x, ctx, &J);
  return J;
}

/* The integers the previous rank sent, as they must arrive. */
static void check_ints(const int *got, int rank, int size) {
  int prev = (rank + size - 1) % size;
  for (int j = 0; j < K; j++) CHECK_CLOSE(got[j], (2 * j + prev + 1) % N, 0);
  CHECK_CLOSE(got[K], 100 + prev, 0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int got[K + 1];
  double x[N], dx[N] = {0}, v[N], tx[N], J, dJ = rank == 0, tJ = 0;
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.2 * rank - 0.4, v[i] = cos(0.9 + i + 2 * rank);
  for (int j = 0; j <= K; j++) got[j] = -7;
  __parad_autodiff((void *)gather, x, dx, parad_const, got, &J, &dJ);
  check_ints(got, rank, size);
  mpi_fd_gradient(objective, got, x, N, dx, 1e-6, 1e-7);
  for (int i = 0; i < N; i++) tx[i] = v[i];
  for (int j = 0; j <= K; j++) got[j] = -7;
  __parad_fwddiff((void *)gather, x, tx, parad_const, got, &J, &tJ);
  check_ints(got, rank, size);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  CHECK_CLOSE(J, objective(got, x), 1e-14);
  return mpi_check_done();
}
