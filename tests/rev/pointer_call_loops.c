// Loops calling through function pointers, as solvers take options: a limiter chosen from a table before
// the loop, a function chosen per iteration, a table entry the loop itself changes, a function of another
// file (its derivative found by the runtime, not compared against the module's own), and a table of more
// functions than the generated code compares against. Gradients against the analytic ones (tolerance
// 1e-12), forward tangents (1e-12) and central differences (h = 1e-6, tolerance 1e-7). The pointer chosen
// before the loop is kept once for the reverse sweep: the tape holds what the limiter itself records (its
// two arguments, 16 bytes a call) and not also the reverse function's address per call (24 bytes a call;
// at -O0, where the loop's every value is in memory, 72 bytes a call and 80).
// RUN: %parad-cc %cflags %s %S/Inputs/other_limiter.c -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s %S/Inputs/other_limiter.c -o %t0 && %t0
#include <math.h>
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 12, LOOPS = 200 };
typedef double (*limiter_fn)(double, double);

double other_limiter(double a, double b); /* Inputs/other_limiter.c: a * b / (1 + a * a + b * b) */

static double minmod(double a, double b) { return a * b <= 0 ? 0 : fabs(a) < fabs(b) ? a : b; }
static double vanleer(double a, double b) { return a * b <= 0 ? 0 : 2 * a * b / (a + b); }
static double product(double a, double b) { return a * b; }
/* d/da and d/db of each, where differentiable */
static void minmod_d(double a, double b, double *da, double *db) {
  *da = a * b > 0 && fabs(a) < fabs(b), *db = a * b > 0 && !(fabs(a) < fabs(b));
}
static void vanleer_d(double a, double b, double *da, double *db) {
  double s = (a + b) * (a + b);
  *da = a * b > 0 ? 2 * b * b / s : 0, *db = a * b > 0 ? 2 * a * a / s : 0;
}
static void product_d(double a, double b, double *da, double *db) { *da = b, *db = a; }
static void other_d(double a, double b, double *da, double *db) {
  double q = 1 + a * a + b * b;
  *da = (b * q - a * b * 2 * a) / (q * q), *db = (a * q - a * b * 2 * b) / (q * q);
}

static limiter_fn table[4] = {minmod, vanleer, product, other_limiter};
static void (*const partials[4])(double, double, double *, double *) = {minmod_d, vanleer_d, product_d, other_d};
static int chosen;

/* J = sum_i L(x[i+1] - x[i], x[i+2] - x[i+1]) over the loop, the L chosen before it */
static double chosen_before(const double *x) {
  limiter_fn L = table[chosen];
  double J = 0;
  for (int r = 0; r < LOOPS; r++)
    for (int i = 0; i + 2 < N; i++) J += L(x[i + 1] - x[i], x[i + 2] - x[i + 1]) * (1 + 0.001 * r);
  return J;
}

static void chosen_before_gradient(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  for (int r = 0; r < LOOPS; r++)
    for (int i = 0; i + 2 < N; i++) {
      double da, db, w = 1 + 0.001 * r;
      partials[chosen](x[i + 1] - x[i], x[i + 2] - x[i + 1], &da, &db);
      g[i] -= w * da, g[i + 1] += w * (da - db), g[i + 2] += w * db;
    }
}

/* the function chosen per term: table[i % 4] */
static double chosen_per_term(const double *x) {
  double J = 0;
  for (int i = 0; i + 2 < N; i++) J += table[i % 4](x[i + 1] - x[i], x[i + 2] - x[i + 1]);
  return J;
}

static void chosen_per_term_gradient(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  for (int i = 0; i + 2 < N; i++) {
    double da, db;
    partials[i % 4](x[i + 1] - x[i], x[i + 2] - x[i + 1], &da, &db);
    g[i] -= da, g[i + 1] += da - db, g[i + 2] += db;
  }
}

/* the loop changes the entry it calls through: product for the first half of the terms, then vanleer */
static limiter_fn current;
static double changed_in_loop(const double *x) {
  current = product;
  double J = 0;
  for (int i = 0; i + 2 < N; i++) {
    if (i == N / 2) current = vanleer;
    J += current(x[i + 1] - x[i], x[i + 2] - x[i + 1]);
  }
  return J;
}

static void changed_in_loop_gradient(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  for (int i = 0; i + 2 < N; i++) {
    double da, db;
    (i < N / 2 ? product_d : vanleer_d)(x[i + 1] - x[i], x[i + 2] - x[i + 1], &da, &db);
    g[i] -= da, g[i + 1] += da - db, g[i + 2] += db;
  }
}

/* ten functions of one type, more than the code compares against: c_k(a, b) = a * b * (k + 1) + a */
#define SCALED(k) \
  static double scaled##k(double a, double b) { return a * b * (k + 1) + a; }
SCALED(0) SCALED(1) SCALED(2) SCALED(3) SCALED(4) SCALED(5) SCALED(6) SCALED(7) SCALED(8) SCALED(9)
static limiter_fn many[10] = {scaled0, scaled1, scaled2, scaled3, scaled4, scaled5, scaled6, scaled7, scaled8, scaled9};

static double many_functions(const double *x) {
  double J = 0;
  for (int i = 0; i + 2 < N; i++) J += many[(3 * i) % 10](x[i + 1] - x[i], x[i + 2] - x[i + 1]);
  return J;
}

static void many_functions_gradient(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  for (int i = 0; i + 2 < N; i++) {
    double a = x[i + 1] - x[i], b = x[i + 2] - x[i + 1], k = (3 * i) % 10 + 1;
    double da = b * k + 1, db = a * k;
    g[i] -= da, g[i + 1] += da - db, g[i + 2] += db;
  }
}

typedef double (*objective)(const double *);

static void check_case(objective f, void (*want)(const double *, double *), const double *x) {
  double g[N] = {0}, w[N], v[N];
  __parad_autodiff((void *)f, x, g);
  want(x, w);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(g[j], w[j], 1e-12);
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)f, x, v), 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-7);
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.9 * i) + 0.1 * i * i / N; /* slopes of both signs */
  for (chosen = 0; chosen < 4; chosen++) check_case(chosen_before, chosen_before_gradient, x);
  check_case(chosen_per_term, chosen_per_term_gradient, x);
  check_case(changed_in_loop, changed_in_loop_gradient, x);
  check_case(many_functions, many_functions_gradient, x);

  /* the tape of the loop with vanleer chosen before it */
  chosen = 1;
  double g[N] = {0};
  parad_tape_reset_peak();
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)chosen_before, x, g);
  double per_call = (double)(parad_tape_recorded_bytes() - before) / (LOOPS * (N - 2));
  printf("tape of the limiter's loop: %.2f bytes a call\n", per_call);
#ifdef __OPTIMIZE__
  CHECK_CLOSE(per_call <= 17, 1, 0);
#else
  CHECK_CLOSE(per_call <= 73, 1, 0);
#endif
  return check_done();
}
