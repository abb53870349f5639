// A small stack-machine interpreter differentiated in reverse mode: a constant program of opcodes drives
// a switch inside a loop, and the operand stack is a local array of doubles overwritten over and over
// (push and pop reuse the same slots), with loads from an active parameter array. The program computes
// p0 * sin(p1) + (p2 - p0)^2 / p3 + exp(p1 p2), evaluated for several parameter vectors. Analytic gradient
// (tolerance 1e-12, rounding only) and forward tangents along every unit direction (tolerance 1e-12),
// at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { LOAD, ADD, SUB, MUL, DIV, SIN, EXP, DUP, SWAP, END };

__attribute__((noinline)) static double run(const int *code, const double *p) {
  double stack[8];
  int sp = 0;
  for (int pc = 0;; pc++) {
    int op = code[pc];
    switch (op) {
    case LOAD: stack[sp++] = p[code[++pc]]; break;
    case ADD: sp--, stack[sp - 1] += stack[sp]; break;
    case SUB: sp--, stack[sp - 1] -= stack[sp]; break;
    case MUL: sp--, stack[sp - 1] *= stack[sp]; break;
    case DIV: sp--, stack[sp - 1] /= stack[sp]; break;
    case SIN: stack[sp - 1] = sin(stack[sp - 1]); break;
    case EXP: stack[sp - 1] = exp(stack[sp - 1]); break;
    case DUP: stack[sp] = stack[sp - 1], sp++; break;
    case SWAP: {
      double t = stack[sp - 1];
      stack[sp - 1] = stack[sp - 2];
      stack[sp - 2] = t;
      break;
    }
    default: return stack[sp - 1];
    }
  }
}

static const int program[] = {
    LOAD, 0, LOAD, 1, SIN, MUL,                     /* p0 sin p1 */
    LOAD, 0, LOAD, 2, SWAP, SUB, DUP, MUL, LOAD, 3, DIV, ADD, /* + (p2 - p0)^2 / p3 */
    LOAD, 1, LOAD, 2, MUL, EXP, ADD,                /* + exp(p1 p2) */
    END};

int main(void) {
  double ps[3][4] = {{0.5, 1.2, -0.3, 2.0}, {-1.1, 0.4, 0.9, 0.7}, {2.0, -0.6, 0.25, -1.5}};
  for (int t = 0; t < 3; t++) {
    double *p = ps[t], dp[4] = {0};
    __parad_autodiff((void *)run, parad_const, program, p, dp);
    double d = p[2] - p[0], e = exp(p[1] * p[2]);
    double want[4] = {sin(p[1]) - 2 * d / p[3], p[0] * cos(p[1]) + p[2] * e, 2 * d / p[3] + p[1] * e, -d * d / (p[3] * p[3])};
    for (int k = 0; k < 4; k++) {
      CHECK_CLOSE(dp[k], want[k], 1e-12);
      double u[4] = {k == 0, k == 1, k == 2, k == 3};
      CHECK_CLOSE(dp[k], __parad_fwddiff((void *)run, parad_const, program, p, u), 1e-12);
    }
  }
  return check_done();
}
