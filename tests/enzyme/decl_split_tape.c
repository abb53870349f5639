// Split mode declared as Enzyme programs declare it:
//   - the tape passed to __enzyme_reverse as its last argument, without a marker (after the adjoint of the
//     result), and declared with the exact parameter types (no "...");
//   - `enzyme_allocated, size, enzyme_tape, buffer` after the function's arguments as well as before them
//     (the tape kept in the caller's buffer), and in __enzyme_reverse after the adjoint of the result;
//   - __enzyme_augmentfwd declared returning {double result; void *tape} (Enzyme's order in some
//     programs) and, with the tape in a buffer, returning the result or (for a function returning nothing)
//     a double that is 0.
//   energy(x, k) = sum_i k (x_{i+1} - x_i)^2 + sin x_i over 5 points: the gradient in x and k against
//   __enzyme_autodiff (1e-12), scaled by the adjoint of the result given to the reverse call (2.5), and
//   the primal against the function itself (1e-15);
//   square_into(x, y): y_i = x_i^2 + 2 x_0, seed dy = 1: dx = (2 x_0 + 6, 2 x_1, 2 x_2) (1e-12);
//   - a function returning a struct of two doubles, __enzyme_augmentfwd declared returning {void *tape;
//     the struct} and {the struct; void *tape}, 24 bytes, which C returns in memory (refused before:
//     "declare it as returning the tape ..., or a struct {void *tape; the result}", which it was):
//     pair(x) = (x_0 x_1, sin x_0), seeds (1, 10): dx = (x_1 + 10 cos x_0, x_0) (1e-12).
// At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
int enzyme_tape;
int enzyme_allocated;
extern double __enzyme_autodiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, double *, double *, double);
extern double __enzyme_reverse(void *, double *, double *, double, double, void *);
typedef struct { double value; void *tape; } ValueAndTape;
extern ValueAndTape __enzyme_augmentfwd_v(void *, ...);
extern double __enzyme_reverse_v(void *, ...);
extern double __enzyme_augmentfwd_b(void *, ...);
extern void __enzyme_reverse_b(void *, ...);
extern int __enzyme_augmentsize(void *, ...);

enum { N = 5 };

typedef struct {
  double e, f;
} Pair;
typedef struct {
  void *tape;
  Pair r;
} TapeAndPair;
typedef struct {
  Pair r;
  void *tape;
} PairAndTape;
extern TapeAndPair __enzyme_augmentfwd_tp(void *, ...);
extern PairAndTape __enzyme_augmentfwd_pt(void *, ...);
extern void __enzyme_reverse_p(void *, ...);

static Pair pair(const double *x) {
  Pair r = {x[0] * x[1], sin(x[0])};
  return r;
}

__attribute__((noinline)) static double energy(double *x, double k) {
  double e = 0;
  for (int i = 0; i + 1 < N; i++) e += k * (x[i + 1] - x[i]) * (x[i + 1] - x[i]) + sin(x[i]);
  return e;
}

__attribute__((noinline)) static void square_into(const double *x, double *y) {
  for (int i = 0; i < 3; i++) y[i] = x[i] * x[i] + 2 * x[0];
}

int main(void) {
  double x[N] = {0.3, -0.2, 0.9, 1.4, -0.6}, k = 0.7;
  double ref[N] = {0};
  double dkref = __enzyme_autodiff((void *)energy, enzyme_dup, x, ref, k);

  /* the tape as the last argument, no marker, exact prototypes */
  double g[N] = {0};
  void *tape = __enzyme_augmentfwd((void *)energy, x, g, k);
  double dk = __enzyme_reverse((void *)energy, x, g, k, 2.5, tape);
  CHECK_CLOSE(dk, 2.5 * dkref, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 2.5 * ref[i], 1e-12);

  /* {result, tape} */
  double h[N] = {0};
  ValueAndTape vt = __enzyme_augmentfwd_v((void *)energy, enzyme_dup, x, h, k);
  CHECK_CLOSE(vt.value, energy(x, k), 1e-15);
  dk = __enzyme_reverse_v((void *)energy, enzyme_dup, x, h, k, 1.0, vt.tape);
  CHECK_CLOSE(dk, dkref, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(h[i], ref[i], 1e-12);

  /* the tape in a buffer, its markers after the arguments; the augmented call returns the result, and
     the reverse call takes the adjoint of the result before or after the markers */
  int size = __enzyme_augmentsize((void *)energy, enzyme_dup, enzyme_out);
  void *buffer = malloc(size);
  for (int after = 0; after < 2; after++) {
    double d[N] = {0};
    double v = __enzyme_augmentfwd_b((void *)energy, enzyme_dup, x, d, k,
                                     enzyme_allocated, size, enzyme_tape, buffer);
    CHECK_CLOSE(v, energy(x, k), 1e-15);
    if (after)
      dk = __enzyme_reverse_v((void *)energy, enzyme_dup, x, d, k, enzyme_allocated, size,
                              enzyme_tape, buffer, 3.0);
    else
      dk = __enzyme_reverse_v((void *)energy, enzyme_dup, x, d, k, 3.0, enzyme_allocated,
                              size, enzyme_tape, buffer);
    CHECK_CLOSE(dk, 3 * dkref, 1e-12);
    for (int i = 0; i < N; i++) CHECK_CLOSE(d[i], 3 * ref[i], 1e-12);
  }

  /* a function returning nothing: the buffer's markers between the arguments, the augmented call
     declared returning a double, which is 0 */
  double in[3] = {0.7, 0.5, 0.1}, din[3] = {0}, out[3], dout[3] = {1, 1, 1};
  double z = __enzyme_augmentfwd_b((void *)square_into, in, din, enzyme_allocated, size, enzyme_tape, buffer, out, dout);
  CHECK_CLOSE(z, 0.0, 0);
  CHECK_CLOSE(out[1], 0.25 + 1.4, 1e-15);
  __enzyme_reverse_b((void *)square_into, in, din, enzyme_allocated, size, enzyme_tape, buffer, out, dout);
  free(buffer);
  for (int order = 0; order < 2; order++) {
    double p[2] = {0.5, 2.0}, dp[2] = {0, 0};
    Pair seed = {1.0, 10.0}, r;
    void *t;
    if (order) {
      PairAndTape pt = __enzyme_augmentfwd_pt((void *)pair, enzyme_dup, p, dp);
      r = pt.r, t = pt.tape;
    } else {
      TapeAndPair tp = __enzyme_augmentfwd_tp((void *)pair, enzyme_dup, p, dp);
      r = tp.r, t = tp.tape;
    }
    CHECK_CLOSE(r.e, 1.0, 1e-15);
    CHECK_CLOSE(r.f, sin(0.5), 1e-15);
    __enzyme_reverse_p((void *)pair, enzyme_dup, p, dp, seed, enzyme_tape, t);
    CHECK_CLOSE(dp[0], 2.0 + 10 * cos(0.5), 1e-12);
    CHECK_CLOSE(dp[1], 0.5, 1e-12);
  }
  CHECK_CLOSE(din[0], 2 * 0.7 + 6, 1e-12);
  CHECK_CLOSE(din[1], 2 * 0.5, 1e-12);
  CHECK_CLOSE(din[2], 2 * 0.1, 1e-12);
  return check_done();
}
