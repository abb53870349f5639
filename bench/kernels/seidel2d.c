/* seidel2d: T sweeps of Gauss-Seidel on an n x n grid, in place: each interior cell becomes the mean of
 * the 3 x 3 block around it, its upper and left neighbours already updated in this sweep; serial (each
 * update needs the one before). J(u0) = sum w u_T^2. Hand-written adjoint: each update is linear and
 * overwrites one cell, so the reverse sweep visits the cells in the opposite order, giving a ninth of the
 * cell's adjoint to each of its eight neighbours and keeping a ninth as its own: no tape. */
#include "kernel.h"

enum { N = 700, T = 8 };
#define NN ((size_t)N * N)
static double *w, *u, *du;

static double seidel2d(const double *restrict u0, double *restrict u, const double *restrict w) {
  for (size_t i = 0; i < NN; i++) u[i] = u0[i];
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) {
        double *c = u + (size_t)i * N + j;
        c[0] = (c[-N - 1] + c[-N] + c[-N + 1] + c[-1] + c[0] + c[1] + c[N - 1] + c[N] + c[N + 1]) / 9;
      }
  double J = 0;
  for (size_t i = 0; i < NN; i++) J += w[i] * u[i] * u[i];
  return J;
}

static double primal(const double *x) { return seidel2d(x, u, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(du, sizeof(double) * NN);
  __parad_autodiff((void *)seidel2d, x, g, u, du, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)seidel2d, x, v, u, du, parad_const, w);
}

static double hand(const double *x, double *g) {
  double J = primal(x);
  for (size_t i = 0; i < NN; i++) g[i] = 2 * w[i] * u[i];
  for (int t = T - 1; t >= 0; t--)
    for (int i = N - 2; i >= 1; i--)
      for (int j = N - 2; j >= 1; j--) {
        double *c = g + (size_t)i * N + j, a = c[0] * (1.0 / 9);
        c[-N - 1] += a, c[-N] += a, c[-N + 1] += a, c[-1] += a, c[0] = a, c[1] += a;
        c[N - 1] += a, c[N] += a, c[N + 1] += a;
      }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * NN), u = malloc(sizeof(double) * NN), du = malloc(sizeof(double) * NN);
  rng_seed(13);
  for (size_t i = 0; i < NN; i++) x[i] = rng_uniform(), w[i] = rng_uniform();
}

int main(void) {
  static const Kernel k = {.name = "seidel2d",
                           .title = "9-point Gauss-Seidel in place, 700 x 700 grid, 8 sweeps, J = sum w u_T^2",
                           .parallel = 0,
                           .n = (long)NN,
                           .iterations = (double)(N - 2) * (N - 2) * T,
                           .iteration = "cell-sweep",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
