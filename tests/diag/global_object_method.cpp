// A method of a global object whose std::vector member holds active values, at -O0 (`this` kept in a
// variable): the refusal names the global the method is given, not "parameter 1 ..., passed as constant;
// pass it with parad_dup" (the program passes no such argument). No output file.
// RUN: rm -f %t && not %parad-cxx -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: parameter 1 of 'Solver::run(double const*, int)' (_ZN6Solver3runEPKdi), which 'f' gives the pointer global variable 'S' (_ZL1S), which has no shadow
#include <vector>
extern "C" double __parad_autodiff(void *, ...);

struct Solver {
  std::vector<double> w;
  double run(const double *x, int n) {
    for (int i = 0; i < n; i++) w[i] = x[i] * x[i];
    double s = 0;
    for (int i = 0; i < n; i++) s += w[i] * (i + 1);
    return s;
  }
};
static Solver S;
double f(const double *x, int n) { return S.run(x, n); }

int main() {
  S.w.resize(4);
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  __parad_autodiff((void *)f, x, g, 4);
  return 0;
}
