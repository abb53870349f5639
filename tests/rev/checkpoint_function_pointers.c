// Checkpointed loops whose steps call through function pointers: a table of steppers picked per step
// (one of them reads a global table of rates), a stepper passed as a parameter, and libm functions from a
// table.
// The step's noting copy tests the pointer against each function of the module it may hold (of its type,
// address taken) and calls that one's noting copy; a library function with a derivative rule and no
// pointer parameter is called as it is. Once refused ("a call through a function pointer ... not supported
// yet"). Against the same functions without the marker (taped): the gradient equal to 1e-12 relative to
// the largest component, with no budget and with a budget of a few snapshots; against central differences
// (h = 1e-6, 1e-6); the loop checkpointed (two runs per step without a budget). And a callback passed
// parad_const to a function whose loop calls it, where an address-taken helper also reaches that function
// (the steps only call through the pointer: it needs no shadow; it was refused as a constant pointer
// stored into the loop's variables), against central differences. And steppers of a state record
// `void (*)(State *)` over two heap arrays swapped each step, the type of the loop's own runners, which
// were taken for functions the pointer may hold and refused without a place ("a derivative request inside
// a loop checkpointed ...", in Parad's own functions): against the taped loop (1e-12) and central
// differences (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_autodiff_scalar(void *, ...); /* a gradient with respect to a scalar: returned */
void __parad_checkpoint_loop(void);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 12, T = 40 };
typedef void (*Stepper)(double *u, double k);

static double rates[N] = {1, 0.9, 0.8, 1.1, 1.2, 0.7, 1, 0.95, 1.05, 0.85, 1.15, 1};

static void diffuse(double *u, double k) {
  for (int i = 1; i < N - 1; i++) u[i] += k * (u[i - 1] - 2 * u[i] + u[i + 1]);
}
static void damp(double *u, double k) {
  for (int i = 0; i < N; i++) u[i] -= 0.05 * k * rates[i] * u[i] * u[i];
}
static void shift(double *u, double k) {
  double first = u[0];
  for (int i = 0; i < N - 1; i++) u[i] = (1 - k) * u[i] + k * u[i + 1];
  u[N - 1] = (1 - k) * u[N - 1] + k * first;
}
static Stepper steppers[3] = {diffuse, damp, shift};
static double (*shapes[3])(double) = {sin, tanh, atan};

#define SOLVE(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static double NAME##_with(const double *x, Stepper extra) {                    \
    double u[N], s = 0;                                                                                    \
    memcpy(u, x, sizeof u);                                                                                \
    for (int t = 0; t < T; t++) {                                                                          \
      MARK;                                                                                                \
      steppers[t % 3](u, 0.1 + 0.002 * t);                                                                 \
      if (t % 4 == 0) extra(u, 0.05);                                                                      \
      for (int i = 0; i < N; i++) u[i] = 0.95 * u[i] + 0.05 * shapes[(t + i) % 3](u[(i + 1) % N]);       \
    }                                                                                                      \
    for (int i = 0; i < N; i++) s += u[i] * u[i] * (i + 1);                                                \
    return s;                                                                                              \
  }                                                                                                        \
  double NAME(const double *x) { return NAME##_with(x, shift); }
SOLVE(checkpointed, __parad_checkpoint_loop())
SOLVE(taped, (void)0)

typedef struct {
  int n;
  double *u, *unew;
} State;
typedef void (*StateStep)(State *s);
static void state_heat(State *s) {
  for (int i = 1; i < s->n - 1; i++) s->unew[i] = s->u[i] + 0.2 * (s->u[i - 1] - 2 * s->u[i] + s->u[i + 1]);
  s->unew[0] = s->u[0], s->unew[s->n - 1] = s->u[s->n - 1];
}
static void state_damp(State *s) {
  for (int i = 0; i < s->n; i++) s->unew[i] = 0.9 * s->u[i] + 0.02 * s->u[i] * s->u[i];
}
static StateStep state_steps[2] = {state_heat, state_damp};

#define SWAPPED(NAME, MARK)                                                                                 \
  double NAME(const double *x) {                                                                           \
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), r = 0;                                  \
    memcpy(a, x, N * sizeof *a);                                                                           \
    for (int t = 0; t < 10; t++) {                                                                         \
      MARK;                                                                                                \
      State st = {N, a, b};                                                                                \
      state_steps[t % 3 == 2](&st);                                                                        \
      double *w = a;                                                                                       \
      a = b, b = w;                                                                                        \
    }                                                                                                      \
    for (int i = 0; i < N; i++) r += a[i] * a[i] * (i + 1);                                                \
    free(a), free(b);                                                                                      \
    return r;                                                                                              \
  }
SWAPPED(state_checkpointed, __parad_checkpoint_loop())
SWAPPED(state_taped, (void)0)

typedef double (*Unary)(double);
static double square(double v) { return v * v; }
static double softer(double v) { return v / (1 + v * v); }
__attribute__((noinline)) static double integrate(Unary f, double x) {
  double s = 0;
  for (int t = 0; t < 20; t++) {
    __parad_checkpoint_loop();
    s += 2 * f(x);
    x += 0.01 * f(x);
  }
  return s;
}
static Unary chosen;
static double along(void *ctx, double x) {
  (void)ctx;
  return integrate(chosen, x);
}

int main(void) {
  Unary callbacks[2] = {square, softer};
  for (int k = 0; k < 2; k++) {
    chosen = callbacks[k];
    double d = __parad_autodiff_scalar((void *)integrate, parad_const, chosen, 0.7);
    CHECK_CLOSE(d, fd_central(along, NULL, 0.7, 1e-6), 1e-6);
  }

  double x[N], want[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x[i] = 0.4 + 0.2 * sin(1.7 * i);
  __parad_autodiff((void *)taped, x, want);
  for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));
  CHECK_CLOSE(checkpointed(x), taped(x), 1e-12);
  const size_t budgets[] = {0, 200u << 10};
  for (size_t b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    double dx[N] = {0};
    __parad_autodiff((void *)checkpointed, x, dx);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i] / largest, want[i] / largest, 1e-12);
    long steps = 0, runs = 0;
    parad_checkpoint_counts(&steps, &runs);
    if (b == 0) CHECK_CLOSE((double)runs, 2.0 * steps, 0);
  }
  parad_set_tape_limit(0);
  for (int i = 0; i < N; i += 4) CHECK_CLOSE(want[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6);
  double sw[N] = {0}, sc[N] = {0};
  __parad_autodiff((void *)state_taped, x, sw);
  __parad_autodiff((void *)state_checkpointed, x, sc);
  for (int i = 0; i < N; i++) CHECK_CLOSE(sc[i], sw[i], 1e-12);
  for (int i = 0; i < N; i += 3) CHECK_CLOSE(sc[i], fd_component(state_checkpointed, x, N, i, 1e-6), 1e-6);
  return check_done();
}
