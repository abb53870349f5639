// A workspace struct allocated on first use inside the differentiated function (`if (!ws) ws =
// calloc(1, sizeof *ws)`), its arrays freed and allocated again when a call needs more room, as codes
// with lazily sized scratch keep it. At -O2 the optimiser makes the single calloc'd struct a global of
// bytes (`ws.body`) that a memset zeroes on the first call, inside the derivative; the zeroing was
// allowed in the program's set-up only, and the derivative was refused ("a pointer loaded from the global
// variable 'ws.body'"). A memset of zeros stores null pointers, which a slot may always hold, and now
// qualifies anywhere. The first request allocates the workspace; later sizes grow it (20, 33) and reuse
// it (5). Gradients against central differences (h 1e-6, 1e-6) and tangents (1e-12), at -O2, -Os, -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

struct Workspace {
  double *values, *squares;
  int cap;
};
static struct Workspace *ws;

static struct Workspace *workspace(int n) {
  if (!ws) ws = calloc(1, sizeof *ws);
  if (ws->cap < n) {
    free(ws->values), free(ws->squares);
    ws->values = malloc(sizeof(double) * n), ws->squares = malloc(sizeof(double) * n);
    ws->cap = n;
  }
  return ws;
}

static double energy(const double *x, int n) {
  struct Workspace *w = workspace(n);
  for (int i = 0; i < n; i++) w->values[i] = sin(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; i++) w->squares[i] = w->values[i] * w->values[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += (1 + 0.5 * i) * w->squares[i] + w->values[i] * x[i];
  return s;
}

/* the differences call it through a pointer: inlined into main, its calloc would be made twice, and the
   optimiser would keep the global a pointer */
static double (*volatile primal)(const double *, int) = energy;

enum { MOST = 33 };

int main(void) {
  static const int sizes[] = {8, 20, 5, 33};
  for (int c = 0; c < 4; c++) {
    int n = sizes[c];
    double x[MOST], g[MOST] = {0}, v[MOST], xp[MOST], xm[MOST], h = 1e-6;
    for (int i = 0; i < n; i++) x[i] = 0.3 + 0.05 * i + 0.1 * c;
    __parad_autodiff((void *)energy, x, g, parad_const, n);
    for (int d = 0; d < 2; d++) {
      double gv = 0;
      for (int i = 0; i < n; i++) v[i] = cos(1.7 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
      CHECK_CLOSE(gv, (primal(xp, n) - primal(xm, n)) / (2 * h), 1e-6);
      CHECK_CLOSE(gv, __parad_fwddiff((void *)energy, x, v, parad_const, n), 1e-12);
    }
  }
  free(ws->values), free(ws->squares); /* the struct itself kept, as such codes keep it */
  return check_done();
}
