// Arrays reached through a record's fields (`const struct csr *A` with A->val, A->col, A->rowptr), in
// functions without `restrict` (ad/apart.c, Field): the check that the function's objects lie apart reads
// each pointer field where the function will, and bounds what is accessed through it as an object of its
// own; a count read from a record (A->n) is read by the check too. Before, the check gave up at the first
// access through a field, and the gradient recorded every element of val and col read (a CSR product as a
// struct of arrays: 3 times the tape and twice the time of the same function with the arrays as
// parameters). The cases, each gradient against central differences (h 1e-6, 1e-6) and forward-mode
// tangents (1e-10), and its tape against the build without the choice (PARAD_NO_APART=1, its output):
//   spmv(A, x, y): y = A x over a CSR record, J = sum y^2 / 2 + sin x: the copy (at most half the tape);
//     and with y over A's values, each written after it is read (written where read: as written; not at 2
//     threads, where one thread's y would overwrite values another thread's rows read: a race);
//   spmv_opt(A, B, x, y): an optional second record, NULL: the copy;
//   mesh(M, dM, area): a record with an active field (the coordinates, its shadow a record of its own whose
//     field points to the gradient) and a constant one (the triangles), the areas written: the copy; and
//     with no areas, a function that writes nothing (no copy: what is read through M read again, which
//     only what is read through parameters was);
//   nested(W): the CSR record reached through another record's field: the copy;
//   work(W): a record with one array read and one written (W->in, W->out), the record its only
//     parameter, out right after in (in read at (i + 1) % n): the copy; out over in's last element: as
//     written;
//   counted(A, x, y): the record's own count written (A->calls++): as written.
// At -O2, -O0, and with -fopenmp at 1 and 2 threads (the CSR product parallel over rows).
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags %s -o %t1 -lm && %t1 > %t1.out
// RUN: env PARAD_PLAN=1 %parad-cc %cflags %s -o %t -lm 2> %t.plan
// RUN: not grep -E "no check of (spmv|spmv_opt|mesh|nested|work):" %t.plan
// RUN: grep "no check of counted" %t.plan
// RUN: %t %t1.out
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags -fopenmp %s -o %t3 -lm && OMP_NUM_THREADS=1 %t3 > %t3.out
// RUN: %parad-cc %cflags -fopenmp %s -o %t2 -lm && OMP_NUM_THREADS=1 %t2 %t3.out && OMP_NUM_THREADS=2 %t2
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "tape_as_written.h"
#ifdef _OPENMP
#include <omp.h>
static int threads(void) { return omp_get_max_threads(); }
#else
static int threads(void) { return 1; }
#endif

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 60, NZ = 5, NNZ = N * NZ, NT = N / 2 - 2, BUF = 2 * NNZ + 4 * N }; /* the mesh: N / 2 points */

struct csr { int n; const int *rowptr; const int *col; const double *val; int calls; };
struct mesh { int nt; double *xy; const int *tri; };
struct holder { double scale; const struct csr *A; };
struct work { const double *in; double *out; int n; };

__attribute__((noinline)) static double spmv(const struct csr *A, const double *x, double *y) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < A->n; i++) {
    double s = 0;
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) s += A->val[k] * x[A->col[k]] * x[A->col[k]];
    y[i] = s;
  }
  double J = 0;
  for (int i = 0; i < A->n; i++) J += 0.5 * y[i] * y[i] + sin(x[i]);
  return J;
}

__attribute__((noinline)) static double spmv_opt(const struct csr *A, const struct csr *B, const double *x, double *y) {
  for (int i = 0; i < A->n; i++) {
    double s = B ? B->val[i] : 0;
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) s += A->val[k] * x[A->col[k]] * x[A->col[k]];
    y[i] = s;
  }
  double J = 0;
  for (int i = 0; i < A->n; i++) J += y[i] * y[i] * x[i];
  return J;
}

/* area[t] = the doubled area of triangle t, J = sum area^2 (area NULL: only J) */
__attribute__((noinline)) static double mesh(const struct mesh *M, double *area) {
  double J = 0;
  for (int t = 0; t < M->nt; t++) {
    const int *v = M->tri + 3 * t;
    double ax = M->xy[2 * v[0]], ay = M->xy[2 * v[0] + 1], bx = M->xy[2 * v[1]], by = M->xy[2 * v[1] + 1];
    double cx = M->xy[2 * v[2]], cy = M->xy[2 * v[2] + 1];
    double a = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area) area[t] = a;
    J += a * a;
  }
  return J;
}

__attribute__((noinline)) static double nested(const struct holder *H, const double *x, double *y) {
  const struct csr *A = H->A;
  for (int i = 0; i < A->n; i++) {
    double s = 0;
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) s += A->val[k] * x[A->col[k]];
    y[i] = H->scale * s * s;
  }
  double J = 0;
  for (int i = 0; i < A->n; i++) J += y[i] * x[i];
  return J;
}

__attribute__((noinline)) static double work(const struct work *W) {
  for (int i = 0; i < W->n; i++) W->out[i] = W->in[i] * W->in[(i + 1) % W->n];
  double J = 0;
  for (int i = 0; i < W->n; i++) J += W->out[i] * W->in[i];
  return J;
}

