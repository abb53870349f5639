// A checkpointed time loop whose steps call a virtual method: a table of two steppers (diffusion, and a
// damping that reads a table of rates), picked per step through the vtable, as C++ programs write a
// time integrator. The step's noting copy tests the loaded function pointer against the module's
// overriders of that type and notes each through its own copy. Against the same function without the
// marker (taped): the gradient equal to 1e-12 relative to the largest component; against central
// differences (h = 1e-6, 1e-6); the loop checkpointed (two runs per step). At -O2 and -O0 (where the calls
// stay virtual).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <cstring>
#include "check.h"

extern "C" void __parad_checkpoint_loop(void);
extern "C" void __parad_autodiff(void *, ...);
extern "C" void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 12, T = 30 };
static const double rates[N] = {1, 0.9, 0.8, 1.1, 1.2, 0.7, 1, 0.95, 1.05, 0.85, 1.15, 1};

struct Stepper {
  virtual void step(double *u, double k) const = 0;
  virtual ~Stepper() {}
};
struct Diffuse : Stepper {
  void step(double *u, double k) const override {
    for (int i = 1; i < N - 1; i++) u[i] += k * (u[i - 1] - 2 * u[i] + u[i + 1]);
  }
};
struct Damp : Stepper {
  void step(double *u, double k) const override {
    for (int i = 0; i < N; i++) u[i] -= 0.05 * k * rates[i] * u[i] * u[i];
  }
};
static const Diffuse diffuse;
static const Damp damp;
static const Stepper *const steppers[2] = {&diffuse, &damp};

template <bool Marked> double solve(const double *x) {
  double u[N], s = 0;
  std::memcpy(u, x, sizeof u);
  for (int t = 0; t < T; t++) {
    if (Marked) __parad_checkpoint_loop();
    steppers[t % 2]->step(u, 0.1 + 0.001 * t);
  }
  for (int i = 0; i < N; i++) s += u[i] * u[i] * (i + 1);
  return s;
}
double checkpointed(const double *x) { return solve<true>(x); }
double taped(const double *x) { return solve<false>(x); }

int main() {
  double x[N], want[N] = {0}, got[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.05 * std::sin(1.0 * i);
  __parad_autodiff((void *)taped, x, want);
  __parad_autodiff((void *)checkpointed, x, got);
  long steps = 0, runs = 0;
  parad_checkpoint_counts(&steps, &runs);
  CHECK_CLOSE((double)runs, 2.0 * steps, 0);
  for (int i = 0; i < N; i++) largest = std::fmax(largest, std::fabs(want[i]));
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i] / largest, want[i] / largest, 1e-12);
  for (int i = 0; i < N; i += 3) CHECK_CLOSE(got[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6);
  return check_done();
}
