// A parallel loop called in place: HPCCG's waxpby (w = alpha x + beta y) with w == x or w == y, and a
// gather w[i] = alpha y[idx[i]]^2 + x[i] with w == y, legal where idx is the identity (each thread reads
// what it writes). Reverse mode reads a region's gathered inputs from copies made as each thread leaves;
// an input whose pointer is that of an object the region writes now has its reads recorded instead (the
// program stopped at run time before: "a parallel region wrote ... memory that it read through another").
// The same gather through a permutation, not in place, still reads from the copies.
// Gradients against forward tangents along unit directions (1e-12) and central differences (h = 1e-6,
// 1e-6 relative). At 1, 2 and 3 threads; -O2 (%cflags), -O0 and -Oz (where waxpby is not inlined).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
// RUN: %parad-cc -Oz -fopenmp -I%S/../include %s -o %tz -lm && OMP_NUM_THREADS=1 %tz && OMP_NUM_THREADS=3 %tz
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 203 };

void waxpby(int n, double alpha, const double *x, double beta, const double *y, double *w) {
  if (alpha == 1.0) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) w[i] = x[i] + beta * y[i];
  } else {
#pragma omp parallel for
    for (int i = 0; i < n; i++) w[i] = alpha * x[i] + beta * y[i];
  }
}

void gather(int n, double alpha, const double *x, const double *y, const int *idx, double *w) {
#pragma omp parallel for schedule(dynamic, 7)
  for (int i = 0; i < n; i++) w[i] = alpha * y[idx[i]] * y[idx[i]] + x[i];
}

static int identity[N], perm[N];

/* x, p: N each; z: scratch of N */
double cg_like(double *x, double *p, double *z) {
  waxpby(N, 1.0, x, 0.5, p, x);        /* w == x */
  waxpby(N, 1.0, x, 0.25, p, p);       /* w == y */
  gather(N, 0.5, x, p, identity, p);   /* w == y, a gather */
  gather(N, 0.75, p, x, perm, z);      /* a gather into other memory */
  waxpby(N, 2.0, z, -1.0, x, x);       /* w == y */
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * p[i] + z[i];
  return s;
}

static double x0[N], p0[N];

static double at(const double *v) { /* v: x then p */
  double x[N], p[N], z[N];
  memcpy(x, v, sizeof x);
  memcpy(p, v + N, sizeof p);
  return cg_like(x, p, z);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    identity[i] = i, perm[i] = (i * 37 + 11) % N;
    x0[i] = 0.5 * sin(0.7 * i), p0[i] = 0.4 * cos(0.3 * i);
  }
  double x[N], p[N], z[N], dx[N] = {0}, dp[N] = {0}, dz[N] = {0};
  memcpy(x, x0, sizeof x), memcpy(p, p0, sizeof p);
  __parad_autodiff((void *)cg_like, x, dx, p, dp, z, dz);
  double v[2 * N];
  memcpy(v, x0, sizeof x0), memcpy(v + N, p0, sizeof p0);
  for (int j = 0; j < 2 * N; j += 5) {
    double tx[N] = {0}, tp[N] = {0}, tz[N] = {0};
    (j < N ? tx : tp)[j % N] = 1;
    memcpy(x, x0, sizeof x), memcpy(p, p0, sizeof p);
    double t = __parad_fwddiff((void *)cg_like, x, tx, p, tp, z, tz);
    double g = j < N ? dx[j] : dp[j - N];
    CHECK_CLOSE(g, t, 1e-12);
    double h = 1e-6, keep = v[j];
    v[j] = keep + h;
    double up = at(v);
    v[j] = keep - h;
    double down = at(v);
    v[j] = keep;
    CHECK_CLOSE(g, (up - down) / (2 * h), 1e-6);
  }
  return check_done();
}
