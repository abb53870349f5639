// An array-of-structs particle update over several time steps, one 'parallel for' per step: each particle {x,
// y, vx, vy} in a central force field F = -k r |r| (symplectic Euler: v += dt F(r), r += dt v), updated in
// place in the caller's array (input and output), with k an active scalar. The loss is E = sum_p (x_p^2 +
// y_p^2 + 0.5 |v_p|^2) at the end, computed by a 'parallel for' reduction. No closed form over steps: the
// reverse gradient (all particle fields and k) is checked against forward tangents along every unit direction
// (tolerance 1e-12), and the tangents against central finite differences (h = 1e-6, tolerance 1e-7). With 1
// step, the gradient with respect to k is also checked against its analytic value (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <string.h>
#include "check.h"

typedef struct { double x, y, vx, vy; } Particle;
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { P = 10, F = 4 * P };
static const double DT = 0.05;

__attribute__((noinline)) static double simulate(Particle *p, double k, int n, int steps) {
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for schedule(static, 3)
    for (int i = 0; i < n; i++) {
      double r = sqrt(p[i].x * p[i].x + p[i].y * p[i].y);
      p[i].vx -= DT * k * p[i].x * r;
      p[i].vy -= DT * k * p[i].y * r;
      p[i].x += DT * p[i].vx;
      p[i].y += DT * p[i].vy;
    }
  }
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++) e += p[i].x * p[i].x + p[i].y * p[i].y + 0.5 * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
  return e;
}

static Particle P0[P];
static const double K = 1.3;
static int Steps;

static void init(Particle *p) { memcpy(p, P0, sizeof P0); }

static double along(void *ctx, double t) {
  int q = *(int *)ctx;
  Particle p[P];
  init(p);
  if (q < F) ((double *)p)[q] += t;
  return simulate(p, K + (q == F) * t, P, Steps);
}

int main(void) {
  for (int i = 0; i < P; i++) P0[i] = (Particle){cos(0.7 * i) + 0.2, sin(1.1 * i) - 0.1, 0.3 * sin(i), -0.2 * cos(2.0 * i)};
  for (Steps = 1; Steps <= 8; Steps += 7) {
    Particle p[P], dp[P], e[P];
    init(p);
    memset(dp, 0, sizeof dp);
    double dk = __parad_autodiff((void *)simulate, p, dp, K, parad_const, P, parad_const, Steps);
    if (Steps == 1) { /* dE/dk = sum_p -DT r (2 DT (x x_1 + y y_1) + vx_1 x + vy_1 y) with x_1 = x + DT vx_1 */
      double want = 0;
      for (int i = 0; i < P; i++) {
        Particle a = P0[i];
        double r = sqrt(a.x * a.x + a.y * a.y), vx = a.vx - DT * K * a.x * r, vy = a.vy - DT * K * a.y * r;
        double x1 = a.x + DT * vx, y1 = a.y + DT * vy;
        want += -DT * r * (2 * DT * (a.x * x1 + a.y * y1) + vx * a.x + vy * a.y);
      }
      CHECK_CLOSE(dk, want, 1e-12);
    }
    for (int q = 0; q <= F; q++) {
      init(p);
      memset(e, 0, sizeof e);
      if (q < F) ((double *)e)[q] = 1;
      double t = __parad_fwddiff((void *)simulate, p, e, K, (double)(q == F), parad_const, P, parad_const, Steps);
      CHECK_CLOSE(q < F ? ((double *)dp)[q] : dk, t, 1e-12);
      CHECK_CLOSE(t, fd_central(along, &q, 0, 1e-6), 1e-7);
    }
  }
  return check_done();
}
