// The check that picks a function's `noalias` copy (ad/apart.c) bounded a loop's counter stepping by more
// than one (`j += 4; j < n`, a loop over vectors) by n - 1, not by the last whole step, 4 ((n - 1) / 4):
// the four elements read from there reached 24 bytes into the next array, and arrays lying next to each
// other (a struct of them, the stack) took the gradient as written, which records every value read in an
// all-pairs loop of a time-stepping function that overwrites one array (a probe's AVX n-body: 12.8 primals
// and 53 MB of tape, 3.7 and 13 MB now).
//   steps(s, n, T): T steps of E += sum_i sum_j 1 / sqrt(r_ij^2 + 0.05) over j four at a time, then
//     x[i] += 0.01 y[i] x[i]; x, y, z the three arrays of one struct (apart, as the copy assumes), then
//     y over x shifted by two elements (as written);
//   down(s, n): the same pairs with j counting down by four from a constant (the bound on the other side).
// Gradients against central differences (h 1e-6, 1e-6 relative), and the tape against the build without
// the choice (PARAD_NO_APART=1, its output): at most half where apart, at least 90% as written.
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags %s -o %t1 -lm && %t1 > %t1.out
// RUN: %parad-cc %cflags %s -o %t -lm && %t %t1.out
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "tape_as_written.h"

void __parad_autodiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 32, T = 6 };

static double pairs(const double *x, const double *y, const double *z, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j += 4)
      for (int k = 0; k < 4; k++) {
        double dx = x[j + k] - x[i], dy = y[j + k] - y[i], dz = z[j + k] - z[i];
        e += 1 / sqrt(dx * dx + dy * dy + dz * dz + 0.05);
      }
  return e;
}

double steps(double *x, double *y, double *z, int n, int t) {
  double e = 0;
  for (int s = 0; s < t; s++) {
    e += pairs(x, y, z, n);
    for (int i = 0; i < n; i++) x[i] = x[i] + 0.01 * y[i] * x[i];
  }
  return e;
}

double down(double *x, double *y, double *z, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = N - 4; j >= 0; j -= 4)
      e += x[j] * x[i] * y[j + 3] * z[j + 1];
  for (int i = 0; i < n; i++) x[i] *= 1.5;
  return e;
}

static struct {
  double x[N], y[N], z[N];
} s, ds;
static double x0[N], *xp = s.x, *yp = s.y;
static FILE *before;

static void reset(void) {
  for (int i = 0; i < N; i++) x0[i] = cos(0.3 * i), s.y[i] = sin(0.7 * i), s.z[i] = 0.01 * i;
  memcpy(s.x, x0, sizeof x0);
}

static int kind;
static double run(const double *x) {
  double save[3 * N];
  memcpy(save, &s, sizeof save);
  memcpy(xp, x, sizeof x0);
  double e = kind ? down(xp, yp, s.z, N) : steps(xp, yp, s.z, N, T);
  memcpy(&s, save, sizeof save);
  return e;
}

static void check_case(const char *name, int apart) {
  double x[N];
  memcpy(x, xp, sizeof x);
  memset(&ds, 0, sizeof ds);
  parad_tape_reset_peak();
  double *dx = xp == s.x ? ds.x : ds.y + 2, *dy = ds.y;
  if (kind)
    __parad_autodiff((void *)down, xp, dx, yp, dy, s.z, ds.z, N);
  else
    __parad_autodiff((void *)steps, xp, dx, yp, dy, s.z, ds.z, N, T);
  size_t tape = parad_tape_peak_bytes();
  memcpy(xp, x, sizeof x);
  double g[N];
  memcpy(g, dx, sizeof g);
  for (int j = 0; j < N; j += 5) CHECK_CLOSE(g[j], fd_component(run, xp, N, j, 1e-6), 1e-6);
  printf("tape of %s: %zu bytes\n", name, tape);
  if (before) {
    size_t written = tape_as_written(before, name);
    printf("%s: %zu bytes as written\n", name, written);
    CHECK_CLOSE(apart ? 2 * tape <= written : 10 * tape >= 9 * written, 1, 0);
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && !(before = fopen(argv[1], "r"))) return printf("FAIL: cannot read %s\n", argv[1]), 1;
  reset();
  check_case("steps, apart", 1);
  xp = s.y + 2; /* x over y shifted: as written */
  reset();
  memcpy(xp, x0, sizeof x0);
  check_case("steps, x over y", 0);
  xp = s.x, kind = 1;
  reset();
  check_case("down, apart", 1);
  return check_done();
}
