// Enzyme's split forward mode, written as Enzyme's users write it: __enzyme_fwdsplit(f, args with
// tangents..., tape), the tape from __enzyme_augmentfwd of the same function (or null where f needs none).
// Parad runs f again beside the tangents and frees the tape, so it accepts functions that a second run
// computes the same: pure functions, and functions writing outputs they do not read.
//   tester(x, y) = x^2 sin y: tangents along x and y against the analytic derivative (1e-14);
//   squares(x, out): out_i = x_i^2 exp(x_{i+1}) (out written, not read), after __enzyme_augmentfwd:
//   the tangent of out along v against the analytic directional derivative (1e-13), with the tape given
//   as the last argument and after enzyme_tape; the primal outputs unchanged by the split call.
// A function that reads what it writes (x_0 = x_0^2, then reads x_0) is refused, naming the parameter, and
// so is one reading through a pointer it loads from a struct while writing a parameter.
// At -O2 and -O0; the tapes are freed (valgrind: no memory in use at exit).
// RUN: %parad-cc %cflags %s -o %t -lm && %t && valgrind -q --error-exitcode=9 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all %t > /dev/null
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: rm -f %t1 && not %parad-cc %cflags -DOVERWRITES %s -o %t1 2>&1 | FileCheck %s
// RUN: test ! -e %t1
// CHECK: error: __enzyme_fwdsplit: Parad's split forward mode runs 'square_in_place' again beside its tangents, which would not compute what its first run did: it reads what it writes through parameter #1
// RUN: rm -f %t2 && not %parad-cc %cflags -DLOADED %s -o %t2 2>&1 | FileCheck %s --check-prefix=LOADED
// RUN: test ! -e %t2
// LOADED: error: __enzyme_fwdsplit_v: Parad's split forward mode runs 'through_struct' again beside its tangents, which would not compute what its first run did: it writes through a parameter and reads through a pointer it loads from memory
#include <math.h>
#include "check.h"

int enzyme_dup, enzyme_const, enzyme_tape;
extern double __enzyme_fwdsplit(void *, ...);
extern void __enzyme_fwdsplit_v(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);

enum { N = 9 };

static double tester(double x, double y) { return x * x * sin(y); }

static void squares(const double *x, double *out) {
  for (int i = 0; i < N; i++) out[i] = x[i] * x[i] * exp(0.1 * x[(i + 1) % N]);
}

#ifdef LOADED
typedef struct {
  double *in;
} Input;
static void through_struct(const Input *s, double *out) { out[0] = s->in[0] * 2; }
#endif

#ifdef OVERWRITES
static double square_in_place(double *x) {
  x[0] = x[0] * x[0];
  return x[0] * 2;
}
#endif

int main(void) {
  double a = 0.7, b = 1.3;
  CHECK_CLOSE(__enzyme_fwdsplit((void *)tester, a, 1.0, b, 0.0, (void *)0), 2 * a * sin(b), 1e-14);
  CHECK_CLOSE(__enzyme_fwdsplit((void *)tester, a, 0.0, b, 1.0, (void *)0), a * a * cos(b), 1e-14);

  double x[N], v[N], out[N], dout[N], kept[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 1, v[i] = 0.5 - 0.1 * i;
  for (int pass = 0; pass < 2; pass++) {
    double dx[N] = {0};
    void *tape = __enzyme_augmentfwd((void *)squares, enzyme_dup, x, dx, enzyme_dup, out, dout);
    for (int i = 0; i < N; i++) kept[i] = out[i], dout[i] = 0;
    if (pass == 0)
      __enzyme_fwdsplit_v((void *)squares, enzyme_dup, x, v, enzyme_dup, out, dout, tape);
    else
      __enzyme_fwdsplit_v((void *)squares, enzyme_dup, x, v, enzyme_dup, out, dout, enzyme_tape, tape);
    for (int i = 0; i < N; i++) {
      int j = (i + 1) % N;
      double e = exp(0.1 * x[j]);
      CHECK_CLOSE(dout[i], 2 * x[i] * e * v[i] + x[i] * x[i] * 0.1 * e * v[j], 1e-13);
      CHECK_CLOSE(out[i], kept[i], 0);
    }
  }
#ifdef LOADED
  Input in = {x}, din = {v};
  __enzyme_fwdsplit_v((void *)through_struct, &in, &din, out, dout, (void *)0);
#endif
#ifdef OVERWRITES
  double y[1] = {3}, dy[1] = {1};
  __enzyme_fwdsplit((void *)square_in_place, enzyme_dup, y, dy, (void *)0);
#endif
  return check_done();
}
