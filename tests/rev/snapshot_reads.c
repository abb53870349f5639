// Serial loops that read arrays the program overwrites later: such reads are taken back, in the reverse
// sweep, from a copy of the range the loop read, made as the loop ends (reverse/rev_snapshot.c), where
// nothing in the loop can write there; elsewhere they are recorded read by read.
//   cg_like(x): 5 CG iterations on a banded CSR matrix (9 nonzeros a row), its product, updates and
//     direction inlined in one function over one restrict work array (as bench/kernels/cg.c without
//     OpenMP): the gather p[col[k]] is overwritten by the direction update of each iteration.
//     J = sum w_i x_i, its gradient by a request of the solver itself.
//   calls(x): y = tanh(A x) by a function of its own with restrict parameters (HPCCG's shape), then
//     x = y, four times: J = sum w y. Its tape, against the -O2 build without snapshots: smaller by at
//     least 3/4 of the gathers' 8 bytes a nonzero.
//   aliased(x): q[k] = p[idx[k]]^2 through pointers that are not restrict, called with q = p + 1 and
//     idx[k] = k + 1: each read's element is overwritten right after it, so a copy made as the loop ends
//     would hold the squares. J = sin x_0 + sum_k sin(x_k^2), against the analytic gradient (1e-12).
//   floats(x): float points in structs, gathered by their y field, the points then moved.
//   early_exit(x): a gather in two loops, left at their end or, where a sum passes a bound, by a goto out
//     of both to code of its own (copied only where the optimiser made the two ways out one); breaks(x): the inner loop breaks off (copied); asserted(x): an
//     assertion in the nest, whose failure ends the program (copied).
//   empty_runs(x): a gather whose rows are all empty in one of its three runs (an empty copy).
//   follows(x): a gather's rows in a loop of unknown trip count (records not reserved at once), whose
//     last block records, as does the block it leaves to (the copy lies between their records).
// breaks' Hessian-vector product (forward mode over its gradient) against central differences of the
// gradient (1e-6). Each gradient against forward-mode tangents along three directions (1e-10; floats 1e-4) and central
// differences along them (h 1e-6, 1e-6; floats h 1e-2, 2e-3). -O2, -O0, and -O2 with snapshots off.
// RUN: env PARAD_SNAPSHOTS=0 %parad-cc %cflags %s -o %t1 -lm && %t1 > %t1.out
// RUN: %parad-cc %cflags %s -o %t -lm && %t %t1.out
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 60, BAND = 4, NNZ_MAX = N * (2 * BAND + 1), K = 5 };
static int rowptr[N + 1], col[NNZ_MAX], nnz;
static double w[N], work[4 * N];

static void build(void) {
  nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    for (int j = i - BAND; j <= i + BAND; j++)
      if (j >= 0 && j < N) col[nnz++] = j;
  }
  rowptr[N] = nnz;
  for (int i = 0; i < N; i++) w[i] = sin(0.3 * i + 0.1);
}

/* The product, the update and the direction as functions with restrict parameters, inlined (the scopes
 * inlining leaves say p is not q). */
#define INLINE __attribute__((always_inline)) static inline
INLINE double spmv(const int *restrict rp, const int *restrict ci, const double *restrict val, const double *restrict p,
                   double *restrict q) {
  double pq = 0;
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rp[i]; k < rp[i + 1]; k++) s += val[k] * p[ci[k]];
    q[i] = s;
    pq += p[i] * s;
  }
  return pq;
}

INLINE double update(double alpha, const double *restrict p, const double *restrict q, double *restrict x, double *restrict r) {
  double rr_new = 0;
  for (int i = 0; i < N; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i], rr_new += r[i] * r[i];
  return rr_new;
}

INLINE void direction(double beta, const double *restrict r, double *restrict p) {
  for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
}

static double solve(const int *restrict rp, const int *restrict ci, const double *restrict val, const double *restrict b,
                    double *restrict wk) {
  double *x = wk, *r = wk + N, *p = wk + 2 * N, *q = wk + 3 * N, rr = 0;
  for (int i = 0; i < N; i++) x[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < K; it++) {
    double alpha = rr / spmv(rp, ci, val, p, q), rr_new = update(alpha, p, q, x, r), beta = rr_new / rr;
    rr = rr_new;
    direction(beta, r, p);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * x[i];
  return J;
}

/* x: the matrix's values (nnz), then b (N) */
static double cg_like(const double *xv) { return solve(rowptr, col, xv, xv + nnz, work); }

/* cg_like's gradient by a request of solve itself, whose parameters are restrict (as cg.c's is): the
 * inlined functions' scopes say p is not q. */
static void cg_like_gradient(const double *xv, double *g) {
  static double dwork[4 * N];
  memset(dwork, 0, sizeof dwork);
  __parad_autodiff((void *)solve, parad_const, rowptr, parad_const, col, xv, g, xv + nnz, g + nnz, work, dwork);
}

__attribute__((noinline)) static void product(const double *restrict val, const double *restrict v, double *restrict y) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * v[col[k]];
    y[i] = tanh(s);
  }
}

