// Gathers over the rows of a compressed layout, in functions without `restrict` (ad/apart.c, "rows"):
// k runs from rows[i] to rows[i + 1] and x is read at col[k]. The check that the parameters lie apart
// bounds k and col[k] by the runtime's scan of rows and col (runtime/rows_span.c) before the function runs.
//   gather(x, y, rows, col, n): y[i] = sum_k w_k x[col[k]]^2, J = sum_i y[i]^2 + x[i] y[i];
//     x and y apart (the copy: x read back, the tape at most half of the build without the choice),
//     y over the x a column reads (as written), rows with empty rows, rows out of order and rows that
//     overlap, and 64-bit rows and columns;
//   marked(x, y, rows, col, mark, n): after the gathers also mark[i] = i % 3: mark apart (the copy), then
//     mark the same array as col (its index array written: as written);
//   elements(x, y, conn, ne): a finite-element gather x[conn[4 e + j]] over plain ranges, and x[e % N]:
//     apart (the copy), then y over x (as written).
// Every gradient against central differences (h 1e-6, 1e-6) and forward-mode tangents (1e-10), and the
// tape against the build without the choice (PARAD_NO_APART=1, its output). The runtime's scan is also
// called on rows, and on a plain range of indices, that run into a page that cannot be read: it answers
// no, and does not crash.
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags %s -o %t1 -lm && %t1 > %t1.out
// RUN: env PARAD_PLAN=1 %parad-cc %cflags %s -o %t -lm 2>&1 | not grep "no check of gather"
// RUN: %t %t1.out
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"
#include "tape_as_written.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);
int __parad_rt_rows_span(uintptr_t rows, unsigned row_size, long long first, long long last, uintptr_t index,
                         unsigned index_size, long long *out);

enum { N = 40, NNZ = 6 * N, BUF = 4 * N };

__attribute__((noinline)) static double gather(const double *x, double *y, const int *rows, const int *col, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = rows[i]; k < rows[i + 1]; k++) s += (1 + 0.01 * k) * x[col[k]] * x[col[k]];
    y[i] = s;
  }
  double J = 0;
  for (int i = 0; i < n; i++) J += y[i] * y[i] + x[i] * y[i];
  return J;
}

__attribute__((noinline)) static double gather64(const double *x, double *y, const long *rows, const long *col, long n) {
  for (long i = 0; i < n; i++) {
    double s = 0;
    for (long k = rows[i]; k < rows[i + 1]; k++) s += (1 + 0.01 * k) * x[col[k]] * x[col[k]];
    y[i] = s;
  }
  double J = 0;
  for (long i = 0; i < n; i++) J += y[i] * y[i] + x[i] * y[i];
  return J;
}

__attribute__((noinline)) static double marked(const double *x, double *y, const int *rows, const int *col, int *mark, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = rows[i]; k < rows[i + 1]; k++) s += x[col[k]] * x[col[k]];
    y[i] = s * x[i];
  }
  double J = 0;
  for (int i = 0; i < n; i++) J += y[i] * y[i];
  for (int i = 0; i < n; i++) mark[i] = i % 3; /* after the gathers: over col, it changes no column read */
  return J;
}

__attribute__((noinline)) static double elements(const double *x, double *y, const int *conn, int ne) {
  for (int e = 0; e < ne; e++) {
    double s = 0;
    for (int j = 0; j < 4; j++) s += x[conn[4 * e + j]] * (1 + j);
    y[e] = s * s;
  }
  double J = 0;
  for (int e = 0; e < ne; e++) J += y[e] * x[e % N];
  return J;
}

static double buf[BUF], dbuf[BUF];
static int rows[N + 1], col[NNZ], mark[NNZ];
static long rows64[N + 1], col64[NNZ];
static int xat, yat, wide, marks_col; /* where x and y go in buf; which function */

static void fresh_cols(void) { /* marked() rewrites col where mark is col */
  for (int j = 0; j < NNZ; j++) col[j] = (j * 13 + 5) % N, col64[j] = col[j];
}

static double f(const double *x) {
  memcpy(buf + xat, x, sizeof(double) * N);
  fresh_cols();
  if (marks_col) return marked(buf + xat, buf + yat, rows, col, col, N);
  if (wide == 2) return marked(buf + xat, buf + yat, rows, col, mark, N);
  if (wide == 3) return elements(buf + xat, buf + yat, col, NNZ / 4);
  return wide ? gather64(buf + xat, buf + yat, rows64, col64, N) : gather(buf + xat, buf + yat, rows, col, N);
}

static void grad(const double *x, double *g) {
  memcpy(buf + xat, x, sizeof(double) * N);
  fresh_cols();
  memset(dbuf, 0, sizeof dbuf);
  if (marks_col)
    __parad_autodiff((void *)marked, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows, parad_const, col, parad_const, col, N);
  else if (wide == 3)
    __parad_autodiff((void *)elements, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, col, NNZ / 4);
  else if (wide == 2)
    __parad_autodiff((void *)marked, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows, parad_const, col, parad_const, mark, N);
  else if (wide)
    __parad_autodiff((void *)gather64, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows64, parad_const, col64, (long)N);
  else
    __parad_autodiff((void *)gather, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows, parad_const, col, N);
  memcpy(g, dbuf + xat, sizeof(double) * N);
}

