// Doubles moved as vectors of integers (GCC vector extensions: a v2u view of two doubles, read through a
// volatile pointer so that the optimiser keeps the integer load, and stored back through one): reverse
// mode gave zero adjoints with no message, as the integer vector carried no adjoint (only scalar integers
// did). A vector of integers now carries its lanes whole (rev_lanes.c); its shifts and masks stay
// refused (tests/diag/float_bits_vectors.c). Built with -fno-strict-aliasing the untagged vector load was
// taken for integers besides (memtype's punned kinds asked scalars only). f = sum v_k^2 over a copy made through integer vectors, plus
// x0 x3: gradients and tangents along unit directions against the analytic ones (1e-14), at -O2 (%cflags)
// and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fno-strict-aliasing %s -o %tl -lm && %tl
#include <stdint.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double v2d __attribute__((vector_size(16)));
typedef uint64_t v2u __attribute__((vector_size(16)));

enum { N = 4 };

static double f(const double *x, double *work) {
  for (int i = 0; i < N; i += 2) {
    v2u bits = *(volatile const v2u *)(x + i); /* read as integers */
    *(volatile v2u *)(work + i) = bits;       /* and stored as integers */
  }
  double s = 0;
  for (int i = 0; i < N; i += 2) {
    v2d v = (v2d) * (volatile const v2u *)(work + i);
    s += v[0] * v[0] + v[1] * v[1];
  }
  return s + x[0] * x[3];
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, -2.5}, g[N] = {0}, w[N], dw[N] = {0};
  __parad_autodiff((void *)f, x, g, w, dw);
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] + (i == 0 ? x[3] : i == 3 ? x[0] : 0), e[N] = {0}, de[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], want, 1e-14);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, w, de), want, 1e-14);
  }
  return check_done();
}
