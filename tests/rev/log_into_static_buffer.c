// A logging helper as programs write it: variadic, formatting into a static char buffer with vsnprintf,
// then printing the buffer, called with active values inside the differentiated loop. The same helper
// printing with vfprintf was accepted (a variadic call given values only writes nothing with a
// derivative); the buffer, a global of chars, was taken for memory that may hold active data (a call
// writes it), so the call reached "active global memory" and was refused ("cannot differentiate a call to
// the variadic function 'log_line' with active arguments"). A library function that only writes text or
// reads puts nothing with a derivative there.
//   s(x) = sum_i t_i^2, t_i = x_i exp(-x_i^2), ds/dx_i = 2 t_i (1 - 2 x_i^2) exp(-x_i^2)
// Reverse and forward mode against the formula (1e-12), the log printed (to a file), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t 2> %t.log && grep -q "t=0.42" %t.log
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 2> %t0.log && grep -q "t=0.42" %t0.log
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static int verbose = 1;
static char line[256];

static void log_line(const char *fmt, ...) {
  if (!verbose) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fputs(line, stderr);
}

double s(const double *x, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i] * exp(-x[i] * x[i]);
    log_line("t=%.6f at %d\n", t, i);
    sum += t * t;
  }
  return sum;
}

int main(void) {
  enum { N = 3 };
  double x[N] = {0.7, -1.3, 0.2}, g[N] = {0};
  __parad_autodiff((void *)s, x, g, N);
  for (int i = 0; i < N; i++) {
    double e = exp(-x[i] * x[i]), t = x[i] * e, want = 2 * t * (1 - 2 * x[i] * x[i]) * e;
    CHECK_CLOSE(g[i], want, 1e-12);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)s, x, v, N), want, 1e-12);
  }
  return check_done();
}
