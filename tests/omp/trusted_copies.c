// Copies trusted (runtime/omp.c): a region's thread that copies what it reads takes, without comparing, a
// copy the region before it made, where that region wrote nothing there (but the output it copied), the
// forking function wrote nothing but locals in between (omp_quiet_forks.c), and nothing in the new region
// wrote there before the copy (rev_shared.c, nothing_before). Each function below is one way the memory
// may change between the two copies; trusting the old copy there reads stale values in the reverse sweep:
//   cg_step: a CG-like iteration (a gather product writing q, an update reading p and q, a direction
//     update): the copies are trusted, and must be right;
//   local_changed: the forking function rewrites a local array both regions read;
//   region_rewrote: the first region updates the array in place (its copy holds the old values);
//   written_first: the second region writes the array through another pointer, then reads it after a
//     barrier;
//   global_changed: the forking function writes one element of a global array in between;
//   call_wrote: the first region calls a function that writes one element (a write the region does not
//     note);
//   indices_moved, indices_moved_locally: a gather product run twice, its column indices (whose smallest
//     and largest the runtime keeps for the regions after) moved between the two by a region, or by the
//     forking function in a local array: the threads' reads then fall elsewhere.
// The arrays depend on the inputs (only active memory is copied), are reached through pointers the regions
// capture (a global the region names itself is not noted: its adjoints are added atomically, and nothing
// is copied), and are overwritten at the end, so that the reverse sweeps read copies.
// Gradients against tangents (1e-11) and central differences (1e-6), at 1-4 threads at -O2, 3 at -O0,
// and with PARAD_REGION_COPIES=0 (no copies) at 3.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: PARAD_REGION_COPIES=0 OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 240, K = 3, W = 64, KM = 24 }; /* KM: the moved indices' rows, long enough to be kept (runtime/omp.c) */
static int col[K * N];
static double work[3 * N], w[N], b_mem[N], d_mem[N], e_mem[N], f_mem[N]; /* read through pointers: see below */

static double cg_step(const double *z) {
  const double *v = z + N;
  double *p = work, *q = work + N, *x = work + 2 * N, J = 0;
#pragma omp parallel for schedule(static) /* a region: the product's fork follows forks only */
  for (int i = 0; i < N; i++) p[i] = z[i], x[i] = 0;
  for (int it = 0; it < 3; it++) {
    double pq = 0, qq = 0;
#pragma omp parallel for schedule(static) reduction(+ : pq)
    for (int i = 0; i < N; i++) {
      double t = 0;
      for (int k = K * i; k < K * i + K; k++) t += v[k] * p[col[k]];
      q[i] = t;
      pq += p[i] * t;
    }
    double alpha = 0.3 / (1 + pq * pq);
#pragma omp parallel for schedule(static) reduction(+ : qq)
    for (int i = 0; i < N; i++) {
      x[i] += alpha * p[i];
      qq += q[i] * q[i];
    }
    double beta = 0.5 / (1 + qq);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) p[i] = sin(q[i]) + beta * p[i];
  }
  for (int i = 0; i < N; i++) J += w[i] * x[i] * x[i] + 0.01 * p[i];
  return J;
}

static double local_changed(const double *z) {
  double coef[W], s1 = 0, s2 = 0;
  for (int j = 0; j < W; j++) coef[j] = 0.01 * j * z[j];
#pragma omp parallel for schedule(static) reduction(+ : s1)
  for (int i = 0; i < N - W; i++) {
    double t = 0;
    for (int j = 0; j < W; j++) t += coef[j] * z[i + j];
    s1 += t * z[i];
  }
  for (int j = 0; j < W; j++) coef[j] = coef[j] * coef[j] + 1;
#pragma omp parallel for schedule(static) reduction(+ : s2)
  for (int i = 0; i < N - W; i++) {
    double t = 0;
    for (int j = 0; j < W; j++) t += coef[j] * z[i + j];
    s2 += t * z[i + 1];
  }
  for (int j = 0; j < W; j++) coef[j] = 0; /* overwritten: the reverse sweep reads copies */
  return s1 * s2;
}

static double region_rewrote(const double *z) {
  double s1 = 0, s2 = 0, *b = b_mem;
  for (int i = 0; i < N; i++) b[i] = 1 + 0.01 * i * z[i];
#pragma omp parallel for schedule(static) reduction(+ : s1)
  for (int i = 0; i < N; i++) {
    s1 += b[i] * z[i];
    b[i] = b[i] * b[i] + 0.5 * z[i];
  }
#pragma omp parallel for schedule(static) reduction(+ : s2)
  for (int i = 0; i < N; i++) s2 += b[i] * z[i];
  for (int i = 0; i < N; i++) b[i] = 0;
  return s1 * s2 + s2;
}

