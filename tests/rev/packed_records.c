// A counted loop's records are packed (reverse/rev_bulk.c): which way an iteration went is recorded in one
// byte (two where a block has more than 256 predecessors), an int in four, each aligned as its size, the
// iteration's record padded to its widest slot and the run's to 8 bytes. Three loops:
//   pairs with a cut-off (a particle itself and far pairs skipped): about a byte per pair (9.1 before);
//   a loop recording an int (a permutation it overwrites as it goes) beside doubles: 36 bytes padded to
//   40 per iteration, so that the doubles of odd iterations stay aligned;
//   a switch of 300 cases, each its own formula, joined in one block: two-byte indices (the IR's phi).
// The loops run an odd number of times, so that the run's padding matters. Gradients against tangents
// (1e-11) and central differences (h = 1e-5, 1e-6) at -O2 and -O0; the pairs' tape at -O2.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 0
// RUN: %parad-cc %cflags -S -emit-llvm %s -o - | FileCheck %s
// CHECK: phi i16
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
enum { NP = 23, NI = 301 };

/* E = sum over pairs i != j closer than the cut-off of (r2 - rc2)^2 / r2, particles on a line */
__attribute__((noinline)) static double pairs(const double *restrict x) {
  double e = 0, rc2 = 2.25;
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NP; j++) {
      if (j == i) continue;
      double r = x[i] - x[j], r2 = r * r;
      if (r2 >= rc2) continue;
      e += (r2 - rc2) * (r2 - rc2) / r2;
    }
  return e;
}

/* a permutation read and overwritten as the loop goes (so its ints are recorded), beside a double and a
 * branch */
static const int perm0[NI] = {[0] = 3, [7] = 11, [100] = 5, [200] = 22, [300] = 9};
__attribute__((noinline)) static double mixed(const double *restrict x) {
  int perm[NI];
  for (int j = 0; j < NI; j++) perm[j] = (perm0[j] + j) % NP;
  double e = 0;
  for (int j = 0; j < NI; j++) {
    int k = perm[j];
    perm[j] = (k * 7 + 1) % NP;
    double t = sin(x[k] * x[j % NP]);
    if (t > 0.2) /* linear on both sides: the branches record nothing, only which one ran */
      e += 3 * t;
    else
      e -= 2 * t;
  }
  return e;
}

#define CASE(n) \
  case n: s += (n % 4 == 0 ? sin(v * (n + 1)) : n % 4 == 1 ? cos(v + n) : n % 4 == 2 ? exp(v / (n + 1)) : v * v * n); break;
#define C10(n) CASE(n##0) CASE(n##1) CASE(n##2) CASE(n##3) CASE(n##4) CASE(n##5) CASE(n##6) CASE(n##7) CASE(n##8) CASE(n##9)
#define C100(n) C10(n##0) C10(n##1) C10(n##2) C10(n##3) C10(n##4) C10(n##5) C10(n##6) C10(n##7) C10(n##8) C10(n##9)

/* a switch of 300 cases on a data-dependent index */
__attribute__((noinline)) static double cases(const double *restrict x) {
  double s = 0;
  for (int j = 0; j < NI; j++) {
    double v = x[j % NP];
    switch ((j * 37 + (int)(3 * fabs(v))) % 300) {
      C10() C10(1) C10(2) C10(3) C10(4) C10(5) C10(6) C10(7) C10(8) C10(9) C100(1) C100(2)
    }
  }
  return s;
}

static double f(const double *x) { return pairs(x) + mixed(x) + 0.01 * cases(x); }

/* The tape one gradient of g records, per iteration of its loop (a macro: a request names its function). */
#define TAPE_PER(g, x, iterations)                                        \
  ({                                                                      \
    double d_[NP] = {0};                                                  \
    size_t before_ = parad_tape_recorded_bytes();                         \
    __parad_autodiff((void *)g, x, d_);                                   \
    (double)(parad_tape_recorded_bytes() - before_) / (iterations);       \
  })

int main(int argc, char **argv) {
  double x[NP];
  for (int i = 0; i < NP; i++) x[i] = 0.7 * i + 0.2 * sin(3.0 * i);
  CHECK_GRADIENT(f, x, NP, 1e-11, 1e-5, 1e-6);
  if (argc < 2) { /* at -O2: the loops' records packed */
    double per_pair = TAPE_PER(pairs, x, NP * (NP - 1)), per_mixed = TAPE_PER(mixed, x, NI), per_case = TAPE_PER(cases, x, NI);
    printf("tape per iteration: pairs %.2f, mixed %.2f, cases %.2f bytes\n", per_pair, per_mixed, per_case);
    CHECK_CLOSE(per_pair <= 2.5, 1, 0); /* a byte per pair, and the rows' records shared among 22 pairs */
  }
  return check_done();
}
