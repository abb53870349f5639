// Vector lanes the program leaves undefined (ad/defined_lanes.h): a shuffle with -1 lanes written by the
// program, and the lanes instcombine leaves poison in the program's own vector code once -ffp-contract=fast
// or -ffast-math lets it fuse across lanes (with AVX2). The reverse sweep multiplies the adjoint of each
// lane, 0 for the undefined ones, by the other factor's lane: with those lanes poison, the gradients came
// out NaN or several times too large ({4, 4, nan, nan} for {4, 0, 0, 1}). Reverse mode against the
// analytic gradients (1e-12) and the forward tangents along each unit direction (1e-12); at -O0, -O2, and
// where the machine has AVX2, -O2 -mavx2 -ffp-contract=fast and -O3 -mavx2 -mfma -ffast-math.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: if grep -qw avx2 /proc/cpuinfo; then %parad-cc %cflags -mavx2 -ffp-contract=fast %s -o %t1 && %t1; fi
// RUN: if grep -qw avx2 /proc/cpuinfo; then %parad-cc -O3 -I%S/../include -mavx2 -mfma -ffast-math %s -o %t2 && %t2; fi
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double v4 __attribute__((vector_size(32)));

/* x[0] * x[3]: lanes 1..3 of b are undefined */
__attribute__((noinline)) static double picked(const double *x) {
  v4 a;
  memcpy(&a, x, sizeof a);
  v4 b = __builtin_shufflevector(a, a, 3, -1, -1, -1);
  v4 c = a * b;
  return c[0];
}

/* x0^2 + 2 x1^2 + 3 x2^2 * 4 x3^2 */
__attribute__((noinline)) static double weighted(const double *x) {
  v4 a;
  memcpy(&a, x, sizeof a);
  v4 s = a * a * (v4){1, 2, 3, 4};
  return s[0] + s[1] + s[2] * s[3];
}

static void check(int which, const double *want) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  if (which) __parad_autodiff((void *)weighted, x, dx);
  else __parad_autodiff((void *)picked, x, dx);
  for (int k = 0; k < 4; k++) {
    double e[4] = {0, 0, 0, 0};
    e[k] = 1;
    CHECK_CLOSE(dx[k], want[k], 1e-12);
    CHECK_CLOSE(dx[k], which ? __parad_fwddiff((void *)weighted, x, e) : __parad_fwddiff((void *)picked, x, e), 1e-12);
  }
}

int main(void) {
  check(0, (const double[]){4, 0, 0, 1});
  check(1, (const double[]){2, 8, 1152, 864});
  return check_done();
}
