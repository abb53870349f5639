// Enzyme's attribute on a C++ static data member and a member function (built with parad-c++, no header):
//   __attribute__((enzyme_inactive)) static double tmp, which test() multiplies by a when cond holds and
//   otherwise multiplies a local through a pointer (one pointer select after -O2): d/da is 2a with cond
//   false, 1 with cond true; tmp keeps its value (5.5 a);
//   __attribute__((enzyme_inactive)) on a member function: no derivative through its calls.
// Reverse and forward mode, against the analytic derivatives (1e-12). At -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t -lm && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct Temp {
private:
  __attribute__((enzyme_inactive)) static double tmp;

public:
  __attribute__((noinline)) static void f(bool cond, double a, double *c) {
    if (cond)
      tmp *= a;
    else
      *c *= a;
  }
  __attribute__((enzyme_inactive)) static double twice(double a) { return 2 * a; }
  static double get() { return tmp; }
  static void set(double v) { tmp = v; }
};

double Temp::tmp = 0;

static double test(bool cond, double a) {
  double dat = a;
  Temp::f(cond, a, &dat);
  return dat + Temp::twice(a);
}

int main() {
  Temp::set(5.5);
  CHECK_CLOSE(__enzyme_autodiff((void *)test, false, 3.0), 6.0, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)test, true, 3.0), 1.0, 1e-12);
  CHECK_CLOSE(Temp::get(), 16.5, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)test, false, 3.0, 1.0), 6.0, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)test, true, 3.0, 1.0), 1.0, 1e-12);
  return check_done();
}
