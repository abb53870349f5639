// A workspace kept in a global pointer and grown on demand with realloc inside the differentiated
// function (`if (cap < n) g = realloc(g, ...)`), as code with lazily sized scratch does. It was refused
// ("reverse mode cannot tell what this realloc moves (unknown data)"): the kind of the data a realloc
// moves was found from the function's accesses through pointer variables on its stack only, and the
// workspace's doubles are reached through the global (analysis/memtype.c `object_slot`; the module's other
// functions that load the global are asked too). Gradients at sizes that grow the workspace (8, then 20),
// reuse it (5) and grow it again (33), against central differences (h 1e-6, 1e-6) and tangents (1e-12),
// at -O2 and -O0; a second workspace of floats beside it, which `reset` (another function) also writes.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double *work;
static float *weights;
static int cap, wcap;

__attribute__((noinline)) static void reset(int n) {
  for (int i = 0; i < n && i < wcap; i++) weights[i] = 1.0f;
}

__attribute__((noinline)) static double energy(const double *x, int n) {
  if (cap < n) {
    work = realloc(work, sizeof(double) * n);
    cap = n;
  }
  if (wcap < n) {
    weights = realloc(weights, sizeof(float) * n);
    for (int i = wcap; i < n; i++) weights[i] = 1.0f + 0.5f * (float)i;
    wcap = n;
  }
  for (int i = 0; i < n; i++) work[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += weights[i] * work[i] * work[i];
  return s;
}

enum { MOST = 33 };

int main(void) {
  static const int sizes[] = {8, 20, 5, 33};
  for (int c = 0; c < 4; c++) {
    int n = sizes[c];
    double x[MOST], g[MOST] = {0}, v[MOST], xp[MOST], xm[MOST], h = 1e-6;
    for (int i = 0; i < n; i++) x[i] = 0.3 + 0.05 * i + 0.1 * c;
    if (c == 2) reset(n);
    __parad_autodiff((void *)energy, x, g, parad_const, n);
    for (int d = 0; d < 2; d++) {
      double gv = 0;
      for (int i = 0; i < n; i++) v[i] = cos(1.7 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
      CHECK_CLOSE(gv, (energy(xp, n) - energy(xm, n)) / (2 * h), 1e-6);
      CHECK_CLOSE(gv, __parad_fwddiff((void *)energy, x, v, parad_const, n), 1e-12);
    }
  }
  free(work), free(weights);
  return check_done();
}
