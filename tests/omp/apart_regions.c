// Parallel functions written without `restrict` (ad/apart.c): the check that a call's arrays lie apart
// follows the function's regions, whose shared variables clang passes by address (a pointer stored once
// in the forking function and only read in the region is that pointer), and whose static loops give each
// thread a share of the loop's bounds.
//   product(A, B, C): one region, two worksharing loops (C = A B, then J = sum W . C, a reduction), with a
//     barrier between them: apart (the copy: B read back, not recorded), then C the same array as A (as
//     written: row i of C, zeroed first, is the row of A that iteration i reads).
//   factor(A, LU): LU = A in a parallel loop, then LU factorised in place, a region forked for each k whose
//     loop starts at k + 1 (k a captured variable, so a counter in memory): apart, then A and LU the same
//     array. Its tapes are the same either way (the regions record the factor's values), so only its
//     gradients are compared.
//   swapped(u0, work): a 1-D Jacobi stencil over two halves of work swapped each step, the region forked
//     each step with the swapped pointers: work apart from u0, then u0 inside work's second half.
//   offset_rows(x, y, n, stride): y[i] = x[i * stride] ^ 2 + y[i] / 2, n and the stride shared integers:
//     apart, then y the same array as x (stride 1).
// The arrays that overlap do so where one thread reads and writes them: the programs have no races.
//   dynamic_rows(x, y): y[i] = x[i]^2 + sin x[i] on a dynamic schedule, whose chunks lie between the
//     loop's bounds: apart, then y the same array as x.
//   chunked_rows(x, y): the same on a static schedule with a chunk, which the check does not follow (as
//     written).
// Every gradient against central differences (h 1e-6, 1e-6) and forward-mode tangents (1e-10), and, at
// 2 threads, the tapes of all threads against the build without the choice (PARAD_NO_APART=1, its output
// at 2 threads): at most half where apart (less, for the stencil, whose values are recorded either way),
// at least 9/10 where not. PARAD_PLAN=1 says the check is built for every function but chunked_rows.
// RUN: env PARAD_PLAN=1 %parad-cc %cflags -fopenmp %s -o %t2 -lm 2>&1 | grep "apart: no check of" | not grep -v chunked_rows
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags -fopenmp %s -o %t1 -lm && OMP_NUM_THREADS=2 %t1 > %t1.out
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=2 %t %t1.out && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

size_t parad_tape_recorded_bytes(void);

enum { M = 12, P = 10, Q = 10, N = 16, S = 24, STEPS = 5, APART_BUFFER = 4 * N * N + 64 };
#define APART_TAPE_BYTES parad_tape_recorded_bytes
#include "apart_cases.h"
static double W[M * Q > N * N ? M * Q : N * N];

__attribute__((noinline)) static double product(const double *A, const double *B, double *C) {
  double J = 0;
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < M; i++) {
      for (int j = 0; j < Q; j++) C[i * Q + j] = 0;
      for (int k = 0; k < P; k++) {
        double a = A[i * P + k];
        for (int j = 0; j < Q; j++) C[i * Q + j] += a * B[k * Q + j];
      }
    }
#pragma omp for schedule(static) reduction(+ : J)
    for (int i = 0; i < M * Q; i++) J += W[i] * C[i];
  }
  return J;
}

__attribute__((noinline)) static double factor(const double *A, double *LU) {
#pragma omp parallel for
  for (int i = 0; i < N * N; i++) LU[i] = A[i];
  for (int k = 0; k < N; k++) {
#pragma omp parallel for
    for (int i = k + 1; i < N; i++) {
      LU[i * N + k] /= LU[k * N + k];
      for (int j = k + 1; j < N; j++) LU[i * N + j] -= LU[i * N + k] * LU[k * N + j];
    }
  }
  double J = 0;
  for (int i = 0; i < N * N; i++) J += W[i] * LU[i];
  return J;
}

