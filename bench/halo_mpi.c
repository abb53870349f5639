/* The halo-exchange heat solver of examples/halo.h (a 2-D plate split by rows over MPI ranks, edge rows
 * exchanged with MPI_Isend / MPI_Irecv / MPI_Waitall every step) and its gradient by Parad's reverse mode,
 * timed at 1, 2 and 4 ranks in one run: started with mpirun -np 4, it times the solver on communicators
 * of the first 1, 2 and 4 ranks (the others wait). Prints primal and gradient times, gradient/primal, and
 * the speed-up of each over 1 rank (strong scaling: the plate is the same size at every rank count).
 * Before timing, checks the gradient against central finite differences (dJ/dkappa, and one cell per
 * rank; relative 1e-6). Times are the median of 5 trials, each the slowest rank's; ranks outside the timed
 * communicator sleep.
 * Built with OMPI_CC=parad-cc mpicc -O2 by scripts/bench. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../examples/halo.h"

double __parad_autodiff(void *, ...);
extern int parad_const;

enum { N = 512, STEPS = 50, TRIALS = 5 };

static int rows;
static double *u0, *du0, *work, *dwork;
static const double kappa = 0.2;

static double primal(MPI_Comm comm, double k) {
  double J;
  memset(work, 0, sizeof(double) * 2 * (rows + 2) * N);
  halo_heat(u0, work, k, rows, N, STEPS, comm, &J);
  return J;
}

static double gradient(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double J, dJ = rank == 0;
  memset(work, 0, sizeof(double) * 2 * (rows + 2) * N);
  memset(dwork, 0, sizeof(double) * 2 * (rows + 2) * N);
  memset(du0, 0, sizeof(double) * rows * N);
  double dk = __parad_autodiff((void *)halo_heat, u0, du0, work, dwork, kappa, parad_const, rows, parad_const, N,
                               parad_const, STEPS, parad_const, comm, &J, &dJ);
  double total;
  MPI_Allreduce(&dk, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

/* A barrier of all ranks that sleeps while it waits: ranks outside the timed communicator must not take
 * the cores of those inside (this machine may have fewer cores than ranks). */
static void sleeping_barrier(void) {
  MPI_Request q;
  MPI_Ibarrier(MPI_COMM_WORLD, &q);
  for (int done = 0;;) {
    MPI_Test(&q, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Seconds per call, the same on every rank of comm: the median of TRIALS trials of the slowest rank. */
static double timed(MPI_Comm comm, int which) {
  double t[TRIALS];
  for (int trial = -1; trial < TRIALS; trial++) { /* trial -1 warms up */
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    if (which) gradient(comm);
    else primal(comm, kappa);
    double mine = MPI_Wtime() - t0, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (trial >= 0) t[trial] = slowest;
  }
  qsort(t, TRIALS, sizeof t[0], compare);
  return t[TRIALS / 2];
}

/* The gradient against finite differences on comm; returns the number of failed checks. */
static int check(MPI_Comm comm) {
  int rank, size, bad = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double dk = gradient(comm), h = 1e-5;
  double fd = (primal(comm, kappa + h) - primal(comm, kappa - h)) / (2 * h);
  bad += !(fabs(fd - dk) <= 1e-6 * fabs(fd));
  for (int r = 0; r < size; r++) {
    size_t k = (size_t)(rows / 2) * N + N / 3;
    double save = u0[k];
    if (rank == r) u0[k] = save + 1e-3;
    double hi = primal(comm, kappa);
    if (rank == r) u0[k] = save - 1e-3;
    double lo = primal(comm, kappa);
    u0[k] = save;
    double f = (hi - lo) / 2e-3;
    if (rank == r && !(fabs(f - du0[k]) <= 1e-6 * fabs(f) + 1e-14)) {
      printf("  FAIL dJ/du0 at rank %d: %.12g, finite differences %.12g\n", r, du0[k], f);
      bad++;
    }
  }
  int total;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, comm);
  return total;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int world_rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (world_rank == 0)
    printf("2-D heat solver with halo exchange (MPI_Isend/Irecv/Waitall): %d x %d plate, %d steps, split by rows; "
           "gradient with respect to u0 and kappa\n  ranks      primal    gradient   ratio\n", N, N, STEPS);
  double p1 = 0, g1 = 0;
  int bad = 0;
  for (int ranks = 1; ranks <= world_size; ranks *= 2) {
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < ranks ? 0 : MPI_UNDEFINED, world_rank, &comm);
    if (comm != MPI_COMM_NULL) {
      rows = N / ranks;
      size_t local = (size_t)rows * N, ghosts = 2 * (size_t)(rows + 2) * N;
      u0 = malloc(sizeof(double) * local), du0 = calloc(local, sizeof(double));
      work = calloc(ghosts, sizeof(double)), dwork = calloc(ghosts, sizeof(double));
      for (size_t k = 0; k < local; k++) {
        int i = world_rank * rows + (int)(k / N), j = (int)(k % N);
        u0[k] = (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? 0 : sin(0.05 * i) * cos(0.03 * j) + 0.5;
      }
      bad += check(comm);
      double p = timed(comm, 0), g = timed(comm, 1);
      if (ranks == 1) p1 = p, g1 = g;
      if (world_rank == 0)
        printf("  %5d %8.2f ms %8.2f ms %7.2f   speed-up over 1 rank: primal %.2f, gradient %.2f\n", ranks, p * 1e3,
               g * 1e3, g / p, p1 / p, g1 / g);
      fflush(stdout);
      free(u0), free(du0), free(work), free(dwork);
      MPI_Comm_free(&comm);
    }
    sleeping_barrier();
  }
  int any;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (world_rank == 0)
    printf("  checks: %s\n", any ? "FAILED" : "ok (dJ/dkappa and one cell per rank against finite differences to 1e-6)");
  MPI_Finalize();
  return any != 0;
}
