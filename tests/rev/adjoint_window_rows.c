// Adjoint windows on two shapes beyond a pointer moving along a line (reverse/rev_window.c):
//   jacobi  a 5-point sweep over an n x n grid stored by rows of run-time length n + 2, addressed as
//           a[i * (n + 2) + j]: the row's offset is computed before the inner loop, and a[i][j-1],
//           a[i][j], a[i][j+1] still share a window (the rows above and below are other lines);
//   gauss   the same grid swept in place (Gauss-Seidel): the store clears an element of the window's
//           line, so no window;
//   pivot   a loop reading a[k] in every iteration while it updates a[j] for j in [lo, hi): the
//           adjoint of a[k] is summed in a register (a window of one element that does not slide);
//           the runs are given k outside [lo, hi) and inside it, where the check at run time turns the
//           window off (the loop then reads the a[k] it wrote).
// Gradients against central finite differences (h = 1e-6, tolerance 1e-6), every component, at -O2
// (windows) and -O0 (none). The build prints which loops got a window (PARAD_PLAN), checked with FileCheck.
// RUN: env PARAD_PLAN=1 %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// CHECK-DAG: adjoint window in jacobi: 4 loads over 3 elements, checked per run
// CHECK-DAG: adjoint window in pivot: 1 loads over 1 elements, checked per run
// CHECK-NOT: adjoint window in gauss
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { MAXN = 7, CELLS = (MAXN + 2) * (MAXN + 2) };

#define AT(a, i, j) a[(size_t)(i) * (n + 2) + (j)]

__attribute__((noinline)) static double jacobi(const double *restrict u0, double *restrict a, double *restrict b, int n) {
  for (int k = 0; k < (n + 2) * (n + 2); k++) a[k] = u0[k], b[k] = 0;
  for (int s = 0; s < 3; s++) {
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        AT(b, i, j) = 0.3 * AT(a, i, j - 1) + 0.25 * AT(a, i, j) + 0.2 * AT(a, i, j + 1) +
                      0.1 * sin(AT(a, i - 1, j)) + 0.15 * AT(a, i + 1, j) * AT(a, i, j);
    double *t = a;
    a = b, b = t;
  }
  double J = 0;
  for (int k = 0; k < (n + 2) * (n + 2); k++) J += (k % 5 + 1) * a[k] * a[k];
  return J;
}

__attribute__((noinline)) static double gauss(const double *restrict u0, double *restrict a, double *restrict b, int n) {
  (void)b;
  for (int k = 0; k < (n + 2) * (n + 2); k++) a[k] = u0[k];
  for (int s = 0; s < 2; s++)
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        AT(a, i, j) = 0.3 * AT(a, i, j - 1) + 0.2 * AT(a, i, j + 1) + 0.25 * AT(a, i - 1, j) * AT(a, i, j) +
                      0.1 * AT(a, i + 1, j);
  double J = 0;
  for (int k = 0; k < (n + 2) * (n + 2); k++) J += (k % 3 + 1) * a[k] * a[k];
  return J;
}

/* k, lo, hi per run, from the input's length: runs with k below, inside and above [lo, hi) */
__attribute__((noinline)) static double pivot(const double *restrict u0, double *restrict a, double *restrict b, int n) {
  (void)b;
  int m = (n + 2) * (n + 2);
  for (int k = 0; k < m; k++) a[k] = u0[k];
  static const int runs[][3] = {{0, 2, 9}, {5, 3, 8}, {12, 4, 11}, {7, 7, 8}, {3, 4, 30}};
  for (int r = 0; r < 5; r++) {
    int k = runs[r][0] % m, lo = runs[r][1] % m, hi = runs[r][2] < m ? runs[r][2] : m;
    for (int j = lo; j < hi; j++) a[j] = 0.9 * a[j] + 0.2 * a[k] * a[j] + 0.05 * a[k];
  }
  double J = 0;
  for (int k = 0; k < m; k++) J += (k % 4 + 1) * a[k] * a[k];
  return J;
}

typedef double (*Kernel)(const double *restrict, double *restrict, double *restrict, int);

static double u0[CELLS], a[CELLS], b[CELLS], du0[CELLS], da[CELLS], db[CELLS];

static double at(Kernel f, int n, int k, double v) {
  double saved = u0[k];
  u0[k] = v;
  double r = f(u0, a, b, n);
  u0[k] = saved;
  return r;
}

static void check(Kernel f, int n) {
  int m = (n + 2) * (n + 2);
  memset(du0, 0, sizeof du0), memset(da, 0, sizeof da), memset(db, 0, sizeof db);
  if (f == jacobi) __parad_autodiff((void *)jacobi, u0, du0, a, da, b, db, n);
  if (f == gauss) __parad_autodiff((void *)gauss, u0, du0, a, da, b, db, n);
  if (f == pivot) __parad_autodiff((void *)pivot, u0, du0, a, da, b, db, n);
  const double h = 1e-6;
  for (int k = 0; k < m; k++) CHECK_CLOSE(du0[k], (at(f, n, k, u0[k] + h) - at(f, n, k, u0[k] - h)) / (2 * h), 1e-6);
}

int main(void) {
  for (int k = 0; k < CELLS; k++) u0[k] = 0.5 + 0.4 * sin(0.7 * k + 0.3);
  for (int n = 1; n <= MAXN; n += 2) {
    check(jacobi, n);
    check(gauss, n);
    check(pivot, n);
  }
  return check_done();
}
