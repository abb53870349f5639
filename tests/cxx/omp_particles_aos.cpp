// Pair forces over an array of structs in std::vector<Particle> (Particle = {x, y, z, fx, fy, fz}) in a
// 'parallel for' over the particles: particle i loops over every j != i and adds into its own force only;
// the energy is a reduction(+). Pair potential with a cutoff: V(r^2) = (1/r^2 - 1/rc^2)^2 for r < rc, 0
// beyond (V and V' vanish at rc). E = 1/2 sum_{i != j} V(r_ij^2), F_i = sum_j 4 (1/r^2 - 1/rc^2) / r^4 (p_i - p_j),
// the positions p copied from x (3 per particle) into the vector, the forces copied out at the end.
// Checks: E's gradient (force shadows not seeded) against -F as the program computed it (tolerance 1e-12)
// and against central finite differences of E (h = 1e-6, 1e-7); the gradient of E + w . F (force shadows
// seeded with w) against central finite differences (h = 1e-6, 1e-6); forward tangents along every unit
// direction: E's against -F (1e-12) and w . F's against the second gradient minus the first (1e-12). A
// premise: no pair distance within 1e-3 of rc. At 1, 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

struct Particle {
  double x, y, z, fx, fy, fz;
};

enum { P = 18, M = 3 * P };
static const double RC = 1.6, RC2 = RC * RC;

__attribute__((noinline)) static double forces(const double *pos, double *force, int n) {
  std::vector<Particle> p(n);
  for (int i = 0; i < n; i++) p[i] = Particle{pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], 0, 0, 0};
  double e = 0;
#pragma omp parallel for reduction(+ : e) schedule(dynamic, 2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y, dz = p[i].z - p[j].z, r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= RC2) continue;
      double s = 1 / r2 - 1 / RC2, g = 4 * s / (r2 * r2);
      e += 0.5 * s * s;
      p[i].fx += g * dx, p[i].fy += g * dy, p[i].fz += g * dz;
    }
  for (int i = 0; i < n; i++) force[3 * i] = p[i].fx, force[3 * i + 1] = p[i].fy, force[3 * i + 2] = p[i].fz;
  return e;
}

static double X0[M], W[M];

static double along(void *ctx, double h) { /* E + ctx[1] w . F along coordinate ctx[0] */
  int *c = (int *)ctx;
  double x[M], f[M];
  for (int q = 0; q < M; q++) x[q] = X0[q] + (q == c[0]) * h;
  double e = forces(x, f, P);
  if (c[1])
    for (int q = 0; q < M; q++) e += W[q] * f[q];
  return e;
}

int main() {
  double x[M], f[M], f0[M], dE[M] = {0}, dF[M] = {0}, df0[M] = {0}, dfw[M];
  for (int i = 0; i < P; i++) { /* a 3 x 3 x 2 lattice of spacing 1, jittered */
    int a = i % 3, b = i / 3 % 3, c = i / 9;
    X0[3 * i] = a + 0.1 * std::sin(1.7 * i), X0[3 * i + 1] = b + 0.1 * std::cos(2.3 * i), X0[3 * i + 2] = c + 0.08 * std::sin(0.9 * i + 1);
  }
  for (int q = 0; q < M; q++) x[q] = X0[q], W[q] = dfw[q] = 0.5 * std::sin(0.61 * q) + 0.2;
  int pairs = 0;
  for (int i = 0; i < P; i++)
    for (int j = 0; j < i; j++) {
      double r = std::sqrt(std::pow(x[3 * i] - x[3 * j], 2) + std::pow(x[3 * i + 1] - x[3 * j + 1], 2) + std::pow(x[3 * i + 2] - x[3 * j + 2], 2));
      if (std::fabs(r - RC) < 1e-3) printf("FAIL: a pair at the cutoff\n"), check_failures++;
      pairs += r < RC;
    }
  if (pairs == 0 || pairs == P * (P - 1) / 2) printf("FAIL: the cutoff selects no pair or every pair\n"), check_failures++;
  double e = forces(x, f0, P);
  __parad_autodiff((void *)forces, x, dE, f, df0, parad_const, (int)P);
  __parad_autodiff((void *)forces, x, dF, f, dfw, parad_const, (int)P);
  for (int k = 0; k < M; k++) {
    int c0[2] = {k, 0}, c1[2] = {k, 1};
    CHECK_CLOSE(dE[k], -f0[k], 1e-12);
    CHECK_CLOSE(dE[k], fd_central(along, c0, 0, 1e-6), 1e-7);
    CHECK_CLOSE(dF[k], fd_central(along, c1, 0, 1e-6), 1e-6);
    double v[M] = {0}, t[M], tw = 0;
    v[k] = 1;
    double te = __parad_fwddiff((void *)forces, x, v, f, t, parad_const, (int)P);
    for (int q = 0; q < M; q++) tw += W[q] * t[q];
    CHECK_CLOSE(te, -f0[k], 1e-12);
    CHECK_CLOSE(tw, dF[k] - dE[k], 1e-12);
  }
  CHECK_CLOSE(e, forces(x, f, P), 1e-14);
  return check_done();
}
