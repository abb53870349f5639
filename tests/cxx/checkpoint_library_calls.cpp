// Checkpointed time loops calling the standard library as C++ programs do: (1) two std::vector<double>
// swapped each step (std::swap and a.swap(b), the wave equation's buffer rotation), whose noexcept body
// clang gives a terminate pad (__clang_call_terminate); (2) std::min(t, 5) called while a vector is alive,
// which clang calls with an invoke; (3) std::min inside a parallel loop in the step (built with -fopenmp,
// 2 threads); (4) a step calling a function that checks its input and throws std::invalid_argument (never
// here). Each was refused: (1) and (3) naming '__cxa_begin_catch' in '__clang_call_terminate.ckpt0.0'
// with no location, (2) "a call that may throw ... (a C++ invoke)", (4) naming '__cxa_allocate_exception'
// and three more. Paths that only run while an exception is thrown or unwinds need no notes (a throw in a
// derivative stops the program: (4) given an infinite input stops with the exception's message), and an
// invoke of a function that cannot throw is a call. Each gradient against the same function without the marker (taped, 1e-12 relative
// to the largest component) and central differences (h = 1e-6, 1e-6), at -O2 and -O0. Under valgrind, no
// error: the vectors' blocks a step frees go with C++'s delete (the runtime freed them with free).
// RUN: %parad-cxx %cflags %s -o %t && %t && valgrind -q --error-exitcode=9 %t > /dev/null
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx %cflags -fopenmp %s -o %t2 && env OMP_NUM_THREADS=2 %t2
// RUN: not --crash %t throw 2>&1 | FileCheck %s
// CHECK: bad input
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>
#include "check.h"

double __parad_autodiff(void *, ...);
extern "C" void __parad_checkpoint_loop(void) noexcept;

enum { N = 16, T = 30 };

template <bool Marked, bool Member> static double rotate(const double *x) {
  std::vector<double> a(N, 0.0), b(N, 0.0);
  double s = 0;
  for (int t = 0; t < T; t++) {
    if (Marked) __parad_checkpoint_loop();
    for (int i = 0; i < N; i++) b[i] = 0.9 * a[i] + std::sin(x[i] * t);
    if (Member)
      a.swap(b);
    else
      std::swap(a, b);
    s += a[t % N] * a[t % N];
  }
  return s;
}

template <bool Marked> static double clipped(const double *x) {
  std::vector<double> u(N, 1.0);
  double s = 0;
  for (int t = 0; t < T; t++) {
    if (Marked) __parad_checkpoint_loop();
    int d = std::min(t, 5);
#pragma omp parallel for
    for (int i = 0; i < N; i++) u[i] = u[i] * 0.9 + std::sin(x[i]) * 0.01 * std::min(t, 7) + x[i] * d * 0.01;
    s += u[t % N] * u[t % N];
  }
  return s;
}

__attribute__((noinline)) static double checked_step(double u, double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("bad input");
  return 0.9 * u + std::sin(x);
}

template <bool Marked> static double checked(const double *x) {
  double u = 0, s = 0;
  for (int t = 0; t < T; t++) {
    if (Marked) __parad_checkpoint_loop();
    u = checked_step(u, x[t % N] * t);
    s += u * u;
  }
  return s;
}

typedef double (*Fn)(const double *);
static Fn current;
static double along(void *c, double v) {
  double *x = (double *)c, keep = x[3];
  x[3] = v;
  double r = current(x);
  x[3] = keep;
  return r;
}

static void check(Fn marked, Fn taped) {
  double x[N], g[N] = {0}, want[N] = {0}, top = 0;
  for (int i = 0; i < N; i++) x[i] = 0.05 * i + 0.1;
  __parad_autodiff((void *)marked, x, g);
  __parad_autodiff((void *)taped, x, want);
  for (int i = 0; i < N; i++) top = std::max(top, std::fabs(want[i]));
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i] / top, want[i] / top, 1e-12);
  current = taped;
  CHECK_CLOSE(g[3], fd_central(along, x, x[3], 1e-6), 1e-6);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "throw")) {
    double x[N], g[N] = {0};
    for (int i = 0; i < N; i++) x[i] = i == 5 ? INFINITY : 0.1 * i;
    __parad_autodiff((void *)checked<true>, x, g);
    return 0;
  }
  check(checked<true>, checked<false>);
  check(rotate<true, false>, rotate<false, false>);
  check(rotate<true, true>, rotate<false, true>);
  check(clipped<true>, clipped<false>);
  return check_done();
}
