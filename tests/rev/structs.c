// Structs in reverse mode: fields read and written through a duplicated struct pointer (integer fields
// among them), a struct returned by value from a helper, and an orbit integrated over many steps.
// Finite differences (h = 1e-6, tolerance 1e-7) and forward tangents (tolerance 1e-10).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { double x, y, vx, vy; int steps; } Particle;
typedef struct { double re, im; } Complex;

__attribute__((noinline)) static Complex cmul(Complex a, Complex b) {
  Complex c = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return c;
}

__attribute__((noinline)) static double advance(Particle *p, double dt) {
  for (int i = 0; i < p->steps; i++) {
    double r2 = p->x * p->x + p->y * p->y;
    double f = -1 / (r2 * sqrt(r2));
    p->vx += dt * f * p->x;
    p->vy += dt * f * p->y;
    p->x += dt * p->vx;
    p->y += dt * p->vy;
  }
  Complex z = {p->x, p->y};
  Complex z2 = cmul(z, z);
  return z2.re + 0.5 * z2.im;
}

static double run(double dt) {
  Particle p = {1, 0, 0, 1, 20};
  return advance(&p, dt);
}

int main(void) {
  double dt = 0.05, h = 1e-6;
  Particle p = {1, 0, 0, 1, 20}, dp = {0, 0, 0, 0, 0};
  double ddt = __parad_autodiff((void *)advance, &p, &dp, dt);
  CHECK_CLOSE(ddt, (run(dt + h) - run(dt - h)) / (2 * h), 1e-7);
  Particle q = {1, 0, 0, 1, 20}, dq = {0, 0, 0, 0, 0};
  CHECK_CLOSE(ddt, __parad_fwddiff((void *)advance, &q, &dq, dt, 1.0), 1e-10);
  /* the initial state's gradient lands in the shadow struct */
  Particle a = {1 + h, 0, 0, 1, 20}, b = {1 - h, 0, 0, 1, 20};
  CHECK_CLOSE(dp.x, (advance(&a, dt) - advance(&b, dt)) / (2 * h), 1e-7);
  return check_done();
}
