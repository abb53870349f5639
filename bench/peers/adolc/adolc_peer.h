/* What the ADOL-C peer programs (gmm.cpp, lstm.cpp, ba.cpp, lj.cpp) share: the value of a double or
 * an adouble (branches and max-shifts are decided on values, so that no comparison goes on the tape),
 * tape buffers sized to hold a whole tape in memory, the check that nothing spilled to a file, the
 * skip rule for tapes too large for the machine, and the timing of one call.
 *
 * ADOL-C 2.7.2 writes a tape (and the Taylor stack of a forward sweep kept for the reverse) to files
 * ADOLC-*.tap in the current directory once it outgrows its buffers; the buffer sizes are fixed at
 * trace_on, so each program estimates its operation count first and passes sizes above it to the
 * six-argument trace_on (the API: 2.7.2 reads a .adolcrc only at start-up, from the current directory). */
#ifndef PARAD_BENCH_ADOLC_PEER_H
#define PARAD_BENCH_ADOLC_PEER_H

#include <adolc/adolc.h>
#include <unistd.h>

#include "adcheck.h"
#include "compare.h"

static inline double val(double x) { return x; }
static inline double val(const adouble &x) { return x.getValue(); }

/* Bytes of memory per taped operation while a gradient runs: the opcode (1), its locations (about 2.5
 * of 4 bytes), its share of the constants, and the Taylor value a reverse-ready forward sweep keeps
 * (8, for the operations that overwrite a value); 14 to 22 measured on these programs, rounded up. */
static const double BYTES_PER_OP = 24;
/* The largest tape a case may have on this machine (24 GiB, two cores): about 4 GB, which also keeps a
 * case's taping and timed sweeps within about a minute. */
static const double MAX_TAPE_BYTES = 4e9;

/* Prints the skip line and returns 1 when a tape of about `ops` operations would be too large. */
static inline int too_large(const char *name, double ops) {
  double bytes = ops * BYTES_PER_OP;
  if (bytes <= MAX_TAPE_BYTES) return 0;
  printf("ADOL-C: skipped %s: its tape would hold about %.3g operations (~%.0f GB)\n", name, ops, bytes / 1e9);
  return 1;
}

/* trace_on with buffers for about `ops` operations and some slack, so that the tape stays in memory. The
 * buffers are allocated but only touched as far as the tape goes. */
static inline void tape_on(short tag, double ops) {
  double cap = 1.5 * ops + (1 << 20);
  trace_on(tag, 0, (uint)cap, (uint)(3 * cap), (uint)cap, (uint)cap);
}

/* After trace_off: the operation count and *bytes, the memory of the tape (operations, locations,
 * constants) and of the Taylor values a reverse-ready forward sweep keeps; a complaint when any part of
 * the tape went to a file. */
static inline size_t tape_ops(short tag, double *bytes, int *bad) {
  size_t st[STAT_SIZE];
  tapestats(tag, st);
  *bytes = st[NUM_OPERATIONS] + 4.0 * st[NUM_LOCATIONS] + 8.0 * st[NUM_VALUES] + 8.0 * st[TAY_STACK_SIZE];
  if (st[OP_FILE_ACCESS] || st[LOC_FILE_ACCESS] || st[VAL_FILE_ACCESS]) {
    printf("FAIL tape %d spilled to files (buffers too small for %zu operations)\n", tag, st[NUM_OPERATIONS]);
    (*bad)++;
  }
  return st[NUM_OPERATIONS];
}

/* After the sweeps: the Taylor stack of the forward sweep must not have gone to a file either; the
 * file is removed if it did. */
static inline void check_no_files(short tag, int *bad) {
  static const char *kinds[] = {"Operations", "Locations", "Values", "Taylors"};
  for (int k = 0; k < 4; k++) {
    char path[64];
    snprintf(path, sizeof path, "ADOLC-%s_%d.tap", kinds[k], tag);
    if (access(path, F_OK) == 0) {
      printf("FAIL tape %d: ADOL-C wrote %s\n", tag, path);
      unlink(path);
      (*bad)++;
    }
  }
}

/* The median seconds per call of run(ctx): seconds_per_call (timing.h) when a call is short, the median
 * of three single calls when one takes more than a fifth of a second (seconds_per_call would run each
 * trial four times). */
static inline double time_call(void (*run)(void *), void *ctx) {
  double t0 = now_seconds();
  run(ctx);
  double once = now_seconds() - t0;
  if (once < 0.2) return seconds_per_call(run, ctx, 5, 0.1);
  double t[3];
  for (int r = 0; r < 3; r++) {
    t0 = now_seconds();
    run(ctx);
    t[r] = now_seconds() - t0;
  }
  qsort(t, 3, sizeof *t, compare_doubles);
  return t[1];
}

/* One case's figures; `what` names the derivative (gradient, Jacobian). */
static inline void print_case(const char *name, const char *what, double primal_s, double tape_s, double deriv_s,
                              size_t ops, double bytes) {
  printf("  %-28s primal %8.3f ms | taping %8.2f ms | %s %8.3f ms | %s/primal %6.2f | tape %.3g ops, %.3g MB\n",
         name, primal_s * 1e3, tape_s * 1e3, what, deriv_s * 1e3, what, deriv_s / primal_s, (double)ops, bytes / 1e6);
}

#endif
