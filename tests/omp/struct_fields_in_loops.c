// Arrays a parallel region reaches through a struct's fields (`S->tw[j]`, `A->val[k]`), where the field's
// load sits in a loop of the region: under an inner loop's guard the optimiser cannot hoist it (it cannot
// tell the struct is there to read when the guard fails). The function stores no pointer others see and
// calls nothing that might, so every load of the field reads one pointer: the region's plan for shared
// adjoints covers the array as if its pointer were loaded once (reverse/rev_shared.c, direct_root_at). It
// gave up instead, and at 2 threads every adjoint update of the region's shared inputs was atomic.
//   frames: overlapping frames of a signal, windowed, a table added in butterfly-like passes (the pass's
//           length doubles, its loop under a guard), squared; f = sum of the squares.
//   quad:   x^T A x for a CSR matrix in a struct (row pointers, columns, values), w.r.t. the values and x.
//   swapped: a region whose `single` swaps two of the struct's pointers between its loops (a pointer
//           stored where other threads see it): each load may read another array, planned as before
//           (atomically); only its numbers are checked.
// Gradients against tangents (1e-10) and central differences (h = 1e-6, tolerance 1e-6 relative) at 1, 2
// and 3 threads, -O2 and -O0; built counting adjoint updates: frames' and quad's under 5% atomic at 2 and
// 3 threads (all were atomic).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t.count -lm && OMP_NUM_THREADS=2 %t.count && OMP_NUM_THREADS=3 %t.count
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <parad.h>
#include <stdlib.h>
#include "check.h"
#include "update_counts.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { LEN = 64, HOP = 16, FRAMES = 40, SIG = (FRAMES - 1) * HOP + LEN };
typedef struct {
  double *win, *tw, *mag;
} Frames;

__attribute__((noinline)) double frames(Frames *S, const double *sig, int nframes) {
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nframes; f++) {
    double w[LEN];
    for (int i = 0; i < LEN; i++) w[i] = sig[f * HOP + i] * S->win[i];
    for (int m = 2; m <= LEN; m <<= 1)
      for (int j = 0; j < m / 2; j++) w[j] += S->tw[j] * w[j + m / 2];
    for (int k = 0; k < LEN; k++) S->mag[f * LEN + k] = w[k] * w[k];
  }
  double L = 0;
  for (int i = 0; i < nframes * LEN; i++) L += S->mag[i];
  return L;
}

typedef struct {
  int n;
  int *rowptr, *col;
  double *val;
} Csr;

__attribute__((noinline)) double quad(const Csr *A, const double *x) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < A->n; i++)
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) s += x[i] * A->val[k] * x[A->col[k]];
  return s;
}

typedef struct {
  double *a, *b;
  int n;
} Pair;

__attribute__((noinline)) double swapped(Pair *P, const int *len) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < P->n; i++)
      for (int j = 0; j < len[i]; j++) s += P->a[j] * P->b[i];
#pragma omp single
    {
      double *t = P->a;
      P->a = P->b, P->b = t;
    }
#pragma omp for schedule(static)
    for (int i = 0; i < P->n; i++)
      for (int j = 0; j < len[i]; j++) s += sin(P->a[j]) * P->b[i];
  }
  return s;
}

/* The central difference (h = 1e-6) of objective() along the value at v. */
static double central(double *v, double (*objective)(void)) {
  const double h = 1e-6, keep = *v;
  *v = keep + h;
  double up = objective();
  *v = keep - h;
  double down = objective();
  *v = keep;
  return (up - down) / (2 * h);
}

static double win[LEN], tw[LEN / 2], sig[SIG];

static double frames_now(void) {
  static double mag[FRAMES * LEN];
  Frames S = {win, tw, mag};
  return frames(&S, sig, FRAMES);
}

