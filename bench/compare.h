/* The side-by-side comparison (scripts/compare): every benchmark program, Parad's and the peers', adds
 * its figures for each workload to one results file, and the gradient it computed beside it, when
 * PARAD_COMPARE_DIR names a folder. Outside a comparison run these calls do nothing.
 *
 * Each tool's gradient is checked against Parad's (scripts/compare runs Parad's programs first), so a fast
 * wrong answer shows as a failure in the table, not as a win.
 * C and C++ (the ADOL-C programs include it too). */
#ifndef PARAD_BENCH_COMPARE_H
#define PARAD_BENCH_COMPARE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The file of one workload's gradient from one tool: DIR/WORKLOAD.TOOL.grad, the workload's spaces and
 * '=' replaced so that the name is a plain file name. */
static inline void compare_path(char *out, size_t size, const char *dir, const char *workload, const char *tool) {
  int len = snprintf(out, size, "%s/", dir);
  for (const char *c = workload; *c && len + 1 < (int)size; c++) out[len++] = (*c == ' ' || *c == '=') ? '_' : *c;
  out[len] = 0;
  snprintf(out + len, size - (size_t)len, ".%s.grad", tool);
}

/* Relative agreement of g with ref, component by component, against max(|ref_i|, floor max|ref|); the
 * worst ratio. NaN counts as infinitely bad. */
static inline double compare_worst(const double *g, const double *ref, long n, double floor) {
  double big = 0, worst = 0;
  for (long i = 0; i < n; i++)
    if (fabs(ref[i]) > big) big = fabs(ref[i]);
  for (long i = 0; i < n; i++) {
    double scale = fabs(ref[i]) > floor * big ? fabs(ref[i]) : floor * big;
    double rel = scale > 0 ? fabs(g[i] - ref[i]) / scale : fabs(g[i] - ref[i]);
    if (!(rel <= worst)) worst = rel != rel ? INFINITY : rel;
  }
  return worst;
}

/* Records one tool's figures for one workload: its primal time and derivative time in seconds (medians),
 * and the derivative it computed (n numbers; NULL when the time is an estimate of a run not made).
 * Parad's derivative ("parad", recorded first) is the reference; every other tool's must agree with it to
 * within tol (relative, as in compare_worst, against at least 1e-6 of the largest component, or 1e-3 for
 * finite differences, whose rounding error swamps components much smaller than the rest), or the table
 * marks it WRONG; so each pair of tools agrees to within twice tol. Returns 1 on disagreement. */
static inline int compare_record(const char *workload, const char *tool, double primal_s, double deriv_s,
                                 const double *grad, long n, double tol) {
  const char *dir = getenv("PARAD_COMPARE_DIR");
  if (!dir) return 0;
  char path[512], ref_path[512], status[96] = "reference";
  compare_path(path, sizeof path, dir, workload, tool);
  int bad = 0;
  if (!grad) {
    snprintf(status, sizeof status, "estimate");
  } else {
    compare_path(ref_path, sizeof ref_path, dir, workload, "parad");
    FILE *f = strcmp(tool, "parad") ? fopen(ref_path, "rb") : NULL;
    if (f) {
      double *ref = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
      long got = (long)fread(ref, sizeof(double), (size_t)n, f);
      fclose(f);
      double worst = got == n ? compare_worst(grad, ref, n, strcmp(tool, "fd") ? 1e-6 : 1e-3) : INFINITY;
      bad = !(worst <= tol);
      snprintf(status, sizeof status, "%s %.1e (tol %.0e)", bad ? "WRONG" : "agrees", worst, tol);
      free(ref);
    }
    FILE *out = fopen(path, "wb");
    if (out) fwrite(grad, sizeof(double), (size_t)n, out), fclose(out);
  }
  snprintf(path, sizeof path, "%s/results.txt", dir);
  FILE *r = fopen(path, "a");
  if (r) fprintf(r, "%s|%s|%.9g|%.9g|%s\n", workload, tool, primal_s, deriv_s, status), fclose(r);
  if (bad) printf("FAIL %s: %s's derivative disagrees with the reference (%s)\n", workload, tool, status);
  return bad;
}

/* Records the naive baseline, central finite differences of every component (2n evaluations of f), with
 * step h = 1e-6 max(1, |x_i|): run and timed when 2n evaluations take at most budget_s seconds at
 * primal_s each, otherwise recorded as an estimate (2n primal_s) without running. */
static inline int compare_finite_differences(const char *workload, double (*f)(void), double *x, long n,
                                             double primal_s, double budget_s, double tol) {
  if (!getenv("PARAD_COMPARE_DIR")) return 0;
  if (2.0 * n * primal_s > budget_s) return compare_record(workload, "fd", primal_s, 2.0 * n * primal_s, NULL, n, tol);
  double *g = (double *)malloc(sizeof(double) * (size_t)n);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n; i++) {
    double xi = x[i], h = 1e-6 * (fabs(xi) > 1 ? fabs(xi) : 1);
    x[i] = xi + h;
    double hi = f();
    x[i] = xi - h;
    double lo = f();
    x[i] = xi;
    g[i] = (hi - lo) / (2 * h);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  int bad = compare_record(workload, "fd", primal_s, seconds, g, n, tol);
  free(g);
  return bad;
}

#endif
