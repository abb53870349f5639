/* doitgen (PolyBench): each slice A[r][q][:] of a 3-D array replaced in place by its product with a
 * matrix C4, through a private array of sums, parallel over r; the optimiser turns the copy back into
 * the slice into a memcpy. J(A, C4) = sum W . A after the products.
 * Hand-written adjoint: dJ/dA0[r][q][s] = sum_p W[r][q][p] C4[s][p] (each thread its own slices), and
 * dJ/dC4[s][p] = sum_{r,q} A0[r][q][s] W[r][q][p] (each thread its own rows s). */
#include "kernel.h"

enum { NR = 64, NQ = 64, NP = 96 };
static double *W, *A, *dA;

static double doitgen(const double *restrict A0, const double *restrict C4, double *restrict A, const double *restrict W) {
  for (size_t i = 0; i < (size_t)NR * NQ * NP; i++) A[i] = A0[i];
#pragma omp parallel for schedule(static)
  for (int r = 0; r < NR; r++) {
    double sum[NP];
    for (int q = 0; q < NQ; q++) {
      double *a = A + ((size_t)r * NQ + q) * NP;
      for (int p = 0; p < NP; p++) {
        sum[p] = 0;
        for (int s = 0; s < NP; s++) sum[p] += a[s] * C4[s * NP + p];
      }
      for (int p = 0; p < NP; p++) a[p] = sum[p];
    }
  }
  double J = 0;
  for (size_t i = 0; i < (size_t)NR * NQ * NP; i++) J += W[i] * A[i];
  return J;
}

#define A_(x) (x)
#define C_(x) ((x) + NR * NQ * NP)

static double primal(const double *x) { return doitgen(A_(x), C_(x), A, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dA, sizeof(double) * NR * NQ * NP);
  __parad_autodiff((void *)doitgen, A_(x), A_(g), C_(x), C_(g), A, dA, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)doitgen, A_(x), A_(v), C_(x), C_(v), A, dA, parad_const, W);
}

static double hand(const double *x, double *g) {
  const double *A0 = A_(x), *C4 = C_(x);
  double *gA = A_(g), *gC = C_(g);
#pragma omp parallel for schedule(static)
  for (int rq = 0; rq < NR * NQ; rq++) {
    const double *w = W + (size_t)rq * NP;
    double *ga = gA + (size_t)rq * NP;
    for (int s = 0; s < NP; s++) {
      double t = 0;
      for (int p = 0; p < NP; p++) t += w[p] * C4[s * NP + p];
      ga[s] = t;
    }
  }
#pragma omp parallel for schedule(static)
  for (int s = 0; s < NP; s++) {
    double *gc = gC + (size_t)s * NP;
    for (int p = 0; p < NP; p++) gc[p] = 0;
    for (int rq = 0; rq < NR * NQ; rq++) {
      double a = A0[(size_t)rq * NP + s];
      for (int p = 0; p < NP; p++) gc[p] += a * W[(size_t)rq * NP + p];
    }
  }
  return primal(x);
}

static void init(double *x) {
  W = malloc(sizeof(double) * NR * NQ * NP), A = malloc(sizeof(double) * NR * NQ * NP);
  dA = malloc(sizeof(double) * NR * NQ * NP);
  rng_seed(15);
  for (long i = 0; i < (long)NR * NQ * NP + NP * NP; i++) x[i] = rng_range(-1, 1);
  for (long i = 0; i < (long)NR * NQ * NP; i++) W[i] = rng_range(-1, 1);
}

int main(void) {
  Kernel k = {.name = "doitgen",
              .title = "doitgen, 64 x 64 slices of 96 times a 96 x 96 matrix, in place through a private array",
              .parallel = 1,
              .n = NR * NQ * NP + NP * NP,
              .iterations = (double)NR * NQ * NP * NP,
              .iteration = "multiply-add",
              .init = init,
              .primal = primal,
              .gradient = gradient,
              .tangent = tangent,
              .hand = hand};
  return kernel_main(&k);
}
