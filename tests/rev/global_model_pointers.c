// Generated code with continuous states (Simulink's embedded coder) keeps a global model record that
// points at the global states and at its own derivative buffer (`rtM->contStates = (real_T *)&rtX;
// rtM->derivs = rtM->odeF;`, through `RT_MODEL *const rtM = &rtM_`), and the solver works through those
// pointers. It was refused ("cannot store an active value into memory without a shadow ... 'rtM_'").
// Such a record gets a shadow global (ad/global_blocks.c): a slot holding a global's address holds the
// same address in that global's shadow, stored with it in the code a derivative runs, and set so at the
// derivative's entry where the set-up stored it (global_block_enter). A global whose address is stored
// anywhere, the set-up too, may hold active data (its direct reads had no derivative: the gradient was 0).
//   inside: the cost initialises the model (as the probe's program did);
//   setup:  main initialises it once, the cost only resets the states through the global itself;
//   plain:  a pointer global set by main to a global array, written through in the cost.
// Gradients and tangents against central differences (h = 1e-6, tolerance 1e-6 relative), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double pos, vel;
} X;
typedef struct {
  double *contStates;
  double *derivs;
  double odeF[2];
  double h;
} RT_MODEL;

X rtX;
double rtK = 25.0;
static RT_MODEL rtM_;
RT_MODEL *const rtM = &rtM_;

static void derivatives(void) {
  double *x = rtM->contStates;
  rtM->derivs[0] = x[1];
  rtM->derivs[1] = -rtK * x[0] - 0.5 * x[1];
}

static void step(void) {
  double *x = rtM->contStates;
  derivatives();
  for (int i = 0; i < 2; i++) x[i] += rtM->h * rtM->odeF[i];
}

static void initialize(void) {
  rtM->contStates = (double *)&rtX;
  rtM->derivs = rtM->odeF;
  rtM->h = 1e-3;
  rtX.pos = 1.0, rtX.vel = 0.0;
}

double cost_inside(double k) {
  double J = 0;
  rtK = k;
  initialize();
  for (int n = 0; n < 500; n++) step(), J += rtX.pos * rtX.pos;
  return J;
}

double cost_setup(double k) {
  double J = 0;
  rtK = k;
  rtX.pos = 1.0, rtX.vel = 0.0;
  for (int n = 0; n < 500; n++) step(), J += rtX.pos * rtX.pos + 0.1 * rtX.vel;
  return J;
}

double field[8];
static double *state;

double cost_plain(double k) {
  double J = 0;
  for (int i = 0; i < 8; i++) field[i] = 0.1 * i;
  for (int t = 0; t < 3; t++)
    for (int i = 0; i < 8; i++) state[i] = state[i] * k + 0.01 * state[(i + 1) % 8];
  for (int i = 0; i < 8; i++) J += field[i] * field[i];
  return J;
}

static double (*costs[3])(double) = {cost_inside, cost_setup, cost_plain};
static double by_index(void *ctx, double k) { return costs[*(int *)ctx](k); }

int main(void) {
  initialize();
  state = field;
  double ks[3] = {25.0, 16.0, 0.9};
  for (int c = 0; c < 3; c++) {
    double fd = fd_central(by_index, &c, ks[c], 1e-6), g;
    switch (c) {
    case 0: g = __parad_autodiff((void *)cost_inside, ks[c]); break;
    case 1: g = __parad_autodiff((void *)cost_setup, ks[c]); break;
    default: g = __parad_autodiff((void *)cost_plain, ks[c]);
    }
    CHECK_CLOSE(g, fd, 1e-6);
    double t = c == 0 ? __parad_fwddiff((void *)cost_inside, ks[c], 1.0)
             : c == 1 ? __parad_fwddiff((void *)cost_setup, ks[c], 1.0)
                      : __parad_fwddiff((void *)cost_plain, ks[c], 1.0);
    CHECK_CLOSE(t, fd, 1e-6);
  }
  return check_done();
}
