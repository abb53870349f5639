/* heat3d: T explicit steps of the 3-D heat equation on an n^3 grid, 7-point stencil,
 * v = u + kappa (u_n + u_s + u_e + u_w + u_u + u_d - 6 u) on the interior, the two arrays swapped every
 * step, each step parallel over planes; the boundary keeps its initial values. J(u0) = sum w u_T^2.
 * Hand-written adjoint: the step is linear and its stencil symmetric, so the adjoint of u_T goes back
 * through the transposed step T times (a gather over planes, as the primal), a boundary cell, which both
 * arrays hold unchanged, passing its own adjoint on as it is. */
#include "kernel.h"

enum { N = 100, T = 20 };
#define P ((size_t)N * N)
#define NNN ((size_t)N * N * N)
static const double kappa = 0.1;
static double *w, *work, *dwork, *ga, *gb;

static double heat3d(const double *restrict u0, double *restrict work, const double *restrict w) {
  double *a = work, *b = work + NNN;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N * N * N; i++) a[i] = b[i] = u0[i];
  for (int t = 0; t < T; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++) {
          const double *c = a + i * P + (size_t)j * N + k;
          b[i * P + (size_t)j * N + k] = c[0] + kappa * (c[-(long)P] + c[P] + c[-N] + c[N] + c[-1] + c[1] - 6 * c[0]);
        }
    double *s = a;
    a = b, b = s;
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 0; i < N * N * N; i++) J += w[i] * a[i] * a[i];
  return J;
}

static double primal(const double *x) { return heat3d(x, work, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dwork, sizeof(double) * 2 * NNN);
  __parad_autodiff((void *)heat3d, x, g, work, dwork, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)heat3d, x, v, work, dwork, parad_const, w);
}

static int interior(int i, int j, int k) { return i > 0 && i < N - 1 && j > 0 && j < N - 1 && k > 0 && k < N - 1; }

/* The transposed step at a cell within two cells of the boundary: (1 - 6 kappa) times its own adjoint if
 * it is interior, kappa times that of each interior neighbour, and a boundary cell's own adjoint. */
static double edge(const double *g, int i, int j, int k) {
  static const int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
  double s = 0, own = g[i * P + (size_t)j * N + k];
  for (int n = 0; n < 6; n++) {
    int p = i + d[n][0], q = j + d[n][1], r = k + d[n][2];
    if (p >= 0 && p < N && q >= 0 && q < N && r >= 0 && r < N && interior(p, q, r)) s += g[p * P + (size_t)q * N + r];
  }
  return kappa * s + (interior(i, j, k) ? (1 - 6 * kappa) * own : own);
}

static double hand(const double *x, double *g) {
  double J = primal(x), *gn = ga, *gt = gb;
  const double *uT = T % 2 ? work + NNN : work;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N * N * N; i++) gn[i] = 2 * w[i] * uT[i];
  for (int t = T - 1; t >= 0; t--) {
    double *out = t ? gt : g;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        double *o = out + i * P + (size_t)j * N;
        if (i < 2 || i >= N - 2 || j < 2 || j >= N - 2) {
          for (int k = 0; k < N; k++) o[k] = edge(gn, i, j, k);
          continue;
        }
        o[0] = edge(gn, i, j, 0), o[1] = edge(gn, i, j, 1);
        o[N - 2] = edge(gn, i, j, N - 2), o[N - 1] = edge(gn, i, j, N - 1);
        for (int k = 2; k < N - 2; k++) {
          const double *c = gn + i * P + (size_t)j * N + k;
          o[k] = c[0] + kappa * (c[-(long)P] + c[P] + c[-N] + c[N] + c[-1] + c[1] - 6 * c[0]);
        }
      }
    double *s = gn;
    gn = gt, gt = s;
  }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * NNN), work = malloc(sizeof(double) * 2 * NNN), dwork = malloc(sizeof(double) * 2 * NNN);
  ga = malloc(sizeof(double) * NNN), gb = malloc(sizeof(double) * NNN);
  rng_seed(11);
  for (size_t i = 0; i < NNN; i++) x[i] = rng_uniform(), w[i] = rng_uniform();
}

int main(void) {
  static const Kernel k = {.name = "heat3d",
                           .title = "7-point heat equation, 100^3 grid, 20 steps, J = sum w u_T^2",
                           .parallel = 1,
                           .n = (long)NNN,
                           .iterations = (double)(N - 2) * (N - 2) * (N - 2) * T,
                           .iteration = "cell-step",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
