// A region's gathered input read back from its copy, where a block that follows its predecessor reads the
// predecessor's record (records that follow: plan_followers). A Lennard-Jones energy plus the squared
// forces over neighbour lists: the pair's coordinates x[3j..3j+2] are gathered in the block that tests the
// cut-off, and the block after it (entered only from there) needs them again for the force. The loads'
// slots in the first block's record are left empty when they come from the copy; the second block once
// read those empty slots (bench/lj_omp's gradient was wrong by up to 100%: found on the benchmark's
// checks). J = E + lambda/2 sum_i |f_i|^2. Gradient against the forward-mode tangent along each of
// several coordinates (1e-10) and central differences (1e-6), at 1, 2 and 4 threads at -O2, 3 at -O0, and
// with the copies off.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_REGION_COPIES=0 OMP_NUM_THREADS=2 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { S = 5, NP = S * S * S };
static int start[NP + 1], nbr[NP * NP];
static double forces[3 * NP], dforces[3 * NP];

static double lj(const double *x, double *f, const int *start, const int *nbr, int n) {
  double energy = 0, force2 = 0;
#pragma omp parallel for schedule(static) reduction(+ : energy, force2)
  for (int i = 0; i < n; i++) {
    double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2], fx = 0, fy = 0, fz = 0;
    for (int k = start[i]; k < start[i + 1]; k++) {
      int j = nbr[k];
      double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= 5.6) continue;
      double ir2 = 1 / r2, ir6 = ir2 * ir2 * ir2, ir12 = ir6 * ir6, w = 24 * (2 * ir12 - ir6) * ir2;
      energy += 2 * (ir12 - ir6);
      fx += w * dx, fy += w * dy, fz += w * dz;
    }
    f[3 * i] = fx, f[3 * i + 1] = fy, f[3 * i + 2] = fz;
    force2 += fx * fx + fy * fy + fz * fz;
  }
  return energy + 0.5e-3 * force2;
}

static double J(const double *x) { return lj(x, forces, start, nbr, NP); }

int main(void) {
  double x[3 * NP], g[3 * NP] = {0}, v[3 * NP] = {0};
  srand(3);
  for (int i = 0; i < NP; i++) {
    x[3 * i] = 1.1 * (i / (S * S)) + 0.05 * (rand() / (double)RAND_MAX);
    x[3 * i + 1] = 1.1 * (i / S % S) + 0.05 * (rand() / (double)RAND_MAX);
    x[3 * i + 2] = 1.1 * (i % S) + 0.05 * (rand() / (double)RAND_MAX);
  }
  int m = 0; /* every pair closer than sqrt(7): some beyond the cut-off */
  for (int i = 0; i < NP; i++) {
    start[i] = m;
    for (int j = 0; j < NP; j++) {
      double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1], dz = x[3 * i + 2] - x[3 * j + 2];
      if (j != i && dx * dx + dy * dy + dz * dz < 7.0) nbr[m++] = j;
    }
  }
  start[NP] = m;
  __parad_autodiff((void *)lj, x, g, forces, dforces, parad_const, start, parad_const, nbr, NP);
  for (int c = 0; c < 3 * NP; c += 23) {
    v[c] = 1;
    CHECK_CLOSE(g[c], __parad_fwddiff((void *)lj, x, v, forces, dforces, parad_const, start, parad_const, nbr, NP), 1e-10);
    v[c] = 0;
    CHECK_CLOSE(g[c], fd_component(J, x, 3 * NP, c, 1e-6), 1e-6);
  }
  return check_done();
}
