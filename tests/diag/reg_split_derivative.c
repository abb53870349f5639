// A split forward-mode derivative (__enzyme_register_splitderivative_NAME, for Enzyme's __enzyme_fwdsplit,
// which Parad runs as forward mode again, with no use for it) is accepted, and named where a forward
// derivative of its function is missing.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
extern double __enzyme_fwddiff(void *, ...);

double ext(double x); /* its body is not in the program */
void *ext_augment(double x) { (void)x; return 0; }
double ext_split(double x, double dx, void *tape) { (void)x, (void)tape; return dx; }
void *__enzyme_register_splitderivative_ext[3] = {(void *)ext, (void *)ext_augment, (void *)ext_split};

static double g(double x) {
  // CHECK: reg_split_derivative.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'ext' with an active argument (#1): it has only a split forward-mode derivative (__enzyme_register_splitderivative_...), which Parad does not use (its split forward mode is forward mode run again); register a derivative (__enzyme_register_derivative_ext) instead in function 'g'
  return ext(x) * 2;
}

int main(void) { return (int)__enzyme_fwddiff((void *)g, 1.0, 1.0); }
