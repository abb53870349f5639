// Copies trusted across calls (omp/omp_quiet_forks.c, runtime/omp.c __parad_rt_chain_give): a region in a
// function of its own (HPCCG's kernels: a product, a dot product, an update, each a function) takes the
// copy an earlier region made without comparing, where the caller called it quietly since a function that
// ends with its region, and the callee forks quietly since its entry. Each function below is one way the
// memory may change on the way; trusting the old copy there reads stale values in the reverse sweep:
//   cg_calls: a CG-like iteration, its product, update and direction update each a function: the copies
//     are trusted, and must be right;
//   caller_wrote: the caller writes one element of the array between the two calls;
//   callee_wrote_first: the second callee writes one element before its fork;
//   callee_wrote_after: the first callee writes one element after its fork (it does not end with its
//     region);
//   callee_skipped: the first callee, on the path taken, writes one element and returns without forking;
//   skipped_after_write: the caller writes one element, then calls a function that returns without
//     forking on the path taken (writing nothing: it does not end with a region, and its call is no
//     place for the chain to start);
//   local_changed: the caller rewrites a local array both callees' regions read (the locals it gives);
//   through_middle: the second region is reached through a function that writes one element and then
//     calls the one that forks (it is quiet since its entry, but its caller's chain is not passed on).
// The arrays depend on the inputs, are reached through the callees' parameters, and are overwritten at the
// end, so that the reverse sweeps read copies. Gradients against tangents (1e-11) and central differences
// (1e-6), at 1-4 threads at -O2, 3 at -O0, and with PARAD_REGION_COPIES=0 (no copies) at 3.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: PARAD_REGION_COPIES=0 OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// The calls give and take the chain, and the regions are told quiet from it:
// RUN: %parad-cc %cflags -fopenmp %s -S -emit-llvm -o - | FileCheck %s
// CHECK-DAG: call void @__parad_rt_chain_give(ptr nonnull @parad.chain.spmv, i32 1)
// CHECK-DAG: call i32 @__parad_rt_chain_take(ptr nonnull @parad.chain.spmv)
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 240, K = 3, W = 48 };
static int col[K * N];
static double work[3 * N], w[N], a_mem[N];

#define KERNEL __attribute__((noinline))

KERNEL double spmv(const double *restrict v, const double *restrict p, double *restrict q) {
  double pq = 0;
#pragma omp parallel for schedule(static) reduction(+ : pq)
  for (int i = 0; i < N; i++) {
    double t = 0;
    for (int k = K * i; k < K * i + K; k++) t += v[k] * p[col[k]];
    q[i] = t;
    pq += p[i] * t;
  }
  return pq;
}

KERNEL double update(double alpha, const double *restrict p, const double *restrict q, double *restrict x) {
  double qq = 0;
#pragma omp parallel for schedule(static) reduction(+ : qq)
  for (int i = 0; i < N; i++) {
    x[i] += alpha * p[i];
    qq += q[i] * q[i];
  }
  return qq;
}

KERNEL void direction(double beta, const double *restrict q, double *restrict p) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) p[i] = sin(q[i]) + beta * p[i];
}

static double cg_calls(const double *z) {
  const double *v = z + N;
  double *p = work, *q = work + N, *x = work + 2 * N, J = 0;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) p[i] = z[i], x[i] = 0;
  for (int it = 0; it < 3; it++) {
    double pq = spmv(v, p, q);
    double alpha = 0.3 / (1 + pq * pq);
    double qq = update(alpha, p, q, x);
    direction(0.5 / (1 + qq), q, p);
  }
  for (int i = 0; i < N; i++) J += w[i] * x[i] * x[i] + 0.01 * p[i];
  return J;
}

/* sum a_i z_i^2 and sum a_i z_i, each a region of its own function */
KERNEL double sum_squares(const double *a, const double *z) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < N; i++) s += a[i] * z[i] * z[i];
  return s;
}

KERNEL double sum_plain(const double *a, const double *z) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < N; i++) s += a[i] * z[i];
  return s;
}

