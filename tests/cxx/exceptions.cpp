// C++ compiled with exceptions on: calls that may throw are invokes whose landing pads run destructors.
// Parad differentiates the path on which nothing throws (ad/nounwind.h): RAII buffers (new[] in the
// constructor, delete[] in the destructor) around calls of a function that is not inlined, a request
// made inside a scope with std::vector objects (the request itself an invoke), std::vector storage in the
// differentiated code (-O2), and a function with a throw that is not taken. Gradients against the
// analytic ones (1e-12), forward tangents against the gradients (1e-12), at -O2 and (without the
// std::vector part) -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -DNO_VECTOR -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <stdexcept>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 6 };

struct Buffer {
  double *data;
  explicit Buffer(int n) : data(new double[n]) {}
  ~Buffer() { delete[] data; }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

__attribute__((noinline)) static double work(const double *x, double *y) {
  double s = 0;
  for (int i = 0; i < N; i++) y[i] = std::exp(0.1 * x[i]), s += y[i] * x[i];
  return s;
}

/* s = sum e^{0.1 x} x + sum e^{0.1 e^{0.1 x}} e^{0.1 x} */
static double raii(const double *x) {
  Buffer a(N), b(N);
  double s = work(x, a.data);
  return s + work(a.data, b.data);
}

static double checked(const double *x) {
  if (x[0] > 1e6) throw std::out_of_range("x[0] too large");
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[i] * x[i];
  return s;
}

#ifndef NO_VECTOR
static double with_vector(const double *x) {
  std::vector<double> v(x, x + N);
  v.push_back(x[0] * x[1]);
  double s = 0;
  for (double e : v) s += std::sin(e);
  return s;
}
#endif

int main() {
  std::vector<double> x(N), dx(N, 0.0); /* destroyed on the unwind path of every request below */
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.3 * i;
  __parad_autodiff((void *)raii, x.data(), dx.data());
  for (int i = 0; i < N; i++) {
    double e = std::exp(0.1 * x[i]), f = std::exp(0.1 * e);
    double want = e * (1 + 0.1 * x[i]) + (0.1 * e) * (0.1 * f * e + f);
    CHECK_CLOSE(dx[i], want, 1e-12);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)raii, x.data(), v), want, 1e-12);
  }
  std::fill(dx.begin(), dx.end(), 0.0);
  __parad_autodiff((void *)checked, x.data(), dx.data());
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 3 * x[i] * x[i], 1e-12);
#ifndef NO_VECTOR
  std::fill(dx.begin(), dx.end(), 0.0);
  __parad_autodiff((void *)with_vector, x.data(), dx.data());
  for (int i = 0; i < N; i++) {
    double want = std::cos(x[i]) + std::cos(x[0] * x[1]) * (i == 0 ? x[1] : i == 1 ? x[0] : 0);
    CHECK_CLOSE(dx[i], want, 1e-12);
  }
#endif
  return check_done();
}
