// A trimmed least-squares loss as C++ writes it: predictions into a std::vector, then a std::vector of
// (residual, index) pairs sorted by |residual| with a generic lambda, the 80% smallest kept. Built at -O0
// the tool stopped with "LLVM ERROR: Instruction Combining did not reach a fixpoint": the run of passes
// that makes byte loops plain used plain instcombine, whose fixpoint check LLVM 19 enforces (the others
// ask it not to). Gradient against tangents along each direction (1e-12) and central differences
// (h = 1e-6, 1e-7; the trimmed set does not change within h), at -O0, -O0 -g and -O2.
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx -O0 -g -I%S/../include %s -o %tg && %tg
// RUN: %parad-cxx %cflags %s -o %t && %t
#include <algorithm>
#include <cmath>
#include <vector>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

struct Dataset {
  int n, d;
  std::vector<double> X, y;
};

static std::vector<double> predict(const Dataset &ds, const double *w) {
  std::vector<double> out(ds.n);
  for (int i = 0; i < ds.n; i++) {
    const double *row = &ds.X[i * ds.d];
    out[i] = row[0] * w[0] + row[1] * w[1] + w[2];
  }
  return out;
}

double trimmed_loss(const Dataset &ds, const double *w) {
  auto p = predict(ds, w);
  std::vector<std::pair<double, int>> r;
  for (int i = 0; i < ds.n; i++) r.push_back({p[i] - ds.y[i], i});
  std::sort(r.begin(), r.end(), [](const auto &a, const auto &b) { return std::fabs(a.first) < std::fabs(b.first); });
  int keep = ds.n * 8 / 10;
  double s = 0;
  for (int i = 0; i < keep; i++) s += r[i].first * r[i].first;
  return s;
}

static Dataset ds;
static double loss_at(const double *w) { return trimmed_loss(ds, w); }

int main() {
  ds.n = 20, ds.d = 2;
  for (int i = 0; i < ds.n * ds.d; i++) ds.X.push_back(std::sin(i * 1.7));
  for (int i = 0; i < ds.n; i++) ds.y.push_back(std::cos(i * 0.3));
  double w[3] = {0.2, -0.1, 0.3}, g[3] = {0, 0, 0}, v[3] = {0, 0, 0};
  __parad_autodiff((void *)loss_at, w, g);
  for (int j = 0; j < 3; j++) {
    v[j] = 1;
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)loss_at, w, v), 1e-12);
    v[j] = 0;
    CHECK_CLOSE(g[j], fd_component(loss_at, w, 3, j, 1e-6), 1e-7);
  }
  return check_done();
}
