/* Functions whose bodies the differentiated translation unit does not see. */
#include <math.h>
double opaque_softplus(double x) { return log1p(exp(x)); }
void opaque_scale(const double *x, double *y, int n, double k) {
  for (int i = 0; i < n; i++) y[i] = k * x[i] * x[i];
}
