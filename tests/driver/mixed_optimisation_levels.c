// One file of the program built at -O0 (a module being debugged), the file that asks for the derivative at
// -O2, and the derivative made when they are linked. The function at -O0 is optnone, and its derivative
// was made from it as it was written: every local in a stack slot, recorded per iteration (48 bytes of
// tape per iteration; 8-10 times the primal, against about 1 with both files at -O2), and the links of the
// same objects differed from run to run (the unoptimised derivative's stack slots). The derivatives are
// made from optimised copies there too now (ad/optimised_copies.h; the -O0 function stays as compiled).
//   chain(x) = x_0^2 + sum_i (x_i - x_{i-1})^2, through a helper in the same -O0 file
// The gradient against the analytic one (1e-12); the tape under 4 bytes per iteration; two links of the
// same objects identical.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc -O0 -DPART_F -I%S/../include -c %s -o %t/f.o
// RUN: %parad-cc -O2 -I%S/../include -c %s -o %t/main.o
// RUN: %parad-cc %t/f.o %t/main.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc %t/f.o %t/main.o -o %t/prog2 -lm && cmp %t/prog %t/prog2
#include <math.h>
#include <stddef.h>
#include "check.h"

double chain(const double *x, int n);

#ifdef PART_F
static double square(double v) { return v * v; }

double chain(const double *x, int n) {
  double s = square(x[0]);
  for (int i = 1; i < n; i++) {
    double d = x[i] - x[i - 1];
    s += square(d);
  }
  return s;
}
#else
double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 1000 };

int main(void) {
  static double x[N], dx[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.1 * i);
  parad_tape_reset_peak();
  __parad_autodiff((void *)chain, x, dx, N);
  size_t tape = parad_tape_recorded_bytes();
  for (int i = 0; i < N; i++) {
    double want = (i ? 2 * (x[i] - x[i - 1]) : 2 * x[0]) - (i + 1 < N ? 2 * (x[i + 1] - x[i]) : 0);
    CHECK_CLOSE(dx[i], want, 1e-12);
  }
  if (tape >= 4 * N) printf("FAIL tape: %zu bytes for %d iterations\n", tape, N), check_failures++;
  return check_done();
}
#endif
