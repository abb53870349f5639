// Worksharing loops whose threads get their iterations in chunks (dynamic, guided, static with a chunk
// size): a thread's chunks interleave with the others', so the hull of what it read covers theirs. The
// forward sweep notes each chunk's reads apart and the reverse sweep is told each chunk's own part as it
// reaches the chunk (rev_shared.c "chunks", runtime/omp.c); chunks of a static schedule that read the same
// part of each round make a period of the thread's, and need no plan per chunk.
// Shapes: rows of an array of structs (no private buffer for it, so an add not decided as the thread's own
// is atomic, which `count` builds count) under dynamic, guided, static 2 and static 1 schedules; static 1
// and dynamic 1 over more chunks than the runtime notes one by one (the last note holds the rest); a
// 3-point stencil whose chunks share their edge elements with the neighbouring chunks (atomic adds there
// are needed: checked where the neighbours are always other threads'), past the notes at 2 threads; a sparse product gathering through
// an index array; a region with two worksharing loops of different schedules, one without a barrier after
// it. Each gradient is checked against the analytic one (1e-12 for doubles, 1e-5 for floats), five times
// over (an add taken as the thread's own where it is not would be a race), at 1 to 4 threads. With
// `count` (a build with PARAD_COUNT_UPDATES): no atomic add of the structs' where each row is one thread's,
// some for the stencil, at 2 or more threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -fopenmp %s -o %t.count && OMP_NUM_THREADS=2 %t.count count && OMP_NUM_THREADS=3 %t.count count
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <omp.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { R = 60, C = 8, N = 3000, NNZ = 3 * N, REPEAT = 5 };

typedef struct {
  double v;
  float s;
} Point;

/* J = sum_i w_i sum_j v_ij s_ij, the rows under four schedules */
#define ROWS(name, schedule)                                                                                         \
  __attribute__((noinline)) static double name(const Point *P, const double *restrict w) {                          \
    double J = 0;                                                                                                    \
    _Pragma(schedule) for (int i = 0; i < R; i++) {                                                                  \
      double s = 0;                                                                                                  \
      for (int j = 0; j < C; j++) s += P[i * C + j].v * P[i * C + j].s;                                              \
      J += w[i] * s;                                                                                                 \
    }                                                                                                                \
    return J;                                                                                                        \
  }
ROWS(rows_dynamic, "omp parallel for schedule(dynamic, 3) reduction(+ : J)")
ROWS(rows_guided, "omp parallel for schedule(guided) reduction(+ : J)")
ROWS(rows_static2, "omp parallel for schedule(static, 2) reduction(+ : J)")
ROWS(rows_nonmonotonic, "omp parallel for schedule(nonmonotonic : dynamic, 5) reduction(+ : J)")

/* J = sum_i w_(i mod R) v_i s_i over N points, one per chunk */
#define POINTS(name, schedule)                                                                                       \
  __attribute__((noinline)) static double name(const Point *Q, const double *restrict w) {                          \
    double J = 0;                                                                                                    \
    _Pragma(schedule) for (int i = 0; i < N; i++) J += w[i % R] * Q[i].v * Q[i].s;                                   \
    return J;                                                                                                        \
  }
POINTS(points_static1, "omp parallel for schedule(static, 1) reduction(+ : J)")
POINTS(points_dynamic1, "omp parallel for schedule(dynamic) reduction(+ : J)")

/* J = sum_{0 < i < N-1} w_(i mod R) (v_(i-1) s_i + v_(i+1) s_i + v_i): chunks of 2 share their edges; at 2
 * threads more chunks than the runtime notes one by one */
__attribute__((noinline)) static double stencil(const Point *Q, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static, 2) reduction(+ : J)
  for (int i = 1; i < N - 1; i++) J += w[i % R] * ((Q[i - 1].v + Q[i + 1].v) * Q[i].s + Q[i].v);
  return J;
}

