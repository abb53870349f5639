// collapse(2) over a triangle (OpenMP 5.0's non-rectangular loops: `for i; for j = i + 1 .. n`). clang
// flattens it into n (n - min(n, 1)) iterations, the inner counter `i + 1 + k % (n - min(n, 1))` under a
// guard `j < n`. The check that the function's arrays lie apart bounds `k / T` and `k % T` by the divisor's
// span, and divided by it before requiring it positive: the hull it took for `min(n, 1)` made the divisor's
// least value 0, so the check divided by zero. With n known at the call (inlined, constant) the optimiser
// took the gradient for unreachable (main fell through into the next function: a crash), and otherwise the
// division trapped. The divisor is clamped now, and a signed minimum's span is the minimum of the spans.
//   pairs:  e = sum_{i<j} x_i x_j / (1 + (x_i - x_j)^2), a reduction (dynamic and static schedules);
//   lower:  out_ij = x_i sin x_j for j < i, seeded with weights w_ij.
// Gradients against the analytic ones (1e-12) and tangents along each direction (1e-12), central
// differences of pairs (h = 1e-6, 1e-7); n a constant at the call and n read at run time; 1 to 3 threads,
// -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 9 };

static double pairs(const double *x, int n) {
  double e = 0;
#pragma omp parallel for collapse(2) schedule(dynamic, 3) reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = x[i] - x[j];
      e += x[i] * x[j] / (1 + d * d);
    }
  return e;
}

static double pairs_static(const double *x, int n) {
  double e = 0;
#pragma omp parallel for collapse(2) reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = x[i] - x[j];
      e += x[i] * x[j] / (1 + d * d);
    }
  return e;
}

static void lower(const double *x, double *out, int n) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) out[i * n + j] = x[i] * sin(x[j]);
}

/* d/dx_k of pairs: sum over j != k of d/dx_k [x_k x_j / (1 + (x_k - x_j)^2)] */
static double pairs_dx(const double *x, int n, int k) {
  double s = 0;
  for (int j = 0; j < n; j++) {
    if (j == k) continue;
    double d = x[k] - x[j], q = 1 + d * d;
    s += x[j] / q - x[k] * x[j] * 2 * d / (q * q);
  }
  return s;
}

static void check_pairs(double (*f)(const double *, int), double *x, int n) {
  double g[N] = {0}, v[N] = {0};
  __parad_autodiff((void *)f, x, g, parad_const, n);
  for (int k = 0; k < n; k++) {
    CHECK_CLOSE(g[k], pairs_dx(x, n, k), 1e-12);
    v[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, parad_const, n), g[k], 1e-12);
    v[k] = 0;
    double keep = x[k], h = 1e-6;
    x[k] = keep + h;
    double up = f(x, n);
    x[k] = keep - h;
    double down = f(x, n);
    x[k] = keep;
    CHECK_CLOSE(g[k], (up - down) / (2 * h), 1e-7);
  }
}

static void check_lower(double *x, int n) {
  double out[N * N] = {0}, w[N * N], g[N] = {0};
  for (int i = 0; i < N * N; i++) w[i] = cos(0.3 * i);
  double seed[N * N];
  for (int i = 0; i < N * N; i++) seed[i] = w[i];
  __parad_autodiff((void *)lower, x, g, out, seed, parad_const, n);
  for (int k = 0; k < n; k++) { /* sum_{j<k} w_kj sin x_j + sum_{i>k} w_ik x_i cos x_k */
    double want = 0;
    for (int j = 0; j < k; j++) want += w[k * n + j] * sin(x[j]);
    for (int i = k + 1; i < n; i++) want += w[i * n + k] * x[i] * cos(x[k]);
    CHECK_CLOSE(g[k], want, 1e-12);
  }
}

int main(int argc, char **argv) {
  (void)argv;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = sin(i + 1.0);
  int n = argc > 5 ? 4 : N; /* not known when compiling */
  check_pairs(pairs, x, N);
  check_pairs(pairs, x, n);
  check_pairs(pairs_static, x, N);
  check_pairs(pairs_static, x, n - 2);
  check_lower(x, N);
  check_lower(x, n);
  return check_done();
}
