// Checkpointed loops reading a view of active or constant memory: `const double *p = x[0] > 0 ? x : c;`,
// c passed as constant, then p read in the steps of a loop marked with __parad_checkpoint_loop (once
// refused: "this pointer select needs a shadow for memory that has none"). The loop's variable holding
// the view is marked (ad/checkpoint.c), and the steps' derivatives, made through the runtime's requests,
// compare the view's shadow address with its address at each load and copy, as a function given the
// view does (ad/constants.c). c is a static const table: a reverse sweep that added into it would fault.
// Two functions: (1) a loop copying two elements of the view (memcpy) each step into a recurrence on y,
// then a second loop reading another view, q = x[1] > 0 ? c : x, at a shifted index; (2) a view made by
// a caller and passed to the function with the loop (-O0 passes it through a local). Each of the four
// choices of (1) (x[0], x[1] of either sign) and the two of (2) (x[0]): the gradient with respect to x and y against the same function without
// the marker (taped step by step, 1e-12), with no tape budget and a small one (the steps then run again
// from snapshots); split mode (__parad_augmentfwd, then __parad_reverse) the same; forward tangents along
// every unit direction (1e-12) and central differences along x (h = 1e-6, 1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
double __parad_reverse(void *, ...);
extern int parad_tape;
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 8, STEPS = 3000 };
static const double TABLE[N] = {0.5, -1.25, 2.0, 0.75, -0.5, 1.5, 0.25, -0.75};

#define VIEWED(NAME, MARK)                                                                                 \
  double NAME(const double *x, const double *c, double *y) {                                           \
    const double *p = x[0] > 0 ? x : c;                                                                 \
    for (int t = 0; t < STEPS; t++) {                                                                   \
      MARK;                                                                                             \
      double b[2];                                                                                      \
      memcpy(b, p + t % (N - 1), sizeof b);                                                             \
      y[t % 3] = 0.9 * y[t % 3] + 0.1 * sin(b[0] * x[t % N] + b[1] * y[(t + 1) % 3]);                    \
    }                                                                                                   \
    const double *q = x[1] > 0 ? c : x;                                                                 \
    for (int t = 0; t < N - 1; t++) {                                                                   \
      MARK;                                                                                             \
      y[t % 3] += 0.1 * q[t + 1] * y[(t + 1) % 3];                                                      \
    }                                                                                                   \
    return y[0] + 2 * y[1] + 3 * y[2];                                                                  \
  }
VIEWED(viewed_checkpointed, __parad_checkpoint_loop())
VIEWED(viewed_taped, (void)0)

/* The view made by the caller and passed to the function with the loop. */
#define PASSED(NAME, MARK)                                                                                 \
  __attribute__((noinline)) static void NAME##_loop(const double *p, const double *x, double *y) {      \
    for (int t = 0; t < STEPS; t++) {                                                                   \
      MARK;                                                                                             \
      y[t % 3] = 0.95 * y[t % 3] + 0.05 * cos(p[(t + 3) % N] * y[(t + 2) % 3] + x[t % N]);              \
    }                                                                                                   \
  }                                                                                                     \
  double NAME(const double *x, const double *c, double *y) {                                           \
    NAME##_loop(x[0] > 0 ? x : c, x, y);                                                                \
    return y[0] - y[1] + 2 * y[2];                                                                      \
  }
PASSED(passed_checkpointed, __parad_checkpoint_loop())
PASSED(passed_taped, (void)0)

static double X[N];
static int PASSING; /* which pair of functions the checks are of */
static const double Y0[3] = {0.3, -0.2, 0.5};

static double along(void *ctx, double t) {
  int j = *(int *)ctx;
  double x[N], y[3];
  memcpy(x, X, sizeof x), memcpy(y, Y0, sizeof y);
  x[j] += t;
  return PASSING ? passed_checkpointed(x, TABLE, y) : viewed_checkpointed(x, TABLE, y);
}

static void check_choice(void) {
  double y[3], want_x[N] = {0}, want_y[3] = {0};
  memcpy(y, Y0, sizeof y);
  if (PASSING) __parad_autodiff((void *)passed_taped, X, want_x, parad_const, TABLE, y, want_y);
  else __parad_autodiff((void *)viewed_taped, X, want_x, parad_const, TABLE, y, want_y);
  const size_t budgets[] = {0, 400u << 10};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    double gx[N] = {0}, gy[3] = {0};
    memcpy(y, Y0, sizeof y);
    if (PASSING) __parad_autodiff((void *)passed_checkpointed, X, gx, parad_const, TABLE, y, gy);
    else __parad_autodiff((void *)viewed_checkpointed, X, gx, parad_const, TABLE, y, gy);
    for (int i = 0; i < N; i++) CHECK_CLOSE(gx[i], want_x[i], 1e-12);
    for (int i = 0; i < 3; i++) CHECK_CLOSE(gy[i], want_y[i], 1e-12);
  }
  parad_set_tape_limit(0);
  double gx[N] = {0}, gy[3] = {0};
  memcpy(y, Y0, sizeof y);
  if (PASSING) {
    void *tape = __parad_augmentfwd((void *)passed_checkpointed, X, gx, parad_const, TABLE, y, gy);
    __parad_reverse((void *)passed_checkpointed, X, gx, parad_const, TABLE, y, gy, 1.0, parad_tape, tape);
  } else {
    void *tape = __parad_augmentfwd((void *)viewed_checkpointed, X, gx, parad_const, TABLE, y, gy);
    __parad_reverse((void *)viewed_checkpointed, X, gx, parad_const, TABLE, y, gy, 1.0, parad_tape, tape);
  }
  for (int i = 0; i < N; i++) CHECK_CLOSE(gx[i], want_x[i], 1e-12);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(gy[i], want_y[i], 1e-12);
  for (int j = 0; j < N + 3; j++) {
    double ex[N] = {0}, ey[3] = {0};
    if (j < N) ex[j] = 1;
    else ey[j - N] = 1;
    memcpy(y, Y0, sizeof y);
    double t = PASSING ? __parad_fwddiff((void *)passed_checkpointed, X, ex, parad_const, TABLE, y, ey)
                       : __parad_fwddiff((void *)viewed_checkpointed, X, ex, parad_const, TABLE, y, ey);
    CHECK_CLOSE(t, j < N ? want_x[j] : want_y[j - N], 1e-12);
    if (j < N) CHECK_CLOSE(fd_central(along, &j, 0, 1e-6), want_x[j], 1e-6);
  }
}

int main(void) {
  double before[N];
  memcpy(before, TABLE, sizeof before);
  for (int choice = 0; choice < 4; choice++) {
    for (int i = 0; i < N; i++) X[i] = 0.8 * cos(1.3 * i + 0.2);
    X[0] = choice & 1 ? 0.7 : -0.7; /* p on x, or on c */
    X[1] = choice & 2 ? 0.4 : -0.4; /* q on c, or on x */
    PASSING = 0;
    check_choice();
    if (choice < 2) {
      PASSING = 1;
      check_choice();
    }
  }
  for (int i = 0; i < N; i++) CHECK_CLOSE(TABLE[i], before[i], 0);
  return check_done();
}
