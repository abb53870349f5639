// A halo exchange of atom records, struct {int id; double x[3]; int type;}, sent as arrays of MPI_BYTE:
// each rank owns N = 2 atoms (ids rank N + i, types (rank + i) % 2, positions x_ik + 0.1 sin(x_ik) from its
// x) in a stack array and sends them to the next rank in a ring by MPI_Sendrecv, receiving the previous
// rank's; it also copies them field by field, shifted by 0.2 x_i0, into a heap array sent to the previous
// rank by MPI_Isend, receiving the next rank's by MPI_Irecv (MPI_Waitall). Every own atom i interacts with
// every ghost atom g: s += (1 + type_g / 2) exp(-|r_i - r_g|^2 / 2) + 0.001 id_g. At 1 rank the ghosts are
// the rank's own atoms; at 2 ranks both come from the one neighbour (the tags tell them apart). The ints
// must arrive exactly (the types weight the gradient, the ids shift J, checked against the plain J), and
// only the doubles among the bytes carry derivatives: the records' layout comes from the arrays' struct
// type (the stack arrays' types; the heap block indexed as an array of the struct).
// Before bytes were read by what the buffer holds, no derivative crossed the messages, silently.
// Reverse mode: J's adjoint is 1 on rank 0 only; the gradient is checked against central finite
// differences over every value of every rank (h = 1e-6, tolerance 1e-7). Forward mode: the tangent of J
// along v must equal sum_ranks grad . v (tolerance 1e-12), and the primal J the plain one (1e-14).
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 1 %t0 && %mpirun 2 %t0 && %mpirun 3 %t0 && %mpirun 4 %t0
#include <math.h>
#include <stdlib.h>
#include "atom.h"
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 2 };

__attribute__((noinline)) static void halo(double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  Atom own[N], ghost[N];
  double s = 0;
  for (int i = 0; i < N; i++) {
    own[i].id = rank * N + i;
    own[i].type = (rank + i) % 2;
    for (int k = 0; k < 3; k++) own[i].x[k] = x[3 * i + k] + 0.1 * sin(x[3 * i + k]);
  }
  MPI_Sendrecv(own, N * sizeof(Atom), MPI_BYTE, next, 0, ghost, N * sizeof(Atom), MPI_BYTE, prev, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  Atom *out = malloc(N * sizeof(Atom)), *in = malloc(N * sizeof(Atom));
  for (int i = 0; i < N; i++) {
    out[i].id = own[i].id, out[i].type = own[i].type;
    for (int k = 0; k < 3; k++) out[i].x[k] = own[i].x[k] + 0.2 * x[3 * i];
  }
  MPI_Request req[2];
  MPI_Irecv(in, N * sizeof(Atom), MPI_BYTE, next, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(out, N * sizeof(Atom), MPI_BYTE, prev, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  for (int i = 0; i < N; i++)
    for (int g = 0; g < N; g++) s += atom_pair(&own[i], &ghost[g]) + atom_pair(&own[i], &in[g]);
  free(out), free(in);
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, halo)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[3 * N], v[3 * N];
  for (int i = 0; i < 3 * N; i++) x[i] = 0.25 * i - 0.3 * rank + 0.1, v[i] = cos(1.0 + 2 * i + rank);
  MPI_CHECK_BOTH_MODES(halo, objective, x, 3 * N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
