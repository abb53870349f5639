// A model's state as a 2-D array of records mixing doubles and an int mask, updated by copying the new
// interior back row by row (`g[j][i] = nw[j][i]`, as AoS ocean and atmosphere codes step). clang makes the
// inner loop one copy of five records per row, at a byte offset `j * 224 + 32` into the array: the copy's
// layout was not found, and the gradient was refused at -O1 to -O3 ("cannot tell what this copy moves
// (mixed data)"); -O0 and a 1-D array worked. Gradient against central differences of every component
// (h = 1e-6, 1e-6), tangents along two directions against the gradient (1e-12); -O0 to -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double h, u, v;
  int mask;
} Cell;
enum { NX = 5, NY = 4, N = 3 * NX * NY };

static double model(const double *x) {
  Cell g[NY][NX + 2], nw[NY][NX + 2];
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++)
      g[j][i + 1] = (Cell){x[3 * (j * NX + i)], x[3 * (j * NX + i) + 1], x[3 * (j * NX + i) + 2], (i + j) % 4 != 0};
  for (int t = 0; t < 3; t++) {
    for (int j = 0; j < NY; j++) g[j][0] = g[j][NX], g[j][NX + 1] = g[j][1];
    for (int j = 0; j < NY; j++)
      for (int i = 1; i <= NX; i++) {
        Cell c = g[j][i], e = g[j][i + 1], w = g[j][i - 1];
        nw[j][i] = c;
        nw[j][i].h = c.h - 0.1 * (e.h * e.u - w.h * w.u);
        nw[j][i].u = c.u - 0.1 * (e.h - w.h) * c.mask;
      }
    for (int j = 0; j < NY; j++)
      for (int i = 1; i <= NX; i++) g[j][i] = nw[j][i];
  }
  double J = 0;
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= NX; i++) J += g[j][i].h * g[j][i].u + g[j][i].v * g[j][i].v;
  return J;
}

int main(void) {
  double x[N], g[N] = {0}, v[N], w[N];
  for (int k = 0; k < N; k++) x[k] = 1 + 0.1 * sin(k), v[k] = cos(0.7 * k), w[k] = (k % 3) - 1;
  __parad_autodiff((void *)model, x, g);
  for (int k = 0; k < N; k++) CHECK_CLOSE(g[k], fd_component(model, x, N, k, 1e-6), 1e-6);
  double gv = 0, gw = 0;
  for (int k = 0; k < N; k++) gv += g[k] * v[k], gw += g[k] * w[k];
  CHECK_CLOSE(__parad_fwddiff((void *)model, x, v), gv, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)model, x, w), gw, 1e-12);
  return check_done();
}
