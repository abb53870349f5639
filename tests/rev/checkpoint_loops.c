// A checkpointed loop whose steps run inner loops of many shapes, whose notes move in front of the inner
// loop where every iteration runs and the addresses are affine (one note of the whole run), and stay
// where they are otherwise: up with <, down with >=, up to != with a stride of 3, a stride of 2 with <,
// a store only in odd iterations, a loop that may leave early, a do-while that runs once, bounds read
// from a global. Against the same function without the marker (taped step by step): the gradient and the
// result equal (1e-12), with no budget and a budget of a few snapshots; central differences along two
// components (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 48, STEPS = 600 };
static int half = N / 2;

#define SHAPES(NAME, MARK)                                                                                  \
  double NAME(double *x, double *y) {                                                                    \
    double s = 0;                                                                                        \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      for (int i = 1; i < N; i++) y[i] = 0.5 * y[i] + 0.1 * sin(x[i - 1]);                                \
      for (int i = N - 2; i >= 0; i--) x[i] += 0.01 * y[i + 1] * cos(x[i]);                               \
      for (int i = 0; i != 3 * (N / 3); i += 3) x[i] *= 0.999;                                           \
      for (int i = 0; i < N - 1; i += 2) y[i + 1] -= 0.001 * x[i];                                       \
      for (int i = 0; i < N; i++)                                                                        \
        if (i % 2) x[i] += 0.001 * y[i];                                                                 \
      for (int i = 0; i < N; i++) {                                                                      \
        if (x[i] > 50) break;                                                                            \
        y[i] += 0.0001 * x[i];                                                                           \
      }                                                                                                  \
      int k = t % N;                                                                                     \
      do y[k] += 0.001; while (++k < t % N);                                                             \
      for (int i = half; i < 2 * half; i++) s += x[i] * 1e-3;                                            \
    }                                                                                                    \
    for (int i = 0; i < N; i++) s += x[i] * y[i];                                                        \
    return s;                                                                                            \
  }
SHAPES(shapes_checkpointed, __parad_checkpoint_loop())
SHAPES(shapes_taped, (void)0)

static double xs[N], ys[N];
static double along(void *ctx, double v) {
  int at = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = xs[i], y[i] = ys[i];
  x[at] = v;
  return shapes_checkpointed(x, y);
}

int main(void) {
  double x[N], y[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) xs[i] = x[i] = sin(0.3 * i), ys[i] = y[i] = cos(0.2 * i);
  __parad_autodiff((void *)shapes_taped, x, dx, y, dy);
  for (int i = 0; i < N; i++) x[i] = xs[i], y[i] = ys[i];
  double J = shapes_taped(x, y);
  const size_t budgets[] = {0, 300u << 10};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    double x2[N], y2[N], dx2[N] = {0}, dy2[N] = {0};
    for (int i = 0; i < N; i++) x2[i] = xs[i], y2[i] = ys[i];
    __parad_autodiff((void *)shapes_checkpointed, x2, dx2, y2, dy2);
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(dx2[i], dx[i], 1e-12);
      CHECK_CLOSE(dy2[i], dy[i], 1e-12);
      CHECK_CLOSE(x2[i], x[i], 1e-12);
    }
  }
  parad_set_tape_limit(0);
  for (int i = 0; i < N; i++) x[i] = xs[i], y[i] = ys[i];
  CHECK_CLOSE(shapes_checkpointed(x, y), J, 1e-12);
  int at[2] = {3, 30};
  for (int k = 0; k < 2; k++) CHECK_CLOSE(dx[at[k]], fd_central(along, &at[k], xs[at[k]], 1e-5), 1e-6);
  return check_done();
}
