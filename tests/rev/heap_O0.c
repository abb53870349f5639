// and the block has no typed access that the memory-type analysis connects to the copy.
// Heap blocks filled by memcpy and grown by realloc, at -O0: a copy of the input array into a malloc'd
// scratch block, and a prefix-sum array grown with realloc. Central finite differences (h = 1e-6,
// tolerance 1e-7) and forward tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double copied(const double *x, int n) {
  double *c = malloc(n * sizeof *c);
  memcpy(c, x, n * sizeof *c);
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += c[i] * sin(c[i + 1]);
  free(c);
  return s;
}

static double prefix(const double *x, int n) {
  double *pre = NULL;
  double acc = 0, s = 0;
  for (int i = 0; i < n; i++) {
    pre = realloc(pre, (i + 1) * sizeof *pre);
    acc += x[i];
    pre[i] = acc;
  }
  for (int i = 0; i < n; i++) s += pre[i] * pre[i] / (i + 1);
  free(pre);
  return s;
}

enum { N = 6 };
static double X0[N];
typedef struct { int k, which; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == c->k) * t;
  return c->which ? prefix(x, N) : copied(x, N);
}

int main(void) {
  for (int i = 0; i < N; i++) X0[i] = 0.4 * i - 0.9;
  for (int which = 0; which < 2; which++) {
    double x[N], dx[N] = {0}, e[N];
    for (int i = 0; i < N; i++) x[i] = X0[i];
    if (which) __parad_autodiff((void *)prefix, x, dx, parad_const, N);
    else __parad_autodiff((void *)copied, x, dx, parad_const, N);
    for (int k = 0; k < N; k++) {
      Ctx c = {k, which};
      CHECK_CLOSE(dx[k], fd_central(along, &c, 0, 1e-6), 1e-7);
      for (int i = 0; i < N; i++) e[i] = i == k;
      double t = which ? __parad_fwddiff((void *)prefix, x, e, parad_const, N) : __parad_fwddiff((void *)copied, x, e, parad_const, N);
      CHECK_CLOSE(dx[k], t, 1e-12);
    }
  }
  return check_done();
}
