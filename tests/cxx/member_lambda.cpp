// Member functions reached through a captureless lambda converted to a function pointer
// (+[](const double *x, const Model *m) { return m->f(x); }) and through a static member function, both
// modes. Model::f (const) = a sin(x0) x1 + b x1^2 x2; Model::s (static) = f(x) + exp(x0 x2);
// Model::update (non-const) stores c = exp(a x0) cos(x1) in the member cache_ and returns
// c x2 + c^2, the c^2 read back from cache_ by a member that is not inlined. The mutating member is called
// with the object duplicated (a shadow Model beside it): the gradient with the shadow's cache seeded 0.5
// (an output through the member) is df/dx + 0.5 dc/dx, and the forward tangent of cache_ arrives in the
// shadow. Gradients against the analytic ones (1e-12), which are themselves checked against central
// finite differences (h = 1e-5, 1e-6); tangents against the analytic gradient along unit directions and
// one mixed direction (1e-12), at -O2 and -O0. The lambdas are held in constexpr pointers: a request whose
// function is a lambda converted in the call itself is refused today (it names no function).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "parad.h"
#include "check.h"

enum { N = 3 };

class Model {
 public:
  Model(double a, double b) : a_(a), b_(b), cache_(0), evaluations_(0) {}
  double f(const double *x) const { return a_ * std::sin(x[0]) * x[1] + b_ * x[1] * x[1] * x[2]; }
  static double s(const double *x, const Model *m) { return m->f(x) + std::exp(x[0] * x[2]); }
  double update(const double *x) {
    cache_ = std::exp(a_ * x[0]) * std::cos(x[1]);
    evaluations_++;
    return cache_ * x[2] + cached_square();
  }
  __attribute__((noinline)) double cached_square() const { return cache_ * cache_; }
  double cache() const { return cache_; }
  void set_cache(double c) { cache_ = c; }
  int evaluations() const { return evaluations_; }
  double a() const { return a_; }
  double b() const { return b_; }

 private:
  double a_, b_, cache_;
  int evaluations_;
};

template <typename F> static double central(F f, const double *x, int i) {
  double xp[N], xm[N], h = 1e-5;
  for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
  xp[i] += h, xm[i] -= h;
  return (f(xp) - f(xm)) / (2 * h);
}

int main() {
  Model m(1.3, -0.7);
  const double x[N] = {0.4, -0.9, 1.1};
  const double a = m.a(), b = m.b();
  /* analytic gradients */
  double gf[N] = {a * std::cos(x[0]) * x[1], a * std::sin(x[0]) + 2 * b * x[1] * x[2], b * x[1] * x[1]};
  double e02 = std::exp(x[0] * x[2]);
  double gs[N] = {gf[0] + x[2] * e02, gf[1], gf[2] + x[0] * e02};
  double c = std::exp(a * x[0]) * std::cos(x[1]);
  double gc[N] = {a * c, -std::exp(a * x[0]) * std::sin(x[1]), 0}; /* dc/dx */
  double gu[N] = {gc[0] * (x[2] + 2 * c), gc[1] * (x[2] + 2 * c), c};
  /* the analytic formulas against finite differences */
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(central([&](const double *p) { return m.f(p); }, x, i), gf[i], 1e-6);
    CHECK_CLOSE(central([&](const double *p) { return Model::s(p, &m); }, x, i), gs[i], 1e-6);
    Model tmp(a, b);
    CHECK_CLOSE(central([&](const double *p) { return tmp.update(p); }, x, i), gu[i], 1e-6);
    CHECK_CLOSE(central([&](const double *p) { tmp.update(p); return tmp.cache(); }, x, i), gc[i], 1e-6);
  }

  /* const member through a captureless lambda converted to a function pointer (a constant: a request
     names its function; the lambda converted in the request itself is refused, see below) */
  static constexpr double (*lf)(const double *, const Model *) = +[](const double *p, const Model *mm) { return mm->f(p); };
  double dx[N] = {0};
  __parad_autodiff((void *)lf, x, dx, parad_const, &m);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], gf[i], 1e-12);
  /* the same lambda held in a function pointer, forward mode */
  static constexpr double (*fp)(const double *, const Model *) = +[](const double *p, const Model *mm) { return mm->f(p); };
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)fp, x, v, parad_const, &m), gf[i], 1e-12);
  }
  double vmix[N] = {0.5, -1.0, 2.0};
  CHECK_CLOSE(__parad_fwddiff((void *)fp, x, vmix, parad_const, &m), 0.5 * gf[0] - gf[1] + 2 * gf[2], 1e-12);

  /* static member function */
  double ds[N] = {0};
  __parad_autodiff((void *)&Model::s, x, ds, parad_const, &m);
  for (int i = 0; i < N; i++) CHECK_CLOSE(ds[i], gs[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)&Model::s, x, v, parad_const, &m), gs[i], 1e-12);
  }

  /* non-const member that writes and reads back a cached field: object and shadow object */
  static constexpr auto upd = +[](const double *p, Model *mm) { return mm->update(p); };
  Model w(a, b), dw(0, 0);
  double du[N] = {0};
  __parad_autodiff((void *)upd, x, du, &w, &dw);
  for (int i = 0; i < N; i++) CHECK_CLOSE(du[i], gu[i], 1e-12);
  CHECK_CLOSE(w.cache(), c, 1e-15);            /* the primal side effect happened */
  CHECK_CLOSE(w.evaluations(), 1, 0);
  /* the cached field as an output too: its seed in the shadow */
  Model w2(a, b), dw2(0, 0);
  dw2.set_cache(0.5);
  double du2[N] = {0};
  __parad_autodiff((void *)upd, x, du2, &w2, &dw2);
  for (int i = 0; i < N; i++) CHECK_CLOSE(du2[i], gu[i] + 0.5 * gc[i], 1e-12);
  /* forward: the tangent of the result, and the tangent of cache_ in the shadow object */
  for (int i = 0; i < N; i++) {
    Model t(a, b), dt(0, 0);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)upd, x, v, &t, &dt), gu[i], 1e-12);
    CHECK_CLOSE(dt.cache(), gc[i], 1e-12);
    CHECK_CLOSE(t.cache(), c, 1e-15);
  }
  return check_done();
}
