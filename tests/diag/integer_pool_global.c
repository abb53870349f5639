// A global array of integers used as storage for doubles (a word pool handing out blocks by pointer
// casts): Parad gives a shadow to globals whose type holds floats, or bytes, and refuses the store of an
// active double into this one. The message said that Parad shadows "a global of floats and integers"
// for a global of integers, which reads as a contradiction (a probe of build flags); it now says that the
// type holds integers only and what to declare instead. Place, construct, function, non-zero exit, no
// output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);
enum { N = 5 };
static long pool[64];
static int top;
static double *pool_alloc(int n) {
  double *p = (double *)&pool[top];
  top += n;
  return p;
}

double f(const double *x) {
  top = 0;
  double *a = pool_alloc(N), s = 0;
  // CHECK: integer_pool_global.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (the global variable 'pool', which has no shadow: its type holds integers only, and Parad gives one to a global whose type holds floats (with integers beside them, or bytes), defined in the file, not thread-local; declare it as the floats it holds, or as bytes) in function 'f'
  for (int i = 0; i < N; i++) a[i] = x[i] * 2.0 - 1.0;
  for (int i = 0; i < N; i++) s += a[i] * a[(i + 2) % N];
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4}, g[N] = {0};
  __parad_autodiff((void *)f, x, g);
  return g[0] == 0;
}
