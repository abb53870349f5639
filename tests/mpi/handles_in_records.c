// MPI handles kept in records, as solvers keep them: a context record passed constant that holds a
// Cartesian communicator, a duplicate of MPI_COMM_WORLD and a derived datatype beside the problem's sizes;
// and a local record holding an active array beside the communicator, handed to a function that is not
// inlined. Under Open MPI a communicator or datatype is a pointer: it needs no shadow, but a pointer read
// from constant memory and given to MPI was taken as data, and both programs were refused ("needs a shadow
// for memory that has none"); under MPICH handles are integers and both built.
//   stepped: a checkpointed time loop in a helper (u <- u - 0.05 u G + 0.01 sin u, G the global sum of
//            squares over c->comm, then a ring shift of the last value over c->cart), J = global sum of u.
//   local:   a ring shift of x_i^2 + sin x_i through a noinline function given {values, comm, type}, then
//            J = global sum of the shifted values times x.
// Reverse mode (J seeded on rank 0) against central differences over every value of every rank (h 1e-6,
// tolerance 1e-7); forward mode against sum over ranks of gradient . v (1e-12); at -O2 and -O0, 1 to 3
// ranks.
// RUN: %mpicc %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t
// RUN: %mpicc -O0 -I%S/../include %s -o %t0 && %mpirun 2 %t0
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 5, STEPS = 12 };

typedef struct {
  MPI_Comm comm, cart;
  MPI_Datatype pair;
  int n, steps;
} Ctx;

static void run(const double *x, const Ctx *c, double *J) {
  double *u = malloc(sizeof *u * (size_t)c->n), s = 0;
  for (int i = 0; i < c->n; i++) u[i] = x[i];
  for (int t = 0; t < c->steps; t++) {
    __parad_checkpoint_loop();
    double m = 0, G, last[2], from[2];
    for (int i = 0; i < c->n; i++) m += u[i] * u[i];
    MPI_Allreduce(&m, &G, 1, MPI_DOUBLE, MPI_SUM, c->comm);
    for (int i = 0; i < c->n; i++) u[i] = u[i] - 0.05 * u[i] * G / (c->n * 4) + 0.01 * sin(u[i]);
    int left, right;
    MPI_Cart_shift(c->cart, 0, 1, &left, &right);
    last[0] = u[c->n - 1], last[1] = u[c->n - 2];
    MPI_Sendrecv(last, 1, c->pair, right, 7, from, 1, c->pair, left, 7, c->cart, MPI_STATUS_IGNORE);
    u[0] += 0.1 * from[0] - 0.02 * from[1];
  }
  for (int i = 0; i < c->n; i++) s += u[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, c->comm);
  free(u);
}

__attribute__((noinline)) void stepped(const double *x, const Ctx *c, double *J) { run(x, c, J); }

typedef struct {
  double *values;
  MPI_Comm comm;
  MPI_Datatype type;
  int n;
} Ring;

__attribute__((noinline)) static void shift(const Ring *r, double *into) {
  int rank, size;
  MPI_Comm_rank(r->comm, &rank);
  MPI_Comm_size(r->comm, &size);
  MPI_Sendrecv(r->values, r->n, r->type, (rank + 1) % size, 3, into, r->n, r->type, (rank + size - 1) % size, 3, r->comm,
               MPI_STATUS_IGNORE);
}

__attribute__((noinline)) void local(const double *x, MPI_Comm comm, double *J) {
  double a[N], b[N], s = 0;
  for (int i = 0; i < N; i++) a[i] = x[i] * x[i] + sin(x[i]);
  Ring r = {a, comm, MPI_DOUBLE, N};
  shift(&r, b);
  for (int i = 0; i < N; i++) s += b[i] * x[i];
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, comm);
}

static Ctx ctx;
static MPI_Comm dup;

static double stepped_objective(void *unused, double *x) {
  (void)unused;
  double J;
  stepped(x, &ctx, &J);
  return J;
}

static double local_objective(void *unused, double *x) {
  (void)unused;
  double J;
  local(x, dup, &J);
  return J;
}

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4), size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm_dup(MPI_COMM_WORLD, &ctx.comm);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ctx.cart);
  MPI_Type_contiguous(2, MPI_DOUBLE, &ctx.pair);
  MPI_Type_commit(&ctx.pair);
  ctx.n = N, ctx.steps = STEPS;

  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.21 * i - 0.3 * rank + 0.15, v[i] = cos(0.3 + 2 * i + rank);
  for (int which = 0; which < 2; which++) {
    double dx[N] = {0}, tx[N], J, dJ = rank == 0, tJ = 0, dot = 0;
    for (int i = 0; i < N; i++) tx[i] = v[i];
    if (which == 0) {
      __parad_autodiff((void *)stepped, x, dx, parad_const, &ctx, &J, &dJ);
      mpi_fd_gradient(stepped_objective, NULL, x, N, dx, 1e-6, 1e-7);
      __parad_fwddiff((void *)stepped, x, tx, parad_const, &ctx, &J, &tJ);
      CHECK_CLOSE(J, stepped_objective(NULL, x), 1e-13);
    } else {
      __parad_autodiff((void *)local, x, dx, parad_const, dup, &J, &dJ);
      mpi_fd_gradient(local_objective, NULL, x, N, dx, 1e-6, 1e-7);
      __parad_fwddiff((void *)local, x, tx, parad_const, dup, &J, &tJ);
      CHECK_CLOSE(J, local_objective(NULL, x), 1e-13);
    }
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    CHECK_CLOSE(tJ, mpi_sum(dot), 1e-12);
  }
  MPI_Type_free(&ctx.pair);
  MPI_Comm_free(&ctx.cart);
  MPI_Comm_free(&ctx.comm);
  MPI_Comm_free(&dup);
  return mpi_check_done();
}
