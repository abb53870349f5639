// Requests made in a helper that the optimiser inlines into code with destructors to run (a std::vector
// alive in main, a try block): the usual grad() helper, a lambda, a class whose methods make requests, and
// a Hessian-vector product (forward mode over a helper whose reverse-mode request has a choice of two
// gradients, ad/apart.h). Inlined there, the request and the choice's check became invokes: the build
// failed with "undefined reference to '__parad.request.0'" or an invalid module ("Basic Block in function
// 'main' does not have terminator"). They are declared nounwind (a derivative does not throw: a throw on
// its path stops the program). Gradients and the Hessian-vector product against the analytic ones
// (1e-12), at -O1, -O2, -Os and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cxx -Os -I%S/../include %s -o %ts && %ts
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <vector>
#include "check.h"

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

static double f(const double *x) { return std::exp(x[0] * x[0]) + x[0] * x[1]; }

void grad(const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

static double scaled(const std::vector<double> *a, const double *x) { return (*a)[0] * std::exp(x[0] * x[0]); }

void scaled_grad(const std::vector<double> *a, const double *x, double *g) {
  g[0] = 0;
  __enzyme_autodiff((void *)scaled, enzyme_const, a, enzyme_dup, x, g);
}

struct Optimiser {
  std::vector<double> w;
  double step(double lr) {
    std::vector<double> g(w.size());
    grad(w.data(), g.data());
    for (size_t i = 0; i < w.size(); i++) w[i] -= lr * g[i];
    return g[0];
  }
};

int main() {
  std::vector<double> x = {0.3, 0.7}, g(2);
  double e = std::exp(0.09);
  grad(x.data(), g.data());
  CHECK_CLOSE(g[0], 2 * 0.3 * e + 0.7, 1e-12);
  CHECK_CLOSE(g[1], 0.3, 1e-12);

  std::vector<double> h(2);
  auto by_lambda = [&] { h[0] = h[1] = 0, __enzyme_autodiff((void *)f, enzyme_dup, x.data(), h.data()); };
  by_lambda();
  CHECK_CLOSE(h[0], g[0], 1e-12);

  /* the Hessian-vector product: d/dx (a e^{x^2})' = a (2 + 4 x^2) e^{x^2} */
  std::vector<double> a = {2.0};
  double y[1] = {0.3}, v[1] = {1}, gy[1], hv[1] = {0};
  __enzyme_fwddiff((void *)scaled_grad, enzyme_const, &a, enzyme_dup, y, v, enzyme_dupnoneed, gy, hv);
  scaled_grad(&a, y, gy);
  CHECK_CLOSE(gy[0], 2 * 2 * 0.3 * e, 1e-12);
  CHECK_CLOSE(hv[0], 2 * (2 + 4 * 0.09) * e, 1e-12);

  try {
    Optimiser o{{0.3, 0.7}};
    CHECK_CLOSE(o.step(0.1), 2 * 0.3 * e + 0.7, 1e-12);
    CHECK_CLOSE(o.w[1], 0.7 - 0.1 * 0.3, 1e-12);
  } catch (...) {
    CHECK_CLOSE(1, 0, 0);
  }
  return check_done();
}
