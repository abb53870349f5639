// Checkpointed loops whose pointer variables change: (1) two work arrays swapped every step and, half way,
// the current one replaced by a third array the function was given (steps then run as the program runs
// them, the runtime making the shadows follow the swapped pointers); (2) a pointer moved along an array
// by arithmetic (the steps then run augmented, their tapes dropped); (3) the state in a variable-length
// array of the function (its length known only when the function runs); (4) pointers into local arrays
// (a struct's element, an array's middle) kept in variables and moved now and then, the steps writing
// through them and the arrays alike (the runtime points them into its copies); (5) two local arrays, one
// of variable length, the loop reaches only through two pointers it swaps (the arrays become variables of
// the loop all the same: refused before); (6) a heap block and a local array swapped in a loop of their
// own, then a second loop writing through the swapped pointer and reading the two arrays by name (the second loop did not know
// the pointer may point into its variables: its steps wrote the function's array, read the runtime's
// copy, and the copy overwrote the writes: fuzz seed 20781). Against the same functions
// without the marker (taped step by step): the gradient with respect to every array (1e-12), with no
// budget and a small one; split mode (__parad_augmentfwd, then __parad_reverse) gives the same. At -O2
// and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
double __parad_reverse(void *, ...);
extern int parad_tape;
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 10, STEPS = 300 };

#define SWAPPING(NAME, MARK)                                                                                \
  double NAME(double *a, double *b, double *c) {                                                          \
    double *cur = a, *next = b;                                                                          \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      for (int i = 0; i < N; i++) next[i] = cur[i] + 0.01 * sin(cur[(i + 1) % N]);                       \
      double *w = cur;                                                                                   \
      cur = next, next = w;                                                                              \
      if (t == STEPS / 2) {                                                                              \
        for (int i = 0; i < N; i++) c[i] = cur[i];                                                       \
        cur = c;                                                                                         \
      }                                                                                                  \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < N; i++) J += cur[i] * cur[i] * (i + 1);                                          \
    return J;                                                                                            \
  }
SWAPPING(swapping_checkpointed, __parad_checkpoint_loop())
SWAPPING(swapping_taped, (void)0)

#define WALKING(NAME, MARK)                                                                                 \
  double NAME(double *x) { /* x has STEPS + 1 entries: each step writes the next from the current */     \
    double *p = x, s = 0;                                                                                \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      p[1] = p[0] * 0.99 + 0.1 * cos(p[0]);                                                              \
      s += p[1] * p[1];                                                                                  \
      p++;                                                                                               \
    }                                                                                                    \
    return s;                                                                                            \
  }
WALKING(walking_checkpointed, __parad_checkpoint_loop())
WALKING(walking_taped, (void)0)

#define SLIDING(NAME, MARK)                                                                                 \
  double NAME(const double *x, int n) {                                                                  \
    double w[n];                                                                                         \
    for (int i = 0; i < n; i++) w[i] = x[i];                                                             \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      for (int i = 0; i < n; i++) w[i] = 0.9 * w[i] + 0.05 * sin(w[(i + 1) % n] + t * 0.01);             \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < n; i++) J += w[i] * w[i] * (i + 1);                                              \
    return J;                                                                                            \
  }
SLIDING(sliding_checkpointed, __parad_checkpoint_loop())
SLIDING(sliding_taped, (void)0)

struct Cell {
  double a, b;
  int k;
};

#define POINTING(NAME, MARK)                                                                                \
  double NAME(const double *x, int steps) { /* local arrays, and pointers into them kept in variables */  \
    struct Cell st[N];                                                                                   \
    double w[N];                                                                                         \
    for (int i = 0; i < N; i++) st[i].a = x[i], st[i].b = 0.5 * x[i], st[i].k = i, w[i] = x[i] * x[i];   \
    struct Cell *q = &st[2];                                                                             \
    double *p = w + 1;                                                                                   \
    for (int t = 0; t < steps; t++) {                                                                    \
      MARK;                                                                                              \
      q->b += 0.1 * sin(q->a * st[t % N].b) + st[t % N].k * 1e-3;                                         \
      st[(t + 3) % N].a = 0.9 * st[(t + 3) % N].a + 0.05 * cos(p[t % (N - 1)]);                          \
      p[(t * 5) % (N - 1)] += 0.01 * q->b * w[0];                                                        \
      if (t % 7 == 0) q = &st[t % N];                                                                    \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < N; i++) J += st[i].a * st[i].b + w[i] * (i + 1) + q->a;                           \
    return J;                                                                                            \
  }
POINTING(pointing_checkpointed, __parad_checkpoint_loop())
POINTING(pointing_taped, (void)0)

#define HIDDEN(NAME, MARK)                                                                                  \
  double NAME(const double *x, int n) { /* local arrays the loop reaches only through pointers */         \
    double u[N], v[n];                                                                                   \
    for (int i = 0; i < N; i++) u[i] = x[i], v[i] = 0;                                                   \
    double *cur = u, *nxt = v;                                                                           \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      for (int i = 0; i < N; i++) nxt[i] = cur[i] + 0.02 * sin(cur[(i + 3) % N]) * cur[(i + 1) % N];     \
      double *s = cur;                                                                                   \
      cur = nxt, nxt = s;                                                                                \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < N; i++) J += (i + 1) * cur[i] * cur[i] + u[i];                                   \
    return J;                                                                                            \
  }