/* y = A x, A with 3 nonzeros per row (CSR), J = sum_i w_(i mod R) y_i^2 / 2, rows taken dynamically */
__attribute__((noinline)) static double product(const int *restrict rowptr, const int *restrict col, const double *restrict val,
                                                const double *restrict x, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(dynamic, 7) reduction(+ : J)
  for (int i = 0; i < N; i++) {
    double y = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) y += val[k] * x[col[k]];
    J += w[i % R] * y * y / 2;
  }
  return J;
}

/* two loops in one region: z_i = x_i^2 (dynamic, no barrier after: the next loop does not read z), then
 * J = sum_i w_(i mod R) x_i x_(i+1) (static 3); J2 = sum w z */
__attribute__((noinline)) static double two_loops(const double *restrict x, double *restrict z, const double *restrict w) {
  double J = 0;
#pragma omp parallel reduction(+ : J)
  {
#pragma omp for schedule(dynamic, 2) nowait
    for (int i = 0; i < N; i++) z[i] = x[i] * x[i];
#pragma omp for schedule(static, 3)
    for (int i = 0; i < N - 1; i++) J += w[i % R] * x[i] * x[i + 1];
#pragma omp for schedule(guided, 4)
    for (int i = 0; i < N; i++) J += w[i % R] * z[i];
  }
  return J;
}

static Point P[R * C], dP[R * C], Q[N], dQ[N];
static double w[R], wv[N], x[N], dx[N], z[N], dz[N], val[NNZ], dval[NNZ], want_x[N], want_val[NNZ];
static float ws[N];
static int rowptr[N + 1], col[NNZ];

/* the gradient of a function of points (n of them, the array p) against wv, ws; with `count`, whether
 * atomic adds were (not) needed */
static void check_points(const char *what, void (*f)(void), Point *dp, int n, int counting, int atomic_needed) {
  for (int r = 0; r < REPEAT; r++) {
    unsigned long long plain0, atomic0, plain1, atomic1;
    memset(dp, 0, sizeof *dp * (size_t)n);
    parad_adjoint_update_counts(&plain0, &atomic0);
    f();
    parad_adjoint_update_counts(&plain1, &atomic1);
    int bad = 0;
    for (int k = 0; k < n; k++)
      bad += !(fabs(dp[k].v - wv[k]) <= 1e-12 * fmax(1, fabs(wv[k])) && fabs(dp[k].s - ws[k]) <= 1e-5 * fmax(1, fabs(ws[k])));
    if (bad) printf("%s, round %d: %d wrong elements\n", what, r, bad);
    CHECK_CLOSE((double)bad, 0, 0);
    /* each thread adds its share of J's adjoint back into the reduction variable atomically: past those,
       atomic adds are the points' */
    unsigned long long threads = (unsigned long long)omp_get_max_threads(), atomics = atomic1 - atomic0;
    if (counting && threads > 1 && atomic_needed >= 0) {
      if (atomic_needed != (atomics > threads)) printf("%s: %llu atomic adds of %llu\n", what, atomics, plain1 - plain0 + atomics);
      CHECK_CLOSE((double)(atomics > threads), atomic_needed, 0);
    }
  }
}

static void run_dynamic(void) { __parad_autodiff((void *)rows_dynamic, P, dP, parad_const, w); }
static void run_guided(void) { __parad_autodiff((void *)rows_guided, P, dP, parad_const, w); }
static void run_static2(void) { __parad_autodiff((void *)rows_static2, P, dP, parad_const, w); }
static void run_nonmonotonic(void) { __parad_autodiff((void *)rows_nonmonotonic, P, dP, parad_const, w); }
static void run_static1(void) { __parad_autodiff((void *)points_static1, Q, dQ, parad_const, w); }
static void run_dynamic1(void) { __parad_autodiff((void *)points_dynamic1, Q, dQ, parad_const, w); }
static void run_stencil(void) { __parad_autodiff((void *)stencil, Q, dQ, parad_const, w); }

