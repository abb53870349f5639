// An array of structs in reverse mode: softened-gravity N-body particles {x, y, vx, vy, m} advanced in
// place for 25 leapfrog steps, with the accelerations in a local array of structs recomputed every step
// (pairwise loops writing both partners). The gradient of a final objective (the x-coordinate of the
// centre of mass plus the kinetic energy) with respect to every field of every particle (masses
// included) and to the time step, against central finite differences (h = 1e-6, tolerance 1e-7) and the
// forward tangent along every unit direction (tolerance 1e-11).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { double x, y, vx, vy, m; } Body;
typedef struct { double ax, ay; } Acc;

enum { N = 4, F = 5 * N, STEPS = 25 };

static void accel(const Body *b, Acc *a, int n) {
  for (int i = 0; i < n; i++) a[i].ax = a[i].ay = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = b[j].x - b[i].x, dy = b[j].y - b[i].y;
      double r2 = dx * dx + dy * dy + 0.05, inv = 1 / (r2 * sqrt(r2));
      a[i].ax += b[j].m * dx * inv, a[i].ay += b[j].m * dy * inv;
      a[j].ax -= b[i].m * dx * inv, a[j].ay -= b[i].m * dy * inv;
    }
}

__attribute__((noinline)) static double simulate(Body *b, int n, int steps, double dt) {
  Acc a[N];
  accel(b, a, n);
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      b[i].vx += 0.5 * dt * a[i].ax, b[i].vy += 0.5 * dt * a[i].ay;
      b[i].x += dt * b[i].vx, b[i].y += dt * b[i].vy;
    }
    accel(b, a, n);
    for (int i = 0; i < n; i++) b[i].vx += 0.5 * dt * a[i].ax, b[i].vy += 0.5 * dt * a[i].ay;
  }
  double mx = 0, mt = 0, ke = 0;
  for (int i = 0; i < n; i++) {
    mx += b[i].m * b[i].x, mt += b[i].m;
    ke += 0.5 * b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy);
  }
  return mx / mt + ke;
}

static Body B0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  Body b[N];
  memcpy(b, B0, sizeof b);
  if (k < F) ((double *)b)[k] += t;
  return simulate(b, N, STEPS, 0.02 + (k == F) * t);
}

int main(void) {
  for (int i = 0; i < N; i++) B0[i] = (Body){cos(1.6 * i), sin(1.6 * i), -0.3 * sin(1.6 * i), 0.3 * cos(1.6 * i), 1 + 0.2 * i};
  Body b[N], db[N];
  memcpy(b, B0, sizeof b);
  memset(db, 0, sizeof db);
  double ddt = __parad_autodiff((void *)simulate, b, db, parad_const, N, parad_const, STEPS, 0.02);
  for (int k = 0; k <= F; k++) {
    double got = k < F ? ((double *)db)[k] : ddt;
    CHECK_CLOSE(got, fd_central(along, &k, 0, 1e-6), 1e-7);
    Body b2[N], e[N];
    memcpy(b2, B0, sizeof b2);
    memset(e, 0, sizeof e);
    if (k < F) ((double *)e)[k] = 1;
    CHECK_CLOSE(got, __parad_fwddiff((void *)simulate, b2, e, parad_const, N, parad_const, STEPS, 0.02, (double)(k == F)), 1e-11);
  }
  return check_done();
}
