// At -O0, a checkpointed step sorting a vector of a struct of doubles and an int: std::swap's copies move
// the struct through references, whose layout the analyses do not see there. The refusal said the copy
// "holds pointers", which the struct does not; it says the layout is not known now (optimised builds see
// it: at -O2 it builds, its gradient checked against central differences, h = 1e-6, relative 1e-6). At
// -O0, no output file.
// RUN: rm -f %t && not %parad-cxx -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t
// RUN: %parad-cxx %cflags %s -o %t2 && %t2
// CHECK: move.h:{{[0-9]+}}:{{[0-9]+}}: error: copying memory of mixed data whose layout is not known here, which may hold pointers (their shadows would not follow the snapshots; optimised builds usually see the layout) inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet
#include <algorithm>
#include <cmath>
#include <vector>
#include "check.h"
#include "parad.h"

struct Part {
  double x, y, vx, vy;
  int id;
};

static void step(std::vector<Part> &ps) noexcept {
  std::sort(ps.begin(), ps.end(), [](const Part &a, const Part &b) { return a.x < b.x; });
  for (size_t i = 0; i + 1 < ps.size(); i++) ps[i].vx += 0.01 * (ps[i + 1].x - ps[i].x);
  for (auto &p : ps) p.x += 0.01 * p.vx;
}

static double loss(const double *v0) {
  std::vector<Part> ps(8);
  for (int i = 0; i < 8; i++) ps[i] = {std::fmod(0.37 * i, 1.0), 0.0, v0[0] * std::cos(1.7 * i), 0.0, i};
  for (int t = 0; t < 50; t++) {
    __parad_checkpoint_loop();
    step(ps);
  }
  double l = 0;
  for (auto &p : ps) l += p.id * p.x;
  return l;
}

int main() {
  double v0[1] = {0.4}, g[1] = {0};
  __parad_autodiff((void *)loss, v0, g);
  CHECK_CLOSE(g[0], fd_component(loss, v0, 1, 0, 1e-6), 1e-6);
  return check_done();
}
