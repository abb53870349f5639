#include <math.h>
#include "fluxes.h"

static double speed(const Cell *c, double g) { return fabs(c->hu / c->h) + sqrt(g * c->h); }

static void physical(const Cell *c, double g, double *fh, double *fhu) {
  *fh = c->hu;
  *fhu = c->hu * c->hu / c->h + 0.5 * g * c->h * c->h;
}

static void rusanov(const Cell *l, const Cell *r, double g, double *fh, double *fhu) {
  double a = fmax(speed(l, g), speed(r, g)), lh, lhu, rh, rhu;
  physical(l, g, &lh, &lhu), physical(r, g, &rh, &rhu);
  *fh = 0.5 * (lh + rh) - 0.5 * a * (r->h - l->h);
  *fhu = 0.5 * (lhu + rhu) - 0.5 * a * (r->hu - l->hu);
}

static void hll(const Cell *l, const Cell *r, double g, double *fh, double *fhu) {
  double ul = l->hu / l->h, ur = r->hu / r->h, cl = sqrt(g * l->h), cr = sqrt(g * r->h);
  double sl = fmin(ul - cl, ur - cr), sr = fmax(ul + cl, ur + cr), lh, lhu, rh, rhu;
  physical(l, g, &lh, &lhu), physical(r, g, &rh, &rhu);
  if (sl >= 0) *fh = lh, *fhu = lhu;
  else if (sr <= 0) *fh = rh, *fhu = rhu;
  else {
    *fh = (sr * lh - sl * rh + sl * sr * (r->h - l->h)) / (sr - sl);
    *fhu = (sr * lhu - sl * rhu + sl * sr * (r->hu - l->hu)) / (sr - sl);
  }
}

/* Lax-Friedrichs with a fixed dissipation */
static void lax_friedrichs(const Cell *l, const Cell *r, double g, double *fh, double *fhu) {
  double lh, lhu, rh, rhu;
  physical(l, g, &lh, &lhu), physical(r, g, &rh, &rhu);
  *fh = 0.5 * (lh + rh) - 2.5 * (r->h - l->h);
  *fhu = 0.5 * (lhu + rhu) - 2.5 * (r->hu - l->hu);
}

FluxFn flux_table[FLUXES] = {rusanov, hll, 0};
const char *flux_names[FLUXES] = {"rusanov", "hll", "lax-friedrichs"};

void register_fluxes(void) {
  if (!flux_table[2]) flux_table[2] = lax_friedrichs;
}
