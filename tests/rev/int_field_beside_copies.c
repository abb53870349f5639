// A solver's workspace with an integer counter beside the double arrays it copies into
// (`memcpy(ws->p, ws->ptry, ...)` accepting a trial step, `for (ws->iters = 0; ...; ws->iters++)`): a copy of
// floats into a record made the whole record one whose integers may be floats' bits, so the counter's
// increment was refused as "integer arithmetic on the bits of an active floating-point value" at -O2, and
// at a line of the model, not of the counter (a probe's Levenberg-Marquardt fit). The bytes a copy or a
// store of bits lands in are noted now (analysis/activity.c, note_bits): the counter lies apart from them.
// A fit of a 2-link arm's parameters by damped steps, the cost's gradient w.r.t. the measurements against
// central differences (h = 1e-6, tolerance 1e-6 relative), and the counter; -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { NP = 4, NM = 12 };

typedef struct {
  double p[NP], ptry[NP], r[2 * NM];
  int iters;
  long evals;
} Workspace;

static double residuals(const double *p, const double *q, const double *meas, double *r, long *evals) {
  double c = 0;
  ++*evals;
  for (int k = 0; k < NM; k++) {
    double a1 = q[k] + p[2], a2 = a1 + 0.5 * q[k] + p[3];
    r[2 * k] = p[0] * cos(a1) + p[1] * cos(a2) - meas[2 * k];
    r[2 * k + 1] = p[0] * sin(a1) + p[1] * sin(a2) - meas[2 * k + 1];
    c += r[2 * k] * r[2 * k] + r[2 * k + 1] * r[2 * k + 1];
  }
  return 0.5 * c;
}

double fit(Workspace *ws, const double *q, const double *meas) {
  double cost = residuals(ws->p, q, meas, ws->r, &ws->evals);
  for (ws->iters = 0; ws->iters < 6; ws->iters++) {
    for (int i = 0; i < NP; i++) ws->ptry[i] = ws->p[i] - 0.05 * (ws->r[2 * i] + 0.5 * ws->r[2 * i + 1]);
    double r2[2 * NM];
    double c = residuals(ws->ptry, q, meas, r2, &ws->evals);
    if (c < cost) {
      memcpy(ws->p, ws->ptry, sizeof ws->p);
      memcpy(ws->r, r2, sizeof r2);
      cost = c;
    }
  }
  return cost;
}

static Workspace start;
static double q[NM], meas[2 * NM];
static double cost_of(const double *m) {
  Workspace ws = start;
  return fit(&ws, q, m);
}

int main(void) {
  for (int k = 0; k < NM; k++) q[k] = 0.1 * k, meas[2 * k] = 0.9 - 0.02 * k, meas[2 * k + 1] = 0.05 * k;
  double p0[NP] = {0.6, 0.4, 0.05, -0.1};
  memcpy(start.p, p0, sizeof p0);
  Workspace ws = start, dws;
  memset(&dws, 0, sizeof dws);
  double g[2 * NM] = {0};
  __parad_autodiff((void *)fit, &ws, &dws, parad_const, q, meas, g);
  for (int k = 0; k < 2 * NM; k += 3) CHECK_CLOSE(g[k], fd_component(cost_of, meas, 2 * NM, k, 1e-6), 1e-6);
  CHECK_CLOSE(ws.iters, 6, 0);
  CHECK_CLOSE((double)ws.evals, 7, 0);
  return check_done();
}
