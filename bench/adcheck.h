/* Helpers shared by the reverse-mode benchmarks (gmm.c, ba.c, lstm.c, tape_growth.c): a deterministic
 * random generator, the comparison of Parad's gradient with a hand-written one, and a central
 * finite-difference check of chosen gradient components.
 *
 * Every check prints "FAIL ..." on a mismatch and counts it; a program returns non-zero when any check
 * failed. */
#ifndef PARAD_BENCH_ADCHECK_H
#define PARAD_BENCH_ADCHECK_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "timing.h"

/* The tape runtime's counters (lib/libparad_rt.a, linked by parad-cc). */
size_t parad_tape_peak_bytes(void);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

/* xorshift64*: the same numbers on every machine. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static inline void rng_seed(uint64_t s) { rng_state = s ? s : 0x9E3779B97F4A7C15ull; }
static inline uint64_t rng_next(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}
/* Uniform in [0, 1). */
static inline double rng_uniform(void) { return (rng_next() >> 11) * (1.0 / 9007199254740992.0); }
/* Uniform in [lo, hi). */
static inline double rng_range(double lo, double hi) { return lo + (hi - lo) * rng_uniform(); }
/* Standard normal (Box-Muller). */
static inline double rng_normal(void) {
  double u = rng_uniform(), v = rng_uniform();
  if (u < 1e-300) u = 1e-300;
  return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}
static inline int rng_int(int n) { return (int)(rng_next() % (uint64_t)n); }

static inline double max_abs(const double *g, long n) {
  double m = 0;
  for (long i = 0; i < n; i++)
    if (fabs(g[i]) > m) m = fabs(g[i]);
  return m;
}

/* Parad's gradient against the hand-written one, component by component: relative error
 * |p - h| / max(|h|, 1e-6 * max|h|) at most tol (the floor keeps components that cancel to nearly
 * nothing from failing on rounding alone). Returns the number of failures; *worst gets the largest
 * relative error seen. */
static inline int compare_gradients(const char *what, const double *parad, const double *hand, long n, double tol,
                             double *worst) {
  double floor = 1e-6 * max_abs(hand, n);
  int bad = 0;
  *worst = 0;
  for (long i = 0; i < n; i++) {
    double scale = fabs(hand[i]) > floor ? fabs(hand[i]) : floor;
    double rel = scale > 0 ? fabs(parad[i] - hand[i]) / scale : fabs(parad[i] - hand[i]);
    if (!(rel <= tol)) { /* also catches NaN */
      if (bad < 5)
        printf("FAIL %s: gradient component %ld: parad %.17g, hand-written %.17g (relative error %.3g)\n", what,
               i, parad[i], hand[i], rel);
      bad++;
    }
    if (rel > *worst || rel != rel) *worst = rel;
  }
  return bad;
}

/* Central finite differences of eval() with respect to theta[i] for `count` randomly chosen i, against
 * grad_a[i] and grad_b[i] (Parad's and the hand-written gradient; grad_b may be NULL). Fourth-order
 * central stencil (f(x-2h), f(x-h), f(x+h), f(x+2h)) with h = 1e-3 max(1, |x|): its truncation error
 * stays far below the tolerance. Its rounding error does not where J sums many terms and each input
 * moves few of them (a million pixels: |J| / |grad[i]| about 1e7, and differences of J that lose seven
 * digits): the stencil's error is about 1.5 e / h for an error e in each J, taken as 10 eps |J|. Passes
 * where the error is at most tol times max(|grad[i]|, 1e-3 * max|grad|) plus that rounding bound.
 * Returns the number of failures; worst[0], worst[1] get the largest relative errors. */
static inline int fd_check(const char *what, double (*eval)(void), double *theta, const double *grad_a,
                    const double *grad_b, long n, int count, double tol, double worst[2]) {
  const double *grads[2] = {grad_a, grad_b};
  static const char *names[2] = {"parad", "hand-written"};
  double floor[2] = {1e-3 * max_abs(grad_a, n), grad_b ? 1e-3 * max_abs(grad_b, n) : 0};
  int bad = 0;
  worst[0] = worst[1] = 0;
  for (int c = 0; c < count; c++) {
    long i = (long)(rng_next() % (uint64_t)n);
    double x = theta[i], h = 1e-3 * (fabs(x) > 1 ? fabs(x) : 1);
    theta[i] = x + h;
    double f1 = eval();
    theta[i] = x - h;
    double m1 = eval();
    theta[i] = x + 2 * h;
    double f2 = eval();
    theta[i] = x - 2 * h;
    double m2 = eval();
    theta[i] = x;
    double fd = (8 * (f1 - m1) - (f2 - m2)) / (12 * h), rounding = 1.5 * 10 * DBL_EPSILON * fmax(fabs(f1), fabs(m1)) / h;
    for (int g = 0; g < 2 && grads[g]; g++) {
      double gi = grads[g][i], scale = fabs(gi) > floor[g] ? fabs(gi) : floor[g];
      double rel = scale > 0 ? fabs(fd - gi) / scale : fabs(fd - gi);
      if (!(fabs(fd - gi) <= tol * scale + rounding)) { /* also catches NaN */
        printf("FAIL %s: component %ld: %s gradient %.17g, finite differences %.17g (relative error %.3g)\n",
               what, i, names[g], gi, fd, rel);
        bad++;
      }
      if (rel > worst[g] || rel != rel) worst[g] = rel;
    }
  }
  return bad;
}

/* Times the primal and the two gradients: seconds_per_call (timing.h) of each, one trial at a time in
 * turn, so that other load on the machine falls on all three alike; the median of the rounds. Fewer
 * rounds when a call is slow, so that each program stays within a few seconds per workload. */
static inline void time_three(void (*run[3])(void *), double out[3]) {
  double slowest = 0, t[3][5];
  for (int f = 0; f < 3; f++) {
    double t0 = now_seconds();
    run[f](NULL);
    double d = now_seconds() - t0;
    if (d > slowest) slowest = d;
  }
  int rounds = slowest > 0.05 ? 3 : 5;
  for (int r = 0; r < rounds; r++)
    for (int f = 0; f < 3; f++) t[f][r] = seconds_per_call(run[f], NULL, 1, 0.1);
  for (int f = 0; f < 3; f++) {
    qsort(t[f], rounds, sizeof(double), compare_doubles);
    out[f] = t[f][rounds / 2];
  }
}

/* The machine-readable line of a serial workload for the kernel suite's table (scripts/kernels, where
 * bench/kernels/kernel.h describes its fields): tape bytes per iteration, negative when not measured. */
static inline void print_kernel_line(const char *name, double tp, double tparad, double thand, double tape_per_iter) {
  char tape[32] = "-";
  if (tape_per_iter >= 0) snprintf(tape, sizeof tape, "%.4g", tape_per_iter);
  printf("KERNEL %s 1 %.6g %.6g %.6g %.4g %.4g %s 1 1 - -\n", name, tp, tparad, thand, tparad / tp, thand / tp, tape);
}

/* One line of the figures table. */
static inline void print_header(void) {
  printf("  %-26s %12s | %12s %8s | %12s %8s | %10s\n", "workload", "primal", "parad grad", "ratio",
         "hand grad", "ratio", "tape peak");
}
static inline void print_row(const char *name, double tp, double tparad, double thand, size_t tape) {
  printf("  %-26s %9.3f ms | %9.3f ms %8.2f | %9.3f ms %8.2f | %7.2f MB\n", name, tp * 1e3, tparad * 1e3,
         tparad / tp, thand * 1e3, thand / tp, tape / 1048576.0);
}

#endif
