// memset of an active buffer in the middle of a computation, in reverse mode: a work buffer is filled
// from the input, read, cleared with memset (whole and then a partial range), reused as an accumulator,
// and read again. Adjoints of values read before the memset must reach the input; the memset kills the
// adjoint flow from later reads to earlier writes. Also a memset of the caller's duplicated array: the
// gradient with respect to the entries it clears is zero. Analytic gradient (tolerance 1e-12, rounding
// only) and forward tangents along every unit direction (tolerance 1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 8 };

__attribute__((noinline)) static double phases(double *x, int n) {
  double w[N];
  for (int i = 0; i < n; i++) w[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(w[i]);
  memset(w, 0, sizeof w);                         /* w is now 0 */
  for (int i = 0; i < n; i++) w[(i * 3) % n] += x[i] * (i + 1);
  memset(w + 2, 0, 3 * sizeof *w);                /* w[2..4] cleared again */
  for (int i = 0; i < n; i++) s += w[i] * w[i];
  memset(x + n - 2, 0, 2 * sizeof *x);            /* the caller's last two entries */
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

int main(void) {
  double x0[N], x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) x0[i] = x[i] = 0.3 * i - 0.8;
  __parad_autodiff((void *)phases, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    int slot = (k * 3) % N; /* (i * 3) % 8 is a permutation */
    double want = cos(x0[k] * x0[k]) * 2 * x0[k];
    if (slot < 2 || slot > 4) want += 2 * x0[k] * (k + 1) * (k + 1);
    if (k < N - 2) want += 1;
    CHECK_CLOSE(dx[k], want, 1e-12);
    CHECK_CLOSE(x[k], k < N - 2 ? x0[k] : 0.0, 0);
    double x2[N];
    for (int i = 0; i < N; i++) x2[i] = x0[i], e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)phases, x2, e, parad_const, N), 1e-12);
  }
  return check_done();
}
