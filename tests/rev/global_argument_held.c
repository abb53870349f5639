// Derivatives with respect to memory the function also reads through a global, reached one step away
// from tests/rev/global_argument.c: (1) the argument points into the heap block a pointer global holds
// (`params = malloc(...)` in main, the function reading params[0]); (2) the argument is a struct holding a
// pointer into a global array the function also reads by name (`m->c = coeffs`). Both gave gradients
// without the reads' part (0 where -0.24 and -1.2 were right), in both modes, with no message; now the
// program stops before the derivative, naming the argument, the global and the function. With copies of the
// values, the gradients against central differences (h 1e-6, 1e-8) and the tangents (1e-12), at -O2 and
// -O0. A checkpointed loop whose variable points into a global the loop also reads by name is not such a
// request: Parad's own requests of the loop's steps hand it the variable's slot (fuzz seed 39485 stopped
// there, at the first version of the check).
// RUN: %parad-cc %cflags %s -o %t && %t copy
// RUN: not --crash %t block 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not --crash %t block-offset 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not --crash %t field 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 copy
// RUN: not --crash %t0 block 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not --crash %t0 field 2>&1 | FileCheck %s --check-prefix=FIELD
// BLOCK: parad: __parad_autodiff: argument #1 of 'loss' points into the block held by the pointer global 'params', which 'loss' also reads through the global
// FIELD: parad: __parad_autodiff: argument #1 of 'model_loss' holds a pointer into the global variable 'coeffs', which 'model_loss' also reads by name
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_checkpoint_loop(void);

static double *params; /* a block main allocates */
double coeffs[2] = {0.5, -1.2};
struct Model {
  double *c;
  double scale;
};

__attribute__((noinline)) static double loss(const double *c) { return params[0] * params[0] * c[1] + c[0] * c[1]; }

__attribute__((noinline)) static double model_loss(const struct Model *m) {
  return coeffs[0] * coeffs[0] * m->c[1] + m->scale * m->c[0];
}

static double table[4];

__attribute__((noinline)) static double stepped(const double *x, int n) {
  for (int k = 0; k < 4; k++) table[k] = 0.5 + 0.1 * k;
  double *p = table + (n > 100), s = 0;
  for (int t = 0; t < n; t++) {
    __parad_checkpoint_loop();
    s += p[t % 4] * x[t % 2] * x[t % 2] + table[(t + 1) % 4] * x[0];
    p = table;
  }
  return s;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "copy";
  params = malloc(3 * sizeof(double));
  params[0] = 0.4, params[1] = -0.3, params[2] = 0.7;
  if (!strcmp(mode, "block") || !strcmp(mode, "block-offset")) {
    double g[2] = {0};
    __parad_autodiff((void *)loss, params + !strcmp(mode, "block-offset"), g);
    return 0;
  }
  if (!strcmp(mode, "field")) {
    double g[2] = {0};
    struct Model m = {coeffs, 2.0}, dm = {g, 0};
    __parad_autodiff((void *)model_loss, &m, &dm);
    return 0;
  }
  /* copies: params and coeffs read by name are constants, the copies' gradients exact */
  double c[2] = {0.4, -0.3}, dc[2] = {0};
  __parad_autodiff((void *)loss, c, dc);
  CHECK_CLOSE(dc[0], c[1], 1e-12);
  CHECK_CLOSE(dc[1], params[0] * params[0] + c[0], 1e-12);
  for (int k = 0; k < 2; k++) {
    double e[2] = {0, 0}, h = 1e-6, s = c[k];
    e[k] = 1;
    c[k] = s + h;
    double fp = loss(c);
    c[k] = s - h;
    double fm = loss(c);
    c[k] = s;
    CHECK_CLOSE(dc[k], (fp - fm) / (2 * h), 1e-8);
    CHECK_CLOSE(dc[k], __parad_fwddiff((void *)loss, c, e), 1e-12);
  }
  double own[2] = {0.5, -1.2}, down[2] = {0};
  struct Model m = {own, 2.0}, dm = {down, 0};
  __parad_autodiff((void *)model_loss, &m, &dm);
  CHECK_CLOSE(down[0], 2.0, 1e-12);
  CHECK_CLOSE(down[1], coeffs[0] * coeffs[0], 1e-12);
  CHECK_CLOSE(dm.scale, own[0], 1e-12);
  double y[2] = {0.7, 1.3}, dy[2] = {0};
  __parad_autodiff((void *)stepped, y, dy, parad_const, 10);
  for (int k = 0; k < 2; k++) {
    double h = 1e-6, s = y[k];
    y[k] = s + h;
    double fp = stepped(y, 10);
    y[k] = s - h;
    double fm = stepped(y, 10);
    y[k] = s;
    CHECK_CLOSE(dy[k], (fp - fm) / (2 * h), 1e-7);
  }
  free(params);
  return check_done();
}
