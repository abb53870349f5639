// A block of doubles the caller passed in, freed by the differentiated function after it copied the
// elements one by one (or only read them): the adjoints of its contents cannot reach the caller (they are
// handed on only along whole-block copies, tests/rev/grown_by_hand.c), and the runtime says so once, on
// stderr, instead of leaving the caller a gradient of zeros without a word. A whole-block copy and a block
// whose adjoints are all zero say nothing. The gradient of the pushed value y is right in every case
// (checked against the analytic one, 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t elementwise 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: %t consumed 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: %t whole 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %t unused 2>&1 | FileCheck %s --check-prefix=QUIET
// At -O0 the block freed through `double **v` is not known to hold floats (memtype): no message there yet.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 whole 2>&1 | FileCheck %s --check-prefix=QUIET
// LOST: parad runtime: warning: the differentiated function freed a block of floats the caller passed in ({{[0-9]+}} bytes) and its contents' adjoints are lost with it
// LOST-NOT: parad runtime
// LOST: checks passed
// QUIET-NOT: parad runtime
// QUIET: checks passed
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 8 };

static double elementwise(double **v, double y) {
  double *d = malloc((N + 1) * sizeof *d);
  for (int i = 0; i < N; i++) d[i] = (*v)[i];
  free(*v);
  d[N] = y;
  *v = d;
  double s = 0;
  for (int i = 0; i <= N; i++) s += d[i] * d[i];
  return s;
}

static double whole(double **v, double y) {
  double *d = malloc((N + 1) * sizeof *d);
  memcpy(d, *v, N * sizeof *d);
  free(*v);
  d[N] = y;
  *v = d;
  double s = 0;
  for (int i = 0; i <= N; i++) s += d[i] * d[i];
  return s;
}

static double consumed(double **v, double y) {
  double s = 0;
  for (int i = 0; i < N; i++) s += (*v)[i] * y;
  free(*v);
  *v = NULL;
  return s;
}

static double unused(double **v, double y) {
  free(*v);
  *v = NULL;
  return y * y;
}

static double gradient(const char *which, double **v, double **dv, double y) {
  if (!strcmp(which, "elementwise")) return __parad_autodiff((void *)elementwise, v, dv, y);
  if (!strcmp(which, "consumed")) return __parad_autodiff((void *)consumed, v, dv, y);
  if (!strcmp(which, "unused")) return __parad_autodiff((void *)unused, v, dv, y);
  return __parad_autodiff((void *)whole, v, dv, y);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "whole";
  double *v = malloc(N * sizeof *v), *dv = calloc(N, sizeof *dv), y = 0.75, sum = 0;
  for (int i = 0; i < N; i++) v[i] = 0.5 + i, sum += v[i];
  double dy = gradient(which, &v, &dv, y);
  CHECK_CLOSE(dy, !strcmp(which, "consumed") ? sum : 2 * y, 1e-12);
  if (!strcmp(which, "whole"))
    for (int i = 0; i < N; i++) CHECK_CLOSE(dv[i], 2 * (0.5 + i), 1e-12);
  free(v);
  free(dv);
  return check_done();
}
