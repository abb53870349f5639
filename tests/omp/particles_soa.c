// A struct-of-arrays particle system with pairwise forces, a few time steps in one parallel region per step:
// in each step a first 'omp for' computes the force on every particle from all the others (F_i = sum_{j != i}
// (r_j - r_i) / (1 + |r_j - r_i|^2), reading positions other threads own), and a second 'omp for' updates
// velocities and positions (v += dt F, r += dt v); the struct holds the four arrays (x, y, vx, vy) and a force
// scratch (fx, fy) as pointers. Loss: L = sum_i (x_i - 1)^2 + y_i^2 after the steps. No closed form: the
// reverse gradient with respect to the initial x, y, vx, vy is checked against forward tangents along every
// unit direction (tolerance 1e-12), and the tangents against central finite differences (h = 1e-6, tolerance
// 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { double *x, *y, *vx, *vy, *fx, *fy; } System;

enum { P = 8, S = 4 * P, STEPS = 5 };
static const double DT = 0.1;

__attribute__((noinline)) static double run(const double *state, int n, int steps) {
  System s;
  double *buf = malloc(6 * n * sizeof *buf);
  s.x = buf, s.y = buf + n, s.vx = buf + 2 * n, s.vy = buf + 3 * n, s.fx = buf + 4 * n, s.fy = buf + 5 * n;
  for (int i = 0; i < 4 * n; i++) buf[i] = state[i];
  for (int t = 0; t < steps; t++) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 2)
      for (int i = 0; i < n; i++) {
        double fx = 0, fy = 0;
        for (int j = 0; j < n; j++) {
          if (j == i) continue;
          double dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i], w = 1 / (1 + dx * dx + dy * dy);
          fx += dx * w, fy += dy * w;
        }
        s.fx[i] = fx, s.fy[i] = fy;
      }
#pragma omp for
      for (int i = 0; i < n; i++) {
        s.vx[i] += DT * s.fx[i], s.vy[i] += DT * s.fy[i];
        s.x[i] += DT * s.vx[i], s.y[i] += DT * s.vy[i];
      }
    }
  }
  double l = 0;
  for (int i = 0; i < n; i++) l += (s.x[i] - 1) * (s.x[i] - 1) + s.y[i] * s.y[i];
  free(buf);
  return l;
}

static double S0[S];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double st[S];
  for (int i = 0; i < S; i++) st[i] = S0[i] + (i == k) * t;
  return run(st, P, STEPS);
}

int main(void) {
  double st[S], dst[S] = {0}, e[S];
  for (int i = 0; i < S; i++) S0[i] = st[i] = i < 2 * P ? 1.5 * sin(1.3 * i + 0.2) : 0.2 * cos(0.9 * i);
  __parad_autodiff((void *)run, st, dst, parad_const, P, parad_const, STEPS);
  for (int k = 0; k < S; k++) {
    for (int i = 0; i < S; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)run, st, e, parad_const, P, parad_const, STEPS);
    CHECK_CLOSE(dst[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
