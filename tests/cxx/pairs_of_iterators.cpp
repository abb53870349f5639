// Pairs of iterators the standard library returns by value, from functions the optimiser keeps as calls
// at -Os (and at -O2 in larger programs): std::minmax_element over an array, std::map::equal_range and
// the tree's insert position (_M_get_insert_hint_unique_pos, {ptr, ptr}), std::equal_range after a
// std::stable_sort. Reverse mode refused each at -Os ("cannot differentiate this pointer computation"): a
// pointer taken out of a returned struct had no shadow. Such a struct now has a struct of its pointers'
// shadows, returned beside it (tests/rev/pointers_in_returned_structs.c has C's own).
//   range_value = max - min + min^2; map_value sums squares into three keys, then reads key 1's range and
//   sin of every value; sorted_value = sum (i + 1) v_(i) over the sorted copy, plus the element equal_range
//   finds.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -Os,
// -O2 and -O0.
// RUN: %parad-cxx -Os -I%S/../include %s -o %t && %t
// RUN: %parad-cxx %cflags %s -o %t2 && %t2
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>
#include "check.h"

extern "C" double __parad_autodiff(void *, ...);
extern "C" double __parad_fwddiff(void *, ...);

enum { N = 8 };

static double range_value(const double *x) {
  auto mm = std::minmax_element(x, x + N);
  return *mm.second - *mm.first + *mm.first * *mm.first;
}

static double map_value(const double *x) {
  std::map<int, double> m;
  for (int i = 0; i < N; i++) m[i % 3] += x[i] * x[i];
  auto r = m.equal_range(1);
  double s = 0;
  for (auto it = r.first; it != r.second; ++it) s += it->second;
  for (auto &kv : m) s += std::sin(kv.second);
  return s;
}

static double sorted_value(const double *x) {
  std::vector<double> v(x, x + N);
  std::stable_sort(v.begin(), v.end());
  auto r = std::equal_range(v.begin(), v.end(), v[3]);
  double s = 0;
  for (int i = 0; i < N; i++) s += v[i] * (i + 1);
  return s + *r.first;
}

int main() {
  const double x[N] = {0.3, -1.2, 2.5, 0.9, -0.4, 1.7, 0.05, -2.2};
  CHECK_GRADIENT(range_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(map_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(sorted_value, x, N, 1e-12, 1e-5, 1e-6);
  return check_done();
}