static double calls(const double *restrict xv) {
  double v[N], y[N], J = 0;
  for (int i = 0; i < N; i++) v[i] = xv[nnz + i];
  for (int t = 0; t < 4; t++) {
    product(xv, v, y);
    for (int i = 0; i < N; i++) v[i] = y[i];
  }
  for (int i = 0; i < N; i++) J += w[i] * y[i];
  return J;
}

enum { M = 8 };
static int shifted[M];

__attribute__((noinline)) static void square_gather(double *p, double *q, const int *idx, int n) {
  for (int k = 0; k < n; k++) q[k] = p[idx[k]] * p[idx[k]];
}

static double aliased(const double *x) {
  double *p = malloc(sizeof(double) * M), J = 0;
  for (int i = 0; i < M; i++) p[i] = x[i];
  square_gather(p, p + 1, shifted, M - 1);
  for (int i = 0; i < M; i++) J += sin(p[i]);
  for (int i = 0; i < M; i++) p[i] = 0; /* overwritten: nothing to read again */
  free(p);
  return J;
}

typedef struct {
  float x, y, z;
} Point;
static int order[M] = {3, 0, 7, 1, 1, 5, 2, 6};

static double floats(const double *xs) {
  Point pts[M];
  float acc = 0;
  for (int i = 0; i < M; i++) pts[i] = (Point){(float)xs[i], (float)(xs[i] * xs[i]), 0.5f};
  for (int t = 0; t < 3; t++) {
    float s = 0;
    for (int r = 0; r < 2; r++)
      for (int k = 0; k < M; k++) s += pts[order[k]].y * pts[order[(k + t + r) % M]].y;
    acc += sinf(s * 0.01f);
    for (int i = 0; i < M; i++) pts[i].y = pts[i].y * 0.5f + pts[i].x; /* moved */
  }
  return acc;
}

/* The pairs' loop leaves both loops where s passes a bound, to code of its own. */
static double early_exit(const double *x) {
  double p[M], J = 0;
  for (int i = 0; i < M; i++) p[i] = x[i];
  for (int t = 0; t < 3; t++) {
    double s = 0;
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < M; k++) {
        s += p[order[(k + r) % M]] * p[order[k]];
        if (s > 6 + t) goto done;
      }
    J += cos(s);
    goto next;
  done:
    J += sin(s);
  next:
    for (int i = 0; i < M; i++) p[i] = cos(p[i]) + s * 0.01;
  }
  return J;
}

/* The inner loop breaks off: the loop around it still leaves to one block, and copies. */
static double breaks(const double *x) {
  double p[M], J = 0;
  for (int i = 0; i < M; i++) p[i] = x[i];
  for (int t = 0; t < 3; t++) {
    double s = 0;
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < M; k++) {
        s += p[order[(k + r) % M]] * p[order[k]];
        if (s > 2 * r + 2) break;
      }
    J += sin(s);
    for (int i = 0; i < M; i++) p[i] = cos(p[i]) + s * 0.01;
  }
  return J;
}

static int lens[3][M + 1] = {{0, 2, 4, 5, 7, 8, 8, 8, 8}, {0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 3, 4, 4, 6, 7, 8, 8}};

static double empty_runs(const double *x) {
  double p[M], J = 0;
  for (int i = 0; i < M; i++) p[i] = x[i];
  for (int t = 0; t < 3; t++) {
    double y[M];
    for (int i = 0; i < M; i++) {
      double s = 0;
      for (int k = lens[t][i]; k < lens[t][i + 1]; k++) s += p[order[k]] * p[order[k]];
      y[i] = s;
    }
    for (int i = 0; i < M; i++) J += w[i] * y[i], p[i] = sin(p[i]) + y[i] * 0.1;
  }
  return J;
}

/* A loop whose trip count is not known as it starts (its records are not reserved at once; each row's
 * is on its own), leaving to a block that records too: the copy lies between their records. */
static double follows(const double *x) {
  double p[M], y[M] = {0}, J = 0;
  for (int i = 0; i < M; i++) p[i] = x[i];
  for (int t = 0; t < 3; t++) {
    int i = 0;
    double total = 0;
    do {
      double s = 0;
      for (int k = lens[2][i]; k < lens[2][i + 1]; k++) s += p[order[k]] * p[order[k]];
      y[i] = s * s;
      total += s;
      i++;
    } while ((i < M) & (total < 3.0 + t));
    double m = p[t] * y[t] + p[t + 1];
    J += sin(m) + y[M - 1];
    for (int k = 0; k < M; k++) p[k] = sin(p[k]) + y[k] * 0.1;
  }
  return J;
}

