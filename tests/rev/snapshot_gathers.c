// Gathers read back from a snapshot (reverse/rev_snapshot.c, "gathers through an index array"): where a
// loop nest reads p[col[k]] with col read at consecutive k in every iteration of the inner loop, the
// forward sweep notes the stretch of col each run reads, and the runtime finds the range of p the
// snapshot must copy from the smallest and largest index in it. Each function fills p, reads it through an
// index array in a nest, then overwrites p, so that the gathers are read back from the copy:
//   rows(x): a CSR product, rows in order (their stretches of col join into one), some rows empty.
//   rows_down(x): the rows taken last to first (stretches join the other way).
//   permuted(x): the rows in a permuted order (each row's stretch noted on its own).
//   k_down(x): each row's nonzeros taken last to first.
//   wide(x): 64-bit and unsigned 32-bit indices, two gathers in one loop.
//   negative(x): indices from -3 up, from a base 3 elements into p.
//   rewritten(x): the nest rewrites col after each read (the stretch would be scanned after its values
//     changed: widened read by read instead).
// Each gradient against forward-mode tangents along three directions (1e-10) and central differences
// (h 1e-6, 1e-6), at -O2, at -O0 and at -O2 with snapshots off; the decision itself is checked on fixed
// IR in tests/ir/snapshot_runs.ll.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: env PARAD_SNAPSHOTS=0 %parad-cc %cflags %s -o %t1 -lm && %t1
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 12, NNZ = 40, M = N + NNZ };
static double p[N + 3], y[N];
static int rowptr[N + 1], col[NNZ], order[N], shifted[NNZ], scratch[NNZ];
static long col64[NNZ];
static unsigned colu[NNZ];

/* p = sin(x), read through the index array in the nest, then overwritten: J = sum_i y_i^2 + sum p. */
static void fill(const double *x) {
  for (int i = 0; i < N; i++) p[i] = sin(x[i]) + 0.1 * i;
}

static double finish(void) {
  double J = 0;
  for (int i = 0; i < N; i++) J += y[i] * y[i];
  for (int i = 0; i < N; i++) p[i] = 2 * p[i] + 1;
  for (int i = 0; i < N; i++) J += 0.5 * p[i];
  return J;
}

static double rows(const double *x) {
  const double *val = x + N;
  fill(x);
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
    y[i] = s;
  }
  return finish();
}

static double rows_down(const double *x) {
  const double *val = x + N;
  fill(x);
  for (int i = N - 1; i >= 0; i--) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
    y[i] = s;
  }
  return finish();
}

static double permuted(const double *x) {
  const double *val = x + N;
  fill(x);
  for (int n = 0; n < N; n++) {
    int i = order[n];
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
    y[i] = s;
  }
  return finish();
}

static double k_down(const double *x) {
  const double *val = x + N;
  fill(x);
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i + 1] - 1; k >= rowptr[i]; k--) s += val[k] * p[col[k]];
    y[i] = s;
  }
  return finish();
}

static double wide(const double *x) {
  const double *val = x + N;
  fill(x);
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col64[k]] * p[colu[k]];
    y[i] = s;
  }
  return finish();
}

static double negative(const double *x) {
  const double *val = x + N, *base = p + 3;
  fill(x);
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * base[shifted[k]];
    y[i] = s;
  }
  return finish();
}

static double rewritten(const double *x) {
  const double *val = x + N;
  fill(x);
  for (int k = 0; k < NNZ; k++) scratch[k] = col[k];
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
      s += val[k] * p[scratch[k]];
      scratch[k] = 0; /* the stretch no longer holds what was read: scanned, it would give p[0] only */
    }
    y[i] = s;
  }
  return finish();
}

typedef double (*Objective)(const double *);

/* The gradient of f at x against tangents and central differences along three directions. */
static void check(Objective f, const double *x, const char *name) {
  double g[M] = {0}, v[M], xp[M], xm[M], h = 1e-6;
  __parad_autodiff((void *)f, x, g);
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < M; i++) v[i] = cos(1.3 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double tangent = __parad_fwddiff((void *)f, x, v), fd = (f(xp) - f(xm)) / (2 * h);
    printf("%s, direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", name, d, gv, tangent, fd);
    CHECK_CLOSE(gv, tangent, 1e-10);
    CHECK_CLOSE(gv, fd, 1e-6);
  }
}

int main(void) {
  /* rows of 0 to 6 nonzeros (rows 2 and 7 empty), columns spread over p */
  static const int lens[N] = {3, 5, 0, 4, 6, 2, 3, 0, 5, 4, 3, 5};
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    for (int j = 0; j < lens[i]; j++, nnz++) col[nnz] = (i * 5 + j * 7 + 3) % N;
  }
  rowptr[N] = nnz;
  if (nnz != NNZ) return 1;
  for (int k = 0; k < NNZ; k++) col64[k] = col[(k + 3) % NNZ], colu[k] = (unsigned)col[(k * 7) % NNZ], shifted[k] = col[k] - 3;
  for (int n = 0; n < N; n++) order[n] = (n * 5 + 2) % N;
  double x[M];
  for (int i = 0; i < M; i++) x[i] = 0.3 + 0.7 * sin(1.1 * i);
  check(rows, x, "rows");
  check(rows_down, x, "rows_down");
  check(permuted, x, "permuted");
  check(k_down, x, "k_down");
  check(wide, x, "wide");
  check(negative, x, "negative");
  check(rewritten, x, "rewritten");
  return check_done();
}
