/* The harness of the kernel suite (bench/kernels/NAME.c, built and run by scripts/kernels).
 *
 * A kernel program defines its objective J(inputs) -> scalar the way a user would write it, Parad's
 * gradient of it (__parad_autodiff) and its tangent (__parad_fwddiff), where one is short to write a
 * hand-written adjoint, and deterministic inputs; all its inputs are one array x of n doubles, sliced by the
 * kernel. kernel_main() then
 *   - checks Parad's gradient: against the hand-written adjoint, every component (relative 1e-9), where
 *     there is one, else against central finite differences on FD_COMPONENTS components (FD_TOL, see
 *     below); always against Parad's forward-mode tangent along a random direction (1e-9); and, after the
 *     timings at each thread count, the last gradients computed (Parad's and the hand-written one) against
 *     the first, so that a gradient that changes with the team's size is caught. It prints FAIL and
 *     returns non-zero on a mismatch;
 *   - times the primal, Parad's gradient and the hand-written gradient, ROUNDS rounds of one call of each
 *     in turn (so that the other load of the machine falls on all three alike), medians; at 1 thread, and
 *     for parallel kernels at 2 threads too, each round at 1 thread and then at 2 (so that the load falls
 *     on both speed-ups alike);
 *   - measures the tape of one gradient at 1 thread: parad_tape_recorded_bytes, every tape of every thread
 *     (parallel regions record on tapes of their own), per iteration of the kernel's innermost loop body;
 *   - prints, per thread count, one machine-readable line
 *       KERNEL name threads primal_s grad_s hand_s ratio hand_ratio tape_bytes_per_iter speedup_primal
 *              speedup_grad ratio_lo ratio_hi
 *     (hand_s and hand_ratio "-" without a hand-written adjoint; the speed-ups from 1 thread to this many;
 *     ratio_lo and ratio_hi the range of the rounds' gradient/primal ratios: how noisy the machine was).
 * Built with PARAD_COUNT_UPDATES set and run with PARAD_BENCH_COUNT set, a parallel kernel instead runs
 * one gradient at 2 threads and prints
 *       UPDATES name total atomic
 * the adjoint updates of shared memory in that gradient and how many were atomic. */
#ifndef PARAD_BENCH_KERNEL_H
#define PARAD_BENCH_KERNEL_H

#include <math.h>
#include <parad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../adcheck.h"

#ifdef _OPENMP
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);
#endif

typedef struct {
  const char *name;        /* one word: the table's row */
  const char *title;       /* what is computed, sizes included */
  int parallel;            /* has parallel regions: timed at 1 and 2 threads, its updates counted */
  long n;                  /* inputs: the gradient's length */
  double iterations;       /* executions of the innermost loop body in one primal: the tape's divisor */
  const char *iteration;   /* what one of them is */
  void (*init)(double *x); /* deterministic inputs (and the kernel's work arrays) */
  double (*primal)(const double *x);
  void (*gradient)(const double *x, double *g);        /* Parad: adds dJ/dx into g */
  double (*tangent)(const double *x, const double *v); /* Parad's forward mode: dJ/dx . v */
  double (*hand)(const double *x, double *g);          /* hand-written: writes dJ/dx into g, returns J; or NULL */
} Kernel;

enum { ROUNDS = 7, FD_COMPONENTS = 4 };
/* Central finite differences (adcheck.h's fd_check: fourth order, h = 1e-3 max(1, |x_i|), relative to
 * max(|g_i|, 1e-3 max|g|)). Every objective here is smooth near its input and of moderate size: the
 * truncation error, about h^4/30 times a fifth derivative, is ~1e-13 relative, and the rounding error,
 * about eps |J| / h, which fd_check allows for on top of the tolerance, is ~1e-13 |J| / |g_i|: more than
 * 1e-6 where J sums a million pixels (conv2d: |J| / |g_i| about 1e7, 1.9e-6 built without OpenMP, whose
 * sums round differently). 1e-6 still catches any wrong term of a gradient. */
#define FD_TOL 1e-6
/* J against the hand-written adjoint's J, relative: the same sums in the same order, but -ffast-math lets
 * the compiler reorder the two copies apart (ljcells' energy, 17,576 particles: 6e-12). */
#ifdef __FAST_MATH__
#define J_TOL 1e-10
#else
#define J_TOL 1e-12
#endif

static const Kernel *kernel_cur;
static double *kernel_x, *kernel_g, *kernel_gh;
static volatile double kernel_sink;

static double kernel_eval(void) { return kernel_cur->primal(kernel_x); }
static void kernel_run_primal(void) { kernel_sink = kernel_cur->primal(kernel_x); }
/* Zeroes a gradient or a shadow before Parad adds into it, on the threads the gradient runs on, as a parallel
 * program would: a serial memset inside the timed call made a gradient's speed-up the harness's (atax's
 * 160 MB gradient: 17% of its time at 1 thread, the same milliseconds at 2). */
