// A context record holding the active parameters beside a pointer to a constant problem record, which in
// turn points to the data (`c->data->t[i]`), handed as `void *` to a routine calling back through a
// pointer chosen at run time. The context's shadow holds the constant record's pointer itself (a view,
// ad/constants.h); the pointers read from a view are views too: their shadows, read at the view's own
// shadow, are the data themselves, and the loads through them tell the two apart by address. It was
// refused ("needs a shadow") where the constant record held pointers. With the record active (parad_dup,
// a shadow record of shadow arrays) the same code gives the data's adjoints.
// The data are static const (read-only memory: an adjoint added there would fault). Gradients and
// tangents against central differences (h = 1e-6, tolerance 1e-6 relative), each callback, -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  const double *t, *w;
  int n;
} Data;

typedef struct {
  const double *theta;
  const Data *data;
} Ctx;

__attribute__((noinline)) double sum_over(int n, double (*fn)(int i, void *ctx), void *ctx) {
  double s = 0;
  for (int i = 0; i < n; i++) s += fn(i, ctx);
  return s;
}

static double sine_fit(int i, void *vctx) {
  const Ctx *c = vctx;
  double r = c->theta[0] * sin(c->theta[1] * c->data->t[i]) - c->data->w[i];
  return r * r;
}

static double line_fit(int i, void *vctx) {
  const Ctx *c = vctx;
  const Data *d = c->data;
  double r = c->theta[0] * d->t[i] + c->theta[1] - d->w[i];
  return r * r * (1 + d->t[i]);
}

double (*const fits[2])(int, void *) = {sine_fit, line_fit};

double loss(const double *theta, const Data *d, int which) {
  Ctx c = {theta, d};
  return sum_over(d->n, fits[which], &c);
}

static const double T[6] = {0.1, 0.4, 0.7, 1.0, 1.3, 1.7}, W[6] = {0.2, 0.9, 1.1, 0.8, 0.3, -0.4};
static const Data D = {T, W, 6};
static double th[2] = {1.3, 2.1}, t_var[6], w_var[6];
static Data d_var = {t_var, w_var, 6};
static int which;
static double loss_theta(const double *x) { return loss(x, &D, which); }
static double loss_t(const double *x) {
  Data d = {x, w_var, 6};
  return loss(th, &d, which);
}
static double loss_w(const double *x) {
  Data d = {t_var, x, 6};
  return loss(th, &d, which);
}

int main(void) {
  for (int i = 0; i < 6; i++) t_var[i] = T[i], w_var[i] = W[i];
  for (which = 0; which < 2; which++) {
    double g[2] = {0};
    __parad_autodiff((void *)loss, th, g, parad_const, &D, which);
    for (int j = 0; j < 2; j++) {
      double fd = fd_component(loss_theta, th, 2, j, 1e-6), v[2] = {j == 0, j == 1};
      CHECK_CLOSE(g[j], fd, 1e-6);
      CHECK_CLOSE(__parad_fwddiff((void *)loss, th, v, parad_const, &D, which), fd, 1e-6);
    }
    /* the record active: its arrays' adjoints through the same callbacks */
    double gt[2] = {0}, dt[6] = {0}, dw[6] = {0};
    Data dd = {dt, dw, 6};
    __parad_autodiff((void *)loss, th, gt, &d_var, &dd, which);
    for (int j = 0; j < 2; j++) CHECK_CLOSE(gt[j], g[j], 1e-12);
    for (int i = 0; i < 6; i++) {
      CHECK_CLOSE(dt[i], fd_component(loss_t, t_var, 6, i, 1e-6), 1e-6);
      CHECK_CLOSE(dw[i], fd_component(loss_w, w_var, 6, i, 1e-6), 1e-6);
    }
  }
  return check_done();
}
