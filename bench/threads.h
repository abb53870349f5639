/* For the OpenMP benchmarks (heat2d_omp.c, lj_omp.c): the primal and the gradient timed at 1 and 2 threads,
 * side by side, with the speed-up of each; and, in a build that counts them (PARAD_COUNT_UPDATES set when
 * compiling, PARAD_BENCH_COUNT when running), the adjoint updates of memory one gradient makes. */
#ifndef PARAD_BENCH_THREADS_H
#define PARAD_BENCH_THREADS_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

/* The runtime's counters (lib/libparad_rt.a). */
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

static void time_over_threads(void (*primal)(void *), void (*gradient)(void *)) {
  double p[3], g[3];
  for (int threads = 1; threads <= 2; threads++) {
    omp_set_num_threads(threads);
    p[threads] = seconds_per_call(primal, NULL, 5, 0.3);
    g[threads] = seconds_per_call(gradient, NULL, 5, 0.3);
  }
  printf("  threads      primal    gradient   ratio\n");
  for (int threads = 1; threads <= 2; threads++)
    printf("  %7d %8.2f ms %8.2f ms %7.2f\n", threads, p[threads] * 1e3, g[threads] * 1e3, g[threads] / p[threads]);
  double sp = p[1] / p[2], sg = g[1] / g[2];
  printf("  speed-up 1 -> 2 threads: primal %.2f, gradient %.2f (gradient/primal speed-up %.2f)\n", sp, sg, sg / sp);
}

/* In the counting build: one gradient at 2 threads, its counts, and the program ends. */
static void counts_if_asked(void (*gradient)(void *)) {
  if (!getenv("PARAD_BENCH_COUNT")) return;
  omp_set_num_threads(2);
  gradient(NULL);
  unsigned long long plain = 0, atomic = 0;
  parad_adjoint_update_counts(&plain, &atomic);
  printf("  adjoint updates of memory in one gradient (2 threads): %llu, of which atomic %llu (%.2f%%)\n",
         plain + atomic, atomic, plain + atomic ? 100.0 * atomic / (plain + atomic) : 0.0);
  exit(0);
}

#endif
