// A table lookup as interpolation codes write it: bsearch with a key record holding the query (active)
// beside the table's axis pointer, the comparator bracketing the query between neighbours. At -O2 the
// comparator is inlined into glibc's inline search and the key becomes values; at -O0 the search was a
// library call written out after the light optimisation, so the comparator stayed a call, the key stayed
// in memory, and storing the axis pointer into it wanted a shadow the table has none of: refused with a
// message cut off mid-word (a table passed as constant or read from a global), an internal error (the
// written-out search's first branch took the line of the previous function's search), or, with the
// table copied out of a global into a local, a program that segfaulted in both modes. The search is
// written out before the copies are made and inlined now, as -O2 has it.
// The table is constant (x[i] = i, p[i] = 1 + (i mod 3) / 2), the state driven by s += 0.01 p(s); the
// gradient of w = sum 0.01 p(s_k) and forward tangents against central finite differences (h = 1e-6,
// 1e-6; the path crosses no knot within h), at -O0 (with -g too: a phi of the written-out search was put
// after a variable's debug record) and -O2, the table passed as constant and copied out
// of a global.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O0 -g -I%S/../include %s -o %t0g -lm && %t0g
// RUN: %parad-cc %cflags %s -o %t -lm && %t
#include <stdlib.h>
#include "parad.h"
#include "check.h"

typedef struct {
  int n;
  double *ax, *p;
} Tab;
Tab g_tab;
struct key {
  double x;
  const double *base;
  int n;
};

static int bracket(const void *k, const void *e) {
  const struct key *key = k;
  const double *a = e;
  if (a - key->base == key->n - 1) return key->x < a[0] ? -1 : 0;
  return key->x < a[0] ? -1 : (key->x >= a[1] ? 1 : 0);
}

double lookup(const Tab *t, double x) {
  struct key key = {x, t->ax, t->n};
  const double *hit = bsearch(&key, t->ax, t->n - 1, sizeof(double), bracket);
  int i = hit ? (int)(hit - t->ax) : 0;
  if (i > t->n - 2) i = t->n - 2;
  double u = (x - t->ax[i]) / (t->ax[i + 1] - t->ax[i]);
  return (1 - u) * t->p[i] + u * t->p[i + 1];
}

double march(const double *x, const Tab *t, int n) {
  double s = x[0] * x[1], w = 0;
  for (int k = 0; k < n; k++) {
    double p = lookup(t, s);
    w += p * 0.01;
    s += 0.01 * p;
  }
  return w;
}

double march_global(const double *x, int n) {
  Tab t = g_tab;
  return march(x, &t, n);
}

int main(void) {
  double ax[8], p[8];
  for (int i = 0; i < 8; i++) ax[i] = i, p[i] = 1.0 + 0.5 * (i % 3);
  Tab t = {8, ax, p};
  g_tab = t;
  double x[2] = {0.5, 1.3}, v[2] = {0.7, -0.4}, h = 1e-6;
  for (int variant = 0; variant < 2; variant++) {
    double g[2] = {0, 0}, fd[2], tangent;
    for (int j = 0; j < 2; j++) {
      double xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]};
      xp[j] += h, xm[j] -= h;
      fd[j] = variant ? (march_global(xp, 300) - march_global(xm, 300)) / (2 * h)
                      : (march(xp, &t, 300) - march(xm, &t, 300)) / (2 * h);
    }
    if (variant) {
      __parad_autodiff((void *)march_global, x, g, parad_const, 300);
      tangent = __parad_fwddiff((void *)march_global, x, v, parad_const, 300);
    } else {
      __parad_autodiff((void *)march, x, g, parad_const, &t, parad_const, 300);
      tangent = __parad_fwddiff((void *)march, x, v, parad_const, &t, parad_const, 300);
    }
    for (int j = 0; j < 2; j++) CHECK_CLOSE(g[j], fd[j], 1e-6);
    CHECK_CLOSE(tangent, g[0] * v[0] + g[1] * v[1], 1e-6);
  }
  return check_done();
}