static double tangent(const double *x, const double *v) {
  memcpy(buf + xat, x, sizeof(double) * N);
  fresh_cols();
  memset(dbuf, 0, sizeof dbuf);
  memcpy(dbuf + xat, v, sizeof(double) * N);
  if (marks_col) return __parad_fwddiff((void *)marked, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows, parad_const, col, parad_const, col, N);
  if (wide == 3) return __parad_fwddiff((void *)elements, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, col, NNZ / 4);
  if (wide == 2) return __parad_fwddiff((void *)marked, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows, parad_const, col, parad_const, mark, N);
  if (wide) return __parad_fwddiff((void *)gather64, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows64, parad_const, col64, (long)N);
  return __parad_fwddiff((void *)gather, buf + xat, dbuf + xat, buf + yat, dbuf + yat, parad_const, rows, parad_const, col, N);
}

/* Rows of 0 to 11 elements; `shape` 1: some rows empty, some out of order and overlapping others. */
static void make_rows(int shape) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    rows[i] = k;
    k += shape && i % 5 == 2 ? 0 : (i * 7) % 12;
    if (k > NNZ) k = NNZ;
  }
  rows[N] = k;
  if (shape) rows[13] = rows[20], rows[30] = 2; /* row 12 runs back to front: empty; row 30 from 2 on */
  for (int i = 0; i <= N; i++) rows64[i] = rows[i];
}

static FILE *before;

/* apart: 1 the copy's gradient expected (at most half the tape), 0 as written (at least 9/10) */
static void check_case(const char *name, int apart) {
  double x[N], g[N], v[N], xp[N], xm[N], h = 1e-6;
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * cos(0.7 * i);
  parad_tape_reset_peak();
  grad(x, g);
  size_t tape = parad_tape_peak_bytes();
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < N; i++) v[i] = cos(1.3 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double fd = (f(xp) - f(xm)) / (2 * h), tan = tangent(x, v);
    printf("%s, direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", name, d, gv, tan, fd);
    CHECK_CLOSE(gv, fd, 1e-6);
    CHECK_CLOSE(gv, tan, 1e-10);
  }
  printf("tape of %s: %zu bytes\n", name, tape);
  size_t written = before ? tape_as_written(before, name) : 0;
  if (before) {
    printf("%s: %zu bytes as written\n", name, written);
    CHECK_CLOSE(apart ? 2 * tape <= written : 10 * tape >= 9 * written, 1, 0);
  }
}

/* The scan over rows whose last entries lie on a page that cannot be read: no answer, no crash. */
static void check_unreadable_rows(void) {
  long page = sysconf(_SC_PAGESIZE);
  char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK_CLOSE(map != MAP_FAILED, 1, 0);
  if (map == MAP_FAILED) return;
  mprotect(map + page, page, PROT_NONE);
  int *r = (int *)(map + page) - 4; /* rows 0..3 readable, row 4's end beyond */
  int c[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  for (int i = 0; i < 4; i++) r[i] = 2 * i;
  long long out[4];
  CHECK_CLOSE(__parad_rt_rows_span((uintptr_t)r, 4, 0, 2, (uintptr_t)c, 4, out), 1, 0); /* rows 0..2: k 0..5 */
  CHECK_CLOSE((double)out[0], 0, 0), CHECK_CLOSE((double)out[1], 5, 0);
  CHECK_CLOSE((double)out[2], 1, 0), CHECK_CLOSE((double)out[3], 9, 0);
  CHECK_CLOSE(__parad_rt_rows_span((uintptr_t)r, 4, 0, 4, (uintptr_t)c, 4, out), 0, 0);
  CHECK_CLOSE(__parad_rt_rows_span(0, 0, 1, 3, (uintptr_t)r, 4, out), 1, 0); /* r[1..3] as indices: 2..6 */
  CHECK_CLOSE((double)out[2], 2, 0), CHECK_CLOSE((double)out[3], 6, 0);
  CHECK_CLOSE(__parad_rt_rows_span(0, 0, 2, 5, (uintptr_t)r, 4, out), 0, 0); /* r[4] on the unreadable page */
  munmap(map, 2 * page);
}

int main(int argc, char **argv) {
  if (argc > 1 && !(before = fopen(argv[1], "r"))) return printf("FAIL: cannot read %s\n", argv[1]), 1;
  make_rows(0);
  xat = 0, yat = 2 * N, wide = 0, marks_col = 0;
  check_case("gather, apart", 1);
  xat = 0, yat = 3; /* y[i] over x[3 + i], which columns read */
  check_case("gather, y over x", 0);
  make_rows(1);
  xat = N, yat = 3 * N;
  check_case("gather, rows out of order", 1);
  wide = 1;
  check_case("gather64, apart", 1);
  wide = 2;
  check_case("marked, apart", 1);
  wide = 0, marks_col = 1;
  check_case("marked, mark the same as col", 0);
  wide = 3, marks_col = 0, xat = 0, yat = 2 * N;
  check_case("elements, apart", 1);
  yat = 5; /* y[e] over x[5 + e], which the elements gather */
  check_case("elements, y over x", 0);
  check_unreadable_rows();
  return check_done();
}
