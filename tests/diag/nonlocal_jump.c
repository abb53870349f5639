// Reverse mode through setjmp and longjmp is refused: a jump out of a callee leaves the forward sweep's
// record of the code it jumped over incomplete, and the reverse sweep would read a tape it cannot match
// (a user-style probe found the program compiled and aborted at run time: "the reverse sweep did not read
// back everything its forward sweep recorded"). Each end of the jump gets its diagnostic, file:line:col,
// the construct, the function; exit status non-zero; no output file; at -O2 and -O0. Forward mode keeps
// no record and follows the jump as the program does: tests/fwd/nonlocal_jump.c.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t0 && not %parad-cc -O0 -I%S/../include %s -o %t0 2>&1 | FileCheck %s
// RUN: test ! -e %t0
#include <math.h>
#include <setjmp.h>
double __parad_autodiff(void *, ...);
extern int parad_const;

static jmp_buf on_error;

static double checked_sqrt(double v) {
  // CHECK-DAG: nonlocal_jump.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'longjmp' in reverse mode: a non-local jump (setjmp, longjmp) leaves the derivative's record of the code it jumps over incomplete; return an error code instead in function 'checked_sqrt'
  if (v < 0) longjmp(on_error, 1);
  return sqrt(v);
}

static double f(double *x, int n) {
  // CHECK-DAG: nonlocal_jump.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate '_setjmp' in reverse mode: a non-local jump (setjmp, longjmp) leaves the derivative's record of the code it jumps over incomplete; return an error code instead in function 'f'
  if (setjmp(on_error)) return 2 * x[0];
  double s = 0;
  for (int i = 0; i < n; i++) s += checked_sqrt(x[i]) * x[i];
  return s;
}

int main(void) {
  double x[2] = {0.5, -1.0}, g[2] = {0};
  __parad_autodiff((void *)f, x, g, parad_const, 2);
  return g[0] > 0;
}
