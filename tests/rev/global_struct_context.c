// A global context struct, as integrators pass state to a right-hand side that takes only its output:
// `ctx.state = st` (a local array of the differentiated function) and `ctx.coef` (a table main allocates
// once), read by rhs() through the global. Two faults were found here:
//   - at -O0 the gradient and the tangent were wrong with no message (relative error 0.2): whether a
//     global's pointers may reach active data was asked of the stored pointer's own uses (the address of
//     st's first element, only stored), not of the array it points into, so rhs() was called as if it had
//     no derivative;
//   - after a plain call left ctx.state pointing at that call's dead array, the next derivative stopped at
//     its start, at -O0 always, and at -O2 where rhs() is not inlined: a struct's pointers were all taken as
//     read at a derivative's entry. Each pointer field is now asked on its own whether every path sets it
//     first (state) or not (coef, which keeps its check and its shadow).
//   y_i <- y_i - h k c_i y_i^2, T steps from y = x; J = sum_i w_i y_i^2.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), before
// and after a plain call, twice; the same with rhs() kept a call, with a plain pointer global to the
// local array, and with a struct given fresh heap blocks every call and freed at its end. A function reading ctx.state before it sets it
// still stops at its derivative's start, naming the global.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
// RUN: not --crash %t reads_first 2>&1 | FileCheck %s
// RUN: not --crash %t0 reads_first 2>&1 | FileCheck %s
// CHECK: parad{{.*}}'ctx'
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 12, T = 25 };
typedef struct {
  double *state;
  int n;
  double k;
  const double *coef;
} Ctx;
Ctx ctx; /* not static: the optimiser keeps it one struct (a static one it splits into pointer globals) */

static void rhs(double *dy) {
  for (int i = 0; i < ctx.n; i++) dy[i] = -ctx.k * ctx.coef[i] * ctx.state[i] * ctx.state[i];
}

__attribute__((noinline)) static void rhs_call(double *dy) { rhs(dy); }

static double energy(const double *y) {
  double J = 0;
  for (int i = 0; i < N; i++) J += (1 + 0.1 * i) * y[i] * y[i];
  return J;
}

static double integrate(const double *x) {
  double st[N], dy[N];
  memcpy(st, x, sizeof st);
  ctx.n = N, ctx.k = 0.7;
  ctx.state = st;
  for (int s = 0; s < T; s++) {
    rhs(dy);
    for (int i = 0; i < N; i++) st[i] += 0.02 * dy[i];
  }
  return energy(st);
}

static double integrate_calls(const double *x) {
  double st[N], dy[N];
  ctx.state = st;
  ctx.n = N, ctx.k = 0.7;
  for (int i = 0; i < N; i++) st[i] = x[i];
  for (int s = 0; s < T; s++) {
    rhs_call(dy);
    for (int i = 0; i < N; i++) st[i] += 0.02 * dy[i];
  }
  return energy(st);
}

/* one step away: a plain pointer global to the local array (the same fault at -O0), and a struct whose
   fields get fresh heap blocks every call, freed at its end (a dangling pair between calls) */
static double *state;
static struct {
  double *w, *v;
} pair;

static void rhs_state(double *dy) {
  for (int i = 0; i < N; i++) dy[i] = -0.5 * state[i] * state[i];
}

static void rhs_pair(double *dy) {
  for (int i = 0; i < N; i++) dy[i] = -0.3 * pair.w[i] * pair.v[i];
}

static double integrate_state(const double *x) {
  double st[N], dy[N];
  for (int i = 0; i < N; i++) st[i] = x[i];
  state = st;
  for (int s = 0; s < T; s++) {
    rhs_state(dy);
    for (int i = 0; i < N; i++) st[i] += 0.02 * dy[i];
  }
  return energy(st);
}

static double integrate_pair(const double *x) {
  double dy[N], *v = malloc(sizeof(double) * N);
  pair.w = malloc(sizeof(double) * N);
  pair.v = v;
  for (int i = 0; i < N; i++) pair.w[i] = x[i], v[i] = 1 + x[i] * x[i];
  for (int s = 0; s < T; s++) {
    rhs_pair(dy);
    for (int i = 0; i < N; i++) pair.w[i] += 0.02 * dy[i];
  }
  double J = energy(pair.w);
  free(pair.w);
  free(v);
  return J;
}

/* reads ctx.state, which still points at an earlier call's array, before it sets it */
static double reads_first(const double *x) {
  double st[N], s0 = ctx.state[0];
  for (int i = 0; i < N; i++) st[i] = x[i] * s0;
  ctx.state = st;
  return energy(st);
}

int main(int argc, char **argv) {
  double *coef = malloc(sizeof(double) * N), x[N];
  for (int i = 0; i < N; i++) coef[i] = 1 + 0.05 * i, x[i] = 0.4 + 0.03 * i;
  ctx.coef = coef;
  if (argc > 1) {
    integrate(x);
    double g[N] = {0};
    __parad_autodiff((void *)reads_first, x, g);
    return 0;
  }
  CHECK_GRADIENT(integrate, x, N, 1e-12, 1e-5, 1e-6); /* before any plain call: ctx.state is null */
  double J = integrate(x);                            /* leaves ctx.state pointing at its dead array */
  CHECK_CLOSE(integrate_calls(x), J, 1e-14);
  for (int round = 0; round < 2; round++) {
    CHECK_GRADIENT(integrate, x, N, 1e-12, 1e-5, 1e-6);
    CHECK_GRADIENT(integrate_calls, x, N, 1e-12, 1e-5, 1e-6);
    CHECK_GRADIENT(integrate_state, x, N, 1e-12, 1e-5, 1e-6);
    CHECK_GRADIENT(integrate_pair, x, N, 1e-12, 1e-5, 1e-6);
  }
  free(coef);
  return check_done();
}
