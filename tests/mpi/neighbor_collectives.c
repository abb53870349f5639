// Neighbourhood collectives on a Cartesian communicator: a 2-D grid of ranks (MPI_Dims_create), periodic
// in its first dimension and not in its second, so that ranks at the second's edges have MPI_PROC_NULL
// neighbours whose parts are neither sent nor received (the receive buffer keeps what it held).
//   MPI_Neighbor_alltoall:   two values of x to each of the four neighbours, a different pair each;
//   MPI_Neighbor_allgather:  the same three values to all of them;
//   MPI_Neighbor_alltoallv with counts 1, 1, 2, 2 and MPI_Neighbor_allgatherv, gaps between the parts.
// Then MPI_Ineighbor_alltoall and MPI_Ineighbor_allgatherv (one value from each neighbour, gaps between),
// completed by MPI_Waitall after other work.
// And on a distributed graph whose sources are its destinations (a ring: left, then right), which is its
// own transpose too: MPI_Neighbor_alltoall and MPI_Neighbor_allgather. (A distributed graph of other
// shape stops the program with the reason.)
// Every receive buffer is filled from x first (what an edge's part keeps), and J sums smooth functions of
// the received values and x over all ranks (MPI_Allreduce). The adjoint of each call is the same call on
// the adjoints (the neighbourhood is its own transpose), with nothing moved at an edge. Reverse mode (J's
// adjoint on rank 0 only) against central finite differences over every value of every rank (h = 1e-6,
// tolerance 1e-7); forward tangents against sum_ranks gradient . v (1e-12). 1 to 4 ranks (a 2 x 2 grid at
// 4), Open MPI and MPICH; -O0 at 3 ranks.
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 -lm && %mpirun 3 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 10, PARTS = 4 };
static MPI_Comm grid, ring;

__attribute__((noinline)) static void f(double *x, double *J) {
  double send[2 * PARTS], recv[2 * PARTS], gathered[3 * PARTS], vsend[8], vrecv[10], vgath[12];
  for (int k = 0; k < 2 * PARTS; k++) send[k] = x[k] * x[(k + 3) % N], recv[k] = 0.5 * x[(k + 1) % N];
  for (int k = 0; k < 3 * PARTS; k++) gathered[k] = 0.25 * x[k % N] * x[k % N];
  MPI_Neighbor_alltoall(send, 2, MPI_DOUBLE, recv, 2, MPI_DOUBLE, grid);
  MPI_Neighbor_allgather(&x[4], 3, MPI_DOUBLE, gathered, 3, MPI_DOUBLE, grid);
  /* the same count both ways along a dimension: where both neighbours are one rank (a periodic dimension
     of 1 or 2 ranks) Open MPI and MPICH pair the parts differently */
  int sc[PARTS] = {1, 1, 2, 2}, sd[PARTS] = {0, 2, 3, 6}, rc[PARTS] = {1, 1, 2, 2}, rd[PARTS] = {0, 2, 4, 7};
  for (int k = 0; k < 8; k++) vsend[k] = sin(x[k]) + x[9];
  for (int k = 0; k < 10; k++) vrecv[k] = x[k] / 3;
  for (int k = 0; k < 12; k++) vgath[k] = x[(k + 2) % N];
  MPI_Neighbor_alltoallv(vsend, sc, sd, MPI_DOUBLE, vrecv, rc, rd, MPI_DOUBLE, grid);
  int gc[PARTS] = {2, 2, 2, 2}, gd[PARTS] = {0, 3, 6, 9};
  MPI_Neighbor_allgatherv(&x[1], 2, MPI_DOUBLE, vgath, gc, gd, MPI_DOUBLE, grid);
  /* a distributed graph whose sources are its destinations: a ring, left then right */
  double out[2] = {x[0] * x[1], x[N - 1]}, in[2] = {0.3 * x[2], 0.4 * x[3]}, all[4];
  MPI_Neighbor_alltoall(out, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, ring);
  MPI_Neighbor_allgather(&x[6], 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, ring);
  /* the non-blocking forms, completed together after work that does not touch their buffers */
  double isend[2 * PARTS], irecv[2 * PARTS], igath[2 * PARTS], work = 0;
  for (int k = 0; k < 2 * PARTS; k++) isend[k] = cos(x[k]) * x[9], irecv[k] = x[k] / 5, igath[k] = x[(k + 4) % N];
  MPI_Request rq[2];
  MPI_Ineighbor_alltoall(isend, 2, MPI_DOUBLE, irecv, 2, MPI_DOUBLE, grid, &rq[0]);
  int ic[PARTS] = {1, 1, 1, 1}, id[PARTS] = {0, 2, 5, 7}; /* every neighbour sends one: gaps between */
  MPI_Ineighbor_allgatherv(&x[3], 1, MPI_DOUBLE, igath, ic, id, MPI_DOUBLE, grid, &rq[1]);
  for (int i = 0; i < N; i++) work += x[i] * x[i] * x[i];
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  double local = in[0] * in[0] + 3 * in[1] * x[5] + all[0] * all[3] - all[1] * all[2] + work / 10;
  for (int k = 0; k < 2 * PARTS; k++) local += irecv[k] * irecv[k] * (k + 1) + igath[k] * x[(k + 6) % N];
  for (int k = 0; k < 2 * PARTS; k++) local += recv[k] * recv[k] * (1 + 0.1 * k) + recv[k] * x[k % N];
  for (int k = 0; k < 3 * PARTS; k++) local += cos(gathered[k]) * x[(k + 5) % N];
  for (int k = 0; k < 10; k++) local += vrecv[k] * x[(k + 7) % N];
  for (int k = 0; k < 12; k++) local += vgath[k] * vgath[k] * (k % 3 + 1);
  MPI_Allreduce(&local, J, 1, MPI_DOUBLE, MPI_SUM, grid);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4), size, dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int sides[2] = {(rank + size - 1) % size, (rank + 1) % size};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sides, MPI_UNWEIGHTED, 2, sides, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 * sin(0.7 * i + rank) + 0.1 * i, v[i] = cos(0.3 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&ring);
  return mpi_check_done();
}
