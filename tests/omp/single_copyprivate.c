// `single copyprivate`: one thread computes values and hands them to the team, in both modes. The single's
// block sets a double (scale), an array of two doubles (pair), an int (count) and a pointer to a buffer it
// fills (w: the pointer's shadow must reach the team too); every thread then reads them in a worksharing
// loop. libomp copies the values between two barriers (__kmpc_copyprivate); the derivatives go through the
// same call: tangents and shadows of pointers with clang's copy, adjoints back into the single thread's
// with Parad's (atomic adds). It was refused ("copyprivate and the like are not supported").
//   scale = e^{x0} x1, P = x2^2 sin x3, count = 3, w_i = x_i / 2,
//   f(x) = sum_i scale x_i^2 + P x_i + count w_i^2
//   df/dx_k = 2 scale x_k + P + 1.5 x_k, plus S2 scale (k = 0), S2 e^{x0} (k = 1), S1 2 x2 sin x3 (k = 2),
//             S1 x2^2 cos x3 (k = 3), with S1 = sum_i x_i, S2 = sum_i x_i^2.
// Gradient and tangents along each unit direction against the analytic derivative (1e-12), at 1, 2 and 4
// threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 8 };

static double f(const double *x) {
  double total = 0, *buf = malloc(N * sizeof *buf);
#pragma omp parallel reduction(+ : total)
  {
    double scale, pair[2], *w;
    int count;
#pragma omp single copyprivate(scale, pair, count, w)
    {
      scale = exp(x[0]) * x[1];
      pair[0] = x[2] * x[2], pair[1] = sin(x[3]);
      count = 3;
      w = buf;
      for (int i = 0; i < N; i++) w[i] = 0.5 * x[i];
    }
#pragma omp for
    for (int i = 0; i < N; i++) total += scale * x[i] * x[i] + pair[0] * pair[1] * x[i] + count * w[i] * w[i];
  }
  free(buf);
  return total;
}

int main(void) {
  double x[N], g[N] = {0}, want[N], s1 = 0, s2 = 0;
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.1 * i, s1 += x[i], s2 += x[i] * x[i];
  double scale = exp(x[0]) * x[1], p = x[2] * x[2] * sin(x[3]);
  for (int k = 0; k < N; k++) want[k] = 2 * scale * x[k] + p + 1.5 * x[k];
  want[0] += s2 * scale, want[1] += s2 * exp(x[0]), want[2] += s1 * 2 * x[2] * sin(x[3]), want[3] += s1 * x[2] * x[2] * cos(x[3]);
  __parad_autodiff((void *)f, x, g);
  for (int k = 0; k < N; k++) {
    double v[N] = {0};
    v[k] = 1;
    CHECK_CLOSE(g[k], want[k], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[k], 1e-12);
  }
  return check_done();
}
