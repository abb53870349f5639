// A checkpointed 2-D time loop written the way solvers often are: the caller's grid u is advanced in
// place (a helper computes the new grid v from u through pointers, memcpy copies it back), a coefficient
// field c is read every step and overwritten by the function after the loop, and a scratch row the step
// allocates and frees itself. Against the same function without the marker (taped step by step), for
// 120 steps on a 120 x 100 grid with no budget and with a budget of a few snapshots: the final grid the
// caller gets, the result, and the gradients with respect to the initial grid and the coefficients
// equal the taped ones (1e-12); one component against central differences (1e-6). At -O2 only: at -O0
// the step, which only passes u to the helper and to memcpy, does not show what memcpy copies.
// RUN: %parad-cc %cflags %s -o %t -lm && %t && valgrind -q --error-exitcode=1 %t 6
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { NX = 120, NY = 100 }; /* a step tapes about 200 KB: several tape chunks */
static int steps = 120;

static void diffuse(const double *u, double *v, const double *c, double *row) {
  for (int i = 1; i < NX - 1; i++) {
    for (int j = 1; j < NY - 1; j++) row[j] = u[(i - 1) * NY + j] + u[(i + 1) * NY + j] + u[i * NY + j - 1] + u[i * NY + j + 1];
    for (int j = 1; j < NY - 1; j++) v[i * NY + j] = u[i * NY + j] + c[i * NY + j] * (row[j] - 4 * u[i * NY + j]) - 0.01 * u[i * NY + j] * u[i * NY + j];
  }
}

#define HEAT2D(NAME, MARK)                                                                                  \
  double NAME(double *u, double *c) {                                                                     \
    double *v = malloc(sizeof(double) * NX * NY);                                                          \
    memcpy(v, u, sizeof(double) * NX * NY);                                                                \
    for (int t = 0; t < steps; t++) {                                                                      \
      MARK;                                                                                                \
      double *row = malloc(sizeof(double) * NY);                                                           \
      diffuse(u, v, c, row);                                                                               \
      free(row);                                                                                           \
      memcpy(u, v, sizeof(double) * NX * NY);                                                              \
    }                                                                                                      \
    free(v);                                                                                               \
    double J = 0;                                                                                          \
    for (int k = 0; k < NX * NY; k++) J += u[k] * u[k] * (1 + k % 5), c[k] = 0;                            \
    return J;                                                                                              \
  }
HEAT2D(heat_checkpointed, __parad_checkpoint_loop())
HEAT2D(heat_taped, (void)0)

static void start(double *u, double *c) {
  for (int k = 0; k < NX * NY; k++) u[k] = sin(0.1 * k) + 1, c[k] = 0.1 + 0.05 * cos(0.3 * k);
}

static double along(void *ctx, double x) { /* J along u0[5 * NY + 7] */
  (void)ctx;
  double u[NX * NY], c[NX * NY];
  start(u, c);
  u[5 * NY + 7] = x;
  return heat_checkpointed(u, c);
}

int main(int argc, char **argv) {
  if (argc > 1) steps = atoi(argv[1]);
  static double u[NX * NY], c[NX * NY], du[NX * NY], dc[NX * NY], u2[NX * NY], c2[NX * NY], du2[NX * NY],
      dc2[NX * NY];
  start(u, c);
  double u57 = u[5 * NY + 7];
  for (int k = 0; k < NX * NY; k++) du[k] = dc[k] = 0;
  __parad_autodiff((void *)heat_taped, u, du, c, dc);
  const size_t budgets[] = {0, 4u << 20};
  for (size_t b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    start(u2, c2);
    for (int k = 0; k < NX * NY; k++) du2[k] = dc2[k] = 0;
    __parad_autodiff((void *)heat_checkpointed, u2, du2, c2, dc2);
    for (int k = 0; k < NX * NY; k++) {
      CHECK_CLOSE(u2[k], u[k], 1e-12);
      CHECK_CLOSE(c2[k], c[k], 1e-12);
      CHECK_CLOSE(du2[k], du[k], 1e-12);
      CHECK_CLOSE(dc2[k], dc[k], 1e-12);
    }
  }
  parad_set_tape_limit(0);
  CHECK_CLOSE(du[5 * NY + 7], fd_central(along, NULL, u57, 1e-5), 1e-6);
  return check_done();
}
