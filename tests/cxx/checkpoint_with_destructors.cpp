// A checkpointed time loop while objects with destructors are alive: the state in a std::vector, and a
// work buffer owned by a class that frees it in its destructor, as C++ programs hold their arrays. With a
// destructor pending, clang invokes the marker (it may throw, for all clang knew) instead of calling it,
// and parad-c++ crashed (a segmentation fault in LLVM's passes: the invoke was left as it was while the
// loop was outlined around it). The marker's invoke is now a call and a branch; parad.h also declares the
// marker nothrow, so that clang calls it. Both ways are built: with the program's own declaration, which
// does not say nothrow (the invoke), and with parad.h's. A step that calls a function that may throw while
// the buffer is alive (not noexcept: an invoke, whose landing pad lies outside the loop) crashed the same
// way; it is refused, with the place and the function (the program may catch its throw and go on). One
// not declared noexcept that cannot throw (no throw in it, nor a call that may) is called as any other;
// one that throws only where memory runs out (a vector declared in the step's body) unwinds into a landing
// pad of the loop's own: tests/cxx/checkpoint_scoped_vector.cpp.
//   u_i <- u_i + 0.01 u_{i-1} u_{i+1} (interior), T steps from u = x; J = u_3 u_4 + sum_i w_i u_i^2.
// Against the same function without the marker (taped): equal to 1e-12 relative to the largest component;
// against central differences (h = 1e-6, 1e-6); the loop checkpointed (two runs per step). -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx %cflags -I%S/../../include -DUSE_PARAD_H %s -o %th && %th
// RUN: rm -f %tt && not %parad-cxx %cflags -DMAY_THROW %s -o %tt 2>&1 | FileCheck %s
// RUN: test ! -e %tt
// RUN: %parad-cxx %cflags -DNOT_NOEXCEPT %s -o %tn && %tn
#include <cmath>
#include <stdexcept>
#include <vector>
#include "check.h"

#ifdef USE_PARAD_H
#include <parad.h>
#else
extern "C" void __parad_checkpoint_loop(void);
extern "C" void __parad_autodiff(void *, ...);
extern "C" void parad_checkpoint_counts(long *steps, long *runs);
#endif

enum { N = 10, T = 40 };

struct Buffer { /* owns its array, as a class without the standard library does */
  double *p;
  explicit Buffer(int n) : p(new double[n]()) {}
  ~Buffer() { delete[] p; }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

#if defined MAY_THROW || defined NOT_NOEXCEPT
#define NOEXCEPT
#else
#define NOEXCEPT noexcept
#endif
__attribute__((noinline)) static double relax(double left, double mid, double right) NOEXCEPT {
#ifdef MAY_THROW
  if (mid != mid) throw std::domain_error("not a number");
#endif
  return mid + 0.01 * left * right;
}

template <bool Marked> double solve(const double *x) {
  std::vector<double> u(x, x + N);
  Buffer next(N);
  for (int t = 0; t < T; t++) {
    if (Marked) __parad_checkpoint_loop();
    // CHECK: checkpoint_with_destructors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a call of 'relax(double, double, double)' {{.*}}that may throw {{.*}}declare the function noexcept where it is the program's own, or move the step's body into a noexcept function in function 'solve<true>'
    for (int i = 1; i < N - 1; i++) next.p[i] = relax(u[i - 1], u[i], u[i + 1]);
    for (int i = 1; i < N - 1; i++) u[i] = next.p[i];
  }
  double J = u[3] * u[4];
  for (int i = 0; i < N; i++) J += (0.1 + 0.01 * i) * u[i] * u[i];
  return J;
}
double checkpointed(const double *x) { return solve<true>(x); }
double taped(const double *x) { return solve<false>(x); }

int main() {
  double x[N], want[N] = {0}, got[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x[i] = 0.1 * (i + 1);
  __parad_autodiff((void *)taped, x, want);
  __parad_autodiff((void *)checkpointed, x, got);
  long steps = 0, runs = 0;
  parad_checkpoint_counts(&steps, &runs);
  CHECK_CLOSE((double)runs, 2.0 * steps, 0);
  for (int i = 0; i < N; i++) largest = std::fmax(largest, std::fabs(want[i]));
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i] / largest, want[i] / largest, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6);
  return check_done();
}
