// The atom record struct {int id; double x[3]; int type;} as a derived datatype: MPI_Type_create_struct of
// its fields (MPI_INT, 3 MPI_DOUBLE, MPI_INT at their offsets), MPI_Type_create_resized to sizeof the
// struct. Each rank owns N = 3 atoms (ids, types (rank + i) % 2, positions x_ik + 0.1 sin(x_ik)); it sends
// atoms 0 and 2 to the next rank in a ring with MPI_Type_indexed (blocks of one atom at 0 and 2), received
// as 2 contiguous atoms g from the previous rank by MPI_Sendrecv; rank 0 gathers every rank's g
// (MPI_Gather, 2 atoms each), moves each gathered atom k by 0.1 sin of its neighbour's coordinates and
// scatters them back (MPI_Scatter, 2 each) into b. s = sum over own atoms a and ghosts g of (1 + type_g / 2)
// exp(-|r_a - r_g|^2 / 2) + 0.001 id_g, plus sum over b of (1 + type) |r_b|^2 / 4; J is the MPI_Allreduce(SUM)
// of s. The ints must arrive exactly; only the doubles carry derivatives, and the padding after the last
// int (inside the resized extent) none. Before derived datatypes were read from the library, the run
// stopped (the datatype was not one Parad knew).
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include <stddef.h>
#include "atom.h"
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 3, MAX_RANKS = 4 };

__attribute__((noinline)) static void atoms(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int lengths[3] = {1, 3, 1}, blocks[2] = {1, 1}, at[2] = {0, 2};
  MPI_Aint offsets[3] = {offsetof(Atom, id), offsetof(Atom, x), offsetof(Atom, type)};
  MPI_Datatype fields[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, record, atom, pick;
  MPI_Type_create_struct(3, lengths, offsets, fields, &record);
  MPI_Type_create_resized(record, 0, sizeof(Atom), &atom);
  MPI_Type_indexed(2, blocks, at, atom, &pick);
  MPI_Type_commit(&atom);
  MPI_Type_commit(&pick);
  Atom own[N], g[2], all[2 * MAX_RANKS], b[2];
  double s = 0;
  for (int i = 0; i < N; i++) {
    own[i].id = rank * N + i;
    own[i].type = (rank + i) % 2;
    for (int k = 0; k < 3; k++) own[i].x[k] = x[3 * i + k] + 0.1 * sin(x[3 * i + k]);
  }
  MPI_Sendrecv(own, 1, pick, next, 0, g, 2, atom, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Gather(g, 2, atom, all, 2, atom, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int k = 0; k < 2 * size; k++)
      for (int d = 0; d < 3; d++) all[k].x[d] += 0.1 * sin(all[(k + 1) % (2 * size)].x[(d + 1) % 3]);
  MPI_Scatter(all, 2, atom, b, 2, atom, 0, MPI_COMM_WORLD);
  MPI_Type_free(&record);
  MPI_Type_free(&atom);
  MPI_Type_free(&pick);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 2; k++) s += atom_pair(&own[i], &g[k]);
  for (int k = 0; k < 2; k++)
    for (int d = 0; d < 3; d++) s += 0.25 * (1 + b[k].type) * b[k].x[d] * b[k].x[d];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, atoms)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, MAX_RANKS);
  double x[3 * N], v[3 * N];
  for (int i = 0; i < 3 * N; i++) x[i] = 0.2 * i - 0.35 * rank + 0.05, v[i] = sin(1.1 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(atoms, objective, x, 3 * N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
