/* How fast each processor of this machine is, pinned to it in turn: an add chain (latency-bound: the
 * clock), a streaming update in the first-level cache and one in main memory (throughput-bound: what a
 * neighbour sharing the core or the memory takes away). scripts/kernels prints it beside its table.
 *
 * Why: on a virtual machine the processors can differ. One seen here ran the chain at the other's speed
 * and the streams at 0.5-1.0 of it in the cache and 0.7-0.9 from memory, changing from second to second.
 * A 2-thread run of a static schedule then ends when the slower one ends, and a 1-thread run's time
 * depends on where the scheduler put it: a speed-up, and a speed-up's share, move with placement, not
 * with the code (docs/design.md, "Unequal processors").
 *
 *   processors            one line per processor, speeds relative to the fastest */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

static double chain(void) {
  double x = 1, t = now();
  for (long i = 0; i < 20000000; i++) x = x * 1.0000001 + 1e-9;
  sink = x;
  return now() - t;
}

static int by_value(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* b += 1.5 a over n doubles, `passes` times, timed REPS times: the median time (the neighbour comes and
 * goes; the best would tell only when it was away) */
enum { REPS = 15 };
static double stream(double *a, double *b, size_t n, int passes) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    t[r] = now();
    for (int p = 0; p < passes; p++)
      for (size_t i = 0; i < n; i++) b[i] += 1.5 * a[i];
    t[r] = now() - t[r];
  }
  sink = b[n / 2];
  qsort(t, REPS, sizeof *t, by_value);
  return t[REPS / 2];
}

enum { SMALL = 2048, LARGE = 1 << 22, MOST = 256 };

int main(void) {
  cpu_set_t all;
  if (sched_getaffinity(0, sizeof all, &all)) return perror("sched_getaffinity"), 1;
  double *a = malloc(sizeof(double) * LARGE), *b = malloc(sizeof(double) * LARGE);
  if (!a || !b) return 1;
  for (size_t i = 0; i < LARGE; i++) a[i] = (double)i, b[i] = 0;
  int cpu[MOST], n = 0;
  double t[MOST][3], best[3] = {1e30, 1e30, 1e30};
  for (int c = 0; c < CPU_SETSIZE && n < MOST; c++) {
    if (!CPU_ISSET(c, &all)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    if (sched_setaffinity(0, sizeof one, &one)) continue;
    cpu[n] = c;
    t[n][0] = chain();
    t[n][1] = stream(a, b, SMALL, 200);
    t[n][2] = stream(a, b, LARGE, 1);
    for (int k = 0; k < 3; k++)
      if (t[n][k] < best[k]) best[k] = t[n][k];
    n++;
  }
  printf("Processors (speed against the fastest: add chain, in-cache stream, memory stream):");
  for (int i = 0; i < n; i++)
    printf(" %d: %.2f %.2f %.2f%s", cpu[i], best[0] / t[i][0], best[1] / t[i][1], best[2] / t[i][2], i + 1 < n ? ";" : "\n");
  free(a), free(b);
  return 0;
}
