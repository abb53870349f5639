/* A Lennard-Jones force and energy kernel over neighbour lists, parallel over particles with OpenMP, and
 * its gradient by Parad's reverse mode and by a hand-written adjoint:
 *
 *   E(x) = 1/2 sum_i sum_{j in N(i)} 4 eps ((s/r_ij)^12 - (s/r_ij)^6),   f_i = -dE/dx_i (computed too),
 *   J(x) = E(x) + (1/2) lambda sum_i |f_i|^2                              (a force-matching loss)
 *
 * for 19,683 particles on a jittered cubic lattice, full neighbour lists within the cut-off 2.37 s (fixed
 * for the run). Parad's gradient of J with respect to all 3n positions reads x_j for the neighbours j of i,
 * so its adjoint scatters into dx_j (other threads' particles): atomic adds there, plain ones into dx_i; the
 * hand-written one gathers instead (the lists are symmetric). Prints, at 1 and 2 threads, the primal,
 * Parad's gradient and the hand-written gradient times (medians), each gradient's ratio to the primal, and
 * the speed-up of all three from 1 to 2 threads; and how many of Parad's adjoint updates were atomic (a
 * build with PARAD_COUNT_UPDATES, run with PARAD_BENCH_COUNT). Checks, at 2 threads, Parad's gradient
 * against fourth-order central finite differences (8 components, relative 1e-6), the forward-mode tangent
 * along a random direction (relative 1e-9) and the hand-written gradient (every component, relative 1e-9);
 * prints FAIL and exits non-zero on a mismatch. With PARAD_COMPARE_DIR set, adds both gradients' figures at
 * each thread count to the comparison records (compare.h), and the estimate of finite differences. Built
 * with parad-cc -O2 -fopenmp by scripts/bench. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adcheck.h"
#include "compare.h"
#include "threads.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { SIDE = 27 }; /* 27^3 = 19,683 particles */
/* the cut-off lies between two shells of the jittered lattice (2 a and sqrt(5) a), so that no pair is near
 * it: the energy jumps there, which finite differences would see */
static const double sigma = 1.0, eps = 1.0, cutoff = 2.37, lambda = 1e-3;

/* Energy and forces; returns J. start[i]..start[i+1] indexes i's neighbours in nbr. */
__attribute__((noinline)) static double lj(const double *x, double *f, const int *start, const int *nbr, int n) {
  double energy = 0, force2 = 0;
  double s2 = sigma * sigma, rc2 = cutoff * cutoff;
#pragma omp parallel for schedule(static) reduction(+ : energy, force2)
  for (int i = 0; i < n; i++) {
    double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2], fx = 0, fy = 0, fz = 0;
    for (int k = start[i]; k < start[i + 1]; k++) {
      int j = nbr[k];
      double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rc2) continue;
      double ir2 = s2 / r2, ir6 = ir2 * ir2 * ir2, ir12 = ir6 * ir6;
      energy += 2 * eps * (ir12 - ir6); /* half of the pair, the other half from j's list */
      double w = 24 * eps * (2 * ir12 - ir6) / r2;
      fx += w * dx, fy += w * dy, fz += w * dz;
    }
    f[3 * i] = fx, f[3 * i + 1] = fy, f[3 * i + 2] = fz;
    force2 += fx * fx + fy * fy + fz * fz;
  }
  return energy + 0.5 * lambda * force2;
}

/* The hand-written adjoint: the gradient (written, not added) into g (3n values); returns J. f: the forces
 * (3n values, written as lj() writes them).
 *
 * With d = x_i - x_j, r2 = |d|^2 and w(r2) = 24 eps (2 (s^2/r2)^6 - (s^2/r2)^3) / r2, the pair's force on i
 * is w d. The energy's gradient is -f_i. The force term's, with fb_i = lambda f_i (the adjoint of f_i): the
 * pair (i, j) in i's list adds w fb_i + 2 w'(r2) d (d . fb_i) to x_i and the opposite to x_j. The lists are
 * symmetric (j in N(i) exactly when i in N(j), with the same r2 and d negated), so what i receives from
 * the pairs in other lists can be summed from its own list:
 *
 *   dJ/dx_i = -f_i + sum_{j in N(i), r2 < rc^2} w D + 2 w' d (d . D),   D = fb_i - fb_j,
 *
 * a gather: each thread writes only its own particles, with no atomics. Two passes, each parallel over
 * particles as the primal is: the forces (all of them are needed before any particle's adjoint), then
 * the adjoint, which recomputes the pair's distance and powers rather than storing them (a million pairs). */
