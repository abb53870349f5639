// A struct passed by value whose float fields share an integer register with an integer field (x86-64
// passes `{float x, y, z; int i;}` as <2 x float> and an i64 holding z and i): the request took the i64 for
// an integer without derivative, and z's tangent was dropped (forward mode gave 0 for 12) and its gradient
// missing. Refused now, in both modes, pointing at the call; `{float u, v; int n;}` (the int alone in its
// register) is differentiated (tests/rev/struct_gradients_c_layout.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
extern int parad_dup;

typedef struct { float x, y, z; int i; } P;
typedef struct { P dp; } Grad;
float tangent(void *, ...) __asm__("__parad_fwddiff");
Grad gradient(void *, ...) __asm__("__parad_autodiff");

static float f(P p) { return p.x * p.y + p.z * p.z * p.i; }

int main(void) {
  P p = {1, 2, 3, 2}, dp = {0, 0, 1, 0};
  // CHECK: struct_floats_in_integer_register.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: parameter #1 of 'f' is a struct that the C ABI passes with float fields and integer fields in one integer register, where their derivatives cannot be followed: pass a pointer to it (parad_dup, with a shadow) instead
  float t = tangent((void *)f, parad_dup, p, dp);
  // CHECK: struct_floats_in_integer_register.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parameter #1 of 'f' is a struct
  Grad g = gradient((void *)f, p);
  return (int)(t + g.dp.x);
}
