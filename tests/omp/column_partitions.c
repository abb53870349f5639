// Row-major matrices shared out by columns: each thread reads whole columns, so the ranges of addresses
// the threads read overlap, though the elements do not. Where every read of an object is in runs of one
// stride, the forward sweep notes which part of that stride the thread's reads fall in, and threads whose
// parts lie apart add their adjoints plainly (rev_shared.c note_phase, runtime/omp.c periods_apart).
// Shapes: a column variance (doubles); an array of structs read by columns (no private buffer for it, so
// every add not decided as the thread's own is atomic, which `count` builds count); the same with rows
// taken downwards and with triangular columns (runs down to one iteration). Where the rule must not hold:
// columns j and j + 1 read by the thread of column j; two pointers one element apart into one array
// (periods not in step); a column read also outside a run (no period). Each gradient is checked against
// the analytic one (1e-12 for doubles, 1e-5 for floats), five times over (an add taken as the thread's
// own where it is not would be a race), at 1 to 4 threads. With `count` (a build with PARAD_COUNT_UPDATES):
// no atomic add of the matrix's where the columns are apart, some where they are not, at 2 or more threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -fopenmp %s -o %t.count && OMP_NUM_THREADS=1 %t.count count && OMP_NUM_THREADS=2 %t.count count && OMP_NUM_THREADS=3 %t.count count
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <omp.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { R = 40, C = 40, REPEAT = 5 };

typedef struct {
  double v;
  float s;
} Point;

/* J = sum_j w_j var_j, var_j the variance of column j: dJ/dX_ij = 2 w_j (X_ij - mean_j) / R */
__attribute__((noinline)) static double variance(const double *restrict X, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C; j++) {
    double s = 0, q = 0;
    for (int i = 0; i < R; i++) s += X[i * C + j];
    double mean = s / R;
    for (int i = 0; i < R; i++) q += (X[i * C + j] - mean) * (X[i * C + j] - mean);
    J += w[j] * q / R;
  }
  return J;
}

/* J = sum_ij w_j v_ij s_ij */
__attribute__((noinline)) static double columns(const Point *P, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C; j++) {
    double s = 0;
    for (int i = 0; i < R; i++) s += P[i * C + j].v * P[i * C + j].s;
    J += w[j] * s;
  }
  return J;
}

/* the same, rows taken downwards: clang's loop leaves after the iteration where i is 0 (rev_loops.c) */
__attribute__((noinline)) static double columns_down(const Point *P, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C; j++) {
    double s = 0;
    for (int i = R - 1; i >= 0; i--) s += P[i * C + j].v * P[i * C + j].s;
    J += w[j] * s;
  }
  return J;
}

/* J = sum_{i >= j} w_j v_ij s_ij: column j's run starts at row j, the last column's has one iteration */
__attribute__((noinline)) static double triangle(const Point *P, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C; j++) {
    double s = 0;
    for (int i = j; i < R; i++) s += P[i * C + j].v * P[i * C + j].s;
    J += w[j] * s;
  }
  return J;
}

/* J = sum_{i, j < C-1} w_j v_ij s_i(j+1): the thread of column j reads column j + 1 too */
__attribute__((noinline)) static double pairs(const Point *P, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C - 1; j++) {
    double s = 0;
    for (int i = 0; i < R; i++) s += P[i * C + j].v * P[i * C + j + 1].s;
    J += w[j] * s;
  }
  return J;
}

/* P and Q = P + 1 seen as two arrays: J = sum_{i, j < C-1} w_j v_ij s_ij v_i(j+1) */
__attribute__((noinline)) static double views(const Point *P, const Point *Q, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C - 1; j++) {
    double s = 0;
    for (int i = 0; i < R; i++) s += P[i * C + j].v * P[i * C + j].s * Q[i * C + j].v;
    J += w[j] * s;
  }
  return J;
}

/* J = sum_ij w_j v_ij s_ij + sum_j w_j v_(7j mod R)0: column 0 read by every thread, outside a run */
__attribute__((noinline)) static double scattered(const Point *P, const double *restrict w) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int j = 0; j < C; j++) {
    double s = P[(7 * j % R) * C].v;
    for (int i = 0; i < R; i++) s += P[i * C + j].v * P[i * C + j].s;
    J += w[j] * s;
  }
  return J;
}

static double X[R * C], dX[R * C], w[C];
static Point P[R * C], dP[R * C];
static double wv[R * C];
static float ws[R * C];

static void want_points(int first_row_of_column) {
  memset(wv, 0, sizeof wv), memset(ws, 0, sizeof ws);
  for (int j = 0; j < C; j++)
    for (int i = first_row_of_column ? j : 0; i < R; i++) wv[i * C + j] = w[j] * P[i * C + j].s, ws[i * C + j] = (float)(w[j] * P[i * C + j].v);
}

