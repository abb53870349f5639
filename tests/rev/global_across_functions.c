// Globals that carry derivatives from one function to another, as C codes keep their fields: a callee fills
// one from its active argument and the caller reads it (`coef`); callees with no active argument read one
// and accumulate into another (`add_energy`), return a value made from them (`get`), are called through a
// table of function pointers (`ops`) or call themselves (`sum_down`). A call carries derivatives through
// its arguments and result, so such calls were not differentiated, and these globals were refused; a call
// is now differentiated when its callee reaches a global that may hold derivatives.
//   field_i = x_i x_{i+1} (i + 1 mod N), coef_i = cos x_i, acc = sum_i field_i^2,
//   f = acc + sum_{i even} field_i coef_i + sum_{i odd} 2 field_i^2 + sum_i field_i / 2^(N-1-i) + sum_i coef_i x_i
// Gradient and tangents along each unit direction against the analytic derivative (1e-12), called three
// times in a row (each derivative's shadows zero at its entry), in vector forward mode (two directions a
// call: a shadow global per direction; refused before, "its tangents would be one for every direction"),
// in split mode with the globals overwritten between the sweeps, at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
void __parad_reverse(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_w2(void *, ...);

enum { N = 8 };
static double field[N], coef[N], acc;

__attribute__((noinline)) static void fill(const double *x) {
  for (int i = 0; i < N; i++) coef[i] = cos(x[i]);
}
__attribute__((noinline)) static void add_energy(int i) { acc += field[i] * field[i]; }
__attribute__((noinline)) static double get(int i) { return field[i] * coef[i]; }
__attribute__((noinline)) static double twice_square(int i) { return 2 * field[i] * field[i]; }
static double (*const ops[2])(int) = {get, twice_square};
__attribute__((noinline)) static double sum_down(int i) { return i < 0 ? 0 : field[i] + 0.5 * sum_down(i - 1); }

static double f(const double *x) {
  for (int i = 0; i < N; i++) field[i] = x[i] * x[(i + 1) % N];
  fill(x);
  acc = 0;
  for (int i = 0; i < N; i++) add_energy(i);
  double s = acc;
  for (int i = 0; i < N; i++) s += ops[i % 2](i);
  s += sum_down(N - 1);
  for (int i = 0; i < N; i++) s += coef[i] * x[i];
  return s;
}

static void analytic(const double *x, double *g) {
  for (int k = 0; k < N; k++) g[k] = cos(x[k]) - sin(x[k]) * ((k % 2 == 0 ? x[k] * x[(k + 1) % N] : 0) + x[k]);
  for (int i = 0; i < N; i++) {
    double fi = x[i] * x[(i + 1) % N];
    double d = 2 * fi + (i % 2 == 0 ? cos(x[i]) : 4 * fi) + ldexp(1, -(N - 1 - i));
    g[i] += d * x[(i + 1) % N], g[(i + 1) % N] += d * x[i];
  }
}

int main(void) {
  double x[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i;
  for (int round = 0; round < 3; round++) {
    analytic(x, want);
    double g[N] = {0};
    __parad_autodiff((void *)f, x, g);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    for (int j = 0; j < N; j++) {
      double v[N] = {0};
      v[j] = 1;
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[j], 1e-12);
    }
    for (int j = 0; j < N; j += 2) { /* vector forward mode: two directions in one call, a shadow global each */
      double v0[N] = {0}, v1[N] = {0};
      v0[j] = v1[j + 1] = 1;
      Two t = __parad_fwddiff_w2((void *)f, parad_width, 2, x, v0, v1);
      CHECK_CLOSE(t.d[0], want[j], 1e-12);
      CHECK_CLOSE(t.d[1], want[j + 1], 1e-12);
    }
    double gs[N] = {0};
    void *tape = __parad_augmentfwd((void *)f, x, gs);
    for (int i = 0; i < N; i++) field[i] = coef[i] = 7; /* the program's own use between the sweeps */
    acc = 7;
    __parad_reverse((void *)f, x, gs, 1.0, tape);
    for (int j = 0; j < N; j++) CHECK_CLOSE(gs[j], want[j], 1e-12);
    for (int i = 0; i < N; i++) x[i] += 0.05;
  }
  return check_done();
}
