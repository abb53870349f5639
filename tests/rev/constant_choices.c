// Constant data beside active data: a boundary value from a constant argument chosen against an active
// neighbour (`i > 0 ? x[i-1] : bc[0]`, which the optimiser turns into one load from a select of the two
// addresses; the constant side has no shadow and stands in with zeros: once refused), a choice of rows by
// a phi, and a pointer to a constant table of coefficients stored into an active struct (its shadow is a
// global of zeros for forward mode and a sink for the adjoints of reverse mode, which must not leak into a
// later tangent). The gradient is taken first, then the tangents, so a sink that forward mode read would
// show. f(x) = sum_i w_i (l_i x_i)^2 + t + sum_i r_i^2 / 4, with l_i = x_{i-1} (i > 0) or bc_0,
// t = sum_i coeffs[i % 3] x_i (the struct's table), r_i = x_i (i odd) or bc_1; then the same element
// chosen from either side (`x_0 > 0 ? x_2 : bc_2`, optimised: one load at 16 bytes from a phi of the two
// bases, whose stand-in must cover the offset; once refused), a product of it and x_4, and of
// (x_1 < 0 ? x_3 : bc_3) and x_5, one taking each side at the point; and a view of either chosen again
// against a constant element (`x_0 > 0 ? bc_0 : view[1]`, a select of a select's address), with the view
// on bc, then on x, times x_8. (A pointer chosen between
// active and constant memory and then indexed by a variable, a view of either, is still refused: the constant side would
// need a shadow of its size.) Analytic gradient (tolerance 1e-12), forward tangents
// along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 && %t3
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 9 };

static const double coeffs[3] = {0.5, -1.25, 2.0};

typedef struct {
  const double *table;
  double scale;
} Model;

static double w(int i) { return 1 + 0.1 * i; }

__attribute__((noinline)) static double f(const double *x, const double *bc, Model *m) {
  m->table = coeffs;
  double s = 0;
  for (int i = 0; i < N; i++) {
    double l = i > 0 ? x[i - 1] : bc[0];
    s += w(i) * (l * x[i]) * (l * x[i]);
  }
  for (int i = 0; i < N; i++) {
    double r = i % 2 ? x[i] : bc[1]; /* a phi or select of the two addresses when optimised */
    s += m->table[i % 3] * x[i] + 0.25 * r * r;
  }
  s += (x[0] > 0 ? x[2] : bc[2]) * x[4];
  s += (x[1] < 0 ? x[3] : bc[3]) * x[5];
  const double *on_bc = x[2] > 0 ? x : bc, *on_x = x[6] > 0 ? x : bc;
  s += ((x[0] > 0 ? bc[0] : on_bc[1]) + (x[0] > 0 ? bc[0] : on_x[1])) * x[8];
  return s;
}

static double X0[N];
static const double BC[4] = {0.75, -0.5, 1.5, -2.25};
static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  Model m = {0, 1};
  return f(x, BC, &m);
}

int main(void) {
  double dx[N] = {0}, e[N], want[N] = {0};
  for (int i = 0; i < N; i++) X0[i] = 0.3 * i - 1.1;
  for (int i = 0; i < N; i++) {
    double l = i > 0 ? X0[i - 1] : BC[0];
    want[i] += 2 * w(i) * l * l * X0[i];
    if (i > 0) want[i - 1] += 2 * w(i) * X0[i] * X0[i] * l;
    want[i] += coeffs[i % 3] + (i % 2 ? 0.5 * X0[i] : 0);
  }
  double t2 = X0[0] > 0 ? X0[2] : BC[2], t3 = X0[1] < 0 ? X0[3] : BC[3]; /* bc_2 and x_3 at the point */
  want[4] += t2, want[5] += t3, want[3] += X0[5];
  want[8] += BC[1] + X0[1], want[1] += X0[8]; /* the views: bc, then x */
  Model m = {0, 1}, dm = {0, 0};
  __parad_autodiff((void *)f, X0, dx, parad_const, BC, &m, &dm);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], want[k], 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    Model tm = {0, 0};
    CHECK_CLOSE(__parad_fwddiff((void *)f, X0, e, parad_const, BC, &m, &tm), want[k], 1e-12);
    CHECK_CLOSE(fd_central(along, &k, 0, 1e-6), want[k], 1e-7);
  }
  return check_done();
}
