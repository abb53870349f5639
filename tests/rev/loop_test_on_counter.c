// Loops whose test compares the counter itself, strictly, with the limit: `do { ... } while (i++ < hi)`
// goes on while i < hi, that is while i + 1 <= hi (rev_loops.c: counted, its trip count known as it
// starts, hi - lo + 1, or 1 where lo > hi). The inner loop of a chunked static OpenMP schedule has this
// test (omp/chunked_schedules, omp/for_static_chunk); here written by hand, upwards (signed and
// unsigned: clang -O2 turns those into an equality test of the next value, checked all the same) and
// downwards (`while (i-- > lo)`, which keeps the test on the counter), a stencil's neighbours read in the
// loop and a sum carried through it. Each gradient against the analytic one (1e-12), with lo < hi,
// lo == hi and lo > hi (one iteration), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

void __parad_autodiff(void *, ...);

enum { N = 40 };

/* J = sum_{i=lo..max(lo,hi)} w_i x_i (x_(i-1) + x_(i+1)) */
__attribute__((noinline)) static double up(const double *x, const double *w, int lo, int hi) {
  double J = 0;
  int i = lo;
  do {
    J += w[i] * x[i] * (x[i - 1] + x[i + 1]);
  } while (i++ < hi);
  return J;
}

__attribute__((noinline)) static double up_unsigned(const double *x, const double *w, unsigned lo, unsigned hi) {
  double J = 0;
  unsigned i = lo;
  do {
    J += w[i] * x[i] * (x[i - 1] + x[i + 1]);
  } while (i++ < hi);
  return J;
}

/* the same over i = max(hi,lo) .. lo, downwards: here hi is the start */
__attribute__((noinline)) static double down(const double *x, const double *w, int lo, int hi) {
  double J = 0;
  int i = hi;
  do {
    J += w[i] * x[i] * (x[i - 1] + x[i + 1]);
  } while (i-- > lo);
  return J;
}

/* the terms' gradient for i in [a, b] (at least i = a) */
static void want(const double *x, const double *w, int a, int b, double *g) {
  for (int k = 0; k < N; k++) g[k] = 0;
  if (b < a) b = a;
  for (int i = a; i <= b; i++) {
    g[i] += w[i] * (x[i - 1] + x[i + 1]);
    g[i - 1] += w[i] * x[i];
    g[i + 1] += w[i] * x[i];
  }
}

static void check(const char *what, const double *dx, const double *g) {
  int bad = 0;
  for (int k = 0; k < N; k++) bad += !(fabs(dx[k] - g[k]) <= 1e-12 * fmax(1, fabs(g[k])));
  if (bad) printf("%s: %d wrong elements\n", what, bad);
  CHECK_CLOSE((double)bad, 0, 0);
}

int main(void) {
  double x[N], w[N], dx[N], g[N];
  for (int k = 0; k < N; k++) x[k] = 0.4 + 0.3 * sin(0.7 * k), w[k] = 1 + 0.2 * cos(0.3 * k);
  int bounds[3][2] = {{3, 30}, {5, 5}, {20, 9}}; /* lo < hi, one iteration both ways, lo > hi */
  for (int b = 0; b < 3; b++) {
    int lo = bounds[b][0], hi = bounds[b][1];
    for (int k = 0; k < N; k++) dx[k] = 0;
    __parad_autodiff((void *)up, x, dx, parad_const, w, parad_const, lo, parad_const, hi);
    want(x, w, lo, hi, g);
    check("up", dx, g);
    for (int k = 0; k < N; k++) dx[k] = 0;
    __parad_autodiff((void *)up_unsigned, x, dx, parad_const, w, parad_const, (unsigned)lo, parad_const, (unsigned)hi);
    check("up, unsigned", dx, g);
    for (int k = 0; k < N; k++) dx[k] = 0;
    __parad_autodiff((void *)down, x, dx, parad_const, w, parad_const, lo, parad_const, hi);
    want(x, w, hi < lo ? hi : lo, hi, g); /* from hi down to lo, at least i = hi */
    if (hi < lo) want(x, w, hi, hi, g);
    check("down", dx, g);
  }
  return check_done();
}
