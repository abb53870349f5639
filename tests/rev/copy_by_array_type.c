// An array library's store chosen by the array's type at run time: a memcpy of the doubles where the array
// holds doubles, else a loop converting them to floats, into the same bytes (`char *p`). At -O1 and up the
// destination's bytes are seen as doubles and as floats, and the copy was refused ("cannot tell what this
// copy moves (mixed data)") though its source is a local array of doubles: bytes copied from an object
// declared of floats of one width are those floats (analysis/memtype.c, memtype_of_copy).
// Gradients and tangents of sum x_k^2 stored and read back, for both types (floats: the rounding's
// derivative is 1), against the analytic derivative (tolerance 1e-12; floats 1e-6), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static void store(char *p, int f64, long n, const double *buf) {
  if (f64) {
    memcpy(p, buf, n * sizeof(double));
    return;
  }
  for (long k = 0; k < n; k++) ((float *)p)[k] = (float)buf[k];
}

double loss(const double *x, char *out, int f64, long n) {
  double buf[16];
  for (long k = 0; k < n; k++) buf[k] = x[k] * x[k] + 0.5 * x[k];
  store(out, f64, n, buf);
  double s = 0;
  for (long k = 0; k < n; k++) s += (k + 1) * (f64 ? ((double *)out)[k] : ((float *)out)[k]);
  return s;
}

int main(void) {
  double x[8], out[8], dout[8];
  for (int i = 0; i < 8; i++) x[i] = 0.1 * i + 0.05;
  for (int f64 = 0; f64 < 2; f64++) {
    double dx[8] = {0}, tol = f64 ? 1e-12 : 1e-6;
    memset(dout, 0, sizeof dout);
    __parad_autodiff((void *)loss, x, dx, (char *)out, (char *)dout, f64, 8L);
    for (int i = 0; i < 8; i++) {
      double want = (i + 1) * (2 * x[i] + 0.5), v[8] = {0};
      CHECK_CLOSE(dx[i], want, tol);
      v[i] = 1;
      CHECK_CLOSE(__parad_fwddiff((void *)loss, x, v, (char *)out, (char *)dout, f64, 8L), want, tol);
    }
  }
  return check_done();
}
