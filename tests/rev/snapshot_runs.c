// Reads in inner loops whose outer loop's runs are copied (reverse/rev_snapshot.c), where the forward
// sweep notes each inner run's range from its first and last addresses as the run starts (a counted
// loop, a read in every iteration, an address moving evenly), or widens it read by read elsewhere. Each
// function reads an array it overwrites after the nest, so that its reads are taken back from copies:
//   slices(x): doitgen's shape without OpenMP: each slice of A replaced by its product with C through a
//     private array of sums (the read a[s] in the product's inner loop, C read down a column).
//   down(x): the inner loop counts down to 0.
//   offset(x): a[j + off], off an int known at run time (no signed wrap in C); unsigned_offset(x): the
//     same in unsigned arithmetic, which may wrap under its extension (read by read).
//   mirrored(x): a[j], a[n - 1 - j] and a[2 j + 1] in one loop.
//   some(x): a read only where a condition holds (read by read).
//   uneven(x): inner loops of 0 to 4 iterations, some runs empty.
// Each gradient against forward-mode tangents along three directions (1e-10) and central differences
// along them (h 1e-6, 1e-6), at -O2, at -O0 and at -O2 with snapshots off; the decisions themselves are
// checked on fixed IR in tests/ir/snapshot_runs.ll.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: env PARAD_SNAPSHOTS=0 %parad-cc %cflags %s -o %t1 -lm && %t1
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { R = 5, P = 6, M = R * P + P * P };
static double work[R * P], weights[R * P];
static int off = 2, lens[R] = {3, 0, 4, 1, 0};
static unsigned uoff = 1;

static double weighted(const double *a, int n) {
  double J = 0;
  for (int i = 0; i < n; i++) J += weights[i] * a[i];
  return J;
}

static double slices(const double *x) {
  double *A = work;
  for (int i = 0; i < R * P; i++) A[i] = sin(x[i]);
  const double *C = x + R * P;
  for (int r = 0; r < R; r++) {
    double sum[P];
    double *a = A + r * P;
    for (int p = 0; p < P; p++) {
      sum[p] = 0;
      for (int s = 0; s < P; s++) sum[p] += a[s] * C[s * P + p];
    }
    for (int p = 0; p < P; p++) a[p] = sum[p];
  }
  return weighted(A, R * P);
}

static double down(const double *x) {
  double *A = work, J = 0;
  for (int i = 0; i < R * P; i++) A[i] = cos(x[i]);
  for (int r = 0; r < R; r++) {
    double s = 0;
    for (int j = P - 1; j >= 0; j--) s += A[j] * x[R * P + r * P + j];
    J += s * s;
  }
  for (int i = 0; i < P; i++) A[i] = 0;
  return J + weighted(A, R * P);
}

static double offset(const double *x) {
  double *A = work, J = 0;
  for (int i = 0; i < R * P; i++) A[i] = x[i] * x[i];
  for (int r = 0; r < R; r++) {
    double s = 0;
    for (int j = 0; j < P - off; j++) s += A[r + j + off] * x[R * P + j];
    J += sin(s);
  }
  for (int i = 0; i < R * P; i++) A[i] = 1;
  return J + weighted(A, R * P);
}

static double unsigned_offset(const double *x) {
  double *A = work, J = 0;
  for (int i = 0; i < R * P; i++) A[i] = x[i] * x[i];
  for (unsigned r = 0; r < R; r++) {
    double s = 0;
    for (unsigned j = 0; j < P - 1; j++) s += A[r + j + uoff] * x[R * P + j];
    J += sin(s);
  }
  for (int i = 0; i < R * P; i++) A[i] = 1;
  return J + weighted(A, R * P);
}

static double mirrored(const double *x) {
  double *A = work, J = 0;
  for (int i = 0; i < R * P; i++) A[i] = tanh(x[i]);
  for (int r = 0; r < R; r++) {
    double s = 0;
    for (int j = 0; j < P / 2; j++) s += A[j] * A[R * P - 1 - j] * A[2 * j + 1 + r] * x[R * P + j];
    J += s;
  }
  for (int i = 0; i < R * P; i++) A[i] *= 0.5;
  return J + weighted(A, R * P);
}

static double some(const double *x) {
  double *A = work, J = 0;
  for (int i = 0; i < R * P; i++) A[i] = exp(0.3 * x[i]);
  for (int r = 0; r < R; r++) {
    double s = 0;
    for (int j = 0; j < P; j++)
      if (x[R * P + r * P + j] > 0) s += A[r * P + j] * x[R * P + r * P + j];
    J += s * s;
  }
  for (int i = 0; i < R * P; i++) A[i] = 0;
  return J;
}

static double uneven(const double *x) {
  double *A = work, J = 0;
  for (int i = 0; i < R * P; i++) A[i] = sin(2 * x[i]);
  for (int r = 0; r < R; r++) {
    double s = 1;
    for (int j = 0; j < lens[r]; j++) s += A[r * P + j] * A[r * P + j + 1];
    J += log(s * s + 1);
  }
  for (int i = 0; i < R * P; i++) A[i] = -A[i];
  return J + weighted(A, R * P);
}

typedef double (*Objective)(const double *);

/* The gradient of f at x against tangents and central differences along three directions. */
static void check(Objective f, const double *x, const char *name) {
  double g[M] = {0}, v[M], xp[M], xm[M], h = 1e-6;
  __parad_autodiff((void *)f, x, g);
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < M; i++) v[i] = cos(1.7 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double tangent = __parad_fwddiff((void *)f, x, v), fd = (f(xp) - f(xm)) / (2 * h);
    printf("%s, direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", name, d, gv, tangent, fd);
    CHECK_CLOSE(gv, tangent, 1e-10);
    CHECK_CLOSE(gv, fd, 1e-6);
  }
}

int main(void) {
  double x[M];
  for (int i = 0; i < M; i++) x[i] = 0.6 * sin(0.9 * i + 0.2);
  for (int i = 0; i < R * P; i++) weights[i] = cos(0.4 * i);
  check(slices, x, "slices");
  check(down, x, "down");
  check(offset, x, "offset");
  check(unsigned_offset, x, "unsigned_offset");
  check(mirrored, x, "mirrored");
  check(some, x, "some");
  check(uneven, x, "uneven");
  return check_done();
}
