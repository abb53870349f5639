/* check.h: what every derivative test uses to compare numbers.
 *
 *   CHECK_CLOSE(got, want, tol)   |got - want| <= tol * max(1, |want|), else the test fails
 *   fd_central(f, ctx, x, h)      central finite difference of f at x: (f(x+h) - f(x-h)) / 2h
 *   fd_component(f, x, n, j, h)   the same for f(x) of an array x, along its component j
 *   CHECK_GRADIENT(f, x, n, tol, h, fd_tol)  the gradient of f(x) (n components) against its tangents
 *                                 along each unit direction (tol) and central differences (h, fd_tol)
 *   return check_done();          at the end of main: exit status 0 only if every check passed
 *
 * Tolerances are stated where each test calls CHECK_CLOSE: about 1e-12 against analytic derivatives
 * (rounding only), about 1e-6 against finite differences (truncation error of order h^2 f''' with
 * h = 1e-5, plus rounding of order eps / h). */
#ifndef PARAD_TEST_CHECK_H
#define PARAD_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int parad_dup, parad_const, parad_dupnoneed, parad_out, parad_width;
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out, enzyme_width;
#ifdef __cplusplus
}
#endif

static int check_failures, check_count;

__attribute__((unused)) static void check_close_at(const char *file, int line, const char *what, double got, double want, double tol) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  check_count++;
  if (!(fabs(got - want) <= tol * scale)) { /* written so that NaN fails */
    check_failures++;
    printf("%s:%d: FAIL %s: got %.17g, want %.17g (tolerance %g)\n", file, line, what, got, want, tol);
  }
}

#define CHECK_CLOSE(got, want, tol) check_close_at(__FILE__, __LINE__, #got, (got), (want), (tol))

/* A scalar function of one variable with a context, for finite differences. */
typedef double (*fd_fn)(void *ctx, double x);

__attribute__((unused)) static double fd_central(fd_fn f, void *ctx, double x, double h) {
  return (f(ctx, x + h) - f(ctx, x - h)) / (2 * h);
}

/* A function of an array, and its central difference along component j of x (n components). */
typedef double (*array_fn)(const double *x);

__attribute__((unused)) static double fd_component(array_fn f, const double *x, int n, int j, double h) {
  double *y = (double *)malloc(sizeof *y * (size_t)n);
  for (int i = 0; i < n; i++) y[i] = x[i];
  y[j] = x[j] + h;
  double up = f(y);
  y[j] = x[j] - h;
  double down = f(y);
  free(y);
  return (up - down) / (2 * h);
}

/* A macro: a derivative request names its function. The test declares __parad_autodiff and
 * __parad_fwddiff. */
#define CHECK_GRADIENT(f, x, n, tol, h, fd_tol)                                                          \
  do {                                                                                                 \
    double g_[n] = {0}, v_[n];                                                                         \
    __parad_autodiff((void *)f, x, g_);                                                                \
    for (int j_ = 0; j_ < (n); j_++) {                                                                 \
      for (int i_ = 0; i_ < (n); i_++) v_[i_] = i_ == j_;                                              \
      CHECK_CLOSE(g_[j_], __parad_fwddiff((void *)f, x, v_), tol);                                     \
      CHECK_CLOSE(g_[j_], fd_component(f, x, n, j_, h), fd_tol);                                       \
    }                                                                                                  \
  } while (0)

__attribute__((unused)) static int check_done(void) {
  if (check_count == 0) {
    printf("FAIL: the test checked nothing\n");
    return 1;
  }
  if (check_failures) printf("%d of %d checks failed\n", check_failures, check_count);
  else printf("%d checks passed\n", check_count);
  return check_failures != 0;
}

#endif