/* the gradient of a function of P against wv, ws; with `count`, whether atomic adds were (not) needed */
static void check_points(const char *what, void (*f)(void), int counting, int atomic_needed) {
  for (int r = 0; r < REPEAT; r++) {
    unsigned long long plain0, atomic0, plain1, atomic1;
    memset(dP, 0, sizeof dP);
    parad_adjoint_update_counts(&plain0, &atomic0);
    f();
    parad_adjoint_update_counts(&plain1, &atomic1);
    int bad = 0;
    for (int k = 0; k < R * C; k++)
      bad += !(fabs(dP[k].v - wv[k]) <= 1e-12 * fmax(1, fabs(wv[k])) && fabs(dP[k].s - ws[k]) <= 1e-5 * fmax(1, fabs(ws[k])));
    if (bad) printf("%s, round %d: %d wrong elements\n", what, r, bad);
    CHECK_CLOSE((double)bad, 0, 0);
    /* each thread adds its share of J's adjoint back into the reduction variable atomically: past those,
       atomic adds are the matrix's */
    unsigned long long threads = (unsigned long long)omp_get_max_threads(), atomics = atomic1 - atomic0;
    if (counting && threads > 1) {
      if (atomic_needed != (atomics > threads)) printf("%s: %llu atomic adds of %llu\n", what, atomics, plain1 - plain0 + atomics);
      CHECK_CLOSE((double)(atomics > threads), atomic_needed, 0);
    }
  }
}

static void run_up(void) { __parad_autodiff((void *)columns, P, dP, parad_const, w); }
static void run_down(void) { __parad_autodiff((void *)columns_down, P, dP, parad_const, w); }
static void run_triangle(void) { __parad_autodiff((void *)triangle, P, dP, parad_const, w); }
static void run_pairs(void) { __parad_autodiff((void *)pairs, P, dP, parad_const, w); }
static void run_views(void) { __parad_autodiff((void *)views, P, dP, P + 1, dP + 1, parad_const, w); }
static void run_scattered(void) { __parad_autodiff((void *)scattered, P, dP, parad_const, w); }

int main(int argc, char **argv) {
  int counting = argc > 1 && !strcmp(argv[1], "count");
  for (int k = 0; k < R * C; k++)
    X[k] = 0.3 + 0.7 * sin(0.37 * k), P[k].v = 0.5 + 0.3 * cos(0.23 * k), P[k].s = (float)(0.2 + 0.1 * sin(0.41 * k));
  for (int j = 0; j < C; j++) w[j] = 1 + 0.25 * cos(0.11 * j);

  for (int r = 0; r < REPEAT && !counting; r++) {
    memset(dX, 0, sizeof dX);
    __parad_autodiff((void *)variance, X, dX, parad_const, w);
    int bad = 0;
    for (int j = 0; j < C; j++) {
      double mean = 0;
      for (int i = 0; i < R; i++) mean += X[i * C + j] / R;
      for (int i = 0; i < R; i++) {
        double want = 2 * w[j] * (X[i * C + j] - mean) / R;
        bad += !(fabs(dX[i * C + j] - want) <= 1e-12 * fmax(1, fabs(want)));
      }
    }
    if (bad) printf("variance, round %d: %d wrong elements\n", r, bad);
    CHECK_CLOSE((double)bad, 0, 0);
  }

  want_points(0);
  check_points("columns, rows upwards", run_up, counting, 0);
  check_points("columns, rows downwards", run_down, counting, 0);
  want_points(1);
  check_points("triangular columns", run_triangle, 0, 0);

  memset(wv, 0, sizeof wv), memset(ws, 0, sizeof ws);
  for (int j = 0; j < C - 1; j++)
    for (int i = 0; i < R; i++) wv[i * C + j] += w[j] * P[i * C + j + 1].s, ws[i * C + j + 1] += (float)(w[j] * P[i * C + j].v);
  check_points("columns j and j + 1", run_pairs, counting, 1);

  memset(wv, 0, sizeof wv), memset(ws, 0, sizeof ws);
  for (int j = 0; j < C - 1; j++)
    for (int i = 0; i < R; i++) {
      Point *p = &P[i * C + j];
      wv[i * C + j] += w[j] * p->s * p[1].v, ws[i * C + j] += (float)(w[j] * p->v * p[1].v), wv[i * C + j + 1] += w[j] * p->v * p->s;
    }
  check_points("two views one element apart", run_views, counting, 1);

  want_points(0);
  for (int j = 0; j < C; j++) wv[(7 * j % R) * C] += w[j];
  check_points("a column read outside a run", run_scattered, counting, 1);
  return check_done();
}
