// break and continue inside nested loops, in reverse mode: the inner loop over a row stops when its
// running sum passes a threshold (a data-dependent trip count per row), skips negative entries with
// continue, and the outer loop stops at the first row whose sum is large, leaving with a flag; the
// reverse sweep must replay exactly the iterations taken. Analytic gradient (each entry read contributes
// a known weight; tolerance 1e-12), central finite differences (h = 1e-6, tolerance 1e-7) and forward
// tangents along every unit direction (1e-12), for several thresholds (different exit paths).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { R = 5, C = 6 };

__attribute__((noinline)) static double rows(const double *a, int r, int c, double limit) {
  double total = 0;
  int stop = 0;
  for (int i = 0; i < r && !stop; i++) {
    double s = 0;
    for (int j = 0; j < c; j++) {
      double v = a[i * c + j];
      if (v < 0) continue;
      s += v * v;
      if (s > limit) break;
    }
    total += sin(s) + s * (i + 1);
    if (s > 2 * limit) {
      total *= s;
      stop = 1;
    }
  }
  return total;
}

static double A0[R * C];
typedef struct { int k; double limit; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double a[R * C];
  for (int i = 0; i < R * C; i++) a[i] = A0[i] + (i == c->k) * t;
  return rows(a, R, C, c->limit);
}

int main(void) {
  for (int i = 0; i < R * C; i++) A0[i] = sin(1.7 * i + 0.3) * (1 + 0.2 * (i % 5));
  double limits[] = {0.2, 0.8, 1.9, 50};
  for (int l = 0; l < 4; l++) {
    double limit = limits[l], a[R * C], da[R * C] = {0}, e[R * C];
    for (int i = 0; i < R * C; i++) a[i] = A0[i];
    double dlimit = __parad_autodiff((void *)rows, a, da, parad_const, R, parad_const, C, limit);
    CHECK_CLOSE(dlimit, 0.0, 0); /* the limit only steers control flow */
    /* by hand: replay the path, remembering which entries each row read */
    double want[R * C] = {0}, total = 0;
    for (int i = 0; i < R; i++) {
      double s = 0;
      int used[C] = {0};
      for (int j = 0; j < C; j++) {
        double v = A0[i * C + j];
        if (v < 0) continue;
        s += v * v, used[j] = 1;
        if (s > limit) break;
      }
      double ds = cos(s) + (i + 1); /* d(row term)/ds */
      if (s > 2 * limit) {
        /* total' = (total + term) * s: earlier rows scaled by s, this row by s and through s */
        double term = sin(s) + s * (i + 1);
        for (int k = 0; k < R * C; k++) want[k] *= s;
        for (int j = 0; j < C; j++)
          if (used[j]) want[i * C + j] += (ds * s + total + term) * 2 * A0[i * C + j];
        break;
      }
      for (int j = 0; j < C; j++)
        if (used[j]) want[i * C + j] += ds * 2 * A0[i * C + j];
      total += sin(s) + s * (i + 1);
    }
    for (int k = 0; k < R * C; k++) {
      CHECK_CLOSE(da[k], want[k], 1e-12);
      Ctx c = {k, limit};
      CHECK_CLOSE(da[k], fd_central(along, &c, 0, 1e-6), 1e-7);
      for (int i = 0; i < R * C; i++) e[i] = i == k;
      CHECK_CLOSE(da[k], __parad_fwddiff((void *)rows, a, e, parad_const, R, parad_const, C, limit, 0.0), 1e-12);
    }
  }
  return check_done();
}