static void kernel_zero(void *p, size_t bytes) {
#ifdef _OPENMP
  enum { PIECE = 1 << 16 };
  long pieces = (long)((bytes + PIECE - 1) / PIECE);
  if (pieces > 1) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < pieces; i++) {
      size_t at = (size_t)i * PIECE;
      memset((char *)p + at, 0, bytes - at < PIECE ? bytes - at : PIECE);
    }
    return;
  }
#endif
  memset(p, 0, bytes);
}

static void kernel_run_parad(void) {
  kernel_zero(kernel_g, sizeof(double) * (size_t)kernel_cur->n);
  kernel_cur->gradient(kernel_x, kernel_g);
}
static void kernel_run_hand(void) { kernel_sink = kernel_cur->hand(kernel_x, kernel_gh); }

/* Seconds per call of f: one call, or the mean of enough calls to last 10 ms when one is shorter. */
static double kernel_time(void (*f)(void)) {
  double t0 = now_seconds();
  f();
  double t = now_seconds() - t0;
  if (t >= 0.01) return t;
  long reps = (long)(0.01 / (t > 1e-7 ? t : 1e-7)) + 1;
  t0 = now_seconds();
  for (long r = 0; r < reps; r++) f();
  return (now_seconds() - t0) / reps;
}

/* got against ref, every component, relative to max(|ref_i|, 1e-6 max|ref|) (as compare_gradients): at most
 * 1e-9. Returns the number of mismatches. */
static int kernel_same(const char *what, const double *got, const double *ref, long n) {
  double floor = 1e-6 * max_abs(ref, n);
  int bad = 0;
  for (long i = 0; i < n; i++) {
    double scale = fabs(ref[i]) > floor ? fabs(ref[i]) : floor;
    if (!(fabs(got[i] - ref[i]) <= 1e-9 * scale) && bad++ < 5)
      printf("FAIL %s: component %ld is %.17g, first computed as %.17g\n", what, i, got[i], ref[i]);
  }
  return bad;
}