__attribute__((noinline)) static double lj_gradient(const double *x, double *f, const int *start, const int *nbr,
                                                    int n, double *g) {
  double energy = 0, force2 = 0;
  double s2 = sigma * sigma, rc2 = cutoff * cutoff;
#pragma omp parallel for schedule(static) reduction(+ : energy, force2)
  for (int i = 0; i < n; i++) {
    double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2], fx = 0, fy = 0, fz = 0;
    for (int k = start[i]; k < start[i + 1]; k++) {
      int j = nbr[k];
      double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rc2) continue;
      double ir2 = s2 / r2, ir6 = ir2 * ir2 * ir2, ir12 = ir6 * ir6;
      energy += 2 * eps * (ir12 - ir6);
      double w = 24 * eps * (2 * ir12 - ir6) / r2;
      fx += w * dx, fy += w * dy, fz += w * dz;
    }
    f[3 * i] = fx, f[3 * i + 1] = fy, f[3 * i + 2] = fz;
    force2 += fx * fx + fy * fy + fz * fz;
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
    double fx = f[3 * i], fy = f[3 * i + 1], fz = f[3 * i + 2], gx = 0, gy = 0, gz = 0;
    for (int k = start[i]; k < start[i + 1]; k++) {
      int j = nbr[k];
      double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rc2) continue;
      double ir2 = s2 / r2, ir6 = ir2 * ir2 * ir2, ir12 = ir6 * ir6;
      double w = 24 * eps * (2 * ir12 - ir6) / r2;
      double w2 = -96 * eps * (7 * ir12 - 2 * ir6) / (r2 * r2); /* 2 dw/dr2 */
      double ex = fx - f[3 * j], ey = fy - f[3 * j + 1], ez = fz - f[3 * j + 2]; /* D / lambda */
      double p = w2 * (dx * ex + dy * ey + dz * ez);
      gx += w * ex + p * dx, gy += w * ey + p * dy, gz += w * ez + p * dz;
    }
    g[3 * i] = lambda * gx - fx, g[3 * i + 1] = lambda * gy - fy, g[3 * i + 2] = lambda * gz - fz;
  }
  return energy + 0.5 * lambda * force2;
}

static int n, *start, *nbr;
static double *x, *dxg, *f, *df, *dir, *tf, *gh, *fh;
static double sink;

static double primal(void) { return lj(x, f, start, nbr, n); }
static void run_primal(void *c) { (void)c, sink = primal(); }
static void run_hand(void *c) { (void)c, sink = lj_gradient(x, fh, start, nbr, n, gh); }
static void run_gradient(void *c) {
  (void)c;
  memset(dxg, 0, sizeof(double) * 3 * n);
  memset(df, 0, sizeof(double) * 3 * n);
  __parad_autodiff((void *)lj, x, dxg, f, df, parad_const, start, parad_const, nbr, parad_const, n);
}

static void build(void) {
  n = SIDE * SIDE * SIDE;
  double a = 1.12 * sigma; /* near the potential's minimum */
  x = malloc(sizeof(double) * 3 * n), dxg = malloc(sizeof(double) * 3 * n);
  f = malloc(sizeof(double) * 3 * n), df = malloc(sizeof(double) * 3 * n);
  dir = malloc(sizeof(double) * 3 * n), tf = malloc(sizeof(double) * 3 * n);
  gh = malloc(sizeof(double) * 3 * n), fh = malloc(sizeof(double) * 3 * n);
  rng_seed(7);
  for (int i = 0, p = 0; i < SIDE; i++)
    for (int j = 0; j < SIDE; j++)
      for (int k = 0; k < SIDE; k++, p++) {
        x[3 * p] = a * i + rng_range(-0.05, 0.05);
        x[3 * p + 1] = a * j + rng_range(-0.05, 0.05);
        x[3 * p + 2] = a * k + rng_range(-0.05, 0.05);
      }
  for (int i = 0; i < 3 * n; i++) dir[i] = rng_range(-1, 1);
  /* neighbour lists within the cut-off plus a skin, through the lattice cells around each particle */
  double reach = cutoff + 0.3;
  int span = (int)ceil(reach / a) + 1, cap = 0;
  start = malloc(sizeof(int) * (n + 1));
  nbr = NULL;
  int len = 0;
  for (int p = 0; p < n; p++) {
    start[p] = len;
    int pi = p / (SIDE * SIDE), pj = p / SIDE % SIDE, pk = p % SIDE;
    for (int di = -span; di <= span; di++)
      for (int dj = -span; dj <= span; dj++)
        for (int dk = -span; dk <= span; dk++) {
          int qi = pi + di, qj = pj + dj, qk = pk + dk;
          if (qi < 0 || qj < 0 || qk < 0 || qi >= SIDE || qj >= SIDE || qk >= SIDE) continue;
          int q = (qi * SIDE + qj) * SIDE + qk;
          if (q == p) continue;
          double ddx = x[3 * p] - x[3 * q], ddy = x[3 * p + 1] - x[3 * q + 1], ddz = x[3 * p + 2] - x[3 * q + 2];
          if (ddx * ddx + ddy * ddy + ddz * ddz >= reach * reach) continue;
          if (len == cap) cap = cap ? 2 * cap : 1 << 20, nbr = realloc(nbr, sizeof(int) * cap);
          nbr[len++] = q;
        }
  }
  start[n] = len;
}

