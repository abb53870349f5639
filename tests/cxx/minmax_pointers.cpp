// A choice between two pointers that the optimiser writes as a choice between their integers
// (inttoptr (select c, (ptrtoint a), (ptrtoint b))): std::minmax_element's pair of iterators at -O2, or a
// program's own uintptr_t. Refused as "a pointer rebuilt from the integer address of active memory";
// the derivative now chooses the pointers themselves, with their shadows.
//   f(x) = min(x) max(x) over a std::vector copy of x; g(x) = (x0 > x1 ? x2 : x3) x0.
// Gradients and tangents against the analytic ones (1e-12), at -O2 and -O3.
// RUN: %parad-cxx -O2 -I%S/../include %s -o %t && %t
// RUN: %parad-cxx -O3 -I%S/../include %s -o %t3 && %t3
#include <algorithm>
#include <cstdint>
#include <vector>
#include "check.h"

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

static double f(const double *x) {
  std::vector<double> v(x, x + N);
  auto mm = std::minmax_element(v.begin(), v.end());
  return *mm.first * *mm.second;
}

static double g(const double *x) {
  std::uintptr_t p = x[0] > x[1] ? (std::uintptr_t)&x[2] : (std::uintptr_t)&x[3];
  return *(const double *)p * x[0];
}

int main() {
  const double xs[2][N] = {{0.3, -0.2, 0.5, 0.1}, {-0.4, 0.6, 1.5, -2.0}};
  for (int s = 0; s < 2; s++) {
    const double *x = xs[s];
    int lo = 0, hi = 0;
    for (int i = 1; i < N; i++) lo = x[i] < x[lo] ? i : lo, hi = x[i] > x[hi] ? i : hi;
    int pick = x[0] > x[1] ? 2 : 3;
    double df[N] = {0}, dg[N] = {0}, wf[N] = {0}, wg[N] = {0};
    wf[lo] += x[hi], wf[hi] += x[lo];
    wg[pick] += x[0], wg[0] += x[pick];
    __enzyme_autodiff((void *)f, x, df);
    __enzyme_autodiff((void *)g, x, dg);
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(df[i], wf[i], 1e-12);
      CHECK_CLOSE(dg[i], wg[i], 1e-12);
      double v[N] = {0};
      v[i] = 1;
      CHECK_CLOSE(__enzyme_fwddiff((void *)f, x, v), wf[i], 1e-12);
      CHECK_CLOSE(__enzyme_fwddiff((void *)g, x, v), wg[i], 1e-12);
    }
  }
  return check_done();
}
