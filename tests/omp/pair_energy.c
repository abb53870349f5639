// A pair-potential energy by reduction: E = sum_{i<j} phi(|r_i - r_j|^2) with phi(s) = 1/(1 + s) + 0.1 s,
// particles in 3-D, as a 'parallel for schedule(dynamic, 1)' over i with 'reduction(+ : E)' (triangular work).
// The gradient (minus the forces) has, for each particle, terms from every other particle's iterations.
// Analytic: dE/dr_k = sum_{j != k} phi'(s_kj) 2 (r_k - r_j) (tolerance 1e-12); forward tangents along every
// unit direction (1e-12); central finite differences (h = 1e-6, tolerance 1e-7). A second version accumulates
// per-particle energies e_i = sum_{j != i} phi(s_ij) / 2 in an output array (each thread writing its own e_i),
// seeded with a weight vector in reverse mode.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

enum { P = 9, D = 3 };

static double phi(double s) { return 1 / (1 + s) + 0.1 * s; }
static double dphi(double s) { return -1 / ((1 + s) * (1 + s)) + 0.1; }

__attribute__((noinline)) static double energy(const double *r, int n) {
  double e = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double s = 0;
      for (int d = 0; d < D; d++) s += (r[i * D + d] - r[j * D + d]) * (r[i * D + d] - r[j * D + d]);
      e += phi(s);
    }
  return e;
}

__attribute__((noinline)) static void per_particle(const double *r, double *out, int n) {
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; i++) {
    double e = 0;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      double s = 0;
      for (int d = 0; d < D; d++) s += (r[i * D + d] - r[j * D + d]) * (r[i * D + d] - r[j * D + d]);
      e += 0.5 * phi(s);
    }
    out[i] = e;
  }
}

static double R0[P * D];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double r[P * D];
  for (int i = 0; i < P * D; i++) r[i] = R0[i] + (i == k) * t;
  return energy(r, P);
}

int main(void) {
  double r[P * D], dr[P * D] = {0}, gr[P * D] = {0}, e[P * D], want[P * D] = {0}, out[P], dout[P], v[P];
  for (int i = 0; i < P * D; i++) R0[i] = r[i] = 1.5 * sin(1.37 * i + 0.4);
  for (int i = 0; i < P; i++) v[i] = dout[i] = 1 + 0.3 * i;
  __parad_autodiff((void *)energy, r, dr, parad_const, P);
  __parad_autodiff((void *)per_particle, r, gr, out, dout, parad_const, P);
  double wantv[P * D] = {0};
  for (int i = 0; i < P; i++)
    for (int j = 0; j < P; j++) {
      if (i == j) continue;
      double s = 0;
      for (int d = 0; d < D; d++) s += (r[i * D + d] - r[j * D + d]) * (r[i * D + d] - r[j * D + d]);
      for (int d = 0; d < D; d++) {
        double g = dphi(s) * 2 * (r[i * D + d] - r[j * D + d]);
        want[i * D + d] += g;                          /* the pair (i, j) once from each side */
        wantv[i * D + d] += 0.5 * (v[i] + v[j]) * g;   /* e_i and e_j both hold phi(s_ij) / 2 */
      }
    }
  for (int k = 0; k < P * D; k++) {
    CHECK_CLOSE(dr[k], want[k], 1e-12);
    CHECK_CLOSE(gr[k], wantv[k], 1e-12);
    for (int i = 0; i < P * D; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)energy, r, e, parad_const, P);
    CHECK_CLOSE(dr[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
    double tout[P], s = 0;
    __parad_fwddiff_v((void *)per_particle, r, e, out, tout, parad_const, P);
    for (int i = 0; i < P; i++) s += v[i] * tout[i];
    CHECK_CLOSE(gr[k], s, 1e-12);
  }
  return check_done();
}
