/* cg: K iterations of the conjugate gradient method on A x = b, A sparse in CSR form (a shifted 5-point
 * Laplacian on a g x g grid, its values perturbed: symmetric, diagonally dominant), from x = 0; the
 * matrix-vector product, the dot products and the vector updates each parallel over rows.
 * J(values, b) = sum_i w_i x_i, with respect to the matrix's values and the right-hand side. No
 * hand-written adjoint (the recurrences' is not short: alpha and beta depend on everything before):
 * checked against finite differences. */
#include "kernel.h"

enum { G = 300, N = G * G, K = 60 };
static int *rowptr, *col, nnz;
static double *w, *work, *dwork;

/* work: x, r, p, q (n each) */
static double cg(const int *restrict rowptr, const int *restrict col, const double *restrict val,
                 const double *restrict b, double *restrict work, const double *restrict w) {
  double *x = work, *r = work + N, *p = work + 2 * N, *q = work + 3 * N, rr = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr)
  for (int i = 0; i < N; i++) x[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < K; it++) {
    double pq = 0;
#pragma omp parallel for schedule(static) reduction(+ : pq)
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
      q[i] = s;
      pq += p[i] * s;
    }
    double alpha = rr / pq, rr_new = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr_new)
    for (int i = 0; i < N; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rr_new += r[i] * r[i];
    }
    double beta = rr_new / rr;
    rr = rr_new;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * x[i];
  return J;
}

#define VAL(v) (v)
#define B(v) ((v) + nnz)

static double primal(const double *x) { return cg(rowptr, col, VAL(x), B(x), work, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dwork, sizeof(double) * 4 * N);
  __parad_autodiff((void *)cg, parad_const, rowptr, parad_const, col, VAL(x), VAL(g), B(x), B(g), work, dwork,
                   parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)cg, parad_const, rowptr, parad_const, col, VAL(x), VAL(v), B(x), B(v), work, dwork,
                         parad_const, w);
}

/* The matrix: 4.4 on the diagonal, -1 (perturbed by up to 5%, symmetrically) to each grid neighbour. */
static void build(void) {
  rowptr = malloc(sizeof(int) * (N + 1)), col = malloc(sizeof(int) * 5 * N);
  nnz = 0;
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      rowptr[i * G + j] = nnz;
      static const int d[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
      for (int n = 0; n < 5; n++) {
        int p = i + d[n][0], q = j + d[n][1];
        if (p >= 0 && p < G && q >= 0 && q < G) col[nnz++] = p * G + q;
      }
    }
  rowptr[N] = nnz;
}

static void init(double *x) {
  w = malloc(sizeof(double) * N), work = malloc(sizeof(double) * 4 * N), dwork = malloc(sizeof(double) * 4 * N);
  rng_seed(14);
  for (int r = 0; r < N; r++)
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) {
      int c = col[k];
      if (c == r) VAL(x)[k] = 4.4;
      else if (c < r) { /* the mirror entry (c, r) was set already */ int m = rowptr[c];
        while (col[m] != r) m++;
        VAL(x)[k] = VAL(x)[m];
      } else VAL(x)[k] = -1 + rng_range(-0.05, 0.05);
    }
  for (int i = 0; i < N; i++) B(x)[i] = rng_range(-1, 1), w[i] = rng_range(-1, 1);
}

int main(void) {
  build();
  Kernel k = {.name = "cg",
              .title = "conjugate gradients, CSR 5-point matrix on a 300 x 300 grid, 60 iterations, J = sum w x",
              .parallel = 1,
              .n = nnz + N,
              .iterations = (double)nnz * K,
              .iteration = "nonzero-iteration (matrix-vector)",
              .init = init,
              .primal = primal,
              .gradient = gradient,
              .tangent = tangent,
              .hand = NULL};
  return kernel_main(&k);
}
