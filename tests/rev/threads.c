// The runtime is thread-safe: each thread has its own tape, so gradients computed at the same time in
// several threads (8 threads, each many calls, with tapes large enough to span several chunks) do not
// disturb each other. Each thread checks its gradients against the analytic values (tolerance 1e-12);
// the main thread checks one gradient against the forward tangents (tolerance 1e-12).
// RUN: %parad-cc %cflags -pthread %s -o %t && %t
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double chain(const double *x, int n, int steps) {
  double s = 0;
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++) s = 0.5 * s + sin(x[i] * (1 + 0.01 * t));
  return s;
}

enum { THREADS = 8, N = 50, STEPS = 400 };
static int failures[THREADS];

static void *work(void *arg) {
  int id = (int)(size_t)arg;
  double x[N], dx[N];
  for (int call = 0; call < 20; call++) {
    for (int i = 0; i < N; i++) x[i] = 0.01 * i + 0.1 * id + 0.001 * call, dx[i] = 0;
    __parad_autodiff((void *)chain, x, dx, parad_const, N, parad_const, STEPS);
    /* d s_final / d x_i: the recurrence s <- s/2 + sin(x_i a_t) by hand */
    double g[N] = {0}, w = 1;
    for (int t = STEPS - 1; t >= 0; t--)
      for (int i = N - 1; i >= 0; i--) {
        double a = 1 + 0.01 * t;
        g[i] += w * cos(x[i] * a) * a;
        w *= 0.5;
      }
    for (int i = 0; i < N; i++)
      if (!(fabs(dx[i] - g[i]) <= 1e-12 * fmax(1, fabs(g[i])))) failures[id]++;
  }
  return NULL;
}

int main(void) {
  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&th[i], NULL, work, (void *)(size_t)i);
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < THREADS; i++) CHECK_CLOSE(failures[i], 0, 0);
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.02 * i - 0.3;
  __parad_autodiff((void *)chain, x, dx, parad_const, N, parad_const, STEPS);
  for (int q = 0; q < N; q++) {
    double e[N] = {0};
    e[q] = 1;
    CHECK_CLOSE(dx[q], __parad_fwddiff((void *)chain, x, e, parad_const, N, parad_const, STEPS), 1e-12);
  }
  return check_done();
}