static void check_frames(void) {
  static double mag[FRAMES * LEN], dwin[LEN], dtw[LEN / 2], dsig[SIG], dmag[FRAMES * LEN];
  for (int i = 0; i < LEN; i++) win[i] = sin(M_PI * (i + 0.5) / LEN);
  for (int j = 0; j < LEN / 2; j++) tw[j] = 0.4 * cos(0.7 * j);
  for (int i = 0; i < SIG; i++) sig[i] = sin(0.05 * i) + 0.2 * cos(0.31 * i);
  Frames S = {win, tw, mag}, dS = {dwin, dtw, dmag};
  count_from();
  __parad_autodiff((void *)frames, &S, &dS, sig, dsig, parad_const, FRAMES);
  counted("frames");
  static double t_win[LEN], t_tw[LEN / 2], t_sig[SIG], t_mag[FRAMES * LEN];
  Frames T = {t_win, t_tw, t_mag};
  for (int j = 0; j < LEN / 2; j += 5) { /* a twiddle's */
    t_tw[j] = 1;
    CHECK_CLOSE(dtw[j], __parad_fwddiff((void *)frames, &S, &T, sig, t_sig, parad_const, FRAMES), 1e-10);
    t_tw[j] = 0;
    CHECK_CLOSE(dtw[j], central(&tw[j], frames_now), 1e-6);
  }
  for (int i = 3; i < SIG; i += 97) { /* a sample's */
    t_sig[i] = 1;
    CHECK_CLOSE(dsig[i], __parad_fwddiff((void *)frames, &S, &T, sig, t_sig, parad_const, FRAMES), 1e-10);
    t_sig[i] = 0;
    CHECK_CLOSE(dsig[i], central(&sig[i], frames_now), 1e-6);
  }
  for (int i = 0; i < LEN; i += 9) CHECK_CLOSE(dwin[i], central(&win[i], frames_now), 1e-6); /* a window's */
}

/* A 5-point Laplacian's pattern on a g x g grid, values unsymmetric. */
enum { G = 30, N = G * G };
static int rowptr[N + 1], col[5 * N];
static double val[5 * N], x[N];

static int build(void) {
  int nnz = 0;
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      rowptr[i * G + j] = nnz;
      static const int d[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
      for (int q = 0; q < 5; q++) {
        int a = i + d[q][0], b = j + d[q][1];
        if (a < 0 || a >= G || b < 0 || b >= G) continue;
        col[nnz] = a * G + b;
        val[nnz] = q == 2 ? 4.1 + 0.01 * (i - j) : -1 + 0.03 * sin(nnz);
        nnz++;
      }
    }
  rowptr[N] = nnz;
  return nnz;
}

static double quad_now(void) {
  Csr A = {N, rowptr, col, val};
  return quad(&A, x);
}

static void check_quad(void) {
  static double dval[5 * N], dx[N], t_val[5 * N], t_x[N];
  int nnz = build();
  for (int i = 0; i < N; i++) x[i] = cos(0.37 * i);
  Csr A = {N, rowptr, col, val}, dA = {N, rowptr, col, dval}, T = {N, rowptr, col, t_val};
  count_from();
  __parad_autodiff((void *)quad, &A, &dA, x, dx);
  counted("quad");
  /* d/dx_m = sum_k in row m val_k x_col(k) + sum_i,k: col(k) = m x_i val_k; d/dval_k = x_row x_col(k) */
  for (int m = 0; m < N; m += 37) {
    double want = 0;
    for (int i = 0; i < N; i++)
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
        if (i == m) want += val[k] * x[col[k]];
        if (col[k] == m) want += x[i] * val[k];
      }
    CHECK_CLOSE(dx[m], want, 1e-12);
    t_x[m] = 1;
    CHECK_CLOSE(dx[m], __parad_fwddiff((void *)quad, &A, &T, x, t_x), 1e-10);
    t_x[m] = 0;
  }
  for (int i = 0; i < N; i += 23)
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) CHECK_CLOSE(dval[k], x[i] * x[col[k]], 1e-12);
  for (int k = 1; k < nnz; k += 301) CHECK_CLOSE(dval[k], central(&val[k], quad_now), 1e-6);
}

enum { P = 50 };
static double a[P], b[P];
static int len[P];

static double swapped_now(void) {
  Pair p = {a, b, P};
  return swapped(&p, len);
}

static void check_swapped(void) {
  static double da[P], db[P];
  for (int i = 0; i < P; i++) a[i] = 0.3 + 0.01 * i, b[i] = cos(0.2 * i), len[i] = (7 * i) % 11;
  Pair p = {a, b, P}, dp = {da, db, P};
  __parad_autodiff((void *)swapped, &p, &dp, parad_const, len);
  /* the call swapped p's pointers (and dp's with them): back, to compare */
  CHECK_CLOSE((double)(p.a == b && dp.a == db), 1, 0);
  for (int i = 0; i < P; i += 3) {
    CHECK_CLOSE(da[i], central(&a[i], swapped_now), 1e-6);
    CHECK_CLOSE(db[i], central(&b[i], swapped_now), 1e-6);
  }
}

int main(void) {
  check_frames();
  check_quad();
  check_swapped();
  return check_done();
}
