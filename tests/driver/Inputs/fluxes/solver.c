#include <math.h>
#include <stdlib.h>
#include "fluxes.h"

/* One step at the largest stable time step (a maximum over the cells); returns the step. */
static double step(Solver *s) {
  int n = s->n;
  double amax = 0;
#pragma omp parallel for reduction(max : amax)
  for (int i = 0; i < n; i++) {
    double a = fabs(s->u[i].hu / s->u[i].h) + sqrt(s->g * s->u[i].h);
    if (a > amax) amax = a;
  }
  double dt = s->cfl * s->dx / amax;
#pragma omp parallel for schedule(static)
  for (int i = 0; i <= n; i++) /* reflecting walls: the boundary cell on both sides */
    s->flux(&s->u[i == 0 ? 0 : i - 1], &s->u[i == n ? n - 1 : i], s->g, &s->fh[i], &s->fhu[i]);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    s->unew[i].h = s->u[i].h - dt / s->dx * (s->fh[i + 1] - s->fh[i]);
    s->unew[i].hu = s->u[i].hu - dt / s->dx * (s->fhu[i + 1] - s->fhu[i]);
  }
  Cell *t = s->u;
  s->u = s->unew, s->unew = t;
  return dt;
}

/* J: a weighted sum of the final state plus the time reached. */
double run(double *h0, int n, int steps, int which) {
  register_fluxes();
  Solver s = {.n = n, .g = 9.81, .dx = 1.0 / n, .cfl = 0.4, .flux = flux_table[which], .name = flux_names[which]};
  s.u = malloc(sizeof(Cell) * n), s.unew = malloc(sizeof(Cell) * n);
  s.fh = malloc(sizeof(double) * (n + 1)), s.fhu = malloc(sizeof(double) * (n + 1));
  for (int i = 0; i < n; i++) s.u[i].h = h0[i], s.u[i].hu = 0.1 * h0[i];
  double t = 0;
  for (int k = 0; k < steps; k++) t += step(&s);
  double J = t;
  for (int i = 0; i < n; i++) J += s.u[i].h * s.u[i].h * (i % 3 + 1) + s.u[i].hu;
  free(s.u), free(s.unew), free(s.fh), free(s.fhu);
  return J;
}
