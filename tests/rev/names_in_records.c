// Records with a name beside their values, the name written with the C string functions (strcpy,
// strncpy, strcat, stpcpy) into the record's char field. These were refused as functions without a body
// taking an active argument ("give it a body, or register a custom gradient"): they copy characters, which
// carry no derivative, like snprintf and memcpy into the same field.
// f = sum_i w_i x_i^2, w_i = 2 where the record's name ends in "1", else 1 (the names "a0", "a1", ...,
// each record's "#" suffix added with strcat).
// Gradient against the analytic one (1e-12) and forward tangents along each unit direction (1e-12), at
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 4 };

typedef struct {
  char name[16];
  double v;
  char tag[8];
} Rec;

static double f(const double *x, int n) {
  Rec *r = malloc(n * sizeof *r);
  char buf[16];
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "a%d", i);
    if (i % 2) strncpy(r[i].name, buf, sizeof r[i].name - 1), r[i].name[15] = 0;
    else strcpy(r[i].name, buf);
    strcat(r[i].name, "#");
    *stpcpy(r[i].tag, "t") = 0;
    r[i].v = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += r[i].v * (r[i].name[1] == '1' && r[i].name[2] == '#' ? 2 : 1);
  free(r);
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double want = (i == 1 ? 4 : 2) * x[i], v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), want, 1e-12);
  }
  return check_done();
}
