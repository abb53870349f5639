// Custom gradients for functions defined in another file (Inputs/morse.c, compiled with plain parad-cc and
// linked in): a Morse pair energy whose augmented function returns {energy, tape} with the pair distances
// on its own heap tape, and a point rotation (void, writing through a pointer) whose gradient adds into
// the input's shadow, consumes the output's and returns the angle's adjoint. A model rotates every point
// and sums the energy and a confinement term. The gradient against central finite differences of the
// real model (h = 1e-6, tolerance 1e-7) and against the forward tangents of an in-file twin of the model
// with the same formulas (forward mode needs the bodies) along every unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s %S/Inputs/morse.c -o %t && %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

typedef struct { double deps, dangle; } G2;
G2 __parad_autodiff2(void *, ...);
double __parad_fwddiff(void *, ...);

double morse_energy(const double *pos, int n, double eps);
void rotate_point(const double *in, double *out, double angle);

typedef struct { double e; void *tape; } EnergyAndTape;
static EnergyAndTape aug_morse(const double *pos, double *dpos, int n, double eps) {
  double *r = malloc((size_t)n * n * sizeof *r);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = pos[2 * i] - pos[2 * j], dy = pos[2 * i + 1] - pos[2 * j + 1];
      r[i * n + j] = sqrt(dx * dx + dy * dy);
    }
  EnergyAndTape et = {morse_energy(pos, n, eps), r};
  return et;
}
static double grad_morse(const double *pos, double *dpos, int n, double eps, double de, void *tape) {
  double *r = tape, deps = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double rij = r[i * n + j], ex = exp(-(rij - 1)), q = 1 - ex;
      deps += de * q * q;
      double dr = de * eps * 2 * q * ex; /* d/dr of eps q^2 */
      for (int c = 0; c < 2; c++) {
        double g = dr * (pos[2 * i + c] - pos[2 * j + c]) / rij;
        dpos[2 * i + c] += g;
        dpos[2 * j + c] -= g;
      }
    }
  free(r);
  return deps;
}
void *__parad_register_gradient_morse_energy[3] = {(void *)morse_energy, (void *)aug_morse, (void *)grad_morse};

static void aug_rotate(const double *in, double *din, double *out, double *dout, double angle) { rotate_point(in, out, angle); }
static double grad_rotate(const double *in, double *din, double *out, double *dout, double angle) {
  double c = cos(angle), s = sin(angle);
  din[0] += c * dout[0] + s * dout[1];
  din[1] += -s * dout[0] + c * dout[1];
  double da = dout[0] * (-s * in[0] - c * in[1]) + dout[1] * (c * in[0] - s * in[1]);
  dout[0] = dout[1] = 0;
  return da;
}
void *__parad_register_gradient_rotate_point[3] = {(void *)rotate_point, (void *)aug_rotate, (void *)grad_rotate};

static double model(const double *pos, double *rot, int n, double eps, double angle) {
  for (int i = 0; i < n; i++) rotate_point(&pos[2 * i], &rot[2 * i], angle * (1 + 0.1 * i));
  double conf = 0;
  for (int i = 0; i < n; i++) conf += rot[2 * i] * rot[2 * i] * 0.05 + rot[2 * i + 1] * 0.1;
  return morse_energy(rot, n, eps) + conf;
}

/* the twin, with the bodies in this file */
static double twin_energy(const double *pos, int n, double eps) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = pos[2 * i] - pos[2 * j], dy = pos[2 * i + 1] - pos[2 * j + 1];
      double q = 1 - exp(-(sqrt(dx * dx + dy * dy) - 1));
      e += eps * q * q;
    }
  return e;
}
static void twin_rotate(const double *in, double *out, double angle) {
  double c = cos(angle), s = sin(angle);
  out[0] = c * in[0] - s * in[1];
  out[1] = s * in[0] + c * in[1];
}
static double twin_model(const double *pos, double *rot, int n, double eps, double angle) {
  for (int i = 0; i < n; i++) twin_rotate(&pos[2 * i], &rot[2 * i], angle * (1 + 0.1 * i));
  double conf = 0;
  for (int i = 0; i < n; i++) conf += rot[2 * i] * rot[2 * i] * 0.05 + rot[2 * i + 1] * 0.1;
  return twin_energy(rot, n, eps) + conf;
}

enum { N = 5, D = 2 * N };
static double P0[D];

static double along(void *ctx, double t) { /* unit direction k of (pos, eps, angle) */
  int k = *(int *)ctx;
  double pos[D], rot[D];
  for (int i = 0; i < D; i++) pos[i] = P0[i] + (i == k) * t;
  return model(pos, rot, N, 0.8 + (k == D) * t, 0.4 + (k == D + 1) * t);
}

int main(void) {
  double pos[D], dpos[D] = {0}, rot[D], drot[D] = {0};
  for (int i = 0; i < N; i++) P0[2 * i] = pos[2 * i] = 1.1 * cos(1.3 * i) + 0.2 * i, P0[2 * i + 1] = pos[2 * i + 1] = 0.9 * sin(1.3 * i);
  G2 g = __parad_autodiff2((void *)model, pos, dpos, rot, drot, parad_const, N, 0.8, 0.4);
  for (int k = 0; k < D + 2; k++) {
    double got = k < D ? dpos[k] : k == D ? g.deps : g.dangle;
    CHECK_CLOSE(got, fd_central(along, &k, 0, 1e-6), 1e-7);
    double e[D], rot2[D], drot2[D];
    for (int i = 0; i < D; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)twin_model, pos, e, rot2, drot2, parad_const, N, 0.8, (double)(k == D), 0.4, (double)(k == D + 1));
    CHECK_CLOSE(got, t, 1e-12);
  }
  return check_done();
}
