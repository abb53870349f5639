// A struct of pointers and sizes passed by value to the differentiated function (over 16 bytes: in memory),
// its shadow struct after it, as one passes a pointer with its shadow: refused in reverse mode before, as
// a struct of floats passed so is (its gradient would land in the call's copy of the shadow). A struct
// holding no floats has nothing of its own to differentiate: the shadow's pointers carry the adjoints to
// the caller's memory. The callee advances its copy's pointer and writes through one of them.
//   energy(f) = sum_k T[k]^2 c[k] + sin(T[k]) over nx*ny cells, out[k] = 2 T[k] c[k] written on the way,
//   plus sum_k out[k] T[k+1] for k < n-1 (read back after the loop)
// Gradients (reverse and split mode) against the formulas (1e-12) and central differences (h 1e-6, 1e-6)
// of every input, at -O2 and -O0; the integer fields of the shadow struct are never read.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
void __parad_reverse(void *, ...);
extern int parad_tape;

typedef struct {
  double *T, *c, *out;
  int nx, ny;
} Fields;

enum { NX = 3, NY = 2, N = NX * NY };

double energy(Fields f) {
  double J = 0;
  int n = f.nx * f.ny;
  for (int k = 0; k < n; k++) {
    J += *f.T * *f.T * f.c[k] + sin(*f.T);
    f.out[k] = 2 * *f.T * f.c[k];
    f.T++; /* the callee's own copy moves */
  }
  f.T -= n;
  for (int k = 0; k + 1 < n; k++) J += f.out[k] * f.T[k + 1];
  return J;
}

static double energy_at(const double *x) { /* x: T then c */
  double T[N], c[N], out[N];
  for (int k = 0; k < N; k++) T[k] = x[k], c[k] = x[N + k];
  return energy((Fields){T, c, out, NX, NY});
}

int main(void) {
  double x[2 * N];
  for (int k = 0; k < 2 * N; k++) x[k] = 0.3 + 0.2 * sin(1.3 * k);
  double want[2 * N] = {0};
  for (int k = 0; k < N; k++) {
    double T = x[k], c = x[N + k];
    want[k] += 2 * T * c + cos(T);
    if (k + 1 < N) want[k] += 2 * c * x[k + 1], want[N + k] += 2 * T * x[k + 1];
    if (k > 0) want[k] += 2 * x[k - 1] * x[N + k - 1];
    want[N + k] += T * T;
  }
  for (int split = 0; split < 2; split++) {
    double T[N], c[N], out[N], dT[N] = {0}, dc[N] = {0}, dout[N] = {0};
    for (int k = 0; k < N; k++) T[k] = x[k], c[k] = x[N + k];
    Fields f = {T, c, out, NX, NY}, df = {dT, dc, dout, -1, -1};
    if (split) {
      void *tape = __parad_augmentfwd((void *)energy, f, df);
      __parad_reverse((void *)energy, f, df, 1.0, parad_tape, tape);
    } else {
      __parad_autodiff((void *)energy, f, df);
    }
    for (int k = 0; k < N; k++) {
      CHECK_CLOSE(dT[k], want[k], 1e-12);
      CHECK_CLOSE(dc[k], want[N + k], 1e-12);
    }
  }
  for (int k = 0; k < 2 * N; k++) CHECK_CLOSE(want[k], fd_component(energy_at, x, 2 * N, k, 1e-6), 1e-6);
  return check_done();
}