/* An assertion in the nest: its failure ends the program, so the nest still leaves to one block only. */
static double asserted(const double *x) {
  double p[M], J = 0;
  for (int i = 0; i < M; i++) p[i] = x[i];
  for (int t = 0; t < 3; t++) {
    double s = 0;
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < M; k++) {
        if (!(fabs(p[order[k]]) < 1e6)) abort();
        s += p[order[(k + r) % M]] * p[order[k]];
      }
    J += sin(s);
    for (int i = 0; i < M; i++) p[i] = cos(p[i]) + s * 0.01;
  }
  return J;
}

/* Forward mode over the gradient (a Hessian-vector product): the copies' tangents are the tape twin's. */
static void grad_breaks(const double *x, double *g) {
  for (int i = 0; i < M; i++) g[i] = 0;
  __parad_autodiff((void *)breaks, x, g);
}

static void check_hessian(const double *x) {
  double v[M], g[M], hv[M], gp[M], gm[M], xp[M], xm[M], h = 1e-6;
  for (int i = 0; i < M; i++) v[i] = cos(0.9 * i), xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  __parad_fwddiff((void *)grad_breaks, x, v, g, hv);
  grad_breaks(xp, gp);
  grad_breaks(xm, gm);
  for (int i = 0; i < M; i++) CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
}

typedef double (*Objective)(const double *);
typedef void (*Gradient)(const double *, double *);

/* The gradient of f at x (n components; by `grad` where given) against tangents and central differences
 * along three directions. */
static void check_by(Objective f, Gradient grad, const double *x, int n, double tol, double h, double fd_tol, const char *name) {
  double *g = calloc(n, sizeof *g), *v = malloc(sizeof *v * n), *xp = malloc(sizeof *xp * n), *xm = malloc(sizeof *xm * n);
  if (grad) grad(x, g);
  else __parad_autodiff((void *)f, x, g);
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < n; i++) v[i] = cos(1.7 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double tangent = __parad_fwddiff((void *)f, x, v), fd = (f(xp) - f(xm)) / (2 * h);
    printf("%s, direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", name, d, gv, tangent, fd);
    CHECK_CLOSE(gv, tangent, tol);
    CHECK_CLOSE(gv, fd, fd_tol);
  }
  free(g), free(v), free(xp), free(xm);
}

static void check(Objective f, const double *x, int n, double tol, double h, double fd_tol, const char *name) {
  check_by(f, NULL, x, n, tol, h, fd_tol, name);
}

int main(int argc, char **argv) {
  build();
  for (int k = 0; k < M - 1; k++) shifted[k] = k + 1;
  int n = nnz + N;
  double *x = malloc(sizeof *x * n);
  for (int k = 0; k < nnz; k++) x[k] = -0.3 + 0.05 * sin(k);
  for (int i = 0; i < N; i++) /* diagonally dominant */
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      if (col[k] == i) x[k] = 4;
  for (int i = 0; i < N; i++) x[nnz + i] = cos(0.7 * i);
  check_by(cg_like, cg_like_gradient, x, n, 1e-10, 1e-6, 1e-6, "cg_like");
  for (int k = 0; k < nnz; k++) x[k] *= 0.5;
  parad_tape_reset_peak();
  check(calls, x, n, 1e-10, 1e-6, 1e-6, "calls");
  size_t peak = parad_tape_peak_bytes(), gathered = (size_t)4 * nnz * 8;
  printf("calls: tape %zu bytes\n", peak);
  if (argc > 1) { /* against the build without snapshots (its output): most of the gathers' 8 bytes a nonzero saved */
    FILE *f = fopen(argv[1], "r");
    char line[256];
    size_t before = 0;
    while (f && fgets(line, sizeof line, f)) sscanf(line, "calls: tape %zu bytes", &before);
    if (f) fclose(f);
    printf("calls: %zu bytes without snapshots, the gathers %zu of them\n", before, gathered);
    CHECK_CLOSE(peak + gathered * 3 / 4 <= before, 1, 0);
  }

  double y[M], g[M] = {0};
  for (int i = 0; i < M; i++) y[i] = 0.4 + 0.1 * i;
  __parad_autodiff((void *)aliased, y, g);
  CHECK_CLOSE(g[0], cos(y[0]), 1e-12);
  for (int i = 1; i < M; i++) CHECK_CLOSE(g[i], cos(y[i] * y[i]) * 2 * y[i], 1e-12);
  check(aliased, y, M, 1e-10, 1e-6, 1e-6, "aliased");
  check(floats, y, M, 1e-4, 1e-2, 2e-3, "floats");
  check(early_exit, y, M, 1e-10, 1e-6, 1e-6, "early_exit");
  check(breaks, y, M, 1e-10, 1e-6, 1e-6, "breaks");
  check_hessian(y);
  check(asserted, y, M, 1e-10, 1e-6, 1e-6, "asserted");
  check(empty_runs, y, M, 1e-10, 1e-6, 1e-6, "empty_runs");
  check(follows, y, M, 1e-10, 1e-6, 1e-6, "follows");
  free(x);
  return check_done();
}
