// A function returning a struct of more than 16 bytes (C returns it through memory the caller passes,
// sret) is refused in reverse mode: its adjoint would have to come in through a shadow of that memory,
// which the call has no place for; and in forward mode where the call is not declared returning a struct
// of that size. The message named the wrong parameter ("the argument for parameter #2 does not have the
// parameter's type", counting the hidden one). file:line:col, the function, the way out; exit status
// non-zero; no output file. Forward mode declared right: tests/fwd/struct_result_memory.c.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
typedef struct { double x, y, z; } Vec3;
typedef struct { double x, y, z, w; } Vec4;
Vec4 __parad_fwddiff4(void *, ...);
Vec3 __parad_autodiff3(void *, ...);

static Vec3 rot(const Vec3 *a, double t) { return (Vec3){a->x * cos(t), a->y * sin(t), t * t}; }

int main(void) {
  Vec3 a = {0.3, -0.5, 0.9};
  // CHECK: struct_result_memory.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff4: declare the call as returning the struct 'rot' returns (24 bytes)
  Vec4 d = __parad_fwddiff4((void *)rot, &a, &a, 0.6, 1.0);
  // CHECK: struct_result_memory.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff3: 'rot' returns a struct through memory (more than 16 bytes), whose derivative the call cannot give back: write the result through a pointer parameter instead, and pass it with a shadow
  Vec3 g = __parad_autodiff3((void *)rot, &a, &a, 0.6);
  return d.x + g.x > 0;
}
