// A parallel loop whose iterations run a parallel loop of their own (in a helper, or inline), the inner
// one reading a row at an index other than its own (reversed, or wrapped round). With nesting off
// (libomp's default) each inner region runs on a team of one inside an active region. Its forward sweep
// copied the row it reads, to read it back instead of recording the reads, but the reverse sweep of a
// region nested in an active one planned nothing, the copy included: it read records that were never made,
// and gave half the gradient or none of a row's part with no message, or stopped ("tape underflow").
// Found by a probe. A nested region's thread now takes its copies all the same.
//   reversed(x) = sum_k c_k sum_i a_k[i] b_k[m-1-i], a_k = x + m k, b_k = x + m (R + k), c_k = 1 + k
//   (rows of m = 4 and 96 doubles: copies of both kinds), gradient by hand (1e-12)
//   wrapped(x) = s_0 s_1, s_b = sum_i x[4b+i] x[4b+(i+1) mod 4], against central differences (h 1e-6,
//   1e-7) and the tangent (1e-12)
// At 1, 2 and 3 threads, with nesting on (OMP_MAX_ACTIVE_LEVELS=2) too; -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env OMP_MAX_ACTIVE_LEVELS=2 OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { R = 3, BIG = 96 };

static double rowdot(const double *a, const double *b, int m) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < m; i++) s += a[i] * b[m - 1 - i];
  return s;
}

static double reversed(const double *x, int m) {
  double r[R], f = 0;
#pragma omp parallel for
  for (int k = 0; k < R; k++) r[k] = rowdot(x + m * k, x + m * (R + k), m);
  for (int k = 0; k < R; k++) f += (1 + k) * r[k];
  return f;
}

static double wrapped(const double *x) {
  double out[2];
#pragma omp parallel for num_threads(2)
  for (int b = 0; b < 2; b++) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < 4; i++) s += x[b * 4 + i] * x[b * 4 + (i + 1) % 4];
    out[b] = s;
  }
  return out[0] * out[1];
}

int main(void) {
  static double x[2 * R * BIG], g[2 * R * BIG];
  for (int i = 0; i < 2 * R * BIG; i++) x[i] = 0.3 + 0.5 * sin(1.3 * i + 0.2);
  const int sizes[2] = {4, BIG};
  for (int s = 0; s < 2; s++) {
    int m = sizes[s], n = 2 * R * m;
    for (int i = 0; i < n; i++) g[i] = 0;
    __parad_autodiff((void *)reversed, x, g, parad_const, m);
    for (int k = 0; k < R; k++)
      for (int i = 0; i < m; i++) {
        CHECK_CLOSE(g[m * k + i], (1 + k) * x[m * (R + k) + m - 1 - i], 1e-12);
        CHECK_CLOSE(g[m * (R + k) + m - 1 - i], (1 + k) * x[m * k + i], 1e-12);
      }
  }
  double w[8] = {0}, v[8] = {0}, gv = 0;
  __parad_autodiff((void *)wrapped, x, w);
  for (int j = 0; j < 8; j++) {
    double xp[8], xm[8];
    for (int i = 0; i < 8; i++) xp[i] = xm[i] = x[i];
    xp[j] += 1e-6, xm[j] -= 1e-6, v[j] = cos(j), gv += w[j] * v[j];
    CHECK_CLOSE(w[j], (wrapped(xp) - wrapped(xm)) / 2e-6, 1e-7);
  }
  CHECK_CLOSE(__parad_fwddiff((void *)wrapped, x, v), gv, 1e-12);
  return check_done();
}
