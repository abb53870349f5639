// Templates as C++ code uses them: a static-polymorphism base (CRTP) whose interface calls the derived
// class's kernel, a compile-time power by template recursion, a function template instantiated for float
// and double, and a non-virtual base class with a protected helper. E(x) = sum_i [k(x_i) + pow<3>(x_i) / 3]
// with k the derived kernel (log(1 + x^2) or a softplus). Gradients against the analytic ones (1e-12 in
// double, 1e-5 in float) and tangents against the gradient, at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "parad.h"
#include "check.h"

template <int K> struct Pow {
  template <typename T> static T of(T x) { return x * Pow<K - 1>::of(x); }
};
template <> struct Pow<0> {
  template <typename T> static T of(T) { return T(1); }
};

class Scaled {
 protected:
  double scale(double v) const { return factor_ * v; }
  double factor_ = 1.5;
};

template <typename Derived> struct Energy : Scaled {
  double total(const double *x, int n) const {
    double e = 0;
    for (int i = 0; i < n; i++) e += scale(static_cast<const Derived *>(this)->kernel(x[i])) + Pow<3>::of(x[i]) / 3;
    return e;
  }
};

struct LogKernel : Energy<LogKernel> {
  double kernel(double v) const { return std::log(1 + v * v); }
};
struct SoftPlus : Energy<SoftPlus> {
  double kernel(double v) const { return std::log1p(std::exp(v)); }
};

static double e_log(const double *x, int n) { return LogKernel().total(x, n); }
static double e_soft(const double *x, int n) { return SoftPlus().total(x, n); }

template <typename T> static T sum_cubes(const T *x, int n) {
  T s = 0;
  for (int i = 0; i < n; i++) s += Pow<3>::of(x[i]);
  return s;
}
static float cubes_f(const float *x, int n) { return sum_cubes(x, n); }
static double cubes_d(const double *x, int n) { return sum_cubes(x, n); }

enum { N = 6 };

int main() {
  double x[N], dl[N] = {0}, ds[N] = {0}, dd[N] = {0};
  float xf[N], df[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.4 * i - 1.0, xf[i] = (float)x[i];
  __parad_autodiff((void *)e_log, x, dl, parad_const, N);
  __parad_autodiff((void *)e_soft, x, ds, parad_const, N);
  __parad_autodiff((void *)cubes_d, x, dd, parad_const, N);
  __parad_autodiff((void *)cubes_f, xf, df, parad_const, N);
  for (int i = 0; i < N; i++) {
    double v = x[i], sig = 1 / (1 + std::exp(-v));
    CHECK_CLOSE(dl[i], 1.5 * 2 * v / (1 + v * v) + v * v, 1e-12);
    CHECK_CLOSE(ds[i], 1.5 * sig + v * v, 1e-12);
    CHECK_CLOSE(dd[i], 3 * v * v, 1e-12);
    CHECK_CLOSE(df[i], 3 * xf[i] * xf[i], 1e-5);
    double t[N] = {0};
    t[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)e_soft, x, t, parad_const, N), ds[i], 1e-12);
  }
  return check_done();
}
