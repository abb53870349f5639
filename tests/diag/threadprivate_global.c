// A thread-local global (#pragma omp threadprivate, _Thread_local) that active data goes into: each thread's
// copy would need a shadow of its own, zeroed at every derivative's entry on every thread. Refused at the
// store, naming the variable and what to do (the message named an LLVM intrinsic).
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t -lm 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>

double __parad_autodiff(void *, ...);

static double acc;
#pragma omp threadprivate(acc)

// CHECK: threadprivate_global.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (the thread-local global variable 'acc' (threadprivate, _Thread_local): Parad gives no shadow to a thread-local global (each thread's would have to be zeroed at every derivative's entry); make it a local of the parallel region, or pass it as an argument with a shadow) in function 'add'
__attribute__((noinline)) static void add(double v) { acc += v * v; }

static double f(const double *x) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    acc = 0;
#pragma omp for
    for (int i = 0; i < 64; i++) add(sin(x[i]));
    s += acc;
  }
  return s;
}

int main(void) {
  double x[64] = {0}, g[64] = {0};
  __parad_autodiff((void *)f, x, g);
  return 0;
}
