// Readers' adjoints one at a time. Where every task of a region comes from the region's one creator, which
// does nothing with adjoints but through its tasks, and every task names in its dependences all it reads
// and writes, the adjoints of the tasks that read a datum (depend(in:)) exclude each other
// (mutexinoutset) and add plainly into its shadow; elsewhere they add through private buffers merged
// atomically. Both modes, the gradient computed 40 times (a lost add would show in one of them):
//   exclusive: a task writes X, eight tasks read all of X (depend(in: X)) and write tiles of their own;
//   loose: the same, and a task that reads X without naming it (legal: nothing writes X meanwhile), whose
//     adjoint adds into X's shadow with no dependence to order it;
//   two creators: the tasks made by the threads of a worksharing loop (not siblings: no dependence orders
//     them), reading one datum;
//   partial: a task writes half of X (its inout) from the other half, which eight tasks read meanwhile
//     (their in): its adjoint adds plainly only into the half it wrote.
// f(x) = weighted sums of the tiles. Gradients against tangents (1e-11) and central differences (1e-6),
// at 1, 2 and 4 threads at -O2, 3 at -O0. Built counting adjoint updates (PARAD_COUNT_UPDATES), at 4
// threads: the exclusive graph adds atomically only into the shadow of its input (read by the writer,
// named by no dependence), the loose one and the two creators' also each reader's adds into X's, merged
// from private buffers.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -fopenmp -DCOUNT %s -o %t1 -lm && OMP_NUM_THREADS=4 %t1
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 512, R = 8, M = 6 };
#ifndef REPEATS
#define REPEATS 40 /* fewer under valgrind (valgrind.test) */
#endif

static void fill(double *restrict x, const double *restrict p) {
  for (int i = 0; i < N; i++) x[i] = sin(p[i % M] + 0.01 * i);
}

static void reader(const double *restrict x, double *restrict y, int r) {
  for (int i = 0; i < N; i++) y[i] = x[i] * x[(i * (r + 3)) % N] + cos(x[(i + r) % N]);
}

static double total(const double (*y)[N]) {
  double s = 0;
  for (int r = 0; r < R; r++)
    for (int i = 0; i < N; i++) s += (1 + 0.1 * r) * y[r][i] * cos(0.02 * i);
  return s;
}

static double exclusive(const double *p) {
  double X[N], Y[R][N];
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : X) shared(X)
    fill(X, p);
    for (int r = 0; r < R; r++) {
#pragma omp task depend(in : X) depend(out : Y[r]) shared(X, Y) firstprivate(r)
      reader(X, Y[r], r);
    }
  }
  return total(Y);
}

static double loose(const double *p) {
  double X[N], Y[R][N], Z[N];
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : X) shared(X)
    fill(X, p);
#pragma omp taskwait
    for (int r = 0; r < R; r++) {
#pragma omp task depend(in : X) depend(out : Y[r]) shared(X, Y) firstprivate(r)
      reader(X, Y[r], r);
    }
#pragma omp task depend(out : Z) shared(X, Z)
    reader(X, Z, 5); /* reads X without naming it */
  }
  return total(Y) + 0.5 * Z[7] + 0.25 * Z[300];
}

static double creators(const double *p) {
  double X[N], Y[R][N];
  fill(X, p);
#pragma omp parallel
#pragma omp for
  for (int r = 0; r < R; r++) {
#pragma omp task depend(in : X) depend(out : Y[r]) shared(X, Y) firstprivate(r)
    reader(X, Y[r], r);
  }
  return total(Y);
}

/* A task writes the lower half of X from the upper one, which other tasks read meanwhile (naming it):
 * its adjoint adds plainly only into the half it wrote, the rest with the others' adds. */
static double partial(const double *p) {
  double X[N], Y[R][N];
  fill(X, p);
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(inout : X[0 : N / 2]) shared(X)
    for (int i = 0; i < N / 2; i++) X[i] = X[i] * X[N / 2 + i] + sin(X[N - 1 - i]);
    for (int r = 0; r < R; r++) {
#pragma omp task depend(in : X[N / 2 : N / 2]) depend(out : Y[r]) shared(X, Y) firstprivate(r)
      for (int i = 0; i < N; i++) Y[r][i] = X[N / 2 + i / 2] * X[N / 2 + (i * (r + 1)) % (N / 2)];
    }
  }
  double s = total(Y);
  for (int i = 0; i < N / 2; i++) s += 0.3 * X[i] * cos(0.05 * i);
  return s;
}

static double f(const double *p) { return exclusive(p) + loose(p) + creators(p) + partial(p); }

int main(void) {
  double p[M], g[M], g0[M] = {0}, v[M];
  for (int i = 0; i < M; i++) p[i] = 0.3 * i - 0.8;
#ifdef COUNT
  unsigned long long plain, atomic[4];
  parad_adjoint_update_counts(&plain, &atomic[0]);
  __parad_autodiff((void *)exclusive, p, g0);
  parad_adjoint_update_counts(&plain, &atomic[1]);
  __parad_autodiff((void *)loose, p, g0);
  parad_adjoint_update_counts(&plain, &atomic[2]);
  __parad_autodiff((void *)creators, p, g0);
  parad_adjoint_update_counts(&plain, &atomic[3]);
  /* the exclusive graph: only the writer's reads of p, which no dependence names; the others: the
     readers' adds into X's shadow too, 8 x 512 */
  CHECK_CLOSE((double)(atomic[1] - atomic[0] <= M), 1, 0);
  CHECK_CLOSE((double)(atomic[2] - atomic[1] >= R * N), 1, 0);
  CHECK_CLOSE((double)(atomic[3] - atomic[2] >= R * N), 1, 0);
  return check_done();
#endif
  __parad_autodiff((void *)f, p, g0);
  for (int j = 0; j < M; j++) {
    for (int i = 0; i < M; i++) v[i] = i == j;
    CHECK_CLOSE(g0[j], __parad_fwddiff((void *)f, p, v), 1e-11);
    CHECK_CLOSE(g0[j], fd_component(f, p, M, j, 1e-5), 1e-6);
  }
  for (int t = 0; t < REPEATS; t++) {
    for (int i = 0; i < M; i++) g[i] = 0;
    __parad_autodiff((void *)f, p, g);
    for (int j = 0; j < M; j++) CHECK_CLOSE(g[j], g0[j], 1e-11);
  }
  return check_done();
}