__attribute__((noinline)) static double swapped(const double *u0, double *work) {
  double *a = work, *b = work + S;
  for (int i = 0; i < S; i++) a[i] = b[i] = u0[i];
  for (int t = 0; t < STEPS; t++) {
#pragma omp parallel for
    for (int i = 1; i < S - 1; i++) b[i] = (a[i - 1] + a[i] * a[i] + a[i + 1]) / 3;
    double *c = a;
    a = b, b = c;
  }
  double J = 0;
  for (int i = 0; i < S; i++) J += W[i] * a[i] + u0[i] * u0[S - 1 - i];
  return J;
}

static int stride_at_run_time = 2;

__attribute__((noinline)) static double offset_rows(const double *x, double *y, int n, int stride) {
  double J = 0;
  for (int r = 0; r < 3; r++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) y[i] = x[i * stride] * x[i * stride] + y[i] * 0.5;
    for (int i = 0; i < n; i++) J += W[i] * sin(y[i]);
  }
  return J;
}

__attribute__((noinline)) static double dynamic_rows(const double *x, double *y) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + sin(x[i]);
  double J = 0;
  for (int i = 0; i < N; i++) J += y[i] * cos(x[i]);
  return J;
}

__attribute__((noinline)) static double chunked_rows(const double *x, double *y) {
#pragma omp parallel for schedule(static, 2)
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + sin(x[i]);
  double J = 0;
  for (int i = 0; i < N; i++) J += y[i] * cos(x[i]);
  return J;
}

TWO_INPUTS(prod, product, M * P, P * Q)
static void prod_apart(void) { at.a = 0, at.b = M * P, at.c = M * P + P * Q; }
static void prod_over(void) { at.a = at.c = 0, at.b = M * P; } /* C is A: row i of both is iteration i's */

TWO_ARRAYS(fac, factor, N * N)
TWO_ARRAYS(swp, swapped, S)
TWO_ARRAYS(dyn, dynamic_rows, N)
TWO_ARRAYS(chk, chunked_rows, N)
static void u0_in_work(void) { at.a = S + 4, at.c = 0; }

STRIDED(rows, offset_rows, N)
static void rows_apart(void) { at.a = 0, at.b = 1, at.c = 3 * N, at.stride = stride_at_run_time; }
static void rows_over(void) { at.a = at.b = at.c = 0, at.stride = 1; } /* y is x: y[i] = y[i]^2 + y[i] / 2 */

int main(int argc, char **argv) {
  if (read_tapes_as_written(argc, argv)) return 1;
  for (int i = 0; i < (int)(sizeof W / sizeof *W); i++) W[i] = sin(0.37 * i + 0.2);
  double x[4 * N * N];
  for (int i = 0; i < 4 * N * N; i++) x[i] = 0.5 * cos(0.71 * i);
  double spd[N * N]; /* diagonally dominant: a factorisation without pivots */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) spd[i * N + j] = i == j ? N + 1.0 : 0.3 * cos(i + j);
  Case cases[] = {
      {"product, apart", prod_apart, M * P + P * Q, prod_f, prod_grad, prod_tangent, 1, 0},
      {"product, C the same as A", prod_over, M * P + P * Q, prod_f, prod_grad, prod_tangent, 0, 0},
      {"factor, apart", apart_after, N * N, fac_f, fac_grad, fac_tangent, -1, 0},
      {"factor, in place", in_place, N * N, fac_f, fac_grad, fac_tangent, 0, 0},
      {"swapped, apart", apart_after, S, swp_f, swp_grad, swp_tangent, 2, 0},
      {"swapped, u0 inside work", u0_in_work, S, swp_f, swp_grad, swp_tangent, 0, 0},
      {"offset_rows, apart", rows_apart, 2 * N, rows_f, rows_grad, rows_tangent, 2, 0},
      {"offset_rows, y the same as x", rows_over, 2 * N, rows_f, rows_grad, rows_tangent, 0, 0},
      {"dynamic_rows, apart", apart_after, N, dyn_f, dyn_grad, dyn_tangent, 2, 0},
      {"dynamic_rows, y the same as x", in_place, N, dyn_f, dyn_grad, dyn_tangent, 0, 0},
      {"chunked_rows", apart_after, N, chk_f, chk_grad, chk_tangent, 0, 0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) check_case(&cases[k], k == 2 || k == 3 ? spd : x);
  return check_done();
}