HIDDEN(hidden_checkpointed, __parad_checkpoint_loop())
HIDDEN(hidden_taped, (void)0)

#define SWAP_THEN_WRITE(NAME, MARK)                                                                         \
  double NAME(const double *x, int n) {                                                                  \
    double *h = malloc(N * sizeof *h), v[n];                                                             \
    for (int i = 0; i < N; i++) h[i] = x[i], v[i] = 0.5 * x[(i + 1) % N];                                \
    double *cur = h, *nxt = v;                                                                           \
    for (int t = 0; t < 3; t++) { /* cur ends on v */                                                    \
      MARK;                                                                                              \
      double *s = cur;                                                                                   \
      cur = nxt, nxt = s;                                                                                \
    }                                                                                                    \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      /* a branch: the loop is larger than the first, which Parad then outlines first */                \
      double r = h[(t + 1) % N] > 0 ? v[(t + 2) % N] : 0.5;                                              \
      cur[t % N] = 0.9 * cur[t % N] + 0.05 * sin(h[(t + 1) % N] * r);                                    \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < N; i++) J += (i + 1) * cur[i] * cur[i] + h[i] * v[i];                            \
    free(h);                                                                                             \
    return J;                                                                                            \
  }
SWAP_THEN_WRITE(swap_then_write_checkpointed, __parad_checkpoint_loop())
SWAP_THEN_WRITE(swap_then_write_taped, (void)0)

static void start(double *a, double *b, double *c) {
  for (int i = 0; i < N; i++) a[i] = sin(i + 1.0), b[i] = 0, c[i] = 0;
}

int main(void) {
  double a[N], b[N], c[N], da[N] = {0}, db[N] = {0}, dc[N] = {0};
  start(a, b, c);
  __parad_autodiff((void *)swapping_taped, a, da, b, db, c, dc);
  static double x[STEPS + 1], dx[STEPS + 1], x2[STEPS + 1], dx2[STEPS + 1];
  x[0] = 0.4;
  __parad_autodiff((void *)walking_taped, x, dx);
  double y[N], dy[N] = {0};
  for (int i = 0; i < N; i++) y[i] = cos(i + 0.5);
  __parad_autodiff((void *)sliding_taped, y, dy, N);
  double dz[N] = {0};
  __parad_autodiff((void *)pointing_taped, y, dz, STEPS);
  CHECK_CLOSE(pointing_checkpointed(y, STEPS), pointing_taped(y, STEPS), 1e-12);
  double dh[N] = {0};
  __parad_autodiff((void *)hidden_taped, y, dh, N);
  CHECK_CLOSE(hidden_checkpointed(y, N), hidden_taped(y, N), 1e-12);
  double dw[N] = {0};
  __parad_autodiff((void *)swap_then_write_taped, y, dw, N);
  CHECK_CLOSE(swap_then_write_checkpointed(y, N), swap_then_write_taped(y, N), 1e-12);
  const size_t budgets[] = {0, 400u << 10};
  for (int b_ = 0; b_ < 2; b_++) {
    parad_set_tape_limit(budgets[b_]);
    double a2[N], b2[N], c2[N], da2[N] = {0}, db2[N] = {0}, dc2[N] = {0};
    start(a2, b2, c2);
    __parad_autodiff((void *)swapping_checkpointed, a2, da2, b2, db2, c2, dc2);
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(da2[i], da[i], 1e-12);
      CHECK_CLOSE(db2[i], db[i], 1e-12);
      CHECK_CLOSE(dc2[i], dc[i], 1e-12);
    }
    memset(x2, 0, sizeof x2), memset(dx2, 0, sizeof dx2);
    x2[0] = 0.4;
    __parad_autodiff((void *)walking_checkpointed, x2, dx2);
    for (int i = 0; i <= STEPS; i++) {
      CHECK_CLOSE(dx2[i], dx[i], 1e-12);
      CHECK_CLOSE(x2[i], x[i], 1e-12);
    }
    double dy2[N] = {0};
    __parad_autodiff((void *)sliding_checkpointed, y, dy2, N);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dy2[i], dy[i], 1e-12);
    double dz2[N] = {0};
    __parad_autodiff((void *)pointing_checkpointed, y, dz2, STEPS);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dz2[i], dz[i], 1e-12);
    double dh2[N] = {0};
    __parad_autodiff((void *)hidden_checkpointed, y, dh2, N);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dh2[i], dh[i], 1e-12);
    double dw2[N] = {0};
    __parad_autodiff((void *)swap_then_write_checkpointed, y, dw2, N);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dw2[i], dw[i], 1e-12);
  }
  parad_set_tape_limit(0);
  double a3[N], b3[N], c3[N], da3[N] = {0}, db3[N] = {0}, dc3[N] = {0};
  start(a3, b3, c3);
  void *tape = __parad_augmentfwd((void *)swapping_checkpointed, a3, da3, b3, db3, c3, dc3);
  __parad_reverse((void *)swapping_checkpointed, a3, da3, b3, db3, c3, dc3, 1.0, parad_tape, tape);
  for (int i = 0; i < N; i++) CHECK_CLOSE(da3[i], da[i], 1e-12);
  double dw3[N] = {0};
  void *tape_w = __parad_augmentfwd((void *)swap_then_write_checkpointed, y, dw3, N);
  __parad_reverse((void *)swap_then_write_checkpointed, y, dw3, N, 1.0, parad_tape, tape_w);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dw3[i], dw[i], 1e-12);
  return check_done();
}
