// Function objects and std::function in differentiated code, both modes, x in R^5.
//  with_functors: a functor with constant members (Quadratic{1.5, -0.5}: q(t) = 1.5 t^2 - 0.5 t), a
//    stateless one (Softplus: sp(t) = log1p(e^t)), a template taking a functor by value (apply_sum) and
//    one composing two (compose): E = sum_i q(x_i) + sum_i sp(x_i) + q(sp(x0)).
//  with_functor_state: a functor whose members are active, Quadratic{x0, x1} over x2..x4:
//    E = sum_{i>=2} (x0 x_i^2 + x1 x_i).
//  with_std_function: std::function<double(double)> made inside the function from a captureless lambda,
//    from a lambda capturing an active value by copy, and from a functor; std::function<void(double)>
//    from a lambda capturing an accumulator by reference:
//    E = sum_i (x_i^2 + x0 sin x_i + 2 x_i^2 + x_i) + sum_i x_i^3.
//  apply_fn: a std::function<double(double)> made by the caller (a lambda, exp(-t^2)) passed as a
//    constant argument: E = sum_i exp(-x_i^2).
// Gradients against the analytic ones (1e-12), themselves checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents along each unit direction against them (1e-12), at -O2 and -O1.
// At -O0 reverse mode refuses a std::function holding a capturing lambda, when the derivative reaches its
// manager: libstdc++ copies the lambda with a memcpy whose types nothing says at -O0
// (std_function_copies.cpp runs forward mode at -O0).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O1 -I%S/../include %s -o %t1 && %t1
#include <cmath>
#include <functional>
#include "parad.h"
#include "check.h"

enum { N = 5 };

struct Quadratic {
  double a, b;
  double operator()(double t) const { return a * t * t + b * t; }
};

struct Softplus {
  double operator()(double t) const { return std::log1p(std::exp(t)); }
};

template <typename F> static double apply_sum(F f, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += f(x[i]);
  return s;
}

template <typename F, typename G> static double compose(const F &f, const G &g, double t) { return f(g(t)); }

static double with_functors(const double *x) {
  Quadratic q{1.5, -0.5};
  Softplus sp;
  return apply_sum(q, x, N) + apply_sum(sp, x, N) + compose(q, sp, x[0]);
}

static double with_functor_state(const double *x) {
  Quadratic q{x[0], x[1]};
  return apply_sum(q, x + 2, N - 2);
}

static double with_std_function(const double *x) {
  double scale = x[0], acc = 0, s = 0;
  std::function<double(double)> sq = [](double t) { return t * t; };
  std::function<double(double)> scaled = [scale](double t) { return scale * std::sin(t); };
  std::function<double(double)> fq = Quadratic{2.0, 1.0};
  std::function<void(double)> add = [&acc](double t) { acc += t * t * t; };
  for (int i = 0; i < N; i++) {
    s += sq(x[i]) + scaled(x[i]) + fq(x[i]);
    add(x[i]);
  }
  return s + acc;
}

static double apply_fn(const double *x, const std::function<double(double)> &f) {
  double s = 0;
  for (int i = 0; i < N; i++) s += f(x[i]);
  return s;
}

static void check_gradient(double (*f)(const double *), const double *x, const double *want) {
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((f(xp) - f(xm)) / (2 * h), want[i], 1e-6);
  }
}

int main() {
  const double x[N] = {0.4, -0.7, 1.2, 0.3, -1.1};
  auto sigma = [](double t) { return 1 / (1 + std::exp(-t)); };

  double w1[N];
  for (int i = 0; i < N; i++) w1[i] = 3 * x[i] - 0.5 + sigma(x[i]);
  w1[0] += (3 * std::log1p(std::exp(x[0])) - 0.5) * sigma(x[0]);
  check_gradient(with_functors, x, w1);
  double d1[N] = {0};
  __parad_autodiff((void *)with_functors, x, d1);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d1[i], w1[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)with_functors, x, v), w1[i], 1e-12);
  }

  double w2[N] = {0};
  for (int i = 2; i < N; i++) w2[0] += x[i] * x[i], w2[1] += x[i], w2[i] = 2 * x[0] * x[i] + x[1];
  check_gradient(with_functor_state, x, w2);
  double d2[N] = {0};
  __parad_autodiff((void *)with_functor_state, x, d2);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d2[i], w2[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)with_functor_state, x, v), w2[i], 1e-12);
  }

  double w3[N];
  for (int i = 0; i < N; i++) w3[i] = 2 * x[i] + x[0] * std::cos(x[i]) + 4 * x[i] + 1 + 3 * x[i] * x[i];
  for (int i = 0; i < N; i++) w3[0] += std::sin(x[i]);
  check_gradient(with_std_function, x, w3);
  double d3[N] = {0};
  __parad_autodiff((void *)with_std_function, x, d3);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d3[i], w3[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)with_std_function, x, v), w3[i], 1e-12);
  }

  std::function<double(double)> bump = [](double t) { return std::exp(-t * t); };
  double w4[N], d4[N] = {0};
  for (int i = 0; i < N; i++) {
    w4[i] = -2 * x[i] * std::exp(-x[i] * x[i]);
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((apply_fn(xp, bump) - apply_fn(xm, bump)) / (2 * h), w4[i], 1e-6);
  }
  __parad_autodiff((void *)apply_fn, x, d4, parad_const, &bump);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d4[i], w4[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)apply_fn, x, v, parad_const, &bump), w4[i], 1e-12);
  }
  return check_done();
}
