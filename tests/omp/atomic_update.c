// '#pragma omp atomic' updates of shared doubles: 's += x_i^2', 't -= sin(x_i)', and '+=' into a shared array
// element chosen by an index array (several iterations hit the same bin), inside a 'parallel for' with
// schedule(dynamic). Sums are commutative, so only the rounding depends on the order. Also a 'parallel' region
// where each thread atomically subtracts into the caller's output array. f = s t + sum_r bin_r^2. Analytic
// gradient (tolerance 1e-12), forward tangents along every unit direction (1e-12), central finite differences
// (h = 1e-6, tolerance 1e-7); the output array's reverse gradient (seeded with v) and tangent against the
// analytic Jacobian (1e-12). Also built at -O0. Built with PARAD_COUNT_UPDATES: f's reverse sweep adds
// nothing atomically for its atomic updates (each reads the shadow of what it updated; it added back, as an
// atomic add of zero, the adjoint of the old value the update returns and nothing reads: 120 a call).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 && OMP_NUM_THREADS=2 %t2 && OMP_NUM_THREADS=4 %t2
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 40, B = 4 };

__attribute__((noinline)) static double f(const double *x, const int *bin, int n) {
  double s = 0, t = 1, h[B] = {0};
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    s += x[i] * x[i];
#pragma omp atomic
    t -= sin(x[i]);
#pragma omp atomic update
    h[bin[i]] += x[i] * (1 + 0.1 * i);
  }
  double r = s * t;
  for (int j = 0; j < B; j++) r += h[j] * h[j];
  return r;
}

/* y_j -= sum over i with i mod m = j of exp(0.2 x_i) */
__attribute__((noinline)) static void drain(const double *x, double *y, int n, int m) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      y[i % m] -= exp(0.2 * x[i]);
    }
  }
}

static double X0[N];
static int BIN[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, BIN, N);
}

int main(void) {
  double x[N], dx[N] = {0}, gx[N] = {0}, e[N], s = 0, t = 1, h[B] = {0};
  double y[3] = {1, 2, 3}, dy[3] = {0.5, -1, 2}, v[3] = {0.5, -1, 2};
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.55 * i) - 0.1, BIN[i] = (i * 7) % B;
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
  __parad_autodiff((void *)f, x, dx, parad_const, BIN, parad_const, N);
  parad_adjoint_update_counts(&plain1, &atomic1);
#ifdef COUNTED /* x's reads are the thread's own: not one atomic add */
  printf("f: %llu plain, %llu atomic adjoint updates\n", plain1 - plain0, atomic1 - atomic0);
  CHECK_CLOSE((double)(atomic1 - atomic0), 0, 0);
#endif
  (void)plain1;
  __parad_autodiff((void *)drain, x, gx, y, dy, parad_const, N, parad_const, 3);
  for (int i = 0; i < N; i++) s += x[i] * x[i], t -= sin(x[i]), h[BIN[i]] += x[i] * (1 + 0.1 * i);
  for (int j = 0; j < 3; j++) {
    double want = 1 + j;
    for (int i = j; i < N; i += 3) want -= exp(0.2 * x[i]);
    CHECK_CLOSE(y[j], want, 1e-13);
    CHECK_CLOSE(dy[j], v[j], 1e-14);   /* y_out = y_in - ...: the adjoint passes through */
  }
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], 2 * x[k] * t - s * cos(x[k]) + 2 * h[BIN[k]] * (1 + 0.1 * k), 1e-12);
    CHECK_CLOSE(gx[k], -v[k % 3] * 0.2 * exp(0.2 * x[k]), 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double tf = __parad_fwddiff((void *)f, x, e, parad_const, BIN, parad_const, N);
    CHECK_CLOSE(dx[k], tf, 1e-12);
    CHECK_CLOSE(tf, fd_central(along, &k, 0, 1e-6), 1e-7);
    double yy[3] = {1, 2, 3}, ty[3] = {0, 0, 0};
    __parad_fwddiff_v((void *)drain, x, e, yy, ty, parad_const, N, parad_const, 3);
    CHECK_CLOSE(gx[k], v[0] * ty[0] + v[1] * ty[1] + v[2] * ty[2], 1e-12);
  }
  return check_done();
}
