// A handle built by a constructor the compiler does not inline, storing a constant table of operations
// (and, through a configuration record, the table the configuration names) beside the active weights:
// `handle_init(&h, ops, w, n)`, then `h.ops->energy(h.w, ...)`. The handle's shadow needs something in
// the table's field: the table itself, where every pointer read from that field, in every caller of the
// constructor, is only called through or read for integers (ad/constants.c, record_field_read_as). It was
// refused at -O2 ("needs a shadow for memory that has none"). A table holding a float the code uses is
// still refused (tests/diag/constant_table_float_in_handle.c).
// Gradients against central differences (h = 1e-6, tolerance 1e-6 relative), both tables, -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);

typedef struct Ops {
  double (*energy)(const double *w, int n, double scale);
  int order;
} Ops;
typedef struct Config {
  const Ops *ops;
  double scale;
  int n;
} Config;
typedef struct Handle {
  const Ops *ops;
  const double *w;
  double scale;
  int n;
} Handle;

static double quad(const double *w, int n, double s) {
  double e = 0;
  for (int i = 0; i < n; i++) e += s * w[i] * w[i];
  return e;
}
static double quart(const double *w, int n, double s) {
  double e = 0;
  for (int i = 0; i < n; i++) e += s * pow(w[i], 4) + w[i];
  return e;
}
const Ops QUAD = {quad, 2}, QUART = {quart, 4};

__attribute__((noinline)) void handle_init(Handle *h, const Ops *ops, const double *w, int n) {
  h->ops = ops, h->w = w, h->scale = 1.5, h->n = n;
}
__attribute__((noinline)) void handle_from(Handle *h, const Config *cfg, const double *w) {
  h->ops = cfg->ops, h->scale = cfg->scale, h->n = cfg->n, h->w = w;
}

double loss(const double *w, const Ops *ops, int n) {
  Handle h;
  handle_init(&h, ops, w, n);
  return h.ops->energy(h.w, h.n, h.scale) * h.ops->order + sin(w[0]);
}

/* two levels of constructors: the record the outer one is given is its caller's local */
__attribute__((noinline)) void handle_setup(Handle *h, const Config *cfg, const double *w) { handle_from(h, cfg, w); }
double loss_cfg(const double *w, const Config *cfg) {
  Handle h;
  handle_setup(&h, cfg, w);
  return h.ops->energy(h.w, h.n, h.scale) + cos(w[1]);
}

static const Ops *chosen;
static Config cfg;
static double loss_now(const double *w) { return loss(w, chosen, 4); }
static double loss_cfg_now(const double *w) { return loss_cfg(w, &cfg); }

int main(void) {
  double w[4] = {0.3, -0.7, 1.1, 0.5};
  const Ops *tables[2] = {&QUAD, &QUART};
  for (int k = 0; k < 2; k++) {
    chosen = tables[k];
    cfg = (Config){chosen, 0.75, 4};
    double g[4] = {0}, gc[4] = {0};
    __parad_autodiff((void *)loss, w, g, parad_const, chosen, 4);
    __parad_autodiff((void *)loss_cfg, w, gc, parad_const, &cfg);
    for (int j = 0; j < 4; j++) {
      CHECK_CLOSE(g[j], fd_component(loss_now, w, 4, j, 1e-6), 1e-6);
      CHECK_CLOSE(gc[j], fd_component(loss_cfg_now, w, 4, j, 1e-6), 1e-6);
    }
  }
  return check_done();
}
