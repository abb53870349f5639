// A std::vector of structs sent as raw bytes: Cell = {double u, v; int id} (24 bytes with its padding), a
// rank's N cells sent as sizeof(Cell) * N MPI_BYTE to the next rank in a ring by MPI_Send and received from
// the previous one by MPI_Recv (rank 0 sends first, the others receive first; at 1 rank, where a blocking
// send to oneself may wait forever, one MPI_Sendrecv to itself instead). Derivatives go through the
// doubles inside the bytes, the ints carry none:
//   u_i = sin(x_i), v_i = x_i x_{i+1 mod N}, id_i = N rank + i, (U, V, ID) the cells received,
//   J = sum_ranks sum_i (1 + 0.1 (ID_i mod N)) (U_i x_i + V_i^2 + U_i V_i)   by MPI_Allreduce.
// The received ids are checked (they must be the previous rank's). Reverse mode (J's adjoint 1 on rank 0
// only) against central finite differences over every value of every rank (h = 1e-6, tolerance 1e-7);
// forward tangent along v against sum_ranks gradient . v (1e-12); primal J against the plain one (1e-14);
// at 1 to 4 ranks.
// RUN: %mpicxx %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <cmath>
#include <vector>
#include "mpicheck.h"

extern "C" void __parad_autodiff(void *, ...);
extern "C" void __parad_fwddiff(void *, ...); /* ring returns nothing: its tangent is J's shadow */

struct Cell {
  double u, v;
  int id;
};

enum { N = 4 };

static int bad_ids;

__attribute__((noinline)) static void ring(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  std::vector<Cell> mine(N), theirs(N);
  for (int i = 0; i < N; i++) mine[i] = Cell{std::sin(x[i]), x[i] * x[(i + 1) % N], N * rank + i};
  const int bytes = (int)(sizeof(Cell) * N);
  if (size == 1) {
    MPI_Sendrecv(mine.data(), bytes, MPI_BYTE, next, 0, theirs.data(), bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  } else if (rank == 0) {
    MPI_Send(mine.data(), bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
    MPI_Recv(theirs.data(), bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(theirs.data(), bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(mine.data(), bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
  }
  double s = 0;
  for (int i = 0; i < N; i++) {
    const Cell &c = theirs[i];
    if (c.id != N * prev + i) bad_ids++;
    s += (1 + 0.1 * (c.id % N)) * (c.u * x[i] + c.v * c.v + c.u * c.v);
  }
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, ring)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i + 0.2 * rank - 0.1, v[i] = std::cos(1.0 + i + rank);
  MPI_CHECK_BOTH_MODES(ring, objective, x, N, v, 1e-6, 1e-7);
  check_count++;
  if (bad_ids) printf("FAIL: rank %d received %d cells with the wrong id\n", rank, bad_ids), check_failures++;
  return mpi_check_done();
}
