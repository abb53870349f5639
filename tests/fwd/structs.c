// Structs: fields read and written through a duplicated struct pointer (the shadow struct holds the
// fields' tangents), a struct returned by value, and a struct passed by value to a helper.
// Finite differences, h = 1e-6, tolerance 1e-7.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

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
  double d = __parad_fwddiff((void *)advance, &p, &dp, dt, 1.0);
  CHECK_CLOSE(d, (run(dt + h) - run(dt - h)) / (2 * h), 1e-7);
  /* the shadow struct now holds the tangents of the final state */
  Particle q1 = {1, 0, 0, 1, 20}, q2 = {1, 0, 0, 1, 20};
  advance(&q1, dt + h), advance(&q2, dt - h);
  CHECK_CLOSE(dp.x, (q1.x - q2.x) / (2 * h), 1e-7);
  CHECK_CLOSE(dp.vy, (q1.vy - q2.vy) / (2 * h), 1e-7);
  return check_done();
}
