// std::complex<double> in differentiated code, both modes.
//  J(x), z = x0 + i x1, w = x2 + i x3, x = (0.6, -0.4, 1.1, 0.7):
//    a = z + w, b = z - 2 w, c = z w, d = z / w, e = w / x0, f = x1 / w, g = z x2, h = x3 - z,
//    p = polar(x0, x1),
//    J = Re(a conj b) + Im c + norm d + |e| + arg b + Re exp z + Im log w + Re sqrt c + Im(p f) + real(g h)
//    (the complex-by-real and real-by-complex forms of *, /, +, -; conj, norm, abs, arg, exp, log, sqrt,
//    polar, real, imag); gradient against central finite differences (h = 1e-5, 1e-6), forward tangents
//    along each unit direction against the gradient (1e-12).
//  M(c) = |z_5|^2 with z_0 = 0, z_{k+1} = z_k^2 + c, c = (-0.4, 0.3): gradient with respect to (Re c, Im c)
//    against the analytic one, 2 (Re(conj(z) z'), -Im(conj(z) z')) with z'_{k+1} = 2 z_k z'_k + 1 (1e-12),
//    itself checked against central finite differences (1e-6); tangents against it (1e-12).
// At -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <complex>
#include "parad.h"
#include "check.h"

using cd = std::complex<double>;

static double J(const double *x) {
  cd z(x[0], x[1]), w(x[2], x[3]);
  cd a = z + w, b = z - 2.0 * w, c = z * w, d = z / w;
  cd e = w / x[0], f = x[1] / w, g = z * x[2], h = x[3] - z;
  cd p = std::polar(x[0], x[1]);
  return std::real(a * std::conj(b)) + c.imag() + std::norm(d) + std::abs(e) + std::arg(b) + std::exp(z).real() +
         std::log(w).imag() + std::sqrt(c).real() + (p * f).imag() + std::real(g * h);
}

static double M(const double *cc) {
  cd c(cc[0], cc[1]), z(0.0, 0.0);
  for (int k = 0; k < 5; k++) z = z * z + c;
  return std::norm(z);
}

int main() {
  const double x[4] = {0.6, -0.4, 1.1, 0.7};
  double dx[4] = {0};
  __parad_autodiff((void *)J, x, dx);
  for (int i = 0; i < 4; i++) {
    double xp[4], xm[4], v[4] = {0}, h = 1e-5;
    for (int j = 0; j < 4; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h, v[i] = 1;
    double fd = (J(xp) - J(xm)) / (2 * h);
    CHECK_CLOSE(dx[i], fd, 1e-6);
    CHECK_CLOSE(__parad_fwddiff((void *)J, x, v), dx[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)J, x, v), fd, 1e-6);
  }

  const double c[2] = {-0.4, 0.3};
  cd z(0.0, 0.0), dz(0.0, 0.0), cz(c[0], c[1]);
  for (int k = 0; k < 5; k++) dz = 2.0 * z * dz + 1.0, z = z * z + cz;
  cd q = std::conj(z) * dz;
  double want[2] = {2 * q.real(), -2 * q.imag()};
  double dc[2] = {0, 0};
  __parad_autodiff((void *)M, c, dc);
  for (int i = 0; i < 2; i++) {
    double cp[2] = {c[0], c[1]}, cm[2] = {c[0], c[1]}, v[2] = {0, 0}, h = 1e-5;
    cp[i] += h, cm[i] -= h, v[i] = 1;
    CHECK_CLOSE((M(cp) - M(cm)) / (2 * h), want[i], 1e-6);
    CHECK_CLOSE(dc[i], want[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)M, c, v), want[i], 1e-12);
  }
  double vmix[2] = {0.6, -1.3};
  CHECK_CLOSE(__parad_fwddiff((void *)M, c, vmix), 0.6 * want[0] - 1.3 * want[1], 1e-12);
  return check_done();
}
