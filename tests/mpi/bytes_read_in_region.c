// Packed particle records, struct {int id, type; double x[3], q;}, copied by memcpy into a work buffer and
// passed round the ring of ranks as MPI_BYTE with MPI_Sendrecv_replace; the records that arrive are read
// only inside an OpenMP parallel loop (a particle decomposition's ghost pass). What the buffer's bytes hold
// comes from how it is indexed, and the region indexes it through the shared variable's address (its
// function loads the pointer): not followed, the file was refused with -fopenmp ("moves active memory as
// bytes ... cannot tell which of them are floats"), and built without. The region's function is followed
// now (analysis/memtype.c, object_type). E = sum_i sum_k g_k.x0 o_i.x1 g_k.q over own records o and ghosts
// g (the previous rank's records); its gradient on rank 0 only (E's adjoint 1 there): with respect to the
// own records, by central differences over all ranks' E (h = 1e-6, relative 1e-6), at 1 to 3 ranks and 1
// and 2 threads, -O2 and -O0.
// RUN: %mpicc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=2 %mpirun 1 %t && OMP_NUM_THREADS=2 %mpirun 2 %t && OMP_NUM_THREADS=1 %mpirun 3 %t
// RUN: %mpicc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %mpirun 2 %t0
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);

typedef struct { int id, type; double x[3], q; } Rec;
enum { N = 4 };

static void energy(Rec *own, int n, double *E) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Rec *buf = malloc(sizeof(Rec) * n);
  memcpy(buf, own, sizeof(Rec) * n);
  MPI_Sendrecv_replace(buf, n * (int)sizeof(Rec), MPI_BYTE, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) e += buf[k].x[0] * own[i].x[1] * buf[k].q * (1 + buf[k].type);
  MPI_Allreduce(&e, E, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(buf);
}

static Rec records[N];

static double total(void *ctx, double v) {
  double *field = ctx, keep = *field, E;
  *field = v;
  energy(records, N, &E);
  *field = keep;
  return E;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Rec grad[N];
  for (int k = 0; k < N; k++)
    records[k] = (Rec){k, k % 2, {1 + k + rank, 2 - k + 0.5 * rank, 0}, 0.5 + rank + 0.1 * k};
  memset(grad, 0, sizeof grad);
  double E, dE = rank == 0;
  __parad_autodiff((void *)energy, records, grad, N, &E, &dE);
  /* every rank perturbs its own record in turn, all ranks evaluating E together */
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int r = 0; r < size; r++)
    for (int k = 0; k < N; k += 3)
      for (int f = 0; f < 3; f++) {
        double *field = f == 0 ? &records[k].x[0] : f == 1 ? &records[k].x[1] : &records[k].q;
        double h = 1e-6, up, down, dummy = 0, *at = rank == r ? field : &dummy;
        up = total(at, *at + h);
        down = total(at, *at - h);
        if (rank == r) CHECK_CLOSE(f == 0 ? grad[k].x[0] : f == 1 ? grad[k].x[1] : grad[k].q, (up - down) / (2 * h), 1e-6);
      }
  int failed = check_done();
  MPI_Finalize();
  return failed;
}
