// A refusal names a C++ function as the source spells it, with the symbol after it (the name a
// registration uses): the message gave only '_ZN4phys6kernelEdRKSt6vectorIdSaIdEE'. No output file.
// RUN: rm -f %t && not %parad-cxx -O2 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: cxx_names.cpp:[[@LINE+6]]:{{[0-9]+}}: error: cannot differentiate a call to 'phys::kernel(double, std::vector<double, std::allocator<double> > const&)' (_ZN4phys6kernelEdRKSt6vectorIdSaIdEE), which {{.*}}__parad_register_gradient__ZN4phys6kernelEdRKSt6vectorIdSaIdEE{{.*}} in function 'f'
#include <vector>
namespace phys { double kernel(double x, const std::vector<double> &v); }
extern "C" double __parad_autodiff(void *, ...);
static double f(double x) {
  std::vector<double> v{1, 2};
  return phys::kernel(x, v);
}
int main() { return (int)__parad_autodiff((void *)f, 1.0); }
