// A task's inputs: memory a task names in depend(in:) and only reads, which the reverse sweep reads from a
// copy made as the task ends rather than from values recorded read by read. Both modes: a tiled matrix
// product C += A B whose tasks name whole tiles (depend(in: A tile, B tile) depend(inout: C tile)), so that
// several tasks read each input tile at once, after which other tasks overwrite A and B in place (a reverse
// sweep reading them from memory would see the new values); a task naming the first half of a matrix's rows
// and reading all of them (runs of rows in that half read from the copy, the others recorded); one naming
// only the matrix's first element (every run recorded); one reading one tile through two pointers; one
// summing a tile linearly (its reverse sweep needs none of the values read: no copy is made).
// f(x) = weighted sums of the results and of the overwritten inputs. Gradients against tangents (1e-11) and
// central differences (1e-6), at 1, 2 and 4 threads at -O2, 3 at -O0. A task that writes, through another
// pointer, memory it names in depend(in:) and reads stops the program with a message (its copy, made as
// it ends, would not hold what it read).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp -DWRITES_INPUT %s -o %t1 -lm && env OMP_NUM_THREADS=2 not %t1 2>&1 | FileCheck %s
// CHECK: an OpenMP task wrote memory that it names in depend(in: ...) and reads
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { B = 4, T = 3, N = B * T, M = 7 };
typedef double Tile[B][B];

static void gemm(const Tile a, const Tile b, Tile c) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      double t = c[i][j];
      for (int k = 0; k < B; k++) t += a[i][k] * b[k][j];
      c[i][j] = t;
    }
}

static void scale(Tile a, double s) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) a[i][j] = s * a[i][j] + 0.1 * a[i][j] * a[i][j];
}

/* out[i] = sin(|row i|^2), over all N rows of m */
static void rows(const double (*m)[N], double *out) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < N; j++) s += m[i][j] * m[i][j];
    out[i] = sin(0.1 * s);
  }
}

static double f(const double *x) {
  Tile A[T][T], Bt[T][T], C[T][T];
  double m[N][N], half[N], first[N], same[B], lin = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i / B][j / B][i % B][j % B] = sin(x[(i + 2 * j) % M] + 0.1 * i);
      Bt[i / B][j / B][i % B][j % B] = cos(x[(3 * i + j) % M] - 0.2 * j);
      C[i / B][j / B][i % B][j % B] = x[(i * j) % M];
      m[i][j] = x[(i + j) % M] * (1 + 0.05 * i);
    }
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < T; i++)
      for (int j = 0; j < T; j++)
        for (int k = 0; k < T; k++) {
#pragma omp task depend(in : A[i][k], Bt[k][j]) depend(inout : C[i][j]) shared(A, Bt, C) firstprivate(i, j, k)
          gemm(A[i][k], Bt[k][j], C[i][j]);
        }
#ifdef WRITES_INPUT
    double *alias = &m[0][0];
#pragma omp task depend(in : m[0 : N / 2]) depend(out : half) shared(m, half) firstprivate(alias)
    {
      rows(m, half);
      alias[1] = 0.5 * alias[1];
    }
#else
#pragma omp task depend(in : m[0 : N / 2]) depend(out : half) shared(m, half)
    rows(m, half);
#pragma omp task depend(in : m[0][0]) depend(out : first) shared(m, first)
    rows(m, first);
#endif
    const double *p = &A[1][1][0][0], *q = &A[1][1][0][0];
#pragma omp task depend(in : A[1][1]) depend(out : same) shared(same) firstprivate(p, q)
    for (int i = 0; i < B; i++) {
      double s = 0;
      for (int j = 0; j < B; j++) s += p[i * B + j] * q[j * B + i];
      same[i] = s;
    }
    /* a sum of a tile's elements, whose values its reverse sweep does not need: no copy */
#pragma omp task depend(in : A[2][1]) depend(out : lin) shared(A, lin)
    for (int i = 0; i < B; i++)
      for (int j = 0; j < B; j++) lin += (i + 2 * j) * A[2][1][i][j];
    /* the inputs overwritten once their readers are done */
    for (int i = 0; i < T; i++)
      for (int k = 0; k < T; k++) {
#pragma omp task depend(inout : A[i][k]) shared(A) firstprivate(i, k)
        scale(A[i][k], 1.5);
#pragma omp task depend(inout : Bt[i][k]) shared(Bt) firstprivate(i, k)
        scale(Bt[i][k], -0.5);
      }
#pragma omp task depend(inout : m[0 : N]) shared(m)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) m[i][j] = cos(m[i][j]);
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double w = cos(0.3 * i - 0.2 * j);
      s += w * C[i / B][j / B][i % B][j % B] + 0.3 * w * A[i / B][j / B][i % B][j % B] +
           0.2 * w * Bt[i / B][j / B][i % B][j % B] + 0.1 * w * m[i][j];
    }
  for (int i = 0; i < N; i++) s += half[i] * (1 + 0.1 * i);
#ifndef WRITES_INPUT
  for (int i = 0; i < N; i++) s += first[i] * (2 - 0.1 * i);
#endif
  for (int i = 0; i < B; i++) s += same[i] * (i + 1);
  s += 0.01 * lin;
  return s;
}

int main(void) {
  double x[M];
  for (int i = 0; i < M; i++) x[i] = 0.3 * i - 0.8;
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  return check_done();
}
