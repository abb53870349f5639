// A checkpointed time loop whose body declares its work arrays as std::vectors (a flux per cell, a
// vector of small structs filled by push_back), as C++ steps are written. Their constructors may throw
// where memory runs out (operator new, a length error), so clang invokes them while the state's vector is
// alive, and the loop was refused ("a call that may throw ... move the step's body into a noexcept
// function"). Such calls now unwind into a landing pad of the loop's own, which would stop the program
// with the loop's place. A `throw` the step's body makes itself leaves the loop as written: the
// program's own run of the same function throws it at a chosen step and catches it. Against the same function unmarked (taped): 1e-12 relative to the
// largest component; against central differences (h = 1e-6, 1e-6); two runs per step without a budget,
// more under a budget of 64 KB. -O2, -O1 and -O0.
//   f_i = 0.1 (u_{i-1} - 2 u_i + u_{i+1}) - 0.01 u_i^2; u_i += f_i; then a pair (u_i, u_i u_{i+1}) per
//   cell, u_i += 0.001 p.b; J = sum sin(u_i) (i + 1).
// RUN: %parad-cxx %cflags %s -o %t && %t && %t budget
// RUN: %parad-cxx -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 && %t0 budget
#include <cmath>
#include <stdexcept>
#include <vector>
#include "check.h"

extern "C" void __parad_checkpoint_loop(void);
extern "C" void __parad_autodiff(void *, ...);
extern "C" void parad_checkpoint_counts(long *steps, long *runs);
extern "C" void parad_set_tape_limit(size_t bytes);

enum { N = 12, T = 60 };
struct Pair {
  double a, b;
};

template <bool Marked> static double run(const double *x, int throw_at) {
  std::vector<double> u(x, x + N);
  for (int t = 0; t < T; t++) {
    if (Marked) __parad_checkpoint_loop();
    std::vector<double> f(N);
    for (int i = 1; i < N - 1; i++) f[i] = 0.1 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * u[i] * u[i];
    if (t == throw_at) throw std::runtime_error("the step failed");
    for (int i = 1; i < N - 1; i++) u[i] += f[i];
    std::vector<Pair> pairs;
    for (int i = 0; i + 1 < N; i++) pairs.push_back({u[i], u[i] * u[i + 1]});
    for (int i = 0; i + 1 < N; i++) u[i] += 0.001 * pairs[i].b;
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += std::sin(u[i]) * (i + 1);
  return J;
}
double marked(const double *x) { return run<true>(x, -1); }
double taped(const double *x) { return run<false>(x, -1); }
__attribute__((noinline)) double marked_throwing(const double *x, int at) { return run<true>(x, at); }

int main(int argc, char **) {
  double x[N], want[N] = {0}, got[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.05 * i;
  __parad_autodiff((void *)taped, x, want);
  if (argc > 1) parad_set_tape_limit(65536);
  __parad_autodiff((void *)marked, x, got);
  long steps = 0, runs = 0;
  parad_checkpoint_counts(&steps, &runs);
  if (argc > 1) CHECK_CLOSE((double)(runs > 2 * steps), 1.0, 0);
  else CHECK_CLOSE((double)runs, 2.0 * steps, 0);
  for (int i = 0; i < N; i++) largest = std::fmax(largest, std::fabs(want[i]));
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i] / largest, want[i] / largest, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i], fd_component(marked, x, N, i, 1e-6), 1e-6);
  int caught = 0;
  try {
    marked_throwing(x, 5);
  } catch (const std::runtime_error &) {
    caught = 1;
  }
  CHECK_CLOSE((double)caught, 1.0, 0);
  CHECK_CLOSE(marked_throwing(x, -1), marked(x), 1e-15);
  return check_done();
}
