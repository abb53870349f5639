// Printing from a differentiated function built with -D_FORTIFY_SOURCE (Debian's and Fedora's packaging
// flags): glibc's headers make printf, fprintf and snprintf calls of __printf_chk, __fprintf_chk and
// __snprintf_chk, which were refused as calls with an active argument, where the plain calls are known to
// carry no derivative. f = sum x_i^2, printing each term; gradient and tangents against 2 x (1e-14), with
// _FORTIFY_SOURCE 2 and 3 at -O2.
// RUN: %parad-cc %cflags -D_FORTIFY_SOURCE=2 %s -o %t -lm && %t > /dev/null
// RUN: %parad-cc %cflags -D_FORTIFY_SOURCE=3 %s -o %t3 -lm && %t3 > /dev/null
#include <stdio.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 3 };

double f(const double *x) {
  double s = 0;
  char line[64];
  for (int i = 0; i < N; i++) {
    s += x[i] * x[i];
    snprintf(line, sizeof line, "%g", s);
    printf("term %d: %g (%s)\n", i, x[i] * x[i], line);
    fprintf(stderr, "%s", i == N - 1 ? "" : "");
  }
  return s;
}

int main(void) {
  double x[N] = {1, 2, 3}, g[N] = {0};
  __parad_autodiff((void *)f, x, g);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], 2 * x[i], 1e-14);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), 2 * x[i], 1e-14);
  }
  return check_done();
}
