// A time-stepping stencil with one parallel region per step: a nonlinear heat equation u_i <- u_i + r (u_{i-1}
// - 2 u_i + u_{i+1}) - dt u_i^3 (fixed ends) over T = 12 steps, in two forms: pingpong() swaps two heap
// buffers between steps (the reverse sweep must find each step's input in the right buffer, after later steps
// overwrote it), and copyback() copies the new values back into the caller's array with a second 'parallel
// for' after each step (in-place time stepping: u is both input and output, its shadow seeded with a weight
// vector w). f = sum_i u_i^2 at the end. No closed form: the reverse gradient is checked against forward
// tangents along every unit direction (tolerance 1e-12), and the tangents against central finite differences
// (h = 1e-6, tolerance 1e-7). The two forms compute the same map, so their derivatives are also checked
// against each other (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

enum { N = 24, T = 12 };
static const double R = 0.2, DT = 0.05;

__attribute__((noinline)) static double pingpong(const double *u0, int n, int steps) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) a[i] = u0[i];
  for (int t = 0; t < steps; t++) {
    b[0] = a[0], b[n - 1] = a[n - 1];
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++) b[i] = a[i] + R * (a[i - 1] - 2 * a[i] + a[i + 1]) - DT * a[i] * a[i] * a[i];
    double *tmp = a;
    a = b, b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  free(a);
  free(b);
  return s;
}

__attribute__((noinline)) static void copyback(double *u, double *scratch, int n, int steps) {
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for schedule(static, 5)
    for (int i = 1; i < n - 1; i++) scratch[i] = u[i] + R * (u[i - 1] - 2 * u[i] + u[i + 1]) - DT * u[i] * u[i] * u[i];
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++) u[i] = scratch[i];
  }
}

static double U0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double u[N];
  for (int i = 0; i < N; i++) u[i] = U0[i] + (i == k) * t;
  return pingpong(u, N, T);
}

int main(void) {
  double u[N], du[N] = {0}, e[N], end[N], scratch[N], dscratch[N] = {0};
  for (int i = 0; i < N; i++) U0[i] = u[i] = sin(3.14159 * i / (N - 1)) + 0.3 * cos(1.7 * i);
  __parad_autodiff((void *)pingpong, u, du, parad_const, N, parad_const, T);
  /* copyback: seed w = 2 u_end, so that w . du_end/du0 is the gradient of sum u_end^2 */
  double v[N], dv[N];
  memcpy(v, U0, sizeof v);
  copyback(v, scratch, N, T);
  memcpy(end, v, sizeof end);
  memcpy(v, U0, sizeof v);
  for (int i = 0; i < N; i++) dv[i] = 2 * end[i];
  __parad_autodiff((void *)copyback, v, dv, scratch, dscratch, parad_const, N, parad_const, T);
  for (int i = 0; i < N; i++) CHECK_CLOSE(v[i], end[i], 1e-14);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)pingpong, u, e, parad_const, N, parad_const, T);
    CHECK_CLOSE(du[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
    CHECK_CLOSE(dv[k], du[k], 1e-12);
    double w[N], tw[N], ts[N] = {0}, s = 0;
    memcpy(w, U0, sizeof w);
    memcpy(tw, e, sizeof tw);
    __parad_fwddiff_v((void *)copyback, w, tw, scratch, ts, parad_const, N, parad_const, T);
    for (int i = 0; i < N; i++) s += 2 * end[i] * tw[i];
    CHECK_CLOSE(dv[k], s, 1e-12);
  }
  return check_done();
}
