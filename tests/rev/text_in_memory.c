// Data parsed from text held in memory, as tests and embedded tables do: `fmemopen` over a string, read
// line by line with fgets and sscanf (and with fscanf) into arrays the function allocates, then a
// likelihood over them. fmemopen was unknown to Parad, and its buffer argument made the call active:
// refused ("cannot differentiate a call to 'fmemopen' ... with an active argument"). It opens a stream of
// text, as fopen does, and carries no derivative (analysis/calls.c).
//   f(a, b) = sum_i log(1 + exp(-(a x_i + b) y_i)) over the parsed rows (x_i, y_i)
// Gradient against central differences (h = 1e-6, tolerance 1e-6) and the tangent (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static char rows[] = "0.5,1\n-1.25,-1\n2.0,1\n0.75,-1\n-0.3,1\n1.6,1\n";

static double logistic_fgets(const double *p) {
  FILE *in = fmemopen(rows, sizeof rows - 1, "r");
  if (!in) exit(1);
  int n = 0;
  double *x = malloc(16 * sizeof *x), *y = malloc(16 * sizeof *y);
  char line[64];
  while (n < 16 && fgets(line, sizeof line, in))
    if (sscanf(line, "%lf,%lf", &x[n], &y[n]) == 2) n++;
  fclose(in);
  double f = 0;
  for (int i = 0; i < n; i++) f += log1p(exp(-(p[0] * x[i] + p[1]) * y[i]));
  free(x);
  free(y);
  return f;
}

static double logistic_fscanf(const double *p) {
  FILE *in = fmemopen(rows, sizeof rows - 1, "r");
  if (!in) exit(1);
  double x, y, f = 0;
  while (fscanf(in, "%lf,%lf", &x, &y) == 2) f += log1p(exp(-(p[0] * x + p[1]) * y));
  fclose(in);
  return f;
}

static void check(array_fn f) {
  double p[2] = {0.8, -0.3}, g[2] = {0, 0}, v[2] = {1, 0.5};
  __parad_autodiff((void *)f, p, g);
  double d = __parad_fwddiff((void *)f, p, v);
  CHECK_CLOSE(d, g[0] * v[0] + g[1] * v[1], 1e-12);
  for (int k = 0; k < 2; k++) CHECK_CLOSE(g[k], fd_component(f, p, 2, k, 1e-6), 1e-6);
  CHECK_CLOSE(g[0] != 0, 1, 0); /* the rows were read */
}

int main(void) {
  check(logistic_fgets);
  check(logistic_fscanf);
  return check_done();
}
