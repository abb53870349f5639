// Counters kept in f2c COMMON blocks beside the state: `struct { double h; int nfe; } rkcom_;` with
// `++rkcom_.nfe` in the differentiated routine, as RKF45 counts its function evaluations, built with
// -fno-strict-aliasing as legacy f2c code often is. The counter's address is a byte offset into the global
// (`getelementptr (i8, @rkcom_, 8)`), and the global's type was taken for what lies there: the double's
// first half, refused ("a part of a float's bits moved as a smaller integer", "integer arithmetic on the
// bits of an active floating-point value"). A struct's offset says which field now (analysis/memtype.c,
// gep_type). And a COMMON block two routines declare with different layouts, which f2c writes as a union:
// clang tags a union member's access with the tag of memory that may hold anything, and the union's type
// is one member's, so the counter's increment was refused at -O1 and up without the flag ("integer
// arithmetic on the bits of an active floating-point value"); the module's accesses to those bytes, all
// integers, say what they hold now (analysis/union_globals.c). Gradients and tangents against the
// analytic derivatives (1e-12), the counters as many as the calls; at -O2 with and without the flag, -O1
// and -O0 with it.
// RUN: %parad-cc %cflags -DUNION %s -o %t -lm && %t
// RUN: %parad-cc %cflags -fno-strict-aliasing -DUNION %s -o %t2 -lm && %t2
// RUN: %parad-cc -O1 -fno-strict-aliasing -DUNION -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -fno-strict-aliasing -DUNION -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

struct {
  double h;
  int nfe;
  double scale;
} rkcom_;

/* y' = -y^2 h-scaled, one explicit step, its evaluations counted */
static double f_(const double *y) {
  ++rkcom_.nfe;
  return -rkcom_.scale * *y * *y;
}

double step_(double *y) {
  double k1 = f_(y), ym = *y + 0.5 * rkcom_.h * k1, k2 = f_(&ym);
  return *y + rkcom_.h * k2;
}

#ifdef UNION
union {
  struct { double y[2]; int nst; } _1;
  struct { double rls[2]; int ils[1]; } _2;
} ls0001_;

double advance_(double *p) {
  ls0001_._1.y[0] = *p * *p;
  ls0001_._1.y[1] = sin(*p);
  ++ls0001_._1.nst;
  ++ls0001_._2.ils[0];
  return ls0001_._1.y[0] * ls0001_._1.y[1];
}
#endif

int main(void) {
  rkcom_.h = 0.1, rkcom_.scale = 0.5;
  double y = 1.5, dy = 0, one = 1;
  /* d/dy of y + h k2, k2 = -s ym^2, ym = y - h s y^2 / 2 */
  double ym = y - 0.5 * rkcom_.h * rkcom_.scale * y * y, want = 1 - rkcom_.h * rkcom_.scale * 2 * ym * (1 - rkcom_.h * rkcom_.scale * y);
  __parad_autodiff((void *)step_, &y, &dy);
  CHECK_CLOSE(dy, want, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)step_, &y, &one), want, 1e-12);
  CHECK_CLOSE((double)rkcom_.nfe, 4, 0);
#ifdef UNION
  double p = 0.7, dp = 0;
  __parad_autodiff((void *)advance_, &p, &dp);
  double dwant = 2 * p * sin(p) + p * p * cos(p);
  CHECK_CLOSE(dp, dwant, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)advance_, &p, &one), dwant, 1e-12);
  CHECK_CLOSE((double)ls0001_._1.nst, 4, 0); /* two calls, two counters over one int */
#endif
  return check_done();
}
