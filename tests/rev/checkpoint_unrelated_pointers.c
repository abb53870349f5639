// A checkpointed loop whose step calls through a function pointer (a model's pair potential), its model
// passed constant: the step's notes may keep that pointer without a shadow where no other function a
// derivative may be made of calls the function. Functions reached through pointers were taken to be every
// function whose address is taken, so a finite-difference helper handed to another function (a pointer of
// another type, never differentiated) that calls run() with a global model refused the gradient ("parameter
// 2 of 'run', passed as constant; pass it with parad_dup"). Only the functions of the call's type are reached
// now, as the derivatives' table holds them. The gradient is checked against central differences
// (h = 1e-6, relative 1e-6), at -O2 and -O0, and the helper's own difference against it.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

void __parad_checkpoint_loop(void);
double __parad_autodiff(void *, ...);
extern int parad_const;

typedef struct { double eps, sig; } Prm;
typedef double (*PairFn)(double r, const Prm *p, double *dv);
typedef struct { PairFn fn; } Model;

static double lj(double r, const Prm *p, double *dv) {
  double s6 = pow(p->sig / r, 6);
  *dv = -24 * p->eps * (2 * s6 * s6 - s6) / r;
  return 4 * p->eps * (s6 * s6 - s6);
}

double run(double *x, const Model *m, const Prm *p, int steps) {
  double v = 0, dt = 0.01, dv;
  for (int t = 0; t < steps; t++) {
    __parad_checkpoint_loop();
    m->fn(*x, p, &dv);
    v -= dt * dv;
    *x += dt * v;
  }
  return *x;
}

Model M = {lj};
static Prm P0 = {1.0, 1.0};
static double fx(double *x) {
  double y = *x;
  return run(&y, &M, &P0, 100);
}
static double fd(double (*f)(double *), double x, double h) {
  double a = x + h, b = x - h;
  return (f(&a) - f(&b)) / (2 * h);
}

int main(void) {
  double x = 1.05, dx = 0, h = 1e-6;
  Prm P = {1.0, 1.0}, dP = {0, 0};
  __parad_autodiff((void *)run, &x, &dx, parad_const, &M, &P, &dP, 100);
  double a = 1.05 + h, b = 1.05 - h;
  CHECK_CLOSE(dx, (run(&a, &M, &P, 100) - run(&b, &M, &P, 100)) / (2 * h), 1e-6);
  CHECK_CLOSE(fd(fx, 1.05, h), dx, 1e-6);
  double e = P.eps, d = 1e-6;
  P.eps = e + d, a = 1.05;
  double up = run(&a, &M, &P, 100);
  P.eps = e - d, b = 1.05;
  double down = run(&b, &M, &P, 100);
  P.eps = e;
  CHECK_CLOSE(dP.eps, (up - down) / (2 * d), 1e-6);
  return check_done();
}
