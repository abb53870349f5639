// Calls through function pointers in both modes, the shapes programs use: a callback an integrator takes
// (the right-hand side f), a struct of operations reached through the data (s->pot->energy(s), whose table
// is a constant struct and whose functions write active data through their argument), an array of function
// pointers (libm's sin, exp and sqrt among them), a pointer kept in a global struct, and a function passed
// by the caller (as parad_const). Each call looks up, at run time, the derivative of the function the
// pointer holds. Objective J(p, q) = sum over the shapes; every component is checked against central finite
// differences (h = 1e-6, tolerance 1e-7), reverse against forward tangents (1e-12), and vector forward
// (width 2) against the scalar tangents (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct { double d[2]; } Two;
Two __parad_fwddiff2(void *, ...);

enum { NP = 4 };

/* an integrator taking the right-hand side */
typedef void (*Rhs)(const double *y, double *dy, const double *p);
static void decay(const double *y, double *dy, const double *p) { dy[0] = -p[0] * y[0], dy[1] = p[1] * y[0] - y[1]; }
static void pendulum(const double *y, double *dy, const double *p) { dy[0] = y[1], dy[1] = -p[2] * sin(y[0]) - p[3] * y[1]; }

__attribute__((noinline)) static void heun(Rhs f, double *y, const double *p, int steps, double h) {
  double k1[2], k2[2], z[2];
  for (int s = 0; s < steps; s++) {
    f(y, k1, p);
    for (int i = 0; i < 2; i++) z[i] = y[i] + h * k1[i];
    f(z, k2, p);
    for (int i = 0; i < 2; i++) y[i] += 0.5 * h * (k1[i] + k2[i]);
  }
}

/* a table of operations reached through the data */
typedef struct Sys Sys;
typedef struct {
  double (*energy)(const Sys *);
  void (*relax)(Sys *);
} Potential;
struct Sys {
  double x[3];
  const Potential *pot;
};
static double harmonic_energy(const Sys *s) { return 0.5 * (s->x[0] * s->x[0] + 2 * s->x[1] * s->x[1] + 3 * s->x[2] * s->x[2]); }
static void harmonic_relax(Sys *s) { for (int i = 0; i < 3; i++) s->x[i] *= 0.9; }
static double quartic_energy(const Sys *s) { return s->x[0] * s->x[0] * s->x[1] * s->x[1] + s->x[2] * s->x[2] * s->x[2] * s->x[2]; }
static void quartic_relax(Sys *s) { s->x[0] -= 0.1 * s->x[1]; s->x[2] = tanh(s->x[2]); }
static const Potential harmonic = {harmonic_energy, harmonic_relax}, quartic = {quartic_energy, quartic_relax};

/* an array of function pointers, and one in a global struct */
static double square(double v) { return v * v; }
static double (*const unary[])(double) = {square, sin, exp, sqrt};
static double hyp(double a, double b) { return sqrt(a * a + b * b + 1); }
static struct { double (*combine)(double, double); int uses; } config = {hyp, 0};

typedef double (*Weight)(double);
static double soft(double v) { return log(1 + exp(v)); }

__attribute__((noinline)) static double J(const double *p, int which, Weight w) {
  double y[2] = {1.0, 0.5};
  heun(which ? pendulum : decay, y, p, 40, 0.02);
  Sys s = {{p[0], p[1], p[2]}, which ? &quartic : &harmonic};
  s.pot->relax(&s);
  double e = s.pot->energy(&s);
  double u = 0;
  for (int i = 0; i < 4; i++) u += unary[i](0.5 + 0.1 * i * p[i % NP] * p[i % NP]);
  config.uses++;
  return y[0] * y[1] + e + u + config.combine(p[1], p[3]) + w(p[2] - p[0]);
}

static double P[NP];
static int WHICH;
static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double p[NP];
  for (int i = 0; i < NP; i++) p[i] = P[i] + (i == k) * t;
  return J(p, WHICH, soft);
}

int main(void) {
  for (int i = 0; i < NP; i++) P[i] = 0.3 + 0.2 * i;
  for (WHICH = 0; WHICH < 2; WHICH++) {
    double dp[NP] = {0}, t[NP], e[2][NP];
    __parad_autodiff((void *)J, P, dp, WHICH, parad_const, soft);
    for (int k = 0; k < NP; k++) {
      CHECK_CLOSE(dp[k], fd_central(along, &k, 0, 1e-6), 1e-7);
      for (int i = 0; i < NP; i++) e[0][i] = i == k, e[1][i] = i == (k + 1) % NP;
      t[k] = __parad_fwddiff((void *)J, P, e[0], WHICH, parad_const, soft);
      CHECK_CLOSE(t[k], dp[k], 1e-12);
      Two t2 = __parad_fwddiff2((void *)J, parad_width, 2, P, e[0], e[1], WHICH, parad_const, soft);
      CHECK_CLOSE(t2.d[0], dp[k], 1e-12);
      CHECK_CLOSE(t2.d[1], dp[(k + 1) % NP], 1e-12);
    }
  }
  return check_done();
}
