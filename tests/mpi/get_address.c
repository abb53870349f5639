// A struct datatype built from MPI_Get_address displacements, as textbooks build one: the addresses of a
// sample element's fields minus its own (MPI_Get_address moves no data; it was refused with active data
// "cannot differentiate MPI_Get_address with active data"). Each rank sends its two particles {id, charge,
// position} to the next rank and receives the previous rank's. J: the received charges times positions,
// summed over the ranks, with x^2 terms of its own. Reverse mode against central finite differences of J
// over every value of every rank (h = 1e-6, tolerance 1e-7); the tangent along v against sum_ranks
// gradient . v (1e-12), at 1 to 3 ranks, -O2 and -O0. MPI_BOTTOM with absolute addresses stays refused:
// tests/diag/mpi_bottom.c.
// RUN: %mpicc %cflags %s -o %t -lm && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 -lm && %mpirun 2 %t0
#include <math.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 4, MAXR = 4 };

typedef struct {
  int id;
  double charge, pos[2];
} Particle;

__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Particle mine[2], theirs[2];
  for (int k = 0; k < 2; k++)
    mine[k] = (Particle){rank * 2 + k, x[2 * k] * x[2 * k + 1], {sin(x[2 * k]), x[2 * k + 1] + rank}};
  MPI_Aint base, d[3];
  int lengths[3] = {1, 1, 2};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE}, one, particle;
  MPI_Get_address(&mine[0], &base);
  MPI_Get_address(&mine[0].id, &d[0]);
  MPI_Get_address(&mine[0].charge, &d[1]);
  MPI_Get_address(&mine[0].pos[0], &d[2]);
  for (int k = 0; k < 3; k++) d[k] = MPI_Aint_diff(d[k], base);
  MPI_Type_create_struct(3, lengths, d, types, &one);
  MPI_Type_create_resized(one, 0, sizeof(Particle), &particle);
  MPI_Type_commit(&particle);
  MPI_Sendrecv(mine, 2, particle, (rank + 1) % size, 0, theirs, 2, particle, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&particle);
  MPI_Type_free(&one);
  double s = 0;
  for (int k = 0; k < 2; k++) s += theirs[k].charge * (theirs[k].pos[0] + 2 * theirs[k].pos[1]) * (theirs[k].id % 2 + 1);
  for (int i = 0; i < N; i++) s += 0.1 * x[i] * x[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_CHECK_MAIN(f, N, MAXR)
