// A checkpointed loop whose step calls through a table of functions that take and return a 24-byte struct
// (passed and returned in memory on x86-64: byval and sret), as an integrator written over a state record
// and a right-hand side chosen at run time does (and C++'s std::function returning std::array<double, 3>).
// Refused before ("a call through a function pointer that passes a struct by value", for a struct it
// returned); the noting copies are called with the call's attributes. Against the same loop without the
// marker (taped): 1e-12 relative to the largest component; against central differences (h = 1e-6, 1e-6);
// the loop checkpointed (each step run twice at least); at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);
void parad_checkpoint_counts(long *steps, long *runs);

typedef struct {
  double q, p, r;
} State;
typedef State (*Rhs)(State s, double u);

static State pendulum(State s, double u) { return (State){s.p, -sin(s.q) + u, 0.1 * s.r}; }
static State spring(State s, double u) { return (State){s.p, -s.q + u * u, -s.r}; }
static Rhs table[2] = {pendulum, spring};

enum { T = 50 };

#define COST(MARK)                                                                                      \
  State s = {0.1, 0, 1};                                                                                \
  double J = 0;                                                                                         \
  for (int k = 0; k < T; k++) {                                                                         \
    MARK;                                                                                               \
    State d = table[k % 2](s, u[k]);                                                                    \
    s = (State){s.q + 0.05 * d.q, s.p + 0.05 * d.p, s.r + 0.05 * d.r};                                  \
    J += s.q * s.q + 0.1 * s.r * s.p;                                                                   \
  }                                                                                                     \
  return J;
static double checkpointed(const double *u) { COST(__parad_checkpoint_loop()) }
static double taped(const double *u) { COST((void)0) }
static double along(void *c, double v) {
  double *u = c, keep = u[3];
  u[3] = v;
  double r = taped(u);
  u[3] = keep;
  return r;
}

int main(void) {
  double u[T], g[T] = {0}, want[T] = {0}, top = 0;
  for (int k = 0; k < T; k++) u[k] = 0.2 * sin(0.3 * k);
  __parad_autodiff((void *)checkpointed, u, g);
  long steps = 0, runs = 0;
  parad_checkpoint_counts(&steps, &runs); /* checkpointed: each step ran twice at least */
  CHECK_CLOSE((double)(steps >= T && runs >= 2 * steps), 1.0, 0.0);
  __parad_autodiff((void *)taped, u, want);
  for (int k = 0; k < T; k++) top = fmax(top, fabs(want[k]));
  for (int k = 0; k < T; k++) CHECK_CLOSE(g[k] / top, want[k] / top, 1e-12);
  CHECK_CLOSE(g[3], fd_central(along, u, u[3], 1e-6), 1e-6);
  return check_done();
}
