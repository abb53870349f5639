// Whole-struct assignments between records {double a; int k; double b; float c;} at computed indices:
// after optimisation each copy moves the int with its padding, and the float with its padding, as one
// i64 at a byte offset (getelementptr i8). The int's i64 needs no adjoint; the float's carries one float
// lane (the other lane is padding). Both were refused ("cannot tell whether this integer store ...
// carries floating-point data"; found by the fuzzer). Checked against the same shuffle carrying
// hand-written tangents along each unit direction (tolerance 1e-5: the float field rounds), at -O2 and
// -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_autodiff(void *, ...);

typedef struct {
  double a;
  int k;
  double b;
  float c;
} Rec;
enum { N = 5 };

__attribute__((noinline)) static double shuffle(const double *x, int rounds) {
  Rec r[N];
  for (int i = 0; i < N; i++) r[i].a = x[i], r[i].k = i % 3, r[i].b = -x[i], r[i].c = (float)(2 * x[i]);
  for (int t = 0; t < rounds; t++) {
    Rec tmp = r[(t + 1) % N]; /* copy out, change one field, copy back elsewhere */
    tmp.b = tmp.b * tmp.a;
    r[t % N] = tmp;
    Rec u = r[(3 * t + 2) % N];
    r[(t + 3) % N] = u;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += r[i].a * r[i].k + r[i].b + r[i].c * r[i].c;
  return s;
}

/* The same moves, each field with its tangent beside it. */
typedef struct {
  double a, da;
  int k;
  double b, db;
  float c;
  double dc;
} Dual;

static double shuffle_tangent(const double *x, const double *dx, int rounds) {
  Dual r[N];
  for (int i = 0; i < N; i++)
    r[i] = (Dual){x[i], dx[i], i % 3, -x[i], -dx[i], (float)(2 * x[i]), 2 * dx[i]};
  for (int t = 0; t < rounds; t++) {
    Dual tmp = r[(t + 1) % N];
    tmp.db = tmp.db * tmp.a + tmp.b * tmp.da;
    tmp.b = tmp.b * tmp.a;
    r[t % N] = tmp;
    Dual u = r[(3 * t + 2) % N];
    r[(t + 3) % N] = u;
  }
  double ds = 0;
  for (int i = 0; i < N; i++) ds += r[i].da * r[i].k + r[i].db + 2 * r[i].c * r[i].dc;
  return ds;
}

int main(void) {
  double x[N] = {0.5, -1.25, 2, 0.75, 1.5}, dx[N] = {0};
  __parad_autodiff((void *)shuffle, x, dx, 4);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(dx[i], shuffle_tangent(x, e, 4), 1e-5);
  }
  return check_done();
}
