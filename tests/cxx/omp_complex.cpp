// std::complex<double> arithmetic in a 'parallel for' whose reduction is on two doubles, the real and the
// imaginary part of a complex sum: discrete Fourier coefficients of h(z_m), z_m = x_{2m} + i x_{2m+1},
//   X_k = sum_m h(z_m) e^{-2 pi i k m / n},  h(z) = z e^{0.2 z} + z / (2 + 0.3 z),  J(x) = sum_{k=1..3} |X_k|.
// X_k is holomorphic in each z_m, with dX_k/dz_m = h'(z_m) c_km, h'(z) = (1 + 0.2 z) e^{0.2 z} + 2 / (2 + 0.3 z)^2,
// so dJ/dx_{2m} = sum_k Re(conj(X_k) h'(z_m) c_km) / |X_k| and dJ/dx_{2m+1} = sum_k Re(conj(X_k) i h'(z_m) c_km) / |X_k|.
// Gradient against this analytic form (tolerance 1e-12) and central finite differences (h = 1e-6, 1e-7);
// forward tangents along every unit direction against the gradient (1e-12), at 1, 2 and 4 threads at -O2,
// at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include <complex>
#include "parad.h"
#include "check.h"

typedef std::complex<double> cplx;
enum { NZ = 16, M = 2 * NZ, K = 3 };
static const double PI = 3.14159265358979323846;

static cplx h(cplx z) { return z * std::exp(0.2 * z) + z / (2.0 + 0.3 * z); }
static cplx hprime(cplx z) { return (1.0 + 0.2 * z) * std::exp(0.2 * z) + 2.0 / ((2.0 + 0.3 * z) * (2.0 + 0.3 * z)); }

__attribute__((noinline)) static double spectrum(const double *x, int n) {
  double J = 0;
  for (int k = 1; k <= K; k++) {
    double re = 0, im = 0;
#pragma omp parallel for reduction(+ : re, im)
    for (int m = 0; m < n; m++) {
      cplx z(x[2 * m], x[2 * m + 1]);
      cplx t = h(z) * std::polar(1.0, -2 * PI * k * m / n);
      re += t.real();
      im += t.imag();
    }
    J += std::abs(cplx(re, im));
  }
  return J;
}

static double X0[M];

static double along(void *ctx, double d) {
  int q = *(int *)ctx;
  double x[M];
  for (int i = 0; i < M; i++) x[i] = X0[i] + (i == q) * d;
  return spectrum(x, NZ);
}

int main() {
  double x[M], dx[M] = {0}, want[M] = {0};
  for (int i = 0; i < M; i++) X0[i] = x[i] = 0.6 * std::sin(0.7 * i + 0.3) + 0.05 * i;
  for (int k = 1; k <= K; k++) {
    cplx X = 0;
    for (int m = 0; m < NZ; m++) X += h(cplx(x[2 * m], x[2 * m + 1])) * std::polar(1.0, -2 * PI * k * m / NZ);
    for (int m = 0; m < NZ; m++) {
      cplx g = hprime(cplx(x[2 * m], x[2 * m + 1])) * std::polar(1.0, -2 * PI * k * m / NZ);
      want[2 * m] += (std::conj(X) * g).real() / std::abs(X);
      want[2 * m + 1] += (std::conj(X) * cplx(0, 1) * g).real() / std::abs(X);
    }
  }
  __parad_autodiff((void *)spectrum, x, dx, parad_const, (int)NZ);
  for (int q = 0; q < M; q++) {
    CHECK_CLOSE(dx[q], want[q], 1e-12);
    CHECK_CLOSE(dx[q], fd_central(along, &q, 0, 1e-6), 1e-7);
    double v[M] = {0};
    v[q] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)spectrum, x, v, parad_const, (int)NZ), dx[q], 1e-12);
  }
  return check_done();
}
