/* lu: the LU factorisation without pivoting (Doolittle, in place: L's multipliers below the diagonal, U
 * on and above it) of a diagonally dominant n x n matrix, serial; J(A) = sum_ij W_ij LU_ij.
 * Hand-written adjoint: step k of the factorisation divides column k below the diagonal by the pivot
 * (l_ik = a_ik / u_kk) and subtracts l_ik u_kj from the trailing rows; neither l_ik nor u_kj changes after
 * step k, so the reverse sweep, step k from last to first, takes them from the finished factors: no tape. */
#include "kernel.h"

enum { N = 500 };
static double *W, *LU, *dLU;

static double lu(const double *restrict A, double *restrict LU, const double *restrict W) {
  for (int i = 0; i < N * N; i++) LU[i] = A[i];
  for (int k = 0; k < N; k++) {
    const double *u = LU + (size_t)k * N;
    for (int i = k + 1; i < N; i++) {
      double *a = LU + (size_t)i * N;
      a[k] /= u[k];
      for (int j = k + 1; j < N; j++) a[j] -= a[k] * u[j];
    }
  }
  double J = 0;
  for (int i = 0; i < N * N; i++) J += W[i] * LU[i];
  return J;
}

static double primal(const double *x) { return lu(x, LU, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dLU, sizeof(double) * N * N);
  __parad_autodiff((void *)lu, x, g, LU, dLU, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)lu, x, v, LU, dLU, parad_const, W);
}

/* g holds the adjoint of the working matrix throughout: the seed W, and at the end dJ/dA. */
static double hand(const double *x, double *g) {
  double J = primal(x);
  for (int i = 0; i < N * N; i++) g[i] = W[i];
  for (int k = N - 1; k >= 0; k--) {
    const double *u = LU + (size_t)k * N;
    double *gu = g + (size_t)k * N, gpivot = 0;
    for (int i = k + 1; i < N; i++) {
      const double *a = LU + (size_t)i * N;
      double *ga = g + (size_t)i * N, gl = ga[k];
      for (int j = k + 1; j < N; j++) gl -= ga[j] * u[j], gu[j] -= ga[j] * a[k];
      ga[k] = gl / u[k]; /* l = a / pivot */
      gpivot -= ga[k] * a[k];
    }
    gu[k] += gpivot;
  }
  return J;
}

static void init(double *x) {
  W = malloc(sizeof(double) * N * N), LU = malloc(sizeof(double) * N * N), dLU = malloc(sizeof(double) * N * N);
  rng_seed(6);
  for (int i = 0; i < N * N; i++) x[i] = rng_range(-1, 1), W[i] = rng_range(-1, 1);
  for (int i = 0; i < N; i++) x[(size_t)i * N + i] += N; /* diagonally dominant: no pivoting needed */
}

int main(void) {
  static const Kernel k = {.name = "lu",
                           .title = "LU factorisation without pivoting, 500 x 500, J = sum W . LU",
                           .parallel = 0,
                           .n = N * N,
                           .iterations = (double)N * N * N / 3,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
