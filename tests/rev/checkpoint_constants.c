// Checkpointed loops reading constant memory (c, a static const table passed as constant: a reverse sweep
// that added into it would fault).
// (1, 2) A view of active or constant memory, `const double *p = x[0] > 0 ? x : c;`, read in the steps of
// a loop marked with __parad_checkpoint_loop (once refused: "this pointer select needs a shadow for
// memory that has none"). The loop's variable holding the view is marked (ad/checkpoint.c), and the
// steps' derivatives, made through the runtime's requests, compare the view's shadow address with its
// address at each load and copy, as a function given the view does (ad/constants.c).
//   (1) a loop copying two elements of the view (memcpy) each step into a recurrence on y, then a second
//       loop reading another view, q = x[1] > 0 ? c : x, at a shifted index: the four choices (x[0],
//       x[1] of either sign);
//   (2) a view made by a caller and passed to the function with the loop (-O0 passes it through a
//       local): the two choices of x[0].
// (3) A pointer computed from the constant parameter (k = c + 1) read in a checkpointed loop, and c itself
// in a later one: loops are moved into functions last first, so the first sees c's slot passed to the
// second's function (once refused as a pointer without a shadow stored into the first loop's variable;
// the steps need no shadow where every request passes c constant).
// (4) A view whose condition the optimiser turns into branches, so that it loads the view from a choice
// of the two parameters' slots, both variables of the loop (once refused: c's slot has no shadow in the
// steps): the two choices of x[2].
// For each: the gradient with respect to x and y against the same function without the marker (taped
// step by step, 1e-12), with no tape budget and a small one (the steps then run again from snapshots);
// split mode (__parad_augmentfwd, then __parad_reverse) the same; forward tangents along every unit
// direction (1e-12) and central differences along x (h = 1e-6, 1e-6). At -O2 and -O0.
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

/* Two loops reading c and k = c + 1, a constant parameter (every request passes it so). */
#define TWICE(NAME, MARK)                                                                                  \
  double NAME(const double *x, const double *c, double *y) {                                           \
    const double *k = c + 1;                                                                            \
    for (int t = 0; t < STEPS; t++) {                                                                   \
      MARK;                                                                                             \
      y[(t + 1) % 3] += 0.01 * k[(t + 2) % (N - 1)] * sin(y[t % 3] + x[t % N]);                         \
    }                                                                                                   \
    for (int t = 0; t < STEPS; t++) {                                                                   \
      MARK;                                                                                             \
      y[t % 3] = 0.9 * y[t % 3] + 0.1 * tanh(c[t % N] * x[t % N] + k[t % (N - 1)] * y[(t + 1) % 3]);     \
    }                                                                                                   \
    return y[0] + y[1] - y[2];                                                                          \
  }
TWICE(twice_checkpointed, __parad_checkpoint_loop())
TWICE(twice_taped, (void)0)

/* A view whose condition the optimiser turns into branches: it loads the view from a choice of the two
 * parameters' slots, both variables of the loop, c's one whose shadow the steps never use. */
#define MIXED(NAME, MARK)                                                                                  \
  double NAME(const double *x, const double *c, double *y) {                                           \
    const double *p = (x[2] > 0 || atan2(x[3], 1 + x[4] * x[4]) > 0.5) ? x : c;                          \
    for (int t = 0; t < STEPS; t++) {                                                                   \
      MARK;                                                                                             \
      y[t % 3] = 0.9 * y[t % 3] + 0.1 * sin(p[t % N] * c[(t + 1) % N] + x[(t + 2) % N] * y[(t + 1) % 3]); \
    }                                                                                                   \
    return y[0] + y[1] + y[2];                                                                          \
  }
MIXED(mixed_checkpointed, __parad_checkpoint_loop())
MIXED(mixed_taped, (void)0)

static double X[N];
static int SHAPE; /* which pair of functions the checks are of: 0 viewed, 1 passed, 2 twice, 3 mixed */
static const double Y0[3] = {0.3, -0.2, 0.5};