static void kernel_threads(int threads) {
#ifdef _OPENMP
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

static int kernel_main(const Kernel *k) {
  kernel_cur = k;
  size_t bytes = sizeof(double) * (size_t)k->n;
  double *x = kernel_x = malloc(bytes), *ref = malloc(bytes), *v = malloc(bytes);
  kernel_g = malloc(bytes), kernel_gh = malloc(bytes);
  k->init(x);
  int top = k->parallel ? 2 : 1, bad = 0;

  /* for a profiler: only the gradient (or only the primal, or only the hand-written adjoint), this many times, at OMP_NUM_THREADS */
  if (getenv("PARAD_BENCH_GRADIENTS")) {
    for (int i = atoi(getenv("PARAD_BENCH_GRADIENTS")); i > 0; i--) kernel_run_parad();
    return 0;
  }
  if (getenv("PARAD_BENCH_PRIMALS")) {
    for (int i = atoi(getenv("PARAD_BENCH_PRIMALS")); i > 0; i--) kernel_run_primal();
    return 0;
  }
  if (getenv("PARAD_BENCH_HANDS") && k->hand) {
    for (int i = atoi(getenv("PARAD_BENCH_HANDS")); i > 0; i--) kernel_run_hand();
    return 0;
  }
#ifdef _OPENMP
  if (getenv("PARAD_BENCH_COUNT")) {
    kernel_threads(2);
    kernel_run_parad();
    unsigned long long plain = 0, atomic = 0;
    parad_adjoint_update_counts(&plain, &atomic);
    printf("UPDATES %s %llu %llu\n", k->name, plain + atomic, atomic);
    return 0;
  }
#endif

  printf("%s: %s; gradient with respect to %ld inputs\n", k->name, k->title, k->n);
  /* the reference: Parad's gradient at the most threads */
  kernel_threads(top);
  kernel_run_parad();
  memcpy(ref, kernel_g, bytes);
  double J = k->primal(x), worst;
  if (k->hand) {
    double Jh = k->hand(x, kernel_gh);
    if (!(fabs(J - Jh) <= J_TOL * fabs(J)))
      printf("FAIL %s: J %.17g, from the hand-written adjoint %.17g\n", k->name, J, Jh), bad++;
    bad += compare_gradients(k->name, ref, kernel_gh, k->n, 1e-9, &worst);
    printf("  J = %.12g; parad = hand-written, every component: max relative difference %.2g\n", J, worst);
  } else {
    /* the differences at 1 thread: under a dynamic or guided schedule a reduction's order, and so J's
       rounding, changes from call to call at 2 (conv2d under `guided`: its differences moved by 3e-5
       relative between runs, the gradient not at all) */
    double w[2];
    kernel_threads(1);
    bad += fd_check(k->name, kernel_eval, x, ref, NULL, k->n, FD_COMPONENTS, FD_TOL, w);
    kernel_threads(top);
    printf("  J = %.12g; %d components against central finite differences: max relative difference %.2g\n", J,
           FD_COMPONENTS, w[0]);
  }
  /* against the tangent: relative to sum |g_i v_i|, the scale of the dot product's rounding (its terms
   * cancel: relative to the dot product itself, a sum of a million terms could miss 1e-9 by rounding alone) */
  for (long i = 0; i < k->n; i++) v[i] = rng_range(-1, 1);
  double tangent = k->tangent(x, v), dot = 0, scale = 0;
  for (long i = 0; i < k->n; i++) dot += ref[i] * v[i], scale += fabs(ref[i] * v[i]);
  if (!(fabs(tangent - dot) <= 1e-9 * scale))
    printf("FAIL %s: gradient . direction %.17g, forward tangent %.17g (scale %.3g)\n", k->name, dot, tangent, scale),
        bad++;
  printf("  gradient . random direction = forward tangent: relative difference %.2g\n",
         scale > 0 ? fabs(tangent - dot) / scale : fabs(tangent - dot));

  /* the tape of one gradient at 1 thread */
  kernel_threads(1);
  parad_tape_reset_peak();
  kernel_run_parad();
  double tape = (double)parad_tape_recorded_bytes();

  /* Each round times every thread count in turn, so that the machine's other load, which drifts over
   * seconds, falls on 1 and 2 threads alike: with all 1-thread rounds before all 2-thread ones, a busy
   * spell in either half made a speed-up the neighbours' (jacobi1d's share: 0.82 to 1.04 over nine runs). */
  void (*run[3])(void) = {kernel_run_primal, kernel_run_parad, k->hand ? kernel_run_hand : NULL};
  double t[3][3][ROUNDS], ratio[3][ROUNDS]; /* [threads][primal, parad, hand][round] */
  for (int threads = 1; threads <= top; threads++) { /* warm up */
    kernel_threads(threads);
    for (int f = 0; f < 3; f++)
      if (run[f]) run[f]();
  }
  for (int r = 0; r < ROUNDS; r++)
    for (int threads = 1; threads <= top; threads++) {
      kernel_threads(threads);
      for (int f = 0; f < 3; f++) t[threads][f][r] = run[f] ? kernel_time(run[f]) : 0;
      ratio[threads][r] = t[threads][1][r] / t[threads][0][r];
      if (r < ROUNDS - 1) continue;
      /* the gradients the last round left, against the reference */
      char what[64];
      snprintf(what, sizeof what, "%s, parad's gradient at %d thread%s", k->name, threads, threads > 1 ? "s" : "");
      bad += kernel_same(what, kernel_g, ref, k->n);
      if (k->hand) {
        snprintf(what, sizeof what, "%s, the hand-written gradient at %d thread%s", k->name, threads,
                 threads > 1 ? "s" : "");
        bad += kernel_same(what, kernel_gh, ref, k->n);
      }
    }

  double med[3][3] = {{0}}; /* [threads][primal, parad, hand] */
  printf("  threads     primal   parad grad  ratio (rounds' range)    hand grad  ratio  parad/hand\n");
  for (int threads = 1; threads <= top; threads++) {
    for (int f = 0; f < 3; f++)
      qsort(t[threads][f], ROUNDS, sizeof(double), compare_doubles), med[threads][f] = t[threads][f][ROUNDS / 2];
    double *rt = ratio[threads];
    qsort(rt, ROUNDS, sizeof(double), compare_doubles);
    double *m = med[threads], sp = med[1][0] / m[0], sg = med[1][1] / m[1];
    char hand_s[32] = "-", hand_ratio[32] = "-";
    if (k->hand)
      snprintf(hand_s, sizeof hand_s, "%.6g", m[2]), snprintf(hand_ratio, sizeof hand_ratio, "%.4g", m[2] / m[0]);
    printf("  %7d %8.2f ms %9.2f ms %6.2f (%.2f-%.2f)", threads, m[0] * 1e3, m[1] * 1e3, m[1] / m[0], rt[0],
           rt[ROUNDS - 1]);
    if (k->hand) printf(" %9.2f ms %6.2f %8.2f", m[2] * 1e3, m[2] / m[0], m[1] / m[2]);
    printf("\n");
    printf("KERNEL %s %d %.6g %.6g %s %.4g %s %.4g %.4g %.4g %.4g %.4g\n", k->name, threads, m[0], m[1], hand_s,
           m[1] / m[0], hand_ratio, tape / k->iterations, sp, sg, rt[0], rt[ROUNDS - 1]);
  }
  if (top == 2) {
    double sp = med[1][0] / med[2][0], sg = med[1][1] / med[2][1];
    printf("  speed-up 1 -> 2 threads: primal %.2f, parad gradient %.2f (%.2f of the primal's)", sp, sg, sg / sp);
    if (k->hand) printf(", hand-written %.2f", med[1][2] / med[2][2]);
    printf("\n");
  }
  printf("  tape: %.2f MB, %.1f bytes per %s\n", tape / 1048576, tape / k->iterations, k->iteration);
  printf("  checks: %s\n", bad ? "FAILED" : "ok");
  return bad != 0;
}

#endif
