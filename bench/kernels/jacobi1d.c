/* jacobi1d: T steps of the 3-point Jacobi average on n points, b_i = (a_{i-1} + a_i + a_{i+1}) / 3 on the
 * interior, the two arrays swapped every step, each step parallel over points; the end points keep their
 * initial values. J(u0) = sum_i w_i u_T[i]^2. Hand-written adjoint: the step is linear, so the adjoint of
 * u_T goes back through the transposed step T times (a gather: each point's adjoint from its neighbours'),
 * with the end points, which both arrays hold unchanged, passing theirs on as they are. */
#include "kernel.h"

enum { N = 400000, T = 100 };
static double *w, *work, *dwork, *ga, *gb;

static double jacobi1d(const double *restrict u0, double *restrict work, const double *restrict w) {
  double *a = work, *b = work + N;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) a[i] = b[i] = u0[i];
  for (int t = 0; t < T; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
    double *s = a;
    a = b, b = s;
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 0; i < N; i++) J += w[i] * a[i] * a[i];
  return J;
}

static double primal(const double *x) { return jacobi1d(x, work, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dwork, sizeof(double) * 2 * N);
  __parad_autodiff((void *)jacobi1d, x, g, work, dwork, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)jacobi1d, x, v, work, dwork, parad_const, w);
}

/* The transposed step: point j receives a third of the adjoint of each interior point among j-1, j, j+1,
 * and an end point its own adjoint besides. */
static double hand(const double *x, double *g) {
  double J = primal(x), *gn = ga, *gt = gb, third = 1.0 / 3;
  const double *uT = T % 2 ? work + N : work;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) gn[i] = 2 * w[i] * uT[i];
  for (int t = T - 1; t >= 0; t--) {
    double *out = t ? gt : g;
#pragma omp parallel for schedule(static)
    for (int j = 2; j < N - 2; j++) out[j] = (gn[j - 1] + gn[j] + gn[j + 1]) * third;
    out[0] = gn[0] + gn[1] / 3, out[1] = (gn[1] + gn[2]) / 3;
    out[N - 1] = gn[N - 1] + gn[N - 2] / 3, out[N - 2] = (gn[N - 3] + gn[N - 2]) / 3;
    double *s = gn;
    gn = gt, gt = s;
  }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * N), work = malloc(sizeof(double) * 2 * N), dwork = malloc(sizeof(double) * 2 * N);
  ga = malloc(sizeof(double) * N), gb = malloc(sizeof(double) * N);
  rng_seed(9);
  for (int i = 0; i < N; i++) x[i] = rng_uniform(), w[i] = rng_uniform();
}

int main(void) {
  static const Kernel k = {.name = "jacobi1d",
                           .title = "3-point Jacobi, 400000 points, 100 steps, J = sum w u_T^2",
                           .parallel = 1,
                           .n = N,
                           .iterations = (double)(N - 2) * T,
                           .iteration = "point-step",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
