// A checkpointed loop whose steps run a parallel region reading constant memory: a parameter passed as
// constant (c, a static const table: a reverse sweep that added into it would fault), a pointer computed
// from it (k = c + 2), and a view chosen between x and c (p = x[0] > 0 ? x : c). The region's function
// takes c's slot, so c's slot is no longer read by loads alone where the loop's variable k is examined
// (once refused: "the pointer stored here into memory with derivatives needs a shadow"); a slot handed to functions
// and regions that only load it now holds the parameter as well; so does one a region's task loop reads
// (the region puts the slot's address in the tasks' shareds: once refused in the step, whose notes of
// where it reads passed the slot and the pointer to the runtime). Each step, in one region:
//   y_i <- y_i (1 + 0.01 sin(k_{(i+t) mod 6} x_{i mod 8} + c_{i mod 8} y_i + p_{(i+1) mod 8}))  (omp for)
//   y_i <- y_i + 0.001 k_{(i+2t) mod 6} x_{(i+1) mod 8}                                      (taskloop)
//   f = sum_i w_i y_i
// Against the same function without the marker (taped step by step, 1e-12), with no budget and a budget
// that recomputes steps, with p on x and on c; tangents along every direction of x (1e-12); central
// differences along x (h = 1e-6, 1e-6). At 1, 2 and 3 threads at -O2, and 2 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 8, M = 48, STEPS = 400 };
static const double TABLE[N] = {0.5, -1.25, 2.0, 0.75, -0.5, 1.5, 0.25, -0.75};

#define STEPPED(NAME, MARK)                                                                                 \
  double NAME(const double *x, const double *c, double *y) {                                            \
    const double *k = c + 2;                                                                             \
    const double *p = x[0] > 0 ? x : c;                                                                  \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      _Pragma("omp parallel")                                                                            \
      {                                                                                                  \
        _Pragma("omp for schedule(static)")                                                              \
        for (int i = 0; i < M; i++)                                                                      \
          y[i] *= 1 + 0.01 * sin(k[(i + t) % (N - 2)] * x[i % N] + c[i % N] * y[i] + p[(i + 1) % N]);      \
        _Pragma("omp single")                                                                            \
        _Pragma("omp taskloop num_tasks(4)")                                                             \
        for (int i = 0; i < M; i++) y[i] += 0.001 * k[(i + 2 * t) % (N - 2)] * x[(i + 1) % N];            \
      }                                                                                                  \
    }                                                                                                    \
    double f = 0;                                                                                        \
    for (int i = 0; i < M; i++) f += (1 + 0.05 * i) * y[i];                                              \
    return f;                                                                                            \
  }
STEPPED(stepped_checkpointed, __parad_checkpoint_loop())
STEPPED(stepped_taped, (void)0)

static double X[N];

static void start(double *y) {
  for (int i = 0; i < M; i++) y[i] = 0.5 + 0.01 * i;
}

static double along(void *ctx, double t) {
  int j = *(int *)ctx;
  double x[N], y[M];
  memcpy(x, X, sizeof x), start(y);
  x[j] += t;
  return stepped_checkpointed(x, TABLE, y);
}

int main(void) {
  double before[N];
  memcpy(before, TABLE, sizeof before);
  for (int side = 0; side < 2; side++) {
    for (int i = 0; i < N; i++) X[i] = 0.7 * cos(0.9 * i + 0.4);
    X[0] = side ? 0.6 : -0.6; /* p on x, or on c */
    double y[M], want_x[N] = {0}, want_y[M] = {0};
    start(y);
    __parad_autodiff((void *)stepped_taped, X, want_x, parad_const, TABLE, y, want_y);
    const size_t budgets[] = {0, 600u << 10};
    for (int b = 0; b < 2; b++) {
      parad_set_tape_limit(budgets[b]);
      double gx[N] = {0}, gy[M] = {0};
      start(y);
      __parad_autodiff((void *)stepped_checkpointed, X, gx, parad_const, TABLE, y, gy);
      for (int i = 0; i < N; i++) CHECK_CLOSE(gx[i], want_x[i], 1e-12);
      for (int i = 0; i < M; i++) CHECK_CLOSE(gy[i], want_y[i], 1e-12);
    }
    parad_set_tape_limit(0);
    for (int j = 0; j < N; j++) {
      double ex[N] = {0}, ey[M] = {0};
      ex[j] = 1;
      start(y);
      CHECK_CLOSE(__parad_fwddiff((void *)stepped_checkpointed, X, ex, parad_const, TABLE, y, ey), want_x[j], 1e-12);
      CHECK_CLOSE(fd_central(along, &j, 0, 1e-6), want_x[j], 1e-6);
    }
  }
  for (int i = 0; i < N; i++) CHECK_CLOSE(TABLE[i], before[i], 0);
  return check_done();
}
