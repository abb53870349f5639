// csqrt where its argument lies on an axis: smooth on the real axis away from 0, but the textbook formula
// sqrt((|z| + a)/2) + i copysign(sqrt((|z| - a)/2), b) takes a square root of 0 there, whose infinite
// derivative times 0 gave NaN gradients (and NaN tangents of the imaginary part) in both modes; a 2 x 2
// eigenvalue problem written with csqrt(tr^2 - 4 det + 0i) had a NaN gradient whenever its eigenvalues were
// real. Now Kahan's form (ad/body.c). w = sqrt(z), z = a + b i; dw/dz = 1/(2w) = c + d i, so by
// Cauchy-Riemann d Re w = (c, -d) and d Im w = (d, c) in (a, b).
//   J(x) = Re w + 3 Im w + Re w Im w, its gradient from 1/(2w) (analytic, 1e-12) and tangents (1e-12), at
//   z = 2, -2 (b = +0: the branch taken from above), 0.5 + 0.7i, -0.3 - 1.1i, 3i, -2.5i; and against central
//   differences along a (h 1e-6, 1e-7) everywhere, along b off the negative real axis (its branch cut).
//   eigen(x): the larger eigenvalue's real part of [[x0, x1], [x2, x3]] by the quadratic formula in complex
//   arithmetic, at a matrix with real eigenvalues and at one with complex ones (differences, 1e-7).
//   The same J in single precision at z = 2 (analytic, 1e-5).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O2 -ffast-math -I%S/../include %s -o %tf -lm && %tf
#include <complex.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

/* a + b i with b's sign kept (glibc defines CMPLX for GCC only) */
static double complex cx(double a, double b) {
  double complex z;
  __real__ z = a, __imag__ z = b;
  return z;
}

static double J(const double *x) {
  double complex w = csqrt(cx(x[0], x[1]));
  return creal(w) + 3 * cimag(w) + creal(w) * cimag(w);
}

static double eigen(const double *x) {
  double tr = x[0] + x[3], det = x[0] * x[3] - x[1] * x[2];
  return creal((tr + csqrt(tr * tr - 4 * det + 0.0 * I)) / 2);
}

static float Jf(const float *x) {
  float complex z;
  __real__ z = x[0], __imag__ z = x[1];
  float complex w = csqrtf(z);
  return crealf(w) + 3 * cimagf(w) + crealf(w) * cimagf(w);
}

static double difference(double (*f)(const double *), const double *x, int n, int i) {
  double xp[4], xm[4];
  for (int k = 0; k < n; k++) xp[k] = xm[k] = x[k];
  xp[i] += 1e-6, xm[i] -= 1e-6;
  return (f(xp) - f(xm)) / 2e-6;
}

int main(void) {
  const double points[][2] = {{2, 0}, {-2, 0}, {0.5, 0.7}, {-0.3, -1.1}, {0, 3}, {0, -2.5}};
  for (unsigned p = 0; p < sizeof points / sizeof points[0]; p++) {
    double x[2] = {points[p][0], points[p][1]}, g[2] = {0};
    double complex w = csqrt(cx(x[0], x[1])), dw = 1 / (2 * w);
    double c = creal(dw), d = cimag(dw), re = creal(w), im = cimag(w);
    double want[2] = {c + 3 * d + c * im + re * d, -d + 3 * c - d * im + re * c};
    __parad_autodiff((void *)J, x, g);
    for (int i = 0; i < 2; i++) {
      double v[2] = {i == 0, i == 1};
      CHECK_CLOSE(g[i], want[i], 1e-12);
      CHECK_CLOSE(__parad_fwddiff((void *)J, x, v), want[i], 1e-12);
      if (i == 0 || !(x[0] < 0 && x[1] == 0)) CHECK_CLOSE(g[i], difference(J, x, 2, i), 1e-7);
    }
  }
  const double matrices[][4] = {{2, 1, 0.5, -1}, {1, -2, 1.5, 0.5}};
  for (int m = 0; m < 2; m++) {
    double g[4] = {0};
    __parad_autodiff((void *)eigen, matrices[m], g);
    for (int i = 0; i < 4; i++) CHECK_CLOSE(g[i], difference(eigen, matrices[m], 4, i), 1e-7);
  }
  float xf[2] = {2, 0}, gf[2] = {0};
  __parad_autodiff((void *)Jf, xf, gf);
  double s = sqrt(2.0); /* w = sqrt 2, dw/dz = 1/(2 sqrt 2): d = 0 */
  CHECK_CLOSE(gf[0], 1 / (2 * s), 1e-5);               /* c + 3d + c Im w + Re w d, Im w = 0 */
  CHECK_CLOSE(gf[1], 3 / (2 * s) + s / (2 * s), 1e-5); /* -d + 3c - d Im w + Re w c */
  return check_done();
}
