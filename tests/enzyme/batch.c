// Enzyme's batch mode, written as Enzyme's users write it: __enzyme_batch(f, enzyme_width, W, args...)
// returns f's W results (a struct of them), an argument taking one value per lane (by default, or after
// enzyme_vector) or one for all lanes (after enzyme_scalar). Checked against calls of f lane by lane
// (exactly: the same operations): squares at 4 lanes (Enzyme's tutorial), relu with a scalar slope at 2,
// floats at 3, a void function writing through one pointer per lane, and a batch inside a function
// differentiated in reverse and forward mode (against the analytic derivative, 1e-14). At -O2 and -O0;
// enzyme_buffer is refused by name.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: rm -f %t1 && not %parad-cc %cflags -DBUFFER %s -o %t1 2>&1 | FileCheck %s
// RUN: test ! -e %t1
#include <math.h>
#include "check.h"

typedef struct {
  double x1, x2, x3, x4;
} Vector;
typedef struct {
  double a, b;
} Two;
typedef struct {
  float p, q, r;
} Floats;
int enzyme_width, enzyme_vector, enzyme_scalar, enzyme_buffer;
extern Vector __enzyme_batch(void *, ...);
extern Two __enzyme_batch_two(void *, ...);
extern Floats __enzyme_batch_floats(void *, ...);
extern void __enzyme_batch_void(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static double square(double x) { return x * x; }
static double relu(double x, double a) { return x > 0 ? x * a : x; }
static float halve(float x) { return x * 0.5f + sinf(x); }
static void scale(double *y, const double *x, double s) {
  for (int i = 0; i < 3; i++) y[i] = s * x[i] * x[i];
}

/* g(x) = relu(sin x, 3) relu(x - 2, 3) through one batch of two lanes */
static double g(double x) {
  Two t = __enzyme_batch_two((void *)relu, enzyme_width, 2, sin(x), x - 2, enzyme_scalar, 3.0);
  return t.a * t.b;
}

int main(void) {
  Vector v = __enzyme_batch((void *)square, enzyme_width, 4, enzyme_vector, 23.1, 10.0, 100.0, 3.14);
  CHECK_CLOSE(v.x1, square(23.1), 0);
  CHECK_CLOSE(v.x2, square(10.0), 0);
  CHECK_CLOSE(v.x3, square(100.0), 0);
  CHECK_CLOSE(v.x4, square(3.14), 0);
  Two t = __enzyme_batch_two((void *)relu, enzyme_width, 2, enzyme_vector, -1.5, 2.0, enzyme_scalar, 3.0);
  CHECK_CLOSE(t.a, relu(-1.5, 3.0), 0);
  CHECK_CLOSE(t.b, relu(2.0, 3.0), 0);
  Floats f = __enzyme_batch_floats((void *)halve, enzyme_width, 3, 0.25f, 1.5f, -2.0f);
  CHECK_CLOSE(f.p, halve(0.25f), 0);
  CHECK_CLOSE(f.q, halve(1.5f), 0);
  CHECK_CLOSE(f.r, halve(-2.0f), 0);
  double x[2][3] = {{1, 2, 3}, {-1, 0.5, 4}}, y[2][3];
  __enzyme_batch_void((void *)scale, enzyme_width, 2, enzyme_vector, y[0], y[1], x[0], x[1], enzyme_scalar, 0.5);
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < 3; i++) CHECK_CLOSE(y[l][i], 0.5 * x[l][i] * x[l][i], 0);
#ifdef BUFFER
  double lanes[6] = {0};
  // CHECK: batch.c:[[@LINE+1]]:3: error: __enzyme_batch_void: the marker 'enzyme_buffer' is not supported in batch mode (enzyme_scalar or enzyme_vector)
  __enzyme_batch_void((void *)scale, enzyme_width, 2, enzyme_buffer, 3, lanes, x[0], x[1], enzyme_scalar, 0.5);
#endif
  for (double a = 0.5; a < 4; a += 0.7) { /* relu's kinks at sin a = 0 and a = 2 are not met */
    double s = sin(a), ga = (s > 0 ? 3 * cos(a) : cos(a)) * relu(a - 2, 3) + relu(s, 3) * (a > 2 ? 3 : 1);
    CHECK_CLOSE(__enzyme_autodiff((void *)g, a), ga, 1e-14);
    CHECK_CLOSE(__enzyme_fwddiff((void *)g, a, 1.0), ga, 1e-14);
  }
  return check_done();
}
