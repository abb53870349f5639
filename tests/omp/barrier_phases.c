// An explicit '#pragma omp barrier' between two phases of one region: in phase 1 each thread writes a_i =
// sin(x_i) for its cyclic share of i (i = tid, tid + nt, ...); after the barrier, phase 2 reads a_{i-1} and
// a_{i+1}, which other threads wrote: b_i = a_{i-1} a_{i+1} + x_i. A second function does the same with 'omp
// for nowait' loops and the barrier in between. f = sum_i b_i^2 (serially). In the reverse sweep the barrier
// separates the adjoint phases the other way round. Analytic gradient (tolerance 1e-12), forward tangents
// along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 30 };

__attribute__((noinline)) static double cyclic(const double *x, int n) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), s = 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = tid; i < n; i += nt) a[i] = sin(x[i]);
#pragma omp barrier
    for (int i = tid; i < n; i += nt) b[i] = a[(i + n - 1) % n] * a[(i + 1) % n] + x[i];
  }
  for (int i = 0; i < n; i++) s += b[i] * b[i];
  free(a);
  free(b);
  return s;
}

__attribute__((noinline)) static double worksharing(const double *x, int n) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), s = 0;
#pragma omp parallel
  {
#pragma omp for nowait schedule(static, 4)
    for (int i = 0; i < n; i++) a[i] = sin(x[i]);
#pragma omp barrier
#pragma omp for nowait schedule(static, 3)
    for (int i = 0; i < n; i++) b[i] = a[(i + n - 1) % n] * a[(i + 1) % n] + x[i];
  }
  for (int i = 0; i < n; i++) s += b[i] * b[i];
  free(a);
  free(b);
  return s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return cyclic(x, N) + worksharing(x, N);
}

int main(void) {
  double x[N], d1[N] = {0}, d2[N] = {0}, e[N], b[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.2 * cos(0.7 * i) + 0.1;
  for (int i = 0; i < N; i++) b[i] = sin(x[(i + N - 1) % N]) * sin(x[(i + 1) % N]) + x[i];
  __parad_autodiff((void *)cyclic, x, d1, parad_const, N);
  __parad_autodiff((void *)worksharing, x, d2, parad_const, N);
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N;
    /* x_k enters b_k directly, b_{k+1} through a_k (times a_{k+2}) and b_{k-1} through a_k (times a_{k-2}) */
    double want = 2 * b[k] + 2 * b[kp] * cos(x[k]) * sin(x[(k + 2) % N]) + 2 * b[km] * cos(x[k]) * sin(x[(k + N - 2) % N]);
    CHECK_CLOSE(d1[k], want, 1e-12);
    CHECK_CLOSE(d2[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t1 = __parad_fwddiff((void *)cyclic, x, e, parad_const, N), t2 = __parad_fwddiff((void *)worksharing, x, e, parad_const, N);
    CHECK_CLOSE(d1[k], t1, 1e-12);
    CHECK_CLOSE(d2[k], t2, 1e-12);
    CHECK_CLOSE(t1 + t2, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
