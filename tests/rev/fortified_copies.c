// -D_FORTIFY_SOURCE=2 and =3, as distributions' default flags set them: glibc's headers make memcpy,
// memmove and memset of a size the compiler cannot decide calls of __memcpy_chk, __memmove_chk and
// __memset_chk, which were refused ("cannot differentiate a call to '__memcpy_chk'", located in glibc's
// header). They are the plain copies after the library's check (ad/checked_copies.h): the gradients
// against the analytic ones (1e-12) in both modes, and a copy past the destination still ends the
// program as glibc does ("buffer overflow detected"), in the derivative too.
// RUN: %parad-cc %cflags -D_FORTIFY_SOURCE=2 %s -o %t && %t
// RUN: not --crash %t overflow 2>&1 | FileCheck %s
// RUN: %parad-cc %cflags -D_FORTIFY_SOURCE=3 %s -o %t3 && %t3
// CHECK: buffer overflow detected
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

/* sum_i w_i y_i^2 with y = x copied, shifted within itself by one, and its tail cleared */
__attribute__((noinline)) static double f(const double *x, int n) {
  double y[16];
  memcpy(y, x, n * sizeof(double));
  memmove(y + 1, y, (n - 1) * sizeof(double)); /* y = x0 x0 x1 ... x(n-2) */
  memset(y + n - 1, 0, sizeof(double));        /* y(n-1) = 0 */
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * y[i] * y[i];
  return s;
}

int main(int argc, char **argv) {
  enum { N = 6 };
  double x[20] = {0}, dx[20] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.25 * i;
  if (argc > 1) { /* 20 doubles into 16 */
    __parad_autodiff((void *)f, x, dx, parad_const, 20);
    return 0;
  }
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  /* y0 = y1 = x0, y_i = x_(i-1) for 2 <= i <= n-2: d/dx0 = 2 x0 (1 + 2), d/dx_k = 2 (k + 2) x_k for 1 <= k <= n-3 */
  for (int k = 0; k < N; k++) {
    double want = k == 0 ? 6 * x[0] : k <= N - 3 ? 2 * (k + 2) * x[k] : 0, e[N] = {0};
    e[k] = 1;
    CHECK_CLOSE(dx[k], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, parad_const, N), want, 1e-12);
  }
  return check_done();
}
