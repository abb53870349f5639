/* ADOL-C peer of bench/lj_omp.c: the gradient of J(x) = E(x) + (1/2) lambda sum_i |f_i|^2 (Lennard-Jones
 * energy over neighbour lists plus a force-matching term) with respect to all 3n positions, for the
 * 27^3 = 19,683 particles, the neighbour lists and the cut-off of lj_omp.c, serially (Debian's ADOL-C
 * 2.7.2 is built without per-thread tapes).
 *
 * J is one template over the scalar type: with double it is the primal that is timed, with adouble it
 * records ADOL-C's tape (the cut-off test is decided on values, as the C code's branch is). The tape is
 * recorded once (trace_on/trace_off, timed) and gradient(tag, ...) (a zero-order forward sweep keeping the
 * Taylor values, then a first-order reverse sweep) is timed on it: tape reuse, ADOL-C's best case. Checks
 * lj_omp.c's eight components against fourth-order central finite differences (relative 1e-6); exits
 * non-zero on a failure. Reports through compare.h when PARAD_COMPARE_DIR is set. */
#include <vector>

#include "adolc_peer.h"

enum { SIDE = 27 };
static const double sigma = 1.0, eps = 1.0, cutoff = 2.37, lambda = 1e-3;

/* Energy and forces into f; returns J. start[i]..start[i+1] indexes i's neighbours in nbr. */
template <class T> static T lj(const T *x, T *f, const int *start, const int *nbr, int n) {
  T energy = 0, force2 = 0;
  double s2 = sigma * sigma, rc2 = cutoff * cutoff;
  for (int i = 0; i < n; i++) {
    T xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2], fx = 0, fy = 0, fz = 0;
    for (int k = start[i]; k < start[i + 1]; k++) {
      int j = nbr[k];
      T dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
      T r2 = dx * dx + dy * dy + dz * dz;
      if (val(r2) >= rc2) continue;
      T ir2 = s2 / r2, ir6 = ir2 * ir2 * ir2, ir12 = ir6 * ir6;
      energy += 2 * eps * (ir12 - ir6); /* half of the pair, the other half from j's list */
      T w = 24 * eps * (2 * ir12 - ir6) / r2;
      fx += w * dx, fy += w * dy, fz += w * dz;
    }
    f[3 * i] = fx, f[3 * i + 1] = fy, f[3 * i + 2] = fz;
    force2 += fx * fx + fy * fy + fz * fz;
  }
  return energy + 0.5 * lambda * force2;
}

static int n, *start, *nbr;
static double *x, *f, *grad;
static const short tag = 1;
static volatile double sink;

static void run_primal(void *) { sink = lj(x, f, start, nbr, n); }
static void run_gradient(void *) { gradient(tag, 3 * n, x, grad), sink = grad[0]; }

/* lj_omp.c's build(): a jittered cubic lattice, full neighbour lists within the cut-off plus a skin. */
static void build(void) {
  n = SIDE * SIDE * SIDE;
  double a = 1.12 * sigma;
  x = new double[3 * n], f = new double[3 * n], grad = new double[3 * n];
  rng_seed(7);
  for (int i = 0, p = 0; i < SIDE; i++)
    for (int j = 0; j < SIDE; j++)
      for (int k = 0; k < SIDE; k++, p++) {
        x[3 * p] = a * i + rng_range(-0.05, 0.05);
        x[3 * p + 1] = a * j + rng_range(-0.05, 0.05);
        x[3 * p + 2] = a * k + rng_range(-0.05, 0.05);
      }
  double reach = cutoff + 0.3;
  int span = (int)ceil(reach / a) + 1, cap = 0, len = 0;
  start = new int[n + 1];
  nbr = NULL;
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
          if (len == cap) cap = cap ? 2 * cap : 1 << 20, nbr = (int *)realloc(nbr, sizeof(int) * cap);
          nbr[len++] = q;
        }
  }
  start[n] = len;
}

/* Operations the adouble J records: 8 per listed pair, 14 more per pair within the cut-off, about 15 per
 * particle (checked against tapestats). */
static double lj_ops(void) {
  long inside = 0;
  for (int i = 0; i < n; i++)
    for (int k = start[i]; k < start[i + 1]; k++) {
      const double *p = x + 3 * i, *q = x + 3 * nbr[k];
      double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
      inside += dx * dx + dy * dy + dz * dz < cutoff * cutoff;
    }
  return 8.0 * start[n] + 14.0 * inside + 15.0 * n;
}

int main(void) {
  int bad = 0;
  build();
  char name[64];
  snprintf(name, sizeof name, "LJ %d particles, 1 thread", n);
  printf("ADOL-C: Lennard-Jones J = E + lambda/2 |f|^2, %d particles, %d neighbour pairs, gradient by tape "
         "reuse\n", n, start[n]);
  double est = lj_ops();
  if (too_large(name, est)) return 0;

  double t0 = now_seconds(), J;
  tape_on(tag, est);
  {
    std::vector<adouble> ax(3 * n), af(3 * n);
    for (int i = 0; i < 3 * n; i++) ax[i] <<= x[i];
    adouble y = lj(&ax[0], &af[0], start, nbr, n);
    y >>= J;
  }
  trace_off();
  double t_tape = now_seconds() - t0, bytes;
  size_t ops = tape_ops(tag, &bytes, &bad);

  if (gradient(tag, 3 * n, x, grad) < 0) printf("FAIL %s: gradient() failed\n", name), bad++;
  double Jp = lj(x, f, start, nbr, n), worst = 0;
  if (!(fabs(J - Jp) <= 1e-12 * fabs(Jp))) printf("FAIL %s: taped J %.17g, primal %.17g\n", name, J, Jp), bad++;
  static const int comps[8] = {0, 1, 2, 3000, 17001, 30002, 45000, 59048};
  for (int c = 0; c < 8; c++) {
    /* fourth order: the potential is stiff, and the energy a sum of 10^6 terms (a small step drowns in
     * rounding) */
    int k = comps[c] % (3 * n);
    double save = x[k], h = 1e-4, v[4];
    static const double off[4] = {1, -1, 2, -2};
    for (int q = 0; q < 4; q++) x[k] = save + off[q] * h, v[q] = lj(x, f, start, nbr, n);
    x[k] = save;
    double fd = (8 * (v[0] - v[1]) - (v[2] - v[3])) / (12 * h), rel = fabs(fd - grad[k]) / fmax(1, fabs(fd));
    if (!(rel <= 1e-6)) printf("FAIL %s: dJ/dx[%d]: %.12g, finite differences %.12g\n", name, k, grad[k], fd), bad++;
    if (rel > worst) worst = rel;
  }

  double tp = time_call(run_primal, NULL), tg = time_call(run_gradient, NULL);
  check_no_files(tag, &bad);
  bad += compare_record(name, "adolc", tp, tg, grad, 3 * n, 1e-8);
  print_case(name, "gradient", tp, t_tape, tg, ops, bytes);
  printf("    J = %.10g; vs finite differences (8 components): %.2g; estimated %.4g operations\n", J, worst, est);
  removeTape(tag, ADOLC_REMOVE_COMPLETELY);
  printf("  checks: %s\n", bad ? "FAILED" : "ok (finite differences to 1e-6)");
  return bad != 0;
}
