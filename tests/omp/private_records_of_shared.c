// A thread's own memory holding a pointer to shared memory, handed to a helper the optimiser does not
// inline: `Ctx c = {theta, n}; L += f(&c, i)` in a parallel loop. The helper's derivative took every pointer
// it was given for the thread's own (a stack record) and added the adjoints of theta plainly, from every
// thread at once: at 2 threads the gradient was 3-30% off, silently. Memory of the thread's own counts as
// such only where nothing may have put a pointer to shared memory in it (reverse/rev_memory.c rev_thread_own).
//   record:  the record built on the stack;
//   heap:    the record in a block the thread allocates;
//   filled:  the record filled by another helper given theta;
//   copied:  the record copied from a shared one (a struct assignment);
//   table:   an array of two pointers on the stack.
// Gradients against the analytic one (tolerance 1e-9 relative) at 1, 2 and 3 threads, -O2 and -O0; many
// iterations, so that lost updates show.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { N = 8, M = 60000 };

typedef struct {
  const double *theta;
  int n;
  double pad[6];
} Ctx;

__attribute__((noinline)) static double f(const Ctx *c, int i) {
  double s = 0;
  for (int k = 0; k < c->n; k++) s += sin(c->theta[k] * (i % 7 + 1));
  return s;
}

__attribute__((noinline)) double record(const double *theta, int n, int m) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 0; i < m; i++) {
    Ctx c = {theta, n, {0}};
    L += f(&c, i);
  }
  return L;
}

__attribute__((noinline)) double heap(const double *theta, int n, int m) {
  double L = 0;
#pragma omp parallel reduction(+ : L)
  {
    Ctx *c = malloc(sizeof *c);
    c->theta = theta, c->n = n;
#pragma omp for
    for (int i = 0; i < m; i++) L += f(c, i);
    free(c);
  }
  return L;
}

__attribute__((noinline)) static void fill(Ctx *c, const double *theta, int n) { c->theta = theta, c->n = n; }

__attribute__((noinline)) double filled(const double *theta, int n, int m) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 0; i < m; i++) {
    Ctx c;
    fill(&c, theta, n);
    L += f(&c, i);
  }
  return L;
}

__attribute__((noinline)) double copied(Ctx *shared, int m) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 0; i < m; i++) {
    Ctx c = *shared;
    L += f(&c, i);
  }
  return L;
}

__attribute__((noinline)) static double pair(const double *const *p, int n, int i) {
  double s = 0;
  for (int k = 0; k < n; k++) s += sin(p[0][k] * (i % 7 + 1)) + p[1][k] * p[1][k];
  return s;
}

__attribute__((noinline)) double table(const double *theta, const double *w, int n, int m) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 0; i < m; i++) {
    const double *p[2] = {theta, w};
    L += pair(p, n, i);
  }
  return L;
}

/* d/dtheta_k of sum_i sin(theta_k (i % 7 + 1)) */
static double want(const double *theta, int k) {
  double s = 0;
  for (int i = 0; i < M; i++) s += cos(theta[k] * (i % 7 + 1)) * (i % 7 + 1);
  return s;
}

int main(void) {
  double theta[N], w[N];
  for (int k = 0; k < N; k++) theta[k] = 0.1 * k + 0.05, w[k] = 0.3 - 0.02 * k;
  double g[5][N] = {{0}}, dw[N] = {0};
  __parad_autodiff((void *)record, theta, g[0], N, M);
  __parad_autodiff((void *)heap, theta, g[1], N, M);
  __parad_autodiff((void *)filled, theta, g[2], N, M);
  Ctx shared = {theta, N, {0}}, dshared = {g[3], N, {0}};
  __parad_autodiff((void *)copied, &shared, &dshared, M);
  __parad_autodiff((void *)table, theta, g[4], w, dw, N, M);
  for (int k = 0; k < N; k++) {
    double d = want(theta, k);
    for (int c = 0; c < 5; c++) CHECK_CLOSE(g[c][k], d, 1e-9);
    CHECK_CLOSE(dw[k], 2.0 * M * w[k], 1e-9);
  }
  return check_done();
}
