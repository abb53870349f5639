/* multigrid: C V-cycles for the 2-D Poisson equation -lap u = f on the unit square (zero boundary), an
 * n x n interior grid (n = 2^k - 1), from u = 0: at each level two sweeps of weighted Jacobi (omega 4/5)
 * before and after, the residual restricted by full weighting, the coarse correction (recursively, down to
 * a 3 x 3 grid, which is smoothed 20 times) interpolated bilinearly; every grid loop parallel over rows
 * (serial on the small grids: an if clause). The coarse grids and the smoother's second array are
 * allocated level by level, as a simple code does. J(f) = sum w u^2. No hand-written adjoint (a V-cycle's
 * adjoint is not short): checked against finite differences. */
#include "kernel.h"

enum { L = 9, N = (1 << L) - 1, S = N + 2, C = 8 }; /* arrays of (n+2)^2: the boundary ring is zero */
#define PAR (n > 64)
static double *w, *u, *du;

#define AT(a, i, j) a[(size_t)(i) * (n + 2) + (j)]

/* two sweeps of weighted Jacobi on A u = f, A u = (4 u - neighbours) / h^2: u -> tmp -> u */
static void smooth(double *u, double *tmp, const double *f, int n, double h2) {
  for (int s = 0; s < 2; s++) {
    const double *a = s ? tmp : u;
    double *b = s ? u : tmp;
#pragma omp parallel for schedule(static) if (PAR)
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        AT(b, i, j) = AT(a, i, j) + 0.2 * (h2 * AT(f, i, j) + AT(a, i - 1, j) + AT(a, i + 1, j) + AT(a, i, j - 1) +
                                           AT(a, i, j + 1) - 4 * AT(a, i, j));
  }
}

static void vcycle(double *u, const double *f, int n, double h) {
  size_t size = (size_t)(n + 2) * (n + 2);
  double h2 = h * h, *tmp = calloc(size, sizeof(double));
  if (n <= 3) {
    for (int s = 0; s < 10; s++) smooth(u, tmp, f, n, h2);
    free(tmp);
    return;
  }
  smooth(u, tmp, f, n, h2);
  double *r = tmp; /* the residual f - A u, in the smoother's array */
#pragma omp parallel for schedule(static) if (PAR)
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      AT(r, i, j) =
          AT(f, i, j) - (4 * AT(u, i, j) - AT(u, i - 1, j) - AT(u, i + 1, j) - AT(u, i, j - 1) - AT(u, i, j + 1)) / h2;
  int nc = (n - 1) / 2;
  size_t csize = (size_t)(nc + 2) * (nc + 2);
  double *fc = calloc(csize, sizeof(double)), *uc = calloc(csize, sizeof(double));
#pragma omp parallel for schedule(static) if (PAR)
  for (int I = 1; I <= nc; I++)
    for (int J = 1; J <= nc; J++) {
      int i = 2 * I, j = 2 * J;
      fc[(size_t)I * (nc + 2) + J] =
          (4 * AT(r, i, j) + 2 * (AT(r, i - 1, j) + AT(r, i + 1, j) + AT(r, i, j - 1) + AT(r, i, j + 1)) +
           AT(r, i - 1, j - 1) + AT(r, i - 1, j + 1) + AT(r, i + 1, j - 1) + AT(r, i + 1, j + 1)) /
          16;
    }
  vcycle(uc, fc, nc, 2 * h);
  /* fine (i, j) sits at coarse (i/2, j/2): the mean of the one, two or four coarse points around it */
#pragma omp parallel for schedule(static) if (PAR)
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      int I0 = i / 2, I1 = (i + 1) / 2, J0 = j / 2, J1 = (j + 1) / 2, m = nc + 2;
      AT(u, i, j) += 0.25 * (uc[(size_t)I0 * m + J0] + uc[(size_t)I0 * m + J1] + uc[(size_t)I1 * m + J0] +
                             uc[(size_t)I1 * m + J1]);
    }
  free(fc), free(uc);
  smooth(u, tmp, f, n, h2);
  free(tmp);
}

static double multigrid(const double *restrict f, double *restrict u, const double *restrict w) {
  int n = N;
  memset(u, 0, sizeof(double) * S * S);
  for (int c = 0; c < C; c++) vcycle(u, f, n, 1.0 / (n + 1));
  double J = 0;
  for (int i = 0; i < S * S; i++) J += w[i] * u[i] * u[i];
  return J;
}

static double primal(const double *x) { return multigrid(x, u, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(du, sizeof(double) * S * S);
  __parad_autodiff((void *)multigrid, x, g, u, du, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)multigrid, x, v, u, du, parad_const, w);
}

static void init(double *x) {
  w = malloc(sizeof(double) * S * S), u = malloc(sizeof(double) * S * S), du = malloc(sizeof(double) * S * S);
  rng_seed(15);
  for (int i = 0; i < S * S; i++) x[i] = rng_range(-1, 1), w[i] = rng_uniform();
}

int main(void) {
  /* per V-cycle: on each grid 4 sweeps, the residual and the interpolation (6 passes over its cells), and a
   * coarse grid a quarter of the one above */
  static const Kernel k = {.name = "multigrid",
                           .title = "8 V-cycles, 2-D Poisson, 511 x 511 grid, Jacobi smoother, J = sum w u^2",
                           .parallel = 1,
                           .n = S * S,
                           .iterations = 6.0 * N * N * 4 / 3 * C,
                           .iteration = "fine-grid-equivalent cell pass",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = NULL};
  return kernel_main(&k);
}
