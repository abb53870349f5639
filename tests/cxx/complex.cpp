// std::complex<double> and <float>: the multiply and divide (calls of __muldc3, __divdc3, __mulsc3,
// __divsc3) and exp, abs, arg, log and sqrt (cexp, cabs, carg, clog, csqrt and their float forms, which take
// their float pair as one vector), open-coded in the code Parad differentiates (ad/body.c).
// J(x) = |z w + e^z / w|^2 + |z^2| + arg(z) + Re log(w) + Im sqrt(z), z = x0 + x1 i, w = x2 + 0.5 i; and a
// float function with a product, a quotient, exp, sqrt, log, abs and arg. Gradient and tangents against
// central finite differences (h = 1e-6, 1e-7 relative; float: h = 1e-3, 1e-3), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <complex>
#include "parad.h"
#include "check.h"

static double J(const double *x) {
  std::complex<double> z(x[0], x[1]), w(x[2], 0.5);
  std::complex<double> p = z * w + std::exp(z) / w;
  return std::norm(p) + std::abs(z * z) + std::arg(z) + std::log(w).real() + std::sqrt(z).imag();
}

static float Jf(const float *x) {
  std::complex<float> z(x[0], x[1]), w(x[2], 0.5f);
  std::complex<float> q = z * w / (w + z) + std::exp(z) + std::sqrt(w) - std::log(z);
  return q.real() * q.real() + 2 * q.imag() + std::abs(w) * std::arg(z);
}

int main() {
  double x[3] = {0.3, -0.7, 1.2}, dx[3] = {0};
  __parad_autodiff((void *)J, x, dx);
  for (int i = 0; i < 3; i++) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, v[3] = {0};
    xp[i] += 1e-6, xm[i] -= 1e-6, v[i] = 1;
    double fd = (J(xp) - J(xm)) / 2e-6;
    CHECK_CLOSE(dx[i], fd, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)J, x, v), dx[i], 1e-12);
  }
  float xf[3] = {0.3f, -0.7f, 1.2f}, dxf[3] = {0};
  __parad_autodiff((void *)Jf, xf, dxf);
  for (int i = 0; i < 3; i++) {
    float xp[3] = {xf[0], xf[1], xf[2]}, xm[3] = {xf[0], xf[1], xf[2]};
    xp[i] += 1e-3f, xm[i] -= 1e-3f;
    CHECK_CLOSE(dxf[i], (Jf(xp) - Jf(xm)) / 2e-3, 1e-3);
  }
  return check_done();
}
