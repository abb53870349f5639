/* cg: K iterations of the conjugate gradient method on A x = b, A sparse in CSR form (a shifted 5-point
 * Laplacian on a g x g grid, its values perturbed: symmetric, diagonally dominant), from x = 0; the
 * matrix-vector product, the dot products and the vector updates each parallel over rows.
 * J(values, b) = sum_i w_i x_i, with respect to the matrix's values and the right-hand side.
 * Hand-written adjoint: the forward sweep keeps p, q = A p and the new r of every iteration (24 bytes a row,
 * the least the reverse needs: alpha's and beta's adjoints are dot products with them) and the three
 * scalars; the reverse goes through the iterations backwards, A^T applied as A (the values are symmetric),
 * a gather over rows as the primal's product. */
#include "kernel.h"

enum { G = 300, N = G * G, K = 60 };
static int *rowptr, *col, nnz;
static double *w, *work, *dwork;
static double *kept, *kept_s, *bar; /* the hand-written adjoint's: p, q, r of each iteration; rr, pq, rr_new; adjoints */

/* The product, the update of x and r, the direction update: inlined, one function's regions; in
 * cgcalls.c each a function of its own (not inlined), called one after another, as HPCCG writes them. */
#ifdef CG_CALLS
#define KERNEL __attribute__((noinline)) static
#else
#define KERNEL __attribute__((always_inline)) static inline
#endif

KERNEL double spmv(const int *restrict rowptr, const int *restrict col, const double *restrict val, const double *restrict p,
                   double *restrict q) {
  double pq = 0;
#pragma omp parallel for schedule(static) reduction(+ : pq)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
    q[i] = s;
    pq += p[i] * s;
  }
  return pq;
}

KERNEL double update(double alpha, const double *restrict p, const double *restrict q, double *restrict x, double *restrict r) {
  double rr_new = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr_new)
  for (int i = 0; i < N; i++) {
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
    rr_new += r[i] * r[i];
  }
  return rr_new;
}

KERNEL void direction(double beta, const double *restrict r, double *restrict p) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
}

/* work: x, r, p, q (n each) */
static double cg(const int *restrict rowptr, const int *restrict col, const double *restrict val,
                 const double *restrict b, double *restrict work, const double *restrict w) {
  double *x = work, *r = work + N, *p = work + 2 * N, *q = work + 3 * N, rr = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr)
  for (int i = 0; i < N; i++) x[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < K; it++) {
    double alpha = rr / spmv(rowptr, col, val, p, q);
    double rr_new = update(alpha, p, q, x, r);
    double beta = rr_new / rr;
    rr = rr_new;
    direction(beta, r, p);
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

static double hand(const double *in, double *g) {
  const double *val = VAL(in), *b = B(in);
  double *x = work, *r = work + N, *p = work + 2 * N, *q = work + 3 * N, rr = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr)
  for (int i = 0; i < N; i++) x[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < K; it++) {
    double *kp = kept + (size_t)3 * N * it, *kq = kp + N, *kr = kq + N, pq = 0;
#pragma omp parallel for schedule(static) reduction(+ : pq)
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
      q[i] = kq[i] = s, kp[i] = p[i];
      pq += p[i] * s;
    }
    double alpha = rr / pq, rr_new = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr_new)
    for (int i = 0; i < N; i++) {
      x[i] += alpha * p[i];
      kr[i] = r[i] -= alpha * q[i];
      rr_new += r[i] * r[i];
    }
    kept_s[3 * it] = rr, kept_s[3 * it + 1] = pq, kept_s[3 * it + 2] = rr_new;
    double beta = rr_new / rr;
    rr = rr_new;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * x[i];

  /* adjoints: of x, w throughout (x only accumulates); of r, p and q; of rr as it stands */
  double *gval = VAL(g), *rb = bar, *pb = bar + N, *qb = bar + 2 * N, rrb = 0;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    rb[i] = pb[i] = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) gval[k] = 0;
  }
  for (int it = K - 1; it >= 0; it--) {
    const double *kp = kept + (size_t)3 * N * it, *kq = kp + N, *kr = kq + N;
    double rr0 = kept_s[3 * it], pq = kept_s[3 * it + 1], rr_new = kept_s[3 * it + 2];
    double alpha = rr0 / pq, beta = rr_new / rr0, betab = 0, alphab = 0;
#pragma omp parallel for schedule(static) reduction(+ : betab)
    for (int i = 0; i < N; i++) betab += pb[i] * kp[i], rb[i] += pb[i], pb[i] *= beta;
    double rr_newb = rrb + betab / rr0;
    rrb = -betab * rr_new / (rr0 * rr0);
#pragma omp parallel for schedule(static) reduction(+ : alphab)
    for (int i = 0; i < N; i++) {
      rb[i] += 2 * rr_newb * kr[i];
      alphab += w[i] * kp[i] - rb[i] * kq[i];
      qb[i] = -alpha * rb[i];
      pb[i] += alpha * w[i];
    }
    rrb += alphab / pq;
    double pqb = -alphab * rr0 / (pq * pq);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) qb[i] += pqb * kp[i];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
      double s = pqb * kq[i];
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) gval[k] += qb[i] * kp[col[k]], s += val[k] * qb[col[k]];
      pb[i] += s;
    }
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) B(g)[i] = rb[i] + pb[i] + 2 * rrb * b[i];
  return J;
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
  kept = malloc(sizeof(double) * 3 * N * K), kept_s = malloc(sizeof(double) * 3 * K), bar = malloc(sizeof(double) * 3 * N);
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
#ifndef CG_CALLS
  Kernel k = {.name = "cg",
              .title = "conjugate gradients, CSR 5-point matrix on a 300 x 300 grid, 60 iterations, J = sum w x",
#else
  Kernel k = {.name = "cgcalls",
              .title = "cg with its product, update and direction each a function, as HPCCG writes them",
#endif
              .parallel = 1,
              .n = nnz + N,
              .iterations = (double)nnz * K,
              .iteration = "nonzero-iteration (matrix-vector)",
              .init = init,
              .primal = primal,
              .gradient = gradient,
              .tangent = tangent,
              .hand = hand};
  return kernel_main(&k);
}
