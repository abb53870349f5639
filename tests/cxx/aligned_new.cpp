// C++17's aligned operator new and delete (a type declared alignas(64)): the shadows are made with the
// block's alignment (the derivative's accesses keep the program's aligned loads and stores: a misaligned
// shadow would fault at -O2). Cells of eight doubles filled from x and summed as squares: dE/dx_i =
// 2 x_i sum_k (k+1)^2 = 408 x_i. Gradient and tangents against that (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include "parad.h"
#include "check.h"

struct alignas(64) Cell {
  double v[8];
};

enum { N = 5 };

static double energy(const double *x) {
  Cell *c = new Cell[N];
  Cell *one = new Cell;
  for (int k = 0; k < 8; k++) one->v[k] = k + 1;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 8; k++) c[i].v[k] = x[i] * one->v[k];
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 8; k++) s += c[i].v[k] * c[i].v[k];
  delete one;
  delete[] c;
  return s;
}

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.25 * i;
  __parad_autodiff((void *)energy, x, dx);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 408 * x[i], 1e-12);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)energy, x, v), 408 * x[i], 1e-12);
  }
  return check_done();
}