static double written_first(const double *z) {
  double s1 = 0, s2 = 0, *d = d_mem, *also_d = d_mem;
  for (int i = 0; i < N; i++) d[i] = 1 + 0.03 * i * z[i];
#pragma omp parallel for schedule(static) reduction(+ : s1)
  for (int i = 0; i < N; i++) s1 += d[i] * z[i] * z[i];
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++) also_d[N - 1 - i] = 2.0 + 0.1 * i * z[i];
#pragma omp for schedule(static) reduction(+ : s2)
    for (int i = 0; i < N; i++) s2 += d[i] * z[i];
  }
  for (int i = 0; i < N; i++) d[i] = 0;
  return s1 * s2 + s2;
}

static double global_changed(const double *z) {
  double s1 = 0, s2 = 0, *e = e_mem;
  for (int i = 0; i < N; i++) e[i] = 1 + 0.04 * i * z[i];
#pragma omp parallel for schedule(static) reduction(+ : s1)
  for (int i = 0; i < N; i++) s1 += e[i] * z[i] * z[i];
  e[N / 2 + 1] = 40;
#pragma omp parallel for schedule(static) reduction(+ : s2)
  for (int i = 0; i < N; i++) s2 += e[i] * z[i];
  for (int i = 0; i < N; i++) e[i] = 0;
  return s1 * s2 + s2;
}

static void __attribute__((noinline)) bump(void) { f_mem[N / 2 + 1] = 30; }

static double call_wrote(const double *z) {
  double s1 = 0, s2 = 0, *f = f_mem;
  for (int i = 0; i < N; i++) f[i] = 1 + 0.05 * i * z[i];
#pragma omp parallel
  {
#pragma omp for schedule(static) reduction(+ : s1)
    for (int i = 0; i < N; i++) s1 += f[i] * z[i] * z[i];
#pragma omp single
    bump();
  }
#pragma omp parallel for schedule(static) reduction(+ : s2)
  for (int i = 0; i < N; i++) s2 += f[i] * z[i];
  for (int i = 0; i < N; i++) f[i] = 0;
  return s1 * s2 + s2;
}

/* A product of rows of K values (v) with p gathered through column indices, twice, the indices moved far
 * away in between: by a region that also halves p (a region with a derivative, which does not note its
 * integer writes), or by the forking function, in a local array. Written out twice: through a helper,
 * the regions would capture a pointer variable, whose writes through it are not a local's. */
static int moved[KM * N];

static double indices_moved(const double *z) {
  const double *v = z + N;
  double *p = work, J = 0;
  int *idx = moved;
  for (int k = 0; k < KM * N; k++) idx[k] = (k / KM + k % KM) % N;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) p[i] = z[i] * z[i];
  for (int step = 0; step < 2; step++) {
#pragma omp parallel for schedule(static) reduction(+ : J)
    for (int i = 0; i < N; i++) {
      double t = 0;
      for (int k = KM * i; k < KM * i + KM; k++) t += v[k] * p[idx[k]];
      J += t * t;
    }
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
      for (int k = 0; k < KM * N; k++) idx[k] = N - 1 - idx[k];
#pragma omp for schedule(static)
      for (int i = 0; i < N; i++) p[i] *= 0.5;
    }
  }
  for (int i = 0; i < N; i++) p[i] = 0;
  return J;
}

static double indices_moved_locally(const double *z) {
  const double *v = z + N;
  double *p = work, J = 0;
  int idx[KM * N];
  for (int k = 0; k < KM * N; k++) idx[k] = (k / KM + k % KM) % N;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) p[i] = z[i] * z[i];
  for (int step = 0; step < 2; step++) {
#pragma omp parallel for schedule(static) reduction(+ : J)
    for (int i = 0; i < N; i++) {
      double t = 0;
      for (int k = KM * i; k < KM * i + KM; k++) t += v[k] * p[idx[k]];
      J += t * t;
    }
    for (int k = 0; k < KM * N; k++) idx[k] = N - 1 - idx[k];
  }
  for (int i = 0; i < N; i++) p[i] = 0;
  return J;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    w[i] = 0.1 * (i % 5) - 0.2;
    for (int k = 0; k < K; k++) col[K * i + k] = (i + 7 * k * k + (i % 3)) % N;
  }
  double z[N + KM * N];
  for (int i = 0; i < N + KM * N; i++) z[i] = 0.3 + 0.4 * sin(1.7 * i);
  CHECK_GRADIENT(cg_step, z, N + K * N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(local_changed, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(region_rewrote, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(written_first, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(global_changed, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(call_wrote, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(indices_moved, z, N + KM * N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(indices_moved_locally, z, N + KM * N, 1e-11, 1e-5, 1e-6);
  return check_done();
}
