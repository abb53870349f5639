// A task's outputs: what a task reads, in loops, of memory it writes (its depend(inout:) tile) where no
// later store of the task writes there again, is read in the reverse sweep from a copy made as the task
// ends rather than recorded read by read. Both modes, on 6 x 6 tiles:
//   an in-place triangular solve b = b L^-T (reads the entries of its row it finished: from the copy);
//   an in-place recurrence along each row, a[i][j] = a[i][j] sin(a[i][j-1]) (reads the entry it finished
//     just before: from the copy; and the one it is about to overwrite: recorded);
//   a sweep that reads the next entry before overwriting it, twice (every read is overwritten later:
//     recorded, the dependence test must say so);
// after which other tasks overwrite every tile in place (a reverse sweep reading memory would see the new
// values, a copy made too early the old ones). f(x) = weighted sums of the tiles. Gradients against tangents
// (1e-11) and central differences (1e-6), at 1, 2 and 4 threads at -O2, 3 at -O0; the tasks must make their
// copies (IR). A task that writes, through a second pointer, memory of its tile that it reads through the
// first stops the program with a message (its copy, made as it ends, would not hold what it read).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %parad-cc %cflags -fopenmp -DALIASED %s -o %t1 -lm && env OMP_NUM_THREADS=2 not %t1 2>&1 | FileCheck %s
// IR: call void @__parad_rt_shared_output
// CHECK: an OpenMP task wrote, through one pointer, memory of its depend(inout: ...) that it reads through another
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { B = 6, T = 3, M = 9 };
typedef double Tile[B][B];

/* b = b L^-T, L the lower triangle of l (its diagonal kept away from zero) */
static void solve(const Tile l, Tile b) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      double t = b[i][j];
      for (int k = 0; k < j; k++) t -= b[i][k] * l[j][k];
      b[i][j] = t / (2 + l[j][j] * l[j][j]);
    }
}

static void recur(Tile a) {
  for (int i = 0; i < B; i++)
    for (int j = 1; j < B; j++) a[i][j] = a[i][j] * sin(a[i][j - 1]) + 0.5 * a[i][j];
}

static void sweep(Tile a) {
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < B; i++)
      for (int j = 0; j + 1 < B; j++) a[i][j] = a[i][j] * (1 + 0.2 * a[i][j + 1]);
}

static void scale(Tile a) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) a[i][j] = cos(a[i][j]) + 0.3 * a[i][j];
}

#ifdef ALIASED
static void solve_aliased(const Tile l, Tile b, Tile b2) {
  solve(l, b);
  b2[0][0] *= 1.5; /* read as b[0][0] by the solve */
}
#endif

static double f(const double *x) {
  Tile L, S[T], R[T], W[T];
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      L[i][j] = sin(x[(i + 2 * j) % M]);
      for (int t = 0; t < T; t++) {
        S[t][i][j] = cos(x[(3 * i + j + t) % M]) + 0.1 * t;
        R[t][i][j] = 0.5 + 0.2 * x[(i * j + t) % M];
        W[t][i][j] = 0.3 * x[(i + j + 2 * t) % M] - 0.1 * j;
      }
    }
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < T; t++) {
#ifdef ALIASED
      double (*alias)[B] = S[t];
#pragma omp task depend(in : L) depend(inout : S[t]) shared(L, S) firstprivate(t, alias)
      solve_aliased(L, S[t], alias);
#else
#pragma omp task depend(in : L) depend(inout : S[t]) shared(L, S) firstprivate(t)
      solve(L, S[t]);
#endif
#pragma omp task depend(inout : R[t]) shared(R) firstprivate(t)
      recur(R[t]);
#pragma omp task depend(inout : W[t]) shared(W) firstprivate(t)
      sweep(W[t]);
    }
    for (int t = 0; t < T; t++) {
#pragma omp task depend(inout : S[t]) shared(S) firstprivate(t)
      scale(S[t]);
#pragma omp task depend(inout : R[t]) shared(R) firstprivate(t)
      scale(R[t]);
#pragma omp task depend(inout : W[t]) shared(W) firstprivate(t)
      scale(W[t]);
    }
  }
  double s = 0;
  for (int t = 0; t < T; t++)
    for (int i = 0; i < B; i++)
      for (int j = 0; j < B; j++) {
        double w = cos(0.3 * i - 0.2 * j + t);
        s += w * S[t][i][j] + 0.7 * w * R[t][i][j] + 0.4 * w * W[t][i][j];
      }
  return s;
}

int main(void) {
  double x[M], g[M] = {0}, v[M];
  for (int i = 0; i < M; i++) x[i] = 0.2 * i - 0.7;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < M; j++) {
    for (int i = 0; i < M; i++) v[i] = i == j;
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)f, x, v), 1e-11);
    CHECK_CLOSE(g[j], fd_component(f, x, M, j, 1e-5), 1e-6);
  }
  return check_done();
}
