// The std:: overloads of <cmath> for double and float, both modes: one function template per operation,
// of x = (a, b, c) = (0.7, 1.3, -0.4), instantiated for T = double and T = float:
//   b sin a, b cos a, b tan a, b exp a, b log a, b log1p a, b expm1 a, b sqrt a, b cbrt a, pow(a, b),
//   b pow(a, 3) (double^int), c hypot(a, b), atan2(a, b), b fabs c, b fmin(a, c), b fmax(a, c), b tanh a,
//   b asinh a, b erf a, b exp2 a, b log2 a, b log10 a, c fma(a, b, c).
// double: gradient against the analytic one (1e-12), the analytic one against central finite differences
// (h = 1e-5, 1e-6), forward tangents along each unit direction against the analytic gradient (1e-12).
// float: gradient and forward tangents (a float-returning request) against central finite differences of
// the double instantiation at the float point (h = 1e-5, 1e-4 relative). At -O2 and -O0. A failure
// prints the line of the CHECK_OP that names the operation.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "parad.h"
#include "check.h"

extern "C" float __parad_fwddiff_f(void *, ...);

#define OP(name, expr, g0, g1, g2)                                         \
  template <typename T> static T name(const T *x) {                        \
    const T a = x[0], b = x[1], c = x[2];                                  \
    (void)a, (void)b, (void)c;                                             \
    return expr;                                                           \
  }                                                                        \
  static void name##_grad(const double *x, double *g) {                    \
    const double a = x[0], b = x[1], c = x[2];                             \
    (void)a, (void)b, (void)c;                                             \
    g[0] = g0, g[1] = g1, g[2] = g2;                                       \
  }

static const double LN2 = 0.69314718055994530942, LN10 = 2.30258509299404568402, PI = 3.14159265358979323846;

OP(op_sin, b * std::sin(a), b * std::cos(a), std::sin(a), 0)
OP(op_cos, b * std::cos(a), -b * std::sin(a), std::cos(a), 0)
OP(op_tan, b * std::tan(a), b / (std::cos(a) * std::cos(a)), std::tan(a), 0)
OP(op_exp, b * std::exp(a), b * std::exp(a), std::exp(a), 0)
OP(op_log, b * std::log(a), b / a, std::log(a), 0)
OP(op_log1p, b * std::log1p(a), b / (1 + a), std::log1p(a), 0)
OP(op_expm1, b * std::expm1(a), b * std::exp(a), std::expm1(a), 0)
OP(op_sqrt, b * std::sqrt(a), b / (2 * std::sqrt(a)), std::sqrt(a), 0)
OP(op_cbrt, b * std::cbrt(a), b / (3 * std::cbrt(a) * std::cbrt(a)), std::cbrt(a), 0)
OP(op_pow, std::pow(a, b), b * std::pow(a, b - 1), std::pow(a, b) * std::log(a), 0)
OP(op_powi, b * T(std::pow(a, 3)), 3 * b * a * a, a * a * a, 0)
OP(op_hypot, c * std::hypot(a, b), c * a / std::hypot(a, b), c * b / std::hypot(a, b), std::hypot(a, b))
OP(op_atan2, std::atan2(a, b), b / (a * a + b * b), -a / (a * a + b * b), 0)
OP(op_fabs, b * std::fabs(c), 0, std::fabs(c), c < 0 ? -b : b)
OP(op_fmin, b * std::fmin(a, c), 0, c, b) /* c < a at the point */
OP(op_fmax, b * std::fmax(a, c), b, a, 0)
OP(op_tanh, b * std::tanh(a), b * (1 - std::tanh(a) * std::tanh(a)), std::tanh(a), 0)
OP(op_asinh, b * std::asinh(a), b / std::sqrt(1 + a * a), std::asinh(a), 0)
OP(op_erf, b * std::erf(a), b * 2 / std::sqrt(PI) * std::exp(-a * a), std::erf(a), 0)
OP(op_exp2, b * std::exp2(a), b * LN2 * std::exp2(a), std::exp2(a), 0)
OP(op_log2, b * std::log2(a), b / (a * LN2), std::log2(a), 0)
OP(op_log10, b * std::log10(a), b / (a * LN10), std::log10(a), 0)
OP(op_fma, c * std::fma(a, b, c), b * c, a * c, a * b + 2 * c)

static double central(double (*f)(const double *), const double *x, int i) {
  double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, h = 1e-5;
  xp[i] += h, xm[i] -= h;
  return (f(xp) - f(xm)) / (2 * h);
}

#define CHECK_OP(name)                                                                        \
  do {                                                                                        \
    double g[3], dx[3] = {0, 0, 0};                                                           \
    name##_grad(x, g);                                                                        \
    for (int i = 0; i < 3; i++) CHECK_CLOSE(central(name<double>, x, i), g[i], 1e-6);        \
    __parad_autodiff((void *)name<double>, x, dx);                                            \
    for (int i = 0; i < 3; i++) CHECK_CLOSE(dx[i], g[i], 1e-12);                              \
    for (int i = 0; i < 3; i++) {                                                             \
      double v[3] = {0, 0, 0};                                                                \
      v[i] = 1;                                                                               \
      CHECK_CLOSE(__parad_fwddiff((void *)name<double>, x, v), g[i], 1e-12);                 \
    }                                                                                         \
    float xf[3] = {(float)x[0], (float)x[1], (float)x[2]}, dxf[3] = {0, 0, 0};                \
    double xd[3] = {xf[0], xf[1], xf[2]};                                                     \
    __parad_autodiff((void *)name<float>, xf, dxf);                                           \
    for (int i = 0; i < 3; i++) {                                                             \
      float v[3] = {0, 0, 0};                                                                 \
      v[i] = 1;                                                                               \
      double want = central(name<double>, xd, i);                                             \
      CHECK_CLOSE(dxf[i], want, 1e-4);                                                        \
      CHECK_CLOSE(__parad_fwddiff_f((void *)name<float>, xf, v), want, 1e-4);                 \
    }                                                                                         \
  } while (0)

int main() {
  const double x[3] = {0.7, 1.3, -0.4};
  CHECK_OP(op_sin);
  CHECK_OP(op_cos);
  CHECK_OP(op_tan);
  CHECK_OP(op_exp);
  CHECK_OP(op_log);
  CHECK_OP(op_log1p);
  CHECK_OP(op_expm1);
  CHECK_OP(op_sqrt);
  CHECK_OP(op_cbrt);
  CHECK_OP(op_pow);
  CHECK_OP(op_powi);
  CHECK_OP(op_hypot);
  CHECK_OP(op_atan2);
  CHECK_OP(op_fabs);
  CHECK_OP(op_fmin);
  CHECK_OP(op_fmax);
  CHECK_OP(op_tanh);
  CHECK_OP(op_asinh);
  CHECK_OP(op_erf);
  CHECK_OP(op_exp2);
  CHECK_OP(op_log2);
  CHECK_OP(op_log10);
  CHECK_OP(op_fma);
  return check_done();
}
