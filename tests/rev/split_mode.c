// Split mode: __parad_augmentfwd runs the forward sweep and hands back its tape; __parad_reverse takes the
// adjoint of the result and the tape, and returns the gradients. Several tapes may be alive at once and
// be consumed in any order (here first in, first out). Also Enzyme's form with the tape kept in a user
// buffer (enzyme_allocated, enzyme_tape, __enzyme_augmentsize). Against autodiff and the forward tangents
// along every unit direction (tolerance 1e-12), and analytic values for the Enzyme form.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
double __parad_reverse(void *, ...);
typedef struct { void *tape; double value; } TapeAndValue;
TapeAndValue __parad_augmentfwd_v(void *, ...);
int __enzyme_augmentsize(void *, ...);
void __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
extern int parad_tape, enzyme_tape, enzyme_allocated, enzyme_dup;

__attribute__((noinline)) static double energy(const double *x, int n, double k) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++) e += k * (x[i + 1] - x[i]) * (x[i + 1] - x[i]) + sin(x[i]);
  return e;
}

__attribute__((noinline)) static void square_into(const double *x, double *y) {
  for (int i = 0; i < 3; i++) y[i] = x[i] * x[i] + 2 * x[0];
}

int main(void) {
  enum { N = 7, T = 3 };
  double x[T][N], dx[T][N] = {{0}}, ref[T][N] = {{0}}, dk[T];
  void *tapes[T];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) x[t][i] = 0.1 * i * (t + 1);
  for (int t = 0; t < T; t++) tapes[t] = __parad_augmentfwd((void *)energy, x[t], dx[t], parad_const, N, 0.5 + t);
  for (int t = 0; t < T; t++) dk[t] = __parad_reverse((void *)energy, x[t], dx[t], parad_const, N, 0.5 + t, 2.0, parad_tape, tapes[t]);
  for (int t = 0; t < T; t++) {
    double dkref = __parad_autodiff((void *)energy, x[t], ref[t], parad_const, N, 0.5 + t);
    CHECK_CLOSE(dk[t], 2 * dkref, 1e-12); /* the adjoint of the result was 2 */
    for (int i = 0; i < N; i++) {
      double e[N] = {0};
      e[i] = 1;
      CHECK_CLOSE(dx[t][i], 2 * ref[t][i], 1e-12);
      CHECK_CLOSE(ref[t][i], __parad_fwddiff((void *)energy, x[t], e, parad_const, N, parad_const, 0.5 + t), 1e-12);
    }
    CHECK_CLOSE(dkref, __parad_fwddiff((void *)energy, parad_const, x[t], parad_const, N, 0.5 + t, 1.0), 1e-12);
  }
  /* the primal result along with the tape */
  double gx[N] = {0};
  TapeAndValue tv = __parad_augmentfwd_v((void *)energy, x[0], gx, parad_const, N, 0.5);
  CHECK_CLOSE(tv.value, energy(x[0], N, 0.5), 1e-15);
  __parad_reverse((void *)energy, x[0], gx, parad_const, N, 0.5, 1.0, parad_tape, tv.tape);
  for (int i = 0; i < N; i++) CHECK_CLOSE(gx[i], ref[0][i], 1e-12);
  /* Enzyme's split mode with a user buffer for the tape */
  double in[3] = {0.7, 0.5, 0.1}, din[3] = {0}, out[3], dout[3] = {1, 1, 1};
  int size = __enzyme_augmentsize((void *)square_into, enzyme_dup, enzyme_dup);
  void *buffer = malloc(size);
  __enzyme_augmentfwd((void *)square_into, enzyme_allocated, size, enzyme_tape, buffer, in, din, out, dout);
  __enzyme_reverse((void *)square_into, enzyme_allocated, size, enzyme_tape, buffer, in, din, out, dout);
  free(buffer);
  CHECK_CLOSE(din[0], 2 * 0.7 + 6, 1e-12);
  CHECK_CLOSE(din[1], 2 * 0.5, 1e-12);
  CHECK_CLOSE(din[2], 2 * 0.1, 1e-12);
  return check_done();
}