int main(void) {
  build();
  int bad = 0;
  counts_if_asked("lj", run_gradient);
  printf("Lennard-Jones energy and forces (OpenMP over particles, neighbour lists): %d particles, %d neighbour "
         "pairs; gradient of E + lambda/2 |f|^2 with respect to all %d coordinates\n", n, start[n], 3 * n);
  omp_set_num_threads(2);
  run_gradient(NULL);
  static const int comps[8] = {0, 1, 2, 3000, 17001, 30002, 45000, 59048};
  for (int c = 0; c < 8; c++) {
    int k = comps[c] % (3 * n);
    /* fourth order: the potential is stiff, and the energy a sum of 10^6 terms (a small step drowns in
     * rounding) */
    double save = x[k], h = 1e-4, v[4];
    static const double off[4] = {1, -1, 2, -2};
    for (int q = 0; q < 4; q++) x[k] = save + off[q] * h, v[q] = lj(x, f, start, nbr, n);
    x[k] = save;
    double fd = (8 * (v[0] - v[1]) - (v[2] - v[3])) / (12 * h);
    if (!(fabs(fd - dxg[k]) <= 1e-6 * fmax(1, fabs(fd))))
      printf("FAIL dJ/dx[%d]: %.12g, finite differences %.12g\n", k, dxg[k], fd), bad++;
  }
  memset(tf, 0, sizeof(double) * 3 * n);
  double tangent = __parad_fwddiff((void *)lj, x, dir, f, tf, parad_const, start, parad_const, nbr, parad_const, n);
  double dot = 0;
  for (int i = 0; i < 3 * n; i++) dot += dxg[i] * dir[i];
  if (!(fabs(tangent - dot) <= 1e-9 * fabs(dot))) printf("FAIL gradient . direction %.15g, forward tangent %.15g\n", dot, tangent), bad++;

  /* the hand-written adjoint, every component */
  double J = primal(), Jh = lj_gradient(x, fh, start, nbr, n, gh), worst;
  if (!(fabs(J - Jh) <= 1e-12 * fabs(J))) printf("FAIL J %.17g, from the hand-written adjoint %.17g\n", J, Jh), bad++;
  bad += compare_gradients("lj", dxg, gh, 3 * n, 1e-9, &worst);
  printf("  J = %.12g; parad vs hand-written: max relative difference %.2g\n", J, worst);

  double t[3][3];
  time_over_threads((void (*[3])(void *)){run_primal, run_gradient, run_hand}, t);
  /* the tape of one gradient at 1 thread, per neighbour pair */
  omp_set_num_threads(1);
  parad_tape_reset_peak();
  run_gradient(NULL);
  print_kernel_lines("lj", t, (double)parad_tape_recorded_bytes() / start[n]);
  /* the comparison records: the gradients from one call at each thread count */
  for (int threads = 1; threads <= 2; threads++) {
    char name[64];
    snprintf(name, sizeof name, "LJ %d particles, %d thread%s", n, threads, threads > 1 ? "s" : "");
    omp_set_num_threads(threads);
    run_gradient(NULL);
    run_hand(NULL);
    bad += compare_record(name, "parad", t[threads][0], t[threads][1], dxg, 3 * n, 0);
    bad += compare_record(name, "hand", t[threads][0], t[threads][2], gh, 3 * n, 1e-9);
    /* records an estimate for these sizes: 2n primals is far over budget */
    bad += compare_finite_differences(name, primal, x, 3 * n, t[threads][0], 5.0, 1e-5);
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (8 components against finite differences to 1e-6; the forward "
                                             "tangent along a random direction to 1e-9; parad = hand-written to "
                                             "1e-9)");
  return bad != 0;
}
