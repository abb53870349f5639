// Derivatives requested inside a parallel loop (per-sample gradients) of functions that use globals:
//   scratch: each call keeps its intermediate values in its own row of a global array (row = the thread),
//            which gives the global a derivative of its own: one for the whole program, zeroed at every
//            derivative's entry, so two calls running at once on two threads wiped each other's (gradient
//            entries came back 0 now and then, no message). Serially: right (analytic, 1e-12). Two at once
//            (forward mode, the threads made to meet inside the calls): the program stops with a message
//            (exit 70) instead.
//   logged:  an atomic call counter and an atomic sum of the losses (logging) beside per-sample gradients in
//            parallel, and a table of constants filled on the first call (pthread_once): their globals'
//            derivatives carry nothing from one place to another, and the calls run at once, right (analytic,
//            1e-12), at 1, 2 and 4 threads, in both modes.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=4 %t0
// RUN: %parad-cc %cflags -fopenmp -DMEET %s -o %t1 -lm && env OMP_NUM_THREADS=2 not %t1 2>&1 | FileCheck %s
// CHECK: parad runtime: two derivatives that use a global variable's derivative {{.*}} ran at once on two threads
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 8, S = 240 };

double scratch[64][N];

double scratch_loss(const double *w, const double *x, int row) {
  double *t = scratch[row];
  for (int i = 0; i < N; i++) t[i] = w[i] * x[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += t[i] * t[i];
  return s;
}

int arrived;

/* the same, after waiting for the other thread to be inside its call too */
double meeting_loss(const double *w, const double *x, int row) {
  __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < 2) {
  }
  return scratch_loss(w, x, row);
}

int calls;
double total;
static double table[N];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void fill(void) {
  for (int i = 0; i < N; i++) table[i] = 2 - 0.125 * i;
}

double logged_loss(const double *w, const double *x) {
  pthread_once(&once, fill);
  double s = 0;
  for (int i = 0; i < N; i++) s += table[i] * (w[i] - x[i]) * (w[i] - x[i]);
#pragma omp atomic
  calls++;
#pragma omp atomic
  total += s;
  return s;
}

static double w[N], X[S][N], G[S][N], T[S];

int main(void) {
  for (int i = 0; i < N; i++) w[i] = 0.5 + 0.1 * i;
  for (int s = 0; s < S; s++)
    for (int i = 0; i < N; i++) X[s][i] = 1 + 0.001 * s + 0.1 * i;
#ifdef MEET
  double t[N] = {1};
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int s = 0; s < 2; s++) T[s] = __parad_fwddiff((void *)meeting_loss, w, t, parad_const, X[s], omp_get_thread_num());
  return 0;
#endif
  for (int s = 0; s < S; s++) /* serially: right */
    __parad_autodiff((void *)scratch_loss, w, G[s], parad_const, X[s], s % 64);
  for (int s = 0; s < S; s++)
    for (int i = 0; i < N; i++) CHECK_CLOSE(G[s][i], 2 * w[i] * X[s][i] * X[s][i], 1e-12);
  for (int s = 0; s < S; s++)
    for (int i = 0; i < N; i++) G[s][i] = 0;
#pragma omp parallel for schedule(dynamic, 3)
  for (int s = 0; s < S; s++) {
    __parad_autodiff((void *)logged_loss, w, G[s], parad_const, X[s]);
    double t[N];
    for (int i = 0; i < N; i++) t[i] = 1;
    T[s] = __parad_fwddiff((void *)logged_loss, w, t, parad_const, X[s]);
  }
  double sum = 0;
  for (int s = 0; s < S; s++) {
    double dot = 0;
    for (int i = 0; i < N; i++) {
      double g = 2 * (2 - 0.125 * i) * (w[i] - X[s][i]);
      CHECK_CLOSE(G[s][i], g, 1e-12);
      dot += g;
      sum += (2 - 0.125 * i) * (w[i] - X[s][i]) * (w[i] - X[s][i]);
    }
    CHECK_CLOSE(T[s], dot, 1e-12);
  }
  CHECK_CLOSE(calls, 2.0 * S, 0); /* two derivatives per sample, each running the function once */
  CHECK_CLOSE(total, 2 * sum, 1e-12);
  return check_done();
}
