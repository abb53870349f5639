// std::unique_ptr in differentiated code, both modes. inside(x): a std::unique_ptr<double[]> from
// std::make_unique<double[]> (w_i = x_i^2) and a std::unique_ptr<Body> from std::make_unique, both
// temporaries of the function, ownership moved with std::move into another local and, by value, into a
// function that is not inlined and frees the object:
//   E = (x0 x1)^2 + x2^4 + e^{2 x3} + sum_i cos(x_i^2) + x3^2 x0 + 2 sin(x0 x1) x2^2 + e^{x3}.
// passed(u, p): references to a std::unique_ptr<double[]> and a std::unique_ptr<Body> made by the caller,
// with shadows that are unique_ptrs the caller made too: E = m sum_i u_i q_{i mod 3} + log(1 + u0^2).
// Gradients against the analytic ones (1e-12), which are checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents against the analytic gradient along unit directions and a mixed one
// (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <memory>
#include <utility>
#include "parad.h"
#include "check.h"

enum { N = 4 };

struct Body {
  double q[3];
  double m;
  Body(double a, double b, double c, double mass) : q{a, b, c}, m(mass) {}
  double energy() const { return 0.5 * m * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]); }
};

__attribute__((noinline)) static double consume(std::unique_ptr<Body> b) { return b->m * std::sin(b->q[0]) * b->q[1] + b->q[2]; }

static double inside(const double *x) {
  auto w = std::make_unique<double[]>(N);
  for (int i = 0; i < N; i++) w[i] = x[i] * x[i];
  auto b = std::make_unique<Body>(x[0] * x[1], w[2], std::exp(x[3]), 2.0);
  std::unique_ptr<Body> owner = std::move(b); /* b is empty from here */
  double e = owner->energy();
  double rest = 0;
  for (int i = 0; i < N; i++) rest += std::cos(w[i]);
  std::unique_ptr<double[]> w2 = std::move(w);
  e += w2[N - 1] * x[0];
  e += consume(std::move(owner));
  return e + rest + (b ? 1.0 : 0.0) + (owner ? 1.0 : 0.0);
}

static double passed(const std::unique_ptr<double[]> &u, const std::unique_ptr<Body> &p) {
  double s = 0;
  for (int i = 0; i < N; i++) s += u[i] * p->q[i % 3];
  return s * p->m + std::log(1 + u[0] * u[0]);
}

static void inside_gradient(const double *x, double *g) {
  double p = x[0] * x[1];
  g[0] = 2 * x[0] * x[1] * x[1] - 2 * x[0] * std::sin(x[0] * x[0]) + x[3] * x[3] + 2 * std::cos(p) * x[1] * x[2] * x[2];
  g[1] = 2 * x[0] * x[0] * x[1] - 2 * x[1] * std::sin(x[1] * x[1]) + 2 * std::cos(p) * x[0] * x[2] * x[2];
  g[2] = 4 * x[2] * x[2] * x[2] - 2 * x[2] * std::sin(x[2] * x[2]) + 4 * std::sin(p) * x[2];
  g[3] = 2 * std::exp(2 * x[3]) - 2 * x[3] * std::sin(x[3] * x[3]) + 2 * x[3] * x[0] + std::exp(x[3]);
}

int main() {
  const double x[N] = {0.6, -0.8, 0.9, 0.3};
  double want[N];
  inside_gradient(x, want);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((inside(xp) - inside(xm)) / (2 * h), want[i], 1e-6);
  }
  double dx[N] = {0};
  __parad_autodiff((void *)inside, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)inside, x, v), want[i], 1e-12);
  }
  double vmix[N] = {1, -2, 0.5, 3};
  CHECK_CLOSE(__parad_fwddiff((void *)inside, x, vmix), want[0] - 2 * want[1] + 0.5 * want[2] + 3 * want[3], 1e-12);

  /* arguments: unique_ptrs made by the caller, shadows made by the caller */
  auto u = std::make_unique<double[]>(N);
  for (int i = 0; i < N; i++) u[i] = 0.2 + 0.3 * i - 0.1 * i * i;
  auto body = std::make_unique<Body>(0.7, -1.1, 0.4, 1.8);
  std::unique_ptr<Body> p = std::move(body); /* ownership moved by the caller before the request */
  double wu[N], wq[3] = {0, 0, 0}, s = 0;
  for (int i = 0; i < N; i++) {
    wu[i] = p->m * p->q[i % 3] + (i == 0 ? 2 * u[0] / (1 + u[0] * u[0]) : 0);
    wq[i % 3] += p->m * u[i];
    s += u[i] * p->q[i % 3];
  }
  double wm = s;
  { /* the analytic gradient against finite differences */
    double h = 1e-5, keep = u[2];
    u[2] = keep + h;
    double fp = passed(u, p);
    u[2] = keep - h;
    double fm = passed(u, p);
    u[2] = keep;
    CHECK_CLOSE((fp - fm) / (2 * h), wu[2], 1e-6);
    keep = p->m;
    p->m = keep + h, fp = passed(u, p);
    p->m = keep - h, fm = passed(u, p);
    p->m = keep;
    CHECK_CLOSE((fp - fm) / (2 * h), wm, 1e-6);
  }
  auto du = std::make_unique<double[]>(N);
  auto dp = std::make_unique<Body>(0, 0, 0, 0);
  __parad_autodiff((void *)passed, &u, &du, &p, &dp);
  for (int i = 0; i < N; i++) CHECK_CLOSE(du[i], wu[i], 1e-12);
  for (int j = 0; j < 3; j++) CHECK_CLOSE(dp->q[j], wq[j], 1e-12);
  CHECK_CLOSE(dp->m, wm, 1e-12);
  /* forward: a tangent in every input at once */
  auto tu = std::make_unique<double[]>(N);
  auto tp = std::make_unique<Body>(0.5, -1.0, 2.0, 0.25);
  double want_t = 0.5 * wq[0] - 1.0 * wq[1] + 2.0 * wq[2] + 0.25 * wm;
  for (int i = 0; i < N; i++) tu[i] = 1.0 - 0.4 * i, want_t += tu[i] * wu[i];
  CHECK_CLOSE(__parad_fwddiff((void *)passed, &u, &tu, &p, &tp), want_t, 1e-12);
  return check_done();
}