static void fill(double *a, const double *z, double c) {
  for (int i = 0; i < N; i++) a[i] = 1 + c * i * z[i];
}

static void clear(double *a) {
  for (int i = 0; i < N; i++) a[i] = 0;
}

static double caller_wrote(const double *z) {
  double *a = a_mem;
  fill(a, z, 0.003);
  double s1 = sum_squares(a, z);
  a[N / 2 + 1] = 40;
  double s2 = sum_plain(a, z);
  clear(a);
  return s1 * s2 + s2;
}

KERNEL double sum_after_write(double *a, const double *z) {
  double s = 0;
  a[N / 2 + 1] = 30;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < N; i++) s += a[i] * z[i];
  return s;
}

static double callee_wrote_first(const double *z) {
  double *a = a_mem;
  fill(a, z, 0.004);
  double s1 = sum_squares(a, z);
  double s2 = sum_after_write(a, z);
  clear(a);
  return s1 * s2 + s2;
}

KERNEL double squares_then_write(double *a, const double *z) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < N; i++) s += a[i] * z[i] * z[i];
  a[N / 2 + 1] = 20;
  return s;
}

static double callee_wrote_after(const double *z) {
  double *a = a_mem;
  fill(a, z, 0.005);
  double s1 = squares_then_write(a, z);
  double s2 = sum_plain(a, z);
  clear(a);
  return s1 * s2 + s2;
}

static volatile int skip_it = 1;

KERNEL double squares_or_write(double *a, const double *z) {
  if (skip_it) {
    a[N / 2 + 1] = 25;
    return 1;
  }
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < N; i++) s += a[i] * z[i] * z[i];
  return s;
}

static double callee_skipped(const double *z) {
  double *a = a_mem, s0;
  fill(a, z, 0.006);
  s0 = sum_squares(a, z);
  double s1 = squares_or_write(a, z);
  double s2 = sum_plain(a, z);
  clear(a);
  return s0 * s2 + s1 * s2;
}

KERNEL double squares_or_none(const double *a, const double *z) {
  if (skip_it) return 1;
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < N; i++) s += a[i] * z[i] * z[i];
  return s;
}

static double skipped_after_write(const double *z) {
  double *a = a_mem, s0;
  fill(a, z, 0.008);
  s0 = sum_squares(a, z);
  a[N / 2 + 1] = 45;
  double s1 = squares_or_none(a, z);
  double s2 = sum_plain(a, z);
  clear(a);
  return s0 * s2 + s1 * s2;
}

static double local_changed(const double *z) {
  double a[N];
  fill(a, z, 0.002);
  double s1 = sum_squares(a, z);
  for (int i = 0; i < W; i++) a[i] = a[i] * a[i] + 1;
  double s2 = sum_plain(a, z);
  clear(a);
  return s1 * s2 + s2;
}

KERNEL double write_then_sum(double *a, const double *z) {
  a[N / 2 + 1] = 35;
  return sum_plain(a, z);
}

static double through_middle(const double *z) {
  double *a = a_mem;
  fill(a, z, 0.007);
  double s1 = sum_squares(a, z);
  double s2 = write_then_sum(a, z);
  clear(a);
  return s1 * s2 + s2;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    w[i] = 0.1 * (i % 5) - 0.2;
    for (int k = 0; k < K; k++) col[K * i + k] = (i + 7 * k * k + (i % 3)) % N;
  }
  double z[N + K * N];
  for (int i = 0; i < N + K * N; i++) z[i] = 0.3 + 0.4 * sin(1.7 * i);
  CHECK_GRADIENT(cg_calls, z, N + K * N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(caller_wrote, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(callee_wrote_first, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(callee_wrote_after, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(callee_skipped, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(skipped_after_write, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(local_changed, z, N, 1e-11, 1e-5, 1e-6);
  CHECK_GRADIENT(through_middle, z, N, 1e-11, 1e-5, 1e-6);
  return check_done();
}
