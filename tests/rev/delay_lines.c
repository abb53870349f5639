// Delay lines as audio code keeps them: a reverb of combs and allpasses, each a record
// {double *buf; int len, idx; double store;} in an array inside the reverb's record, its integer index
// advanced per sample (`if (++c->idx >= c->len) c->idx = 0`). At -O2 the optimiser addresses the index
// as byte 12 of the comb the loop's variable picks (a stride of one comb, not of the reverb): the index
// was taken for a float's bits and the gradient refused ("integer arithmetic on the bits of an active
// floating-point value"); only one comb, or -O0, built. Channels, each a reverb, in an array local to main,
// with OpenMP over the channels: the region reads the array through its shared variable, a pointer read
// from memory that only the region's indexing tells the records of (main's writes into it, pointers and
// integers beside doubles, made it mixed memory: refused again). Gradients with respect to the feedback, the damping and the input against
// central differences (h = 1e-6, tolerance 1e-6) and forward tangents (1e-10). At -O2, -O0, and with
// -fopenmp at 1 and 2 threads.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc %cflags -fopenmp %s -o %t2 && OMP_NUM_THREADS=1 %t2 && OMP_NUM_THREADS=2 %t2
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { NCOMB = 4, NALL = 2, CH = 3, T = 120 }; /* a reverb of 128 bytes, as Freeverb's */
typedef struct {
  double *buf;
  int len, idx;
  double store;
} comb;
typedef struct {
  double *buf;
  int len, idx;
} allpass;
typedef struct {
  comb c[NCOMB];
  allpass a[NALL];
} reverb;

static inline double comb_tick(comb *c, double x, double fb, double damp) {
  double y = c->buf[c->idx];
  c->store = y * (1 - damp) + c->store * damp;
  c->buf[c->idx] = x + c->store * fb;
  if (++c->idx >= c->len) c->idx = 0;
  return y;
}

static inline double allpass_tick(allpass *a, double x) {
  double b = a->buf[a->idx], y = b - x;
  a->buf[a->idx] = x + 0.5 * b;
  if (++a->idx >= a->len) a->idx = 0;
  return y;
}

static void clear(reverb *r) {
  for (int k = 0; k < NCOMB; k++) memset(r->c[k].buf, 0, sizeof(double) * r->c[k].len), r->c[k].idx = 0, r->c[k].store = 0;
  for (int k = 0; k < NALL; k++) memset(r->a[k].buf, 0, sizeof(double) * r->a[k].len), r->a[k].idx = 0;
}

/* p = {feedback, damping}; the loss: the wet signal's energy against a target. Inlined into the region,
 * as a reverb's loop over samples is written there: the region then indexes the reverbs it reads through
 * its shared variable, an object no type describes but the records it is indexed as. */
__attribute__((always_inline)) static inline double channel(const double *p, reverb *r, const double *in, const double *target) {
  clear(r);
  double L = 0;
  for (int i = 0; i < T; i++) {
    double acc = 0;
    for (int k = 0; k < NCOMB; k++) acc += comb_tick(&r->c[k], in[i], p[0], p[1]);
    for (int k = 0; k < NALL; k++) acc = allpass_tick(&r->a[k], acc);
    double e = acc - target[i];
    L += e * e;
  }
  return L;
}

/* every channel, each its own reverb (an array of them), its own input; a function other files may
 * call (its callers do not tell what its parameters point to) */
double room(const double *p, reverb *rs, const double *in, const double *target) {
  double L = 0;
#pragma omp parallel for reduction(+ : L) schedule(static)
  for (int ch = 0; ch < CH; ch++) L += channel(p, &rs[ch], in + ch * T, target + ch * T);
  return L;
}

/* the combs' and allpasses' lengths; buffers from one pool, as a reverb's initialisation hands them out */
static void init(reverb *r, double *pool, int ch) {
  for (int k = 0; k < NCOMB; k++) r->c[k] = (comb){pool, 7 + 2 * k + ch, 0, 0}, pool += 7 + 2 * k + ch;
  for (int k = 0; k < NALL; k++) r->a[k] = (allpass){pool, 3 + k, 0}, pool += 3 + k;
}

static reverb *rs;
static double in[CH * T], din[CH * T], target[CH * T];
enum { NX = 2 + CH * T, POOL = 64 }; /* feedback, damping, then the inputs */

static double loss(const double *x) {
  double inx[CH * T];
  memcpy(inx, x + 2, sizeof inx);
  return room(x, rs, inx, target);
}

int main(void) {
  /* the reverbs local to main (what main writes into them is what the region's loads of its shared
     variable are followed to) */
  reverb r[CH], dr[CH];
  static double pools[2][CH][POOL];
  for (int ch = 0; ch < CH; ch++) init(&r[ch], pools[0][ch], ch), init(&dr[ch], pools[1][ch], ch);
  rs = r;
  static double x[NX], g[NX], v[NX], xp[NX], xm[NX];
  x[0] = 0.7, x[1] = 0.3;
  for (int i = 0; i < CH * T; i++) x[2 + i] = (i % 11 == 0) + 0.1 * sin(0.3 * i), target[i] = 0.2 * cos(0.17 * i);
  memcpy(in, x + 2, sizeof in);
  __parad_autodiff((void *)room, x, g, r, dr, in, din, parad_const, target);
  memcpy(g + 2, din, sizeof din);
  double h = 1e-6;
  for (int d = 0; d < 4; d++) { /* the feedback, the damping, one input, then a mixed direction */
    double gv = 0;
    for (int i = 0; i < NX; i++) v[i] = d == 0 ? i == 0 : d == 1 ? i == 1 : d == 2 ? i == 2 + T + 5 : cos(1.7 * i);
    for (int i = 0; i < NX; i++) gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    memcpy(din, v + 2, sizeof din);
    double fd = (loss(xp) - loss(xm)) / (2 * h), tan = __parad_fwddiff((void *)room, x, v, r, dr, in, din, parad_const, target);
    printf("direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", d, gv, tan, fd);
    CHECK_CLOSE(gv, fd, 1e-6);
    CHECK_CLOSE(gv, tan, 1e-10);
  }
  return check_done();
}