static void check_doubles(const char *what, const double *got, const double *want, int n) {
  int bad = 0;
  for (int k = 0; k < n; k++) bad += !(fabs(got[k] - want[k]) <= 1e-12 * fmax(1, fabs(want[k])));
  if (bad) printf("%s: %d wrong elements\n", what, bad);
  CHECK_CLOSE((double)bad, 0, 0);
}

int main(int argc, char **argv) {
  int counting = argc > 1 && !strcmp(argv[1], "count");
  for (int k = 0; k < R * C; k++) P[k].v = 0.5 + 0.3 * cos(0.23 * k), P[k].s = (float)(0.2 + 0.1 * sin(0.41 * k));
  for (int k = 0; k < N; k++) Q[k].v = 0.4 + 0.2 * sin(0.17 * k), Q[k].s = (float)(0.3 + 0.1 * cos(0.29 * k));
  for (int i = 0; i < R; i++) w[i] = 1 + 0.25 * cos(0.11 * i);

  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) wv[i * C + j] = w[i] * P[i * C + j].s, ws[i * C + j] = (float)(w[i] * P[i * C + j].v);
  check_points("rows, dynamic 3", run_dynamic, dP, R * C, counting, 0);
  check_points("rows, guided", run_guided, dP, R * C, counting, 0);
  check_points("rows, static 2", run_static2, dP, R * C, counting, 0);
  check_points("rows, nonmonotonic dynamic 5", run_nonmonotonic, dP, R * C, counting, 0);

  for (int i = 0; i < N; i++) wv[i] = w[i % R] * Q[i].s, ws[i] = (float)(w[i % R] * Q[i].v);
  check_points("points, static 1", run_static1, dQ, N, counting, 0);
  check_points("points, dynamic 1", run_dynamic1, dQ, N, counting, -1); /* the chunks past the notes share */

  memset(wv, 0, sizeof wv), memset(ws, 0, sizeof ws);
  for (int i = 1; i < N - 1; i++) {
    double c = w[i % R];
    wv[i - 1] += c * Q[i].s, wv[i + 1] += c * Q[i].s, wv[i] += c;
    ws[i] += (float)(c * (Q[i - 1].v + Q[i + 1].v));
  }
  check_points("stencil, static 2", run_stencil, dQ, N, counting, 1);

  /* the sparse product: A tridiagonal-like, with columns i - 1, i + 1 and (7 i) mod N */
  for (int i = 0, k = 0; i < N; i++) {
    rowptr[i] = k;
    int cols[3] = {(i + N - 1) % N, (i + 1) % N, 7 * i % N};
    for (int c = 0; c < 3; c++, k++) col[k] = cols[c], val[k] = 0.1 + 0.05 * sin(0.07 * k);
  }
  rowptr[N] = NNZ;
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * cos(0.13 * i);
  memset(want_x, 0, sizeof want_x);
  for (int i = 0; i < N; i++) {
    double y = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) y += val[k] * x[col[k]];
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) want_val[k] = w[i % R] * y * x[col[k]], want_x[col[k]] += w[i % R] * y * val[k];
  }
  for (int r = 0; r < REPEAT && !counting; r++) {
    memset(dx, 0, sizeof dx), memset(dval, 0, sizeof dval);
    __parad_autodiff((void *)product, parad_const, rowptr, parad_const, col, val, dval, x, dx, parad_const, w);
    check_doubles("product, d/dval", dval, want_val, NNZ);
    check_doubles("product, d/dx", dx, want_x, N);
  }

  for (int i = 0; i < N; i++) want_x[i] = 2 * w[i % R] * x[i] + (i + 1 < N ? w[i % R] * x[i + 1] : 0) + (i > 0 ? w[(i - 1) % R] * x[i - 1] : 0);
  for (int r = 0; r < REPEAT && !counting; r++) {
    memset(dx, 0, sizeof dx), memset(dz, 0, sizeof dz);
    __parad_autodiff((void *)two_loops, x, dx, z, dz, parad_const, w);
    check_doubles("two loops, d/dx", dx, want_x, N);
  }
  return check_done();
}
