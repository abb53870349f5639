// A CSR matrix built inside the differentiated function in a local struct, `{n, rp, ci, val}`, its index
// arrays the caller's, passed constant, its values computed; a parallel region reads it through the
// struct. Without -fopenmp the struct's shadow holds the index pointers themselves (only integers are read
// through them); with it the refusal "needs a shadow for memory that has none" came, because the region
// is handed the struct's address in a local of its own (the parameter's slot) and the analysis stopped
// there. Both index pointers go through the slot, the region's loads of them are walked too.
//   f(k) = sum_i sum_{q in row i} k_q^2 x[ci[q]] (x fixed),  df/dk_q = 2 k_q x[ci[q]]
// Reverse and forward mode against the formula (1e-12) at 1, 2 and 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

struct csr {
  int n;
  const int *rp, *ci;
  double *val;
};

enum { ROWS = 7, NNZ = 3 * ROWS - 2 };
static double x[ROWS];

__attribute__((noinline)) static double spmv_sum(const struct csr *A) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < A->n; i++)
    for (int q = A->rp[i]; q < A->rp[i + 1]; q++) s += A->val[q] * x[A->ci[q]];
  return s;
}

double f(const double *k, const int *rp, const int *ci, int n) {
  struct csr A = {n, rp, ci, calloc((size_t)rp[n], sizeof(double))};
  for (int q = 0; q < rp[n]; q++) A.val[q] = k[q] * k[q];
  double s = spmv_sum(&A);
  free(A.val);
  return s;
}

int main(void) {
  int rp[ROWS + 1], ci[NNZ], q = 0;
  for (int i = 0; i < ROWS; i++) { /* tridiagonal */
    rp[i] = q;
    for (int j = i - 1; j <= i + 1; j++)
      if (j >= 0 && j < ROWS) ci[q++] = j;
  }
  rp[ROWS] = q;
  double k[NNZ], dk[NNZ] = {0};
  for (int i = 0; i < ROWS; i++) x[i] = 1.0 + 0.3 * i;
  for (int p = 0; p < NNZ; p++) k[p] = 0.5 + 0.1 * p;
  __parad_autodiff((void *)f, k, dk, parad_const, rp, parad_const, ci, ROWS);
  for (int p = 0; p < NNZ; p++) CHECK_CLOSE(dk[p], 2 * k[p] * x[ci[p]], 1e-12);
  for (int p = 0; p < NNZ; p += 4) {
    double e[NNZ] = {0};
    e[p] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, k, e, parad_const, rp, parad_const, ci, ROWS), 2 * k[p] * x[ci[p]], 1e-12);
  }
  return check_done();
}
