/* A translation unit without derivatives, linked with one that has them. */
#include "helpers.h"
#include <math.h>

double logistic(double x) { return 1 / (1 + exp(-x)); }
void fill(double *x, int n, double start, double step) {
  for (int i = 0; i < n; i++) x[i] = start + i * step;
}