/* The requests, each naming its function as requests must. */
#define EACH_SHAPE(CALL, SUFFIX)                                                                          \
  switch (SHAPE) {                                                                                     \
  case 0: CALL(viewed##SUFFIX); break;                                                                 \
  case 1: CALL(passed##SUFFIX); break;                                                                 \
  case 2: CALL(twice##SUFFIX); break;                                                                  \
  default: CALL(mixed##SUFFIX); break;                                                                 \
  }

static double value(const double *x, double *y) {
  double v = 0;
#define VALUE(F) v = F(x, TABLE, y)
  EACH_SHAPE(VALUE, _checkpointed)
  return v;
}

static void gradient(int taped, double *gx, double *y, double *gy) {
#define GRADIENT(F) __parad_autodiff((void *)F, X, gx, parad_const, TABLE, y, gy)
  if (taped) EACH_SHAPE(GRADIENT, _taped)
  else EACH_SHAPE(GRADIENT, _checkpointed)
}

static void split(double *gx, double *y, double *gy) {
#define SPLIT(F)                                                                                           \
  __parad_reverse((void *)F, X, gx, parad_const, TABLE, y, gy, 1.0, parad_tape,                           \
                  __parad_augmentfwd((void *)F, X, gx, parad_const, TABLE, y, gy))
  EACH_SHAPE(SPLIT, _checkpointed)
}

static double tangent(const double *ex, double *y, const double *ey) {
  double t = 0;
#define TANGENT(F) t = __parad_fwddiff((void *)F, X, ex, parad_const, TABLE, y, ey)
  EACH_SHAPE(TANGENT, _checkpointed)
  return t;
}

static double along(void *ctx, double t) {
  int j = *(int *)ctx;
  double x[N], y[3];
  memcpy(x, X, sizeof x), memcpy(y, Y0, sizeof y);
  x[j] += t;
  return value(x, y);
}

static void check_choice(void) {
  double y[3], want_x[N] = {0}, want_y[3] = {0};
  memcpy(y, Y0, sizeof y);
  gradient(1, want_x, y, want_y);
  const size_t budgets[] = {0, 400u << 10};
  for (int b = 0; b < 3; b++) { /* no budget, a small one, split mode */
    parad_set_tape_limit(b < 2 ? budgets[b] : 0);
    double gx[N] = {0}, gy[3] = {0};
    memcpy(y, Y0, sizeof y);
    if (b < 2) gradient(0, gx, y, gy);
    else split(gx, y, gy);
    for (int i = 0; i < N; i++) CHECK_CLOSE(gx[i], want_x[i], 1e-12);
    for (int i = 0; i < 3; i++) CHECK_CLOSE(gy[i], want_y[i], 1e-12);
  }
  for (int j = 0; j < N + 3; j++) {
    double ex[N] = {0}, ey[3] = {0};
    if (j < N) ex[j] = 1;
    else ey[j - N] = 1;
    memcpy(y, Y0, sizeof y);
    CHECK_CLOSE(tangent(ex, y, ey), j < N ? want_x[j] : want_y[j - N], 1e-12);
    if (j < N) CHECK_CLOSE(fd_central(along, &j, 0, 1e-6), want_x[j], 1e-6);
  }
}

int main(void) {
  double before[N];
  memcpy(before, TABLE, sizeof before);
  for (int choice = 0; choice < 4; choice++) {
    for (int i = 0; i < N; i++) X[i] = 0.8 * cos(1.3 * i + 0.2);
    X[0] = choice & 1 ? 0.7 : -0.7; /* viewed, passed: p on x, or on c */
    X[1] = choice & 2 ? 0.4 : -0.4; /* viewed: q on c, or on x */
    X[2] = choice & 1 ? 0.6 : -0.6; /* mixed: p on x, or (x[3] < 0) on c */
    X[3] = -0.5;
    SHAPE = 0;
    check_choice();
    if (choice < 2) {
      SHAPE = 1;
      check_choice();
      SHAPE = 3;
      check_choice();
    }
    if (choice == 0) {
      SHAPE = 2;
      check_choice();
    }
  }
  for (int i = 0; i < N; i++) CHECK_CLOSE(TABLE[i], before[i], 0);
  return check_done();
}
