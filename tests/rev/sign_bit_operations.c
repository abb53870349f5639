// fabs and negation written on a float's bits, as hand-tuned code writes them: the sign bit cleared
// (u & ~S), flipped (u ^ S) or set (u | S) through a uint64_t and memcpy, through a union, and on GCC
// vectors of doubles. Where the bits are loaded as an integer the optimiser leaves the integer operation,
// which was refused ("integer arithmetic on the bits of an active floating-point value"); each becomes
// fabs, fneg or -fabs now (ad/float_bits.h), bit for bit the same.
// f = sum_i w_i g(x_i) with g = |x| x, -x, -|x| x^2 and a vector |x| x: gradients and tangents along unit
// directions against the analytic ones (1e-14); -O2 (%cflags), -O0 and -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };
#define SIGN (1ull << 63)

/* the bits read from the array itself: the optimiser loads them as an integer */
static double cleared(const double *p) {
  uint64_t u;
  double x;
  memcpy(&u, p, 8);
  u &= ~SIGN;
  memcpy(&x, &u, 8);
  return x;
}

static double flipped(const double *p) {
  union {
    double d;
    uint64_t u;
  } b;
  memcpy(&b, p, 8);
  b.u ^= SIGN;
  return b.d;
}

static double set(const double *p) {
  uint64_t u;
  double x;
  memcpy(&u, p, 8);
  u |= SIGN;
  memcpy(&x, &u, 8);
  return x;
}

typedef double v2d __attribute__((vector_size(16)));
typedef uint64_t v2u __attribute__((vector_size(16)));

static double f(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += cleared(x + i) * x[i] + 2 * flipped(x + i) + 3 * set(x + i) * x[i] * x[i];
  v2u bits;
  memcpy(&bits, x, 16);
  bits &= ~(v2u){SIGN, SIGN};
  v2d v = {x[0], x[1]}, a = (v2d)bits * v;
  return s + 5 * (a[0] + a[1]);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, -2.5}, g[N] = {0};
  __parad_autodiff((void *)f, x, g);
  for (int i = 0; i < N; i++) {
    double want = 2 * fabs(x[i]) - 2 - 9 * fabs(x[i]) * x[i] + (i < 2 ? 10 * fabs(x[i]) : 0), e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], want, 1e-14);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e), want, 1e-14);
  }
  return check_done();
}
