/* For the OpenMP benchmarks (heat2d_omp.c, lj_omp.c): the primal, Parad's gradient and the hand-written
 * gradient timed at 1 and 2 threads, side by side, with each gradient's ratio to the primal and the speed-up
 * of all three; and, in a build that counts them (PARAD_COUNT_UPDATES set when compiling, PARAD_BENCH_COUNT
 * when running), the adjoint updates of memory one of Parad's gradients makes. */
#ifndef PARAD_BENCH_THREADS_H
#define PARAD_BENCH_THREADS_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

/* The runtime's counters (lib/libparad_rt.a). */
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { TIMING_ROUNDS = 5 };

/* run[0], run[1], run[2]: the primal, Parad's gradient, the hand-written gradient. At each thread count,
 * TIMING_ROUNDS rounds of the three in turn (seconds_per_call, trials of at least 0.1 s), so that other load
 * on the machine falls on all three alike; the medians into t[threads][0..2] (t[0] unused). Prints them. */
static void time_over_threads(void (*run[3])(void *), double t[3][3]) {
  for (int threads = 1; threads <= 2; threads++) {
    omp_set_num_threads(threads);
    double r[3][TIMING_ROUNDS];
    for (int k = 0; k < TIMING_ROUNDS; k++)
      for (int f = 0; f < 3; f++) r[f][k] = seconds_per_call(run[f], NULL, 1, 0.1);
    for (int f = 0; f < 3; f++) {
      qsort(r[f], TIMING_ROUNDS, sizeof(double), compare_doubles);
      t[threads][f] = r[f][TIMING_ROUNDS / 2];
    }
  }
  printf("  threads      primal     parad grad   ratio      hand grad   ratio   parad/hand\n");
  for (int threads = 1; threads <= 2; threads++) {
    double *s = t[threads];
    printf("  %7d %8.2f ms  %10.2f ms %7.2f  %10.2f ms %7.2f %8.2f\n", threads, s[0] * 1e3, s[1] * 1e3, s[1] / s[0],
           s[2] * 1e3, s[2] / s[0], s[1] / s[2]);
  }
  double sp = t[1][0] / t[2][0], sg = t[1][1] / t[2][1], sh = t[1][2] / t[2][2];
  printf("  speed-up 1 -> 2 threads: primal %.2f, parad gradient %.2f (%.2f of the primal's), hand-written "
         "gradient %.2f (%.2f of the primal's)\n", sp, sg, sg / sp, sh, sh / sp);
}

/* The machine-readable lines of the kernel suite's table (scripts/kernels; bench/kernels/kernel.h describes
 * their fields), one per thread count, from time_over_threads' medians; tape bytes per iteration. */
static void print_kernel_lines(const char *name, double t[3][3], double tape_per_iter) {
  for (int threads = 1; threads <= 2; threads++) {
    double *s = t[threads];
    printf("KERNEL %s %d %.6g %.6g %.6g %.4g %.4g %.4g %.4g %.4g - -\n", name, threads, s[0], s[1], s[2], s[1] / s[0],
           s[2] / s[0], tape_per_iter, t[1][0] / s[0], t[1][1] / s[1]);
  }
}

/* In the counting build: one of Parad's gradients at 2 threads, its counts (also as the suite's UPDATES line,
 * under name), and the program ends. */
static void counts_if_asked(const char *name, void (*gradient)(void *)) {
  if (!getenv("PARAD_BENCH_COUNT")) return;
  omp_set_num_threads(2);
  gradient(NULL);
  unsigned long long plain = 0, atomic = 0;
  parad_adjoint_update_counts(&plain, &atomic);
  printf("  adjoint updates of memory in one gradient (2 threads): %llu, of which atomic %llu (%.2f%%)\n",
         plain + atomic, atomic, plain + atomic ? 100.0 * atomic / (plain + atomic) : 0.0);
  printf("UPDATES %s %llu %llu\n", name, plain + atomic, atomic);
  exit(0);
}

#endif
