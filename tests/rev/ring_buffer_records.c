// Audio effects as DSP code keeps their state: a comb filter `struct { double buf[256]; int len, idx;
// double store; }` and an allpass `struct { double buf[128]; int len, idx; }` in malloc'd memory, a
// reverb holding arrays of each, indexed by the ring buffer's position `c->buf[c->idx]`. At -O1 and up
// the block has no type but the accesses': its doubles indexed at a variable position were taken to run
// to the block's end, over the integer fields after them, whose reads were then taken for a float's
// bits ("a part of a float's bits moved as a smaller integer", refused); the allpasses' integers, reached
// through the array of records, likewise. An index of an array the program declares stays in it, and an
// access through an array of records is placed in the record's layout (analysis/memtype.c).
//   f(room, damp) = sum_i (in_i + reverb(in)_i)^2 over 500 samples, and the same through one comb alone
// The gradient against central differences (h = 1e-6, 1e-6) and against the tangents (1e-10). At -O2,
// -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { NCOMB = 4, NAP = 2, N = 500 };
typedef struct {
  double buf[256];
  int len, idx;
  double store;
} Comb;
typedef struct {
  double buf[128];
  int len, idx;
} Allpass;
typedef struct {
  Comb comb[NCOMB];
  Allpass ap[NAP];
} Reverb;

static const int comb_len[NCOMB] = {113, 127, 139, 151}, ap_len[NAP] = {37, 59};
static double in[N];

static void comb_init(Comb *c, int len) {
  memset(c->buf, 0, sizeof c->buf);
  c->len = len;
  c->idx = 0;
  c->store = 0;
}

static double comb_tick(Comb *c, double x, double fb, double damp) {
  double out = c->buf[c->idx];
  c->store = out * (1 - damp) + c->store * damp;
  c->buf[c->idx] = x + c->store * fb;
  if (++c->idx >= c->len) c->idx = 0;
  return out;
}

static double allpass_tick(Allpass *a, double x) {
  double bo = a->buf[a->idx];
  a->buf[a->idx] = x + bo * 0.5;
  a->idx = (a->idx + 1) % a->len;
  return bo - x;
}

static double reverb_loss(const double *p) {
  Reverb *r = malloc(sizeof *r);
  for (int i = 0; i < NCOMB; i++) comb_init(&r->comb[i], comb_len[i]);
  for (int i = 0; i < NAP; i++) {
    memset(r->ap[i].buf, 0, sizeof r->ap[i].buf);
    r->ap[i].len = ap_len[i];
    r->ap[i].idx = 0;
  }
  double e = 0;
  for (int t = 0; t < N; t++) {
    double acc = 0;
    for (int i = 0; i < NCOMB; i++) acc += comb_tick(&r->comb[i], in[t] * 0.015, p[0], p[1]);
    for (int i = 0; i < NAP; i++) acc = allpass_tick(&r->ap[i], acc);
    double y = in[t] + acc;
    e += y * y;
  }
  free(r);
  return e;
}

static double comb_loss(const double *p) {
  Comb *c = malloc(sizeof *c);
  comb_init(c, 37);
  double e = 0;
  for (int t = 0; t < N; t++) {
    double y = in[t] + comb_tick(c, in[t], p[0], p[1]);
    e += y * y;
  }
  free(c);
  return e;
}

static void check(array_fn f) {
  double p[2] = {0.8, 0.3}, g[2] = {0, 0}, v[2] = {1, -0.5};
  __parad_autodiff((void *)f, p, g);
  double d = __parad_fwddiff((void *)f, p, v);
  CHECK_CLOSE(d, g[0] * v[0] + g[1] * v[1], 1e-10);
  for (int k = 0; k < 2; k++) CHECK_CLOSE(g[k], fd_component(f, p, 2, k, 1e-6), 1e-6);
}

int main(void) {
  for (int t = 0; t < N; t++) in[t] = sin(0.05 * t) + 0.2 * cos(0.31 * t);
  check(comb_loss);
  check(reverb_loss);
  return check_done();
}
