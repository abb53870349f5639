// A struct of pointers returned through a function pointer: which function gives it, and so where its
// pointer's shadow is, is not followed. Reverse mode refuses the pointer taken out of it, with the place
// and the function, and leaves no output file. A struct returned by a function called directly is
// differentiated (tests/rev/pointers_in_returned_structs.c); the field rule that made that work first left
// this pointer without a shadow, and the gradient was zero with no message.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: struct_pointers_unfollowed.c:[[@LINE+14]]:14: error: cannot differentiate a pointer taken out of a struct returned through a function pointer{{.*}}in function 'picked_value'
double __parad_autodiff(void *, ...);
typedef struct {
  double *data;
  long n;
} Span;
__attribute__((noinline)) static Span tail(double *x, long n) { return (Span){x + 1, n - 1}; }
__attribute__((noinline)) static Span head(double *x, long n) { return (Span){x, n - 1}; }
Span (*pick[2])(double *, long) = {tail, head};
int which;

double picked_value(double *x) {
  double r = 0;
  for (int k = 0; k < 2; k++) {
    Span s = pick[which](x, 4);
    for (long i = 0; i < s.n; i++) r += s.data[i] * s.data[i];
  }
  return r;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  __parad_autodiff((void *)picked_value, x, g);
  return g[1] != 4;
}
