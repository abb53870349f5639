// A recursive-descent parser that evaluates a formula of x as it reads it, the way calculators and
// configuration languages do: mutually recursive expr/term/unary/power/primary over a cursor struct that
// holds the text and the active x; numbers by strtod, indices by strtol, function names copied into a
// local `char name[8]` and compared with strcmp. Two defects: the names' bytes, copied from the text into
// the buffer inside the recursion, were refused ("cannot tell whether this integer store of active memory
// carries floating-point data or a pointer"); and the compiler's memory-type questions, asked afresh for
// every access of every activity pattern, took minutes (this parser did not build in 13 minutes; a
// 20-line core of it took 20 s). Built under a 240 s limit (about 10 s now).
//   F(x) = x0 sin(x1 + 0.5) - exp(-x2^2 / 2) + log(1 + x3 x3) / (0.25 + x0) + sqrt(x1^2 + x2^2 + 1)^1.5
// The gradient against the formula's derivative by hand (1e-12) and central differences (h 1e-6, 1e-6);
// forward mode's tangents against the gradient (1e-12); at -O2 and -O0.
// RUN: timeout 240 %parad-cc %cflags %s -o %t -lm && %t
// RUN: timeout 240 %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  const char *p;
  const double *x;
} Cursor;

static double expr(Cursor *s);
static void ws(Cursor *s) {
  while (isspace((unsigned char)*s->p)) s->p++;
}

static double primary(Cursor *s) {
  ws(s);
  if (*s->p == '(') {
    s->p++;
    double v = expr(s);
    ws(s);
    s->p++;
    return v;
  }
  if (*s->p == 'x') {
    s->p++;
    long i = strtol(s->p, (char **)&s->p, 10);
    return s->x[i];
  }
  if (isalpha((unsigned char)*s->p)) {
    char name[8];
    int k = 0;
    while (isalpha((unsigned char)*s->p) && k < 7) name[k++] = *s->p++;
    name[k] = 0;
    ws(s);
    s->p++;
    double a = expr(s);
    ws(s);
    s->p++;
    if (!strcmp(name, "sin")) return sin(a);
    if (!strcmp(name, "exp")) return exp(a);
    if (!strcmp(name, "log")) return log(a);
    if (!strcmp(name, "sqrt")) return sqrt(a);
    return NAN;
  }
  char *end;
  double v = strtod(s->p, &end);
  s->p = end;
  return v;
}

static double power(Cursor *s) {
  double b = primary(s);
  ws(s);
  if (*s->p == '^') {
    s->p++;
    return pow(b, power(s));
  }
  return b;
}

static double unary(Cursor *s) {
  ws(s);
  if (*s->p == '-') {
    s->p++;
    return -unary(s);
  }
  return power(s);
}

static double term(Cursor *s) {
  double v = unary(s);
  for (;;) {
    ws(s);
    char c = *s->p;
    if (c != '*' && c != '/') return v;
    s->p++;
    double r = unary(s);
    v = c == '*' ? v * r : v / r;
  }
}

static double expr(Cursor *s) {
  double v = term(s);
  for (;;) {
    ws(s);
    char c = *s->p;
    if (c != '+' && c != '-') return v;
    s->p++;
    double r = term(s);
    v = c == '+' ? v + r : v - r;
  }
}

static const char *formula = "x0 * sin(x1 + 0.5) - exp(-x2^2 / 2) + log(1 + x3*x3) / (2.5e-1 + x0) + sqrt(x1*x1 + x2*x2 + 1) ^ 1.5";

double F(const double *x) {
  Cursor s = {formula, x};
  return expr(&s);
}

int main(void) {
  const double x[4] = {0.7, -1.1, 0.4, 1.3};
  double g[4] = {0}, want[4];
  double L = log(1 + x[3] * x[3]), d = 0.25 + x[0], q = x[1] * x[1] + x[2] * x[2] + 1;
  want[0] = sin(x[1] + 0.5) - L / (d * d);
  want[1] = x[0] * cos(x[1] + 0.5) + 1.5 * x[1] * pow(q, -0.25);
  want[2] = x[2] * exp(-x[2] * x[2] / 2) + 1.5 * x[2] * pow(q, -0.25);
  want[3] = 2 * x[3] / (1 + x[3] * x[3]) / d;
  __parad_autodiff((void *)F, x, g);
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(g[i], fd_component(F, x, 4, i, 1e-6), 1e-6);
    double e[4] = {0};
    e[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)F, x, e), g[i], 1e-12);
  }
  return check_done();
}
