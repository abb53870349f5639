// std::sort and std::stable_sort of records whose int or char key is followed by padding and a double
// (`struct Rec { int id; double val; }`), as programs sort particles or samples by an index. The sort's
// helpers move an element through a temporary that the optimiser splits into the key and a byte copy of
// the rest, whose double lies at byte 4 (or 7) of it; reverse mode read that copy as doubles from its
// start, and the gradient came out wrong with no message (2, 58, 0, 40, 0 where 2, 16, 12, 40, 30 are
// right) at -O1 and up (tests/rev/padded_struct_swaps.c has the C shapes).
//   sorted_value = sum (i + 1) val_(i)^2 over the records sorted by id; ranked_value the same over
//   {char tag; double val} with std::stable_sort, plus the product of the first two.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O2,
// -Os and -O0; sorted_value also against its analytic gradient (1e-12).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -Os -I%S/../include %s -o %ts && %ts
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <algorithm>
#include <vector>
#include "check.h"

extern "C" double __parad_autodiff(void *, ...);
extern "C" double __parad_fwddiff(void *, ...);

enum { N = 5 };

struct Rec {
  int id;
  double val;
};

static double sorted_value(const double *x) {
  std::vector<Rec> v;
  for (int i = 0; i < N; i++) v.push_back(Rec{(i * 3) % N, x[i]});
  std::sort(v.begin(), v.end(), [](const Rec &a, const Rec &b) { return a.id < b.id; });
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * v[i].val * v[i].val;
  return s;
}

struct Tagged {
  char tag;
  double val;
};

static double ranked_value(const double *x) {
  std::vector<Tagged> v;
  for (int i = 0; i < N; i++) v.push_back(Tagged{(char)((i * 2) % N), x[i] * x[(i + 1) % N]});
  std::stable_sort(v.begin(), v.end(), [](const Tagged &a, const Tagged &b) { return a.tag < b.tag; });
  double s = v[0].val * v[1].val;
  for (int i = 0; i < N; i++) s += (i + 1) * v[i].val * v[i].val;
  return s;
}

int main() {
  const double x[N] = {1, 2, 3, 4, 5};
  CHECK_GRADIENT(sorted_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(ranked_value, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0};
  __parad_autodiff((void *)sorted_value, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 2.0 * ((i * 3) % N + 1) * x[i], 1e-12);
  return check_done();
}
