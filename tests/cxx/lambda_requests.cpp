// Derivative requests naming a lambda without captures, converted to a function pointer in the call
// (`+[](...) {...}` and a cast to the function type), and a generic lambda instantiated by that cast:
//   f(t)    = t^2 sin t                      (unary +)
//   g(x, y) = x^3 y + exp(x y)               (cast; reverse with two active scalars through Enzyme's
//                                            template spelling; forward per direction)
//   h(v)    = sum_i v_i^2 / (1 + v_i^2)      (generic lambda `[](auto *v)`, cast to double (*)(const double *))
// against analytic derivatives (1e-12), themselves checked against central finite differences (1e-6),
// both modes, at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "parad.h"
#include "check.h"

typedef double (*Binary)(double, double);
typedef double (*OfArray)(const double *);
struct Pair {
  double dx, dy;
};

static double f(double t) { return t * t * std::sin(t); }
static double g(double x, double y) { return x * x * x * y + std::exp(x * y); }
static double h(const double *v) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += v[i] * v[i] / (1 + v[i] * v[i]);
  return s;
}

int main() {
  double t = 0.8, x = 0.6, y = -1.1, v[3] = {0.5, -1.5, 2.0};
  double df = 2 * t * std::sin(t) + t * t * std::cos(t);
  double dgx = 3 * x * x * y + y * std::exp(x * y), dgy = x * x * x + x * std::exp(x * y);
  double dh[3];
  for (int i = 0; i < 3; i++) dh[i] = 2 * v[i] / ((1 + v[i] * v[i]) * (1 + v[i] * v[i]));
  CHECK_CLOSE((f(t + 1e-5) - f(t - 1e-5)) / 2e-5, df, 1e-6);
  CHECK_CLOSE((g(x + 1e-5, y) - g(x - 1e-5, y)) / 2e-5, dgx, 1e-6);
  CHECK_CLOSE((g(x, y + 1e-5) - g(x, y - 1e-5)) / 2e-5, dgy, 1e-6);
  for (int i = 0; i < 3; i++) {
    double p[3] = {v[0], v[1], v[2]}, m[3] = {v[0], v[1], v[2]};
    p[i] += 1e-5, m[i] -= 1e-5;
    CHECK_CLOSE((h(p) - h(m)) / 2e-5, dh[i], 1e-6);
  }

  CHECK_CLOSE(__parad_autodiff((void *)+[](double s) { return s * s * std::sin(s); }, t), df, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)+[](double s) { return s * s * std::sin(s); }, t, 1.0), df, 1e-12);

  Pair r = __enzyme_autodiff<Pair>((void *)(Binary)[](double a, double b) { return a * a * a * b + std::exp(a * b); }, x, y);
  CHECK_CLOSE(r.dx, dgx, 1e-12);
  CHECK_CLOSE(r.dy, dgy, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)(Binary)[](double a, double b) { return a * a * a * b + std::exp(a * b); }, x, 1.0, y, 0.0), dgx, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)(Binary)[](double a, double b) { return a * a * a * b + std::exp(a * b); }, x, 0.0, y, 1.0), dgy, 1e-12);

  auto squash = [](auto *w) {
    double s = 0;
    for (int i = 0; i < 3; i++) s += w[i] * w[i] / (1 + w[i] * w[i]);
    return s;
  };
  double d[3] = {0, 0, 0};
  __parad_autodiff((void *)(OfArray)squash, v, d);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(d[i], dh[i], 1e-12);
  for (int i = 0; i < 3; i++) {
    double e[3] = {0, 0, 0};
    e[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)(OfArray)squash, v, e), dh[i], 1e-12);
  }
  return check_done();
}
