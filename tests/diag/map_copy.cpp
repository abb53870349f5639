// A std::map copied inside a derivative: libstdc++ copies each node's value with a memcpy that carries no
// type, into a node whose other bytes are links. What the copy moves was taken for pointers (the header's
// links, in the map object beside the nodes, lie at the same offsets as the nodes' values), so the
// gradient was zero without a message; now the copy is refused, at -O2 and at -O0. No output file.
// RUN: rm -f %t && not %parad-cxx -O2 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cxx -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: error: reverse mode cannot tell what this copy moves {{.*}} in function 'construct<std::pair<const int, double>
#include <map>
#include "parad.h"

static double f(double x) {
  std::map<int, double> m;
  for (int k = 0; k < 3; k++) m[k] = x * (k + 1);
  std::map<int, double> copy = m;
  double s = 0;
  for (auto &kv : copy) s += kv.second * kv.second;
  return s;
}

int main() { return (int)__enzyme_autodiff<double>((void *)f, enzyme_out, 0.7); }
