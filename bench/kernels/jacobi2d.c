/* jacobi2d: T steps of the 5-point Jacobi average on an n x n grid, b = (a_c + a_n + a_s + a_e + a_w) / 5 on
 * the interior, the two arrays swapped every step, each step parallel over rows; the boundary keeps its
 * initial values. J(u0) = sum w u_T^2. Hand-written adjoint: the step is linear, so the adjoint of u_T
 * goes back through the transposed step T times (a gather over rows, as the primal), a boundary cell,
 * which both arrays hold unchanged, passing its own adjoint on as it is. */
#include "kernel.h"

enum { N = 800, T = 40 };
#define NN ((size_t)N * N)
static double *w, *work, *dwork, *ga, *gb;

static double jacobi2d(const double *restrict u0, double *restrict work, const double *restrict w) {
  double *a = work, *b = work + NN;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N * N; i++) a[i] = b[i] = u0[i];
  for (int t = 0; t < T; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) {
        const double *c = a + (size_t)i * N + j;
        b[(size_t)i * N + j] = (c[0] + c[-N] + c[N] + c[-1] + c[1]) / 5;
      }
    double *s = a;
    a = b, b = s;
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 0; i < N * N; i++) J += w[i] * a[i] * a[i];
  return J;
}

static double primal(const double *x) { return jacobi2d(x, work, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dwork, sizeof(double) * 2 * NN);
  __parad_autodiff((void *)jacobi2d, x, g, work, dwork, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)jacobi2d, x, v, work, dwork, parad_const, w);
}

static int interior(int i, int j) { return i > 0 && i < N - 1 && j > 0 && j < N - 1; }

/* The transposed step at a cell within two cells of the boundary: a fifth of the adjoint of each interior
 * cell among itself and its four neighbours, and a boundary cell's own adjoint besides. */
static double edge(const double *g, int i, int j) {
  static const int di[5] = {0, -1, 1, 0, 0}, dj[5] = {0, 0, 0, -1, 1};
  double s = 0;
  for (int d = 0; d < 5; d++) {
    int p = i + di[d], q = j + dj[d];
    if (p >= 0 && p < N && q >= 0 && q < N && interior(p, q)) s += g[(size_t)p * N + q];
  }
  return 0.2 * s + (interior(i, j) ? 0 : g[(size_t)i * N + j]);
}

static double hand(const double *x, double *g) {
  double J = primal(x), *gn = ga, *gt = gb;
  const double *uT = T % 2 ? work + NN : work;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N * N; i++) gn[i] = 2 * w[i] * uT[i];
  for (int t = T - 1; t >= 0; t--) {
    double *out = t ? gt : g;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
      double *o = out + (size_t)i * N;
      if (i < 2 || i >= N - 2) {
        for (int j = 0; j < N; j++) o[j] = edge(gn, i, j);
        continue;
      }
      o[0] = edge(gn, i, 0), o[1] = edge(gn, i, 1), o[N - 2] = edge(gn, i, N - 2), o[N - 1] = edge(gn, i, N - 1);
      for (int j = 2; j < N - 2; j++) {
        const double *c = gn + (size_t)i * N + j;
        o[j] = 0.2 * (c[0] + c[-N] + c[N] + c[-1] + c[1]);
      }
    }
    double *s = gn;
    gn = gt, gt = s;
  }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * NN), work = malloc(sizeof(double) * 2 * NN), dwork = malloc(sizeof(double) * 2 * NN);
  ga = malloc(sizeof(double) * NN), gb = malloc(sizeof(double) * NN);
  rng_seed(10);
  for (size_t i = 0; i < NN; i++) x[i] = rng_uniform(), w[i] = rng_uniform();
}

int main(void) {
  static const Kernel k = {.name = "jacobi2d",
                           .title = "5-point Jacobi, 800 x 800 grid, 40 steps, J = sum w u_T^2",
                           .parallel = 1,
                           .n = (long)NN,
                           .iterations = (double)(N - 2) * (N - 2) * T,
                           .iteration = "cell-step",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
