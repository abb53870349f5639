/* trisolv: forward substitution, x = L^{-1} b with L n x n lower triangular (the upper triangle is not
 * read), serial; J(L, b) = sum_i w_i x_i. Hand-written adjoint: gb = L^{-T} w by back substitution (row
 * by row, from the last), and dJ/dL_ij = -gb_i x_j. */
#include "kernel.h"

enum { N = 5000 };
static double *w, *xs, *dxs;

static double trisolv(const double *restrict L, const double *restrict b, double *restrict x,
                      const double *restrict w) {
  for (int i = 0; i < N; i++) {
    const double *l = L + (size_t)i * N;
    double s = b[i];
    for (int j = 0; j < i; j++) s -= l[j] * x[j];
    x[i] = s / l[i];
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * x[i];
  return J;
}

#define L_(v) (v)
#define B_(v) ((v) + (size_t)N * N)

static double primal(const double *x) { return trisolv(L_(x), B_(x), xs, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dxs, sizeof(double) * N);
  __parad_autodiff((void *)trisolv, L_(x), L_(g), B_(x), B_(g), xs, dxs, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)trisolv, L_(x), L_(v), B_(x), B_(v), xs, dxs, parad_const, w);
}

/* gb first holds the adjoint of x (the seed w), then row by row, from the last, that of b. */
static double hand(const double *x, double *g) {
  double J = primal(x), *gL = L_(g), *gb = B_(g);
  const double *L = L_(x);
  for (int i = 0; i < N; i++) gb[i] = w[i];
  for (int i = N - 1; i >= 0; i--) {
    const double *l = L + (size_t)i * N;
    double *gl = gL + (size_t)i * N;
    gb[i] /= l[i];
    gl[i] = -gb[i] * xs[i];
    for (int j = 0; j < i; j++) gb[j] -= l[j] * gb[i], gl[j] = -gb[i] * xs[j];
    for (int j = i + 1; j < N; j++) gl[j] = 0;
  }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * N), xs = malloc(sizeof(double) * N), dxs = malloc(sizeof(double) * N);
  rng_seed(8);
  for (long i = 0; i < (long)N * N + N; i++) x[i] = rng_range(-1, 1);
  for (int i = 0; i < N; i++) {
    double *l = L_(x) + (size_t)i * N;
    for (int j = 0; j < i; j++) l[j] /= N; /* well conditioned: the solution stays of order one */
    l[i] = 1 + 0.5 * rng_uniform();
    w[i] = rng_range(-1, 1);
  }
}

int main(void) {
  static const Kernel k = {.name = "trisolv",
                           .title = "forward substitution, 5000 x 5000, J = sum w x",
                           .parallel = 0,
                           .n = (long)N * N + N,
                           .iterations = (double)N * (N - 1) / 2,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
