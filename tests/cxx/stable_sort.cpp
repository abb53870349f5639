// std::stable_sort and std::inplace_merge on active values: both take their scratch buffer from
// std::get_temporary_buffer, i.e. from the nothrow operator new (_ZnwmRKSt9nothrow_t), which was not
// known as an allocator, so the copies into it were refused ("cannot copy active memory into memory
// without a shadow"). Records sorted by an active key with a comparator, the permuted values weighted by
// rank; a merge of two sorted halves. Gradient against central finite differences (h = 1e-6, 1e-6
// relative) and tangents against the gradient (1e-12), at -O2, -O0, -O3 and -Os (there the vector's
// relocation, a function of its own, moves the records by byte counts: tests/rev/struct_arrays_by_bytes.c).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx -O3 -I%S/../include %s -o %t3 && %t3
// RUN: %parad-cxx -Os -I%S/../include %s -o %ts && %ts
#include <algorithm>
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 7 };
struct Rec { double key, val; int id; };

static double ranked(const double *x) {
  std::vector<Rec> r;
  for (int i = 0; i < N; i++) r.push_back({x[i] * x[i], std::sin(x[i]), i});
  std::stable_sort(r.begin(), r.end(), [](const Rec &a, const Rec &b) { return a.key < b.key; });
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * r[i].val + 0.1 * r[i].key * r[i].id;
  std::vector<double> m(x, x + N);
  std::sort(m.begin(), m.begin() + 3);
  std::sort(m.begin() + 3, m.end());
  std::inplace_merge(m.begin(), m.begin() + 3, m.end());
  for (int i = 0; i < N; i++) s += (i + 1) * m[i] * m[i];
  return s;
}

int main() {
  const double x[N] = {0.3, 0.7, -0.4, 0.2, 1.5, 0.9, -1.1};
  double dx[N] = {0};
  __parad_autodiff((void *)ranked, x, dx);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-6;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE(dx[i], (ranked(xp) - ranked(xm)) / (2 * h), 1e-6);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)ranked, x, v), dx[i], 1e-12);
  }
  return check_done();
}
