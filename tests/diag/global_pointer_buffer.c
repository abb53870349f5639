// Pointer globals that get no shadow (ad/global_blocks.h), refused where active data goes into what they
// point to, naming the global and what Parad supports:
//   -DROWS:   the block holds pointers (rows of a matrix), whose shadows a zeroed shadow block cannot
//             hold;
//   -DESCAPE: the global's address is handed to a helper (for two globals) that allocates through it: the
//             compiler does not see what is stored there;
//   -DHESSIAN: a Hessian-vector product (forward mode over a gradient) of a function using a supported
//             global block: the gradient's shadows of the block are set where the gradient is called once
//             every derivative is generated, after the forward derivative copied that code (it crashed).
// (A heap block from malloc stored into the global directly is supported: rev/global_blocks.c; so is a
// global array's address, which was refused here: rev/global_model_pointers.c.)
// RUN: rm -f %t && not %parad-cc %cflags -DROWS %s -o %t -lm 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -DESCAPE %s -o %t -lm 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -DHESSIAN %s -o %t -lm 2>&1 | FileCheck %s --check-prefix=HESSIAN
// RUN: not %parad-cc -O0 -I%S/../include -DHESSIAN %s -o %t -lm 2>&1 | FileCheck %s --check-prefix=HESSIAN
// RUN: test ! -e %t
#include <math.h>
#include <stdlib.h>

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

#ifdef ROWS
static double **rows;
static int nrows;
static double f(const double *x) {
  // ROWS: global_pointer_buffer.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (a pointer loaded from the block the global variable 'rows' points to: Parad gives no shadow to pointers kept in such a block; pass them as arguments with shadows) in function 'f'
  for (int i = 0; i < nrows; i++) rows[i][0] = sin(x[i]);
  return rows[0][0] * rows[1][0];
}
int main(void) {
  nrows = 2 + (getenv("PARAD_TEST_NEVER_SET") != NULL);
  rows = malloc(nrows * sizeof *rows);
  for (int i = 0; i < nrows; i++) rows[i] = malloc(sizeof **rows);
#endif

#ifdef ESCAPE
static double *work, *spare;
__attribute__((noinline)) void make(double **p, int n) { *p = malloc(n * sizeof **p); }
static double f(const double *x) {
  // ESCAPE: global_pointer_buffer.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (a pointer loaded from the global variable 'work': Parad gives a global pointer a shadow only
  for (int i = 0; i < 2; i++) work[i] = sin(x[i]);
  return work[0] * work[1];
}
int main(void) {
  make(&work, 2 + (getenv("PARAD_TEST_NEVER_SET") != NULL));
  make(&spare, 4);
#endif

#ifdef HESSIAN
static double *work;
static int n;
static double f(const double *x) {
  for (int i = 0; i < n; i++) work[i] = x[i] * x[i];
  return sin(work[0]) * work[1];
}
// HESSIAN: global_pointer_buffer.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff of 'gradient': forward mode over a reverse-mode derivative computed here cannot differentiate the heap blocks the global variable 'work' holds in it yet; pass them as arguments
static void gradient(const double *x, double *g) { __parad_autodiff((void *)f, x, g); }
int main(void) {
  n = 2 + (getenv("PARAD_TEST_NEVER_SET") != NULL);
  work = malloc(n * sizeof *work);
  double v[2] = {1, 0}, hv[2] = {0}, g0[2] = {0};
  double xs[2] = {0.5, 0.7};
  __parad_fwddiff((void *)gradient, xs, v, g0, hv);
#endif
  double x[2] = {0.5, 0.7}, g[2] = {0};
  __parad_autodiff((void *)f, x, g);
  return 0;
}
