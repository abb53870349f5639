/* Timing for the benchmark programs: the median of several trials, each long enough to measure. */
#ifndef PARAD_BENCH_TIMING_H
#define PARAD_BENCH_TIMING_H

#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Seconds per call of run(ctx): the median over `trials` trials of enough calls to last ~min_seconds. */
static double seconds_per_call(void (*run)(void *), void *ctx, int trials, double min_seconds) {
  long reps = 1;
  for (;;) { /* calibrate */
    double t0 = now_seconds();
    for (long r = 0; r < reps; r++) run(ctx);
    if (now_seconds() - t0 >= min_seconds / 4 || reps > (1L << 40)) break;
    reps *= 2;
  }
  reps *= 4;
  double times[32];
  if (trials > 32) trials = 32;
  for (int t = 0; t < trials; t++) {
    double t0 = now_seconds();
    for (long r = 0; r < reps; r++) run(ctx);
    times[t] = (now_seconds() - t0) / reps;
  }
  qsort(times, trials, sizeof *times, compare_doubles);
  return times[trials / 2];
}

#endif
