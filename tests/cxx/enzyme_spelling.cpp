// A C++ program written for Enzyme, with parad.h nowhere: it defines the markers and declares the entry
// points as Enzyme's C++ users do, function templates whose result type is a template argument (each use
// its own mangled declaration). Gradient of a loop over an array (void result), adjoints of two scalars
// returned in a struct, a forward tangent: against the analytic derivatives (1e-12), at -O2 and -O0. Then
// the same through parad.h's declarations of those templates.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx %cflags -DWITH_PARAD_H %s -o %t1 && %t1
#include <cmath>
#include <cstdio>
#ifdef WITH_PARAD_H
#include "parad.h"
#else
int enzyme_dup, enzyme_const, enzyme_out;
template <typename Return, typename... T> Return __enzyme_autodiff(void *, T...);
template <typename Return, typename... T> Return __enzyme_fwddiff(void *, T...);
#endif

static int failures, checks;
static void check(double got, double want) {
  checks++;
  if (!(std::fabs(got - want) <= 1e-12 * std::fmax(1, std::fabs(want)))) failures++, std::printf("FAIL: got %.17g, want %.17g\n", got, want);
}

static double f(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += std::sin(x[i]) * x[i];
  return s;
}
static double g(double a, double b) { return a * a * b + std::exp(b); }
struct Adjoints {
  double da, db;
};

int main() {
  double x[3] = {0.3, 0.6, 0.9}, dx[3] = {0};
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++) check(dx[i], std::cos(x[i]) * x[i] + std::sin(x[i]));
  Adjoints p = __enzyme_autodiff<Adjoints>((void *)g, enzyme_out, 1.5, enzyme_out, 0.5);
  check(p.da, 2 * 1.5 * 0.5);
  check(p.db, 1.5 * 1.5 + std::exp(0.5));
  check(__enzyme_fwddiff<double>((void *)g, enzyme_dup, 1.5, 1.0, enzyme_dup, 0.5, 0.0), 2 * 1.5 * 0.5);
  check(__enzyme_fwddiff<double>((void *)g, enzyme_dup, 1.5, 0.0, enzyme_dup, 0.5, 1.0), 1.5 * 1.5 + std::exp(0.5));
  std::printf("%d of %d checks failed\n", failures, checks);
  return failures != 0;
}