__attribute__((noinline)) static double counted(struct csr *A, const double *x, double *y) {
  A->calls++;
  for (int i = 0; i < A->n; i++) {
    double s = 0;
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) s += A->val[k] * x[A->col[k]] * x[A->col[k]];
    y[i] = s;
  }
  double J = 0;
  for (int i = 0; i < A->n; i++) J += y[i] * y[i];
  return J;
}

static double buf[BUF], dbuf[BUF];
static int rowptr[N + 1], col[NNZ], tri[3 * NT];
static struct csr A;
static int valat, xat, yat, which; /* where val, x and y go in buf; which function */

static void setup(const double *x) {
  for (int k = 0; k < NNZ; k++) buf[valat + k] = 0.2 + 0.01 * k;
  memcpy(buf + xat, x, sizeof(double) * N);
  A = (struct csr){N, rowptr, col, buf + valat, 0};
}

static double f(const double *x) {
  setup(x);
  if (which == 1) return spmv_opt(&A, NULL, buf + xat, buf + yat);
  if (which == 2) return mesh(&(struct mesh){NT, buf + xat, tri}, buf + yat);
  if (which == 6) return mesh(&(struct mesh){NT, buf + xat, tri}, NULL);
  if (which == 3) return nested(&(struct holder){0.7, &A}, buf + xat, buf + yat);
  if (which == 4) return work(&(struct work){buf + xat, buf + yat, N});
  if (which == 5) return counted(&A, buf + xat, buf + yat);
  return spmv(&A, buf + xat, buf + yat);
}

static double derivative(const double *x, const double *v, double *g) {
  setup(x);
  memset(dbuf, 0, sizeof dbuf);
  if (v) memcpy(dbuf + xat, v, sizeof(double) * N);
  double r = 0;
  struct holder H = {0.7, &A};
  struct mesh M = {NT, buf + xat, tri}, dM = {NT, dbuf + xat, tri};
  struct work W = {buf + xat, buf + yat, N}, dW = {dbuf + xat, dbuf + yat, N};
#define RUN(...) (v ? __parad_fwddiff(__VA_ARGS__) : (__parad_autodiff(__VA_ARGS__), 0))
  if (which == 1) r = RUN((void *)spmv_opt, parad_const, &A, parad_const, (struct csr *)NULL, buf + xat, dbuf + xat, buf + yat, dbuf + yat);
  else if (which == 2) r = RUN((void *)mesh, &M, &dM, buf + yat, dbuf + yat);
  else if (which == 6) r = RUN((void *)mesh, &M, &dM, (double *)NULL, (double *)NULL);
  else if (which == 3) r = RUN((void *)nested, parad_const, &H, buf + xat, dbuf + xat, buf + yat, dbuf + yat);
  else if (which == 4) r = RUN((void *)work, &W, &dW);
  else if (which == 5) r = RUN((void *)counted, parad_const, &A, buf + xat, dbuf + xat, buf + yat, dbuf + yat);
  else r = RUN((void *)spmv, parad_const, &A, buf + xat, dbuf + xat, buf + yat, dbuf + yat);
  if (g) memcpy(g, dbuf + xat, sizeof(double) * N);
  return r;
}

static FILE *before;

/* apart: 1 the copy's gradient expected (at most half the tape), 0 as written (at least 9/10) */
static void check_case(const char *name, int apart) {
  double x[N], g[N], v[N], xp[N], xm[N], h = 1e-6;
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * cos(0.7 * i);
  parad_tape_reset_peak();
  derivative(x, NULL, g);
  size_t tape = parad_tape_peak_bytes();
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < N; i++) v[i] = cos(1.3 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double fd = (f(xp) - f(xm)) / (2 * h), tan = derivative(x, v, NULL);
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

int main(int argc, char **argv) {
  if (argc > 1 && !(before = fopen(argv[1], "r"))) return printf("FAIL: cannot read %s\n", argv[1]), 1;
  for (int i = 0; i <= N; i++) rowptr[i] = NZ * i;
  for (int k = 0; k < NNZ; k++) col[k] = (k * 7 + k / NZ) % N;
  for (int t = 0; t < NT; t++) tri[3 * t] = t, tri[3 * t + 1] = t + 1, tri[3 * t + 2] = (t * 5 + 2) % (N / 2);
  valat = 0, xat = NNZ, yat = NNZ + N, which = 0;
  check_case("spmv, apart", 1);
  if (threads() == 1) { /* at 2 threads the program itself races: a thread writes values another's rows read */
    yat = 1; /* y over the values, each written after its rows read it: written where read */
    check_case("spmv, y over the values", 0);
  }
  yat = NNZ + N;
  which = 1, check_case("optional record", 1);
  which = 2, check_case("mesh", 1);
  which = 3, check_case("nested", 1);
  which = 4, check_case("work", 1); /* out right after in, read at (i + 1) % n: below n by the select's test */
  yat = NNZ + N - 1, check_case("work, out over in's last", 0);
  yat = NNZ + N;
  which = 5, check_case("counted", 0);
  which = 6, check_case("mesh, only read", 1);
  return check_done();
}
