// A generic copy helper (memcpy of a size) moving records {char name[16]; double v; int n}: the objective
// swaps two records through a local one, and main calls the objective too (as programs do to check
// their gradients), so at -O1 and up the helper's callers pass one record here and an array of them
// there. The memory analysis took the two for a conflict and the copy was refused ("cannot tell what this
// copy moves"); an array agrees with its element now (analysis/memtype.c). The same with the helper
// written as a byte loop (ad/byte_loops.h).
//   f(x) = sum_k (k+1) r_k.v + 0.001 name_k[0] x_k, r_k.v = x_k^2, r_0 and r_2 swapped
// Gradient against central differences (h 1e-6, 1e-7) and tangents (1e-12), at -O2, -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -DBYTES %s -o %tb -lm && %tb
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  char name[16];
  double v;
  int n;
} Rec;

enum { K = 3 };

__attribute__((noinline)) static void copy_record(void *to, const void *from, size_t size) {
#ifdef BYTES
  char *d = to;
  const char *s = from;
  while (size--) *d++ = *s++;
#else
  memcpy(to, from, size);
#endif
}

double f(const double *x, Rec *r) {
  for (int k = 0; k < K; k++) {
    memcpy(r[k].name, "record", 7);
    r[k].name[0] = (char)('a' + k);
    r[k].v = x[k] * x[k], r[k].n = k;
  }
  Rec t;
  copy_record(&t, &r[0], sizeof t);
  copy_record(&r[0], &r[2], sizeof t);
  copy_record(&r[2], &t, sizeof t);
  double s = 0;
  for (int k = 0; k < K; k++) s += (k + 1) * r[k].v + 0.001 * r[k].name[0] * x[k];
  return s;
}

int main(void) {
  double x[K] = {0.3, 0.9, -0.2}, g[K] = {0};
  Rec r[K], dr[K];
  memset(dr, 0, sizeof dr);
  __parad_autodiff((void *)f, x, g, r, dr);
  for (int j = 0; j < K; j++) {
    double xp[K], xm[K], v[K] = {0};
    for (int i = 0; i < K; i++) xp[i] = xm[i] = x[i];
    xp[j] += 1e-6, xm[j] -= 1e-6, v[j] = 1;
    double fd = (f(xp, r) - f(xm, r)) / 2e-6;
    CHECK_CLOSE(g[j], fd, 1e-7);
    memset(dr, 0, sizeof dr);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, r, dr), g[j], 1e-12);
  }
  return check_done();
}
