// A call of the program's own that may throw, made while a std::vector is alive inside a checkpointed
// loop: refused, naming the function (it said only "a call that may throw"); a function that cannot
// throw is called there as any other (tests/cxx/checkpoint_library_calls.cpp).
// RUN: rm -f %t && not %parad-cxx %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdexcept>
#include <vector>

double __parad_autodiff(void *, ...);
extern "C" void __parad_checkpoint_loop(void) noexcept;

__attribute__((noinline)) int checked(int t) {
  if (t > 1000) throw std::runtime_error("too many steps");
  return t % 3;
}

double f(const double *x) {
  std::vector<double> u(4, 1.0);
  double s = 0;
  for (int t = 0; t < 10; t++) {
    __parad_checkpoint_loop();
    // CHECK: checkpoint_throwing_call.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a call of 'checked(int)' (_Z7checkedi) that may throw while an object with a destructor is alive (a C++ invoke), inside a loop checkpointed with __parad_checkpoint_loop(), is not supported yet: declare the function noexcept where it is the program's own, or move the step's body into a noexcept function in function 'f'
    int k = checked(t);
    for (int i = 0; i < 4; i++) u[i] = u[i] * 0.5 + x[i] * k;
    s += u[t % 4];
  }
  return s;
}

int main() {
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  __parad_autodiff((void *)f, x, g);
  return 0;
}
