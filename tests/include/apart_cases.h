/* The harness of the tests of gradients of functions without `restrict` (ad/apart.c): each case places
 * the arrays of a function in one buffer (apart, or overlapping), checks its gradient against central
 * differences and tangents, and its tape against the build without the choice (PARAD_NO_APART=1, whose
 * output the test reads back). The including test defines APART_BUFFER (doubles), includes check.h, and
 * defines APART_TAPE_BYTES() (the bytes the last gradient recorded). */
#ifndef PARAD_TEST_APART_CASES_H
#define PARAD_TEST_APART_CASES_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tape_as_written.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_tape_reset_peak(void);

/* The objective as a function of the inputs alone, for the checks: each case says where its arrays are. */
typedef struct {
  const char *name;
  void (*place)(void);                /* sets where the arrays go (at) */
  int n;                              /* inputs */
  double (*f)(const double *);        /* J(inputs), arrays placed as the case says */
  void (*grad)(const double *, double *);
  double (*tangent)(const double *, const double *); /* NULL: not compared */
  int apart;                          /* the copy's gradient expected: 1 (half the tape), 2 (less); 0: as
                                         written; -1: either */
  double work;                        /* multiply-adds of one call, for the tape's figure (0: none) */
} Case;

static double buf[APART_BUFFER], dbuf[APART_BUFFER];

/* Where a case puts the arrays in buf: the inputs (copied from x, in order) at `a` (and `b`), the array
 * written at `c`; shadows at the same places in dbuf. */
static struct {
  int a, b, c, stride;
} at;

/* f(input, written): x copied to a, the written array at c */
#define TWO_ARRAYS(name, call, n_in)                                                                      \
  static double name##_f(const double *x) {                                                            \
    memcpy(buf + at.a, x, sizeof(double) * (n_in));                                                    \
    return call(buf + at.a, buf + at.c);                                                               \
  }                                                                                                     \
  static void name##_grad(const double *x, double *g) {                                                \
    memcpy(buf + at.a, x, sizeof(double) * (n_in));                                                    \
    memset(dbuf, 0, sizeof dbuf);                                                                      \
    __parad_autodiff((void *)call, buf + at.a, dbuf + at.a, buf + at.c, dbuf + at.c);                  \
    memcpy(g, dbuf + at.a, sizeof(double) * (n_in));                                                   \
  }                                                                                                     \
  static double name##_tangent(const double *x, const double *v) {                                     \
    memcpy(buf + at.a, x, sizeof(double) * (n_in));                                                    \
    memset(dbuf, 0, sizeof dbuf);                                                                      \
    memcpy(dbuf + at.a, v, sizeof(double) * (n_in));                                                   \
    return __parad_fwddiff((void *)call, buf + at.a, dbuf + at.a, buf + at.c, dbuf + at.c);            \
  }

/* f(first, second, written): x = [first (na) | second (nb)] copied to a and b, the written array at c */
#define TWO_INPUTS(name, call, na, nb)                                                                    \
  static void name##_place_inputs(const double *x) {                                                   \
    memcpy(buf + at.a, x, sizeof(double) * (na)), memcpy(buf + at.b, x + (na), sizeof(double) * (nb)); \
  }                                                                                                     \
  static double name##_f(const double *x) {                                                            \
    name##_place_inputs(x);                                                                            \
    return call(buf + at.a, buf + at.b, buf + at.c);                                                   \
  }                                                                                                     \
  static void name##_grad(const double *x, double *g) {                                                \
    name##_place_inputs(x);                                                                            \
    memset(dbuf, 0, sizeof dbuf);                                                                      \
    __parad_autodiff((void *)call, buf + at.a, dbuf + at.a, buf + at.b, dbuf + at.b, buf + at.c, dbuf + at.c); \
    memcpy(g, dbuf + at.a, sizeof(double) * (na)), memcpy(g + (na), dbuf + at.b, sizeof(double) * (nb)); \
  }                                                                                                     \
  static double name##_tangent(const double *x, const double *v) {                                     \
    name##_place_inputs(x);                                                                            \
    memset(dbuf, 0, sizeof dbuf);                                                                      \
    memcpy(dbuf + at.a, v, sizeof(double) * (na)), memcpy(dbuf + at.b, v + (na), sizeof(double) * (nb)); \
    return __parad_fwddiff((void *)call, buf + at.a, dbuf + at.a, buf + at.b, dbuf + at.b, buf + at.c, dbuf + at.c); \
  }

/* f(x, y, n, stride): the 2n values of x copied to buf[0, 2n), x's pointer at a, y at c (zeroed first
 * where b: apart, y accumulates), the stride at.stride */
#define STRIDED(name, call, n)                                                                            \
  static void name##_place(const double *x) {                                                          \
    memcpy(buf, x, sizeof(double) * 2 * (n));                                                          \
    if (at.b) memset(buf + at.c, 0, sizeof(double) * (n));                                             \
  }                                                                                                     \
  static double name##_f(const double *x) {                                                            \
    name##_place(x);                                                                                   \
    return call(buf + at.a, buf + at.c, (n), at.stride);                                               \
  }                                                                                                     \
  static void name##_grad(const double *x, double *g) {                                                \
    name##_place(x);                                                                                   \
    memset(dbuf, 0, sizeof dbuf);                                                                      \
    __parad_autodiff((void *)call, buf + at.a, dbuf + at.a, buf + at.c, dbuf + at.c, (n), at.stride);  \
    memcpy(g, dbuf, sizeof(double) * 2 * (n));                                                         \
  }                                                                                                     \
  static double name##_tangent(const double *x, const double *v) {                                     \
    name##_place(x);                                                                                   \
    memset(dbuf, 0, sizeof dbuf);                                                                      \
    memcpy(dbuf, v, sizeof(double) * 2 * (n));                                                         \
    return __parad_fwddiff((void *)call, buf + at.a, dbuf + at.a, buf + at.c, dbuf + at.c, (n), at.stride); \
  }

static void apart_after(void) { at.a = 0, at.c = APART_BUFFER / 2; }
static void in_place(void) { at.a = at.c = 0; }

static FILE *before; /* the tapes of the build without the choice */

static void check_case(const Case *c, const double *x0) {
  int n = c->n;
  double *x = malloc(sizeof *x * n), *g = calloc(n, sizeof *g), *v = malloc(sizeof *v * n);
  double *xp = malloc(sizeof *xp * n), *xm = malloc(sizeof *xm * n), h = 1e-6;
  memcpy(x, x0, sizeof *x * n);
  c->place();
  parad_tape_reset_peak();
  c->grad(x, g);
  size_t tape = APART_TAPE_BYTES();
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < n; i++) v[i] = cos(1.3 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double fd = (c->f(xp) - c->f(xm)) / (2 * h), tangent = c->tangent ? c->tangent(x, v) : gv;
    printf("%s, direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", c->name, d, gv, tangent, fd);
    CHECK_CLOSE(gv, fd, 1e-6);
    CHECK_CLOSE(gv, tangent, 1e-10);
  }
  printf("tape of %s: %zu bytes", c->name, tape);
  if (c->work > 0) printf(", %.2f per multiply-add", tape / c->work);
  printf("\n");
  size_t written = before ? tape_as_written(before, c->name) : 0;
  if (before && c->apart >= 0) {
    printf("%s: %zu bytes as written: %s\n", c->name, written,
           c->apart == 2 ? "less expected" : c->apart ? "at most half expected" : "about as much expected");
    CHECK_CLOSE(c->apart == 2 ? tape < written : c->apart ? 2 * tape <= written : 10 * tape >= 9 * written, 1, 0);
  }
  free(x), free(g), free(v), free(xp), free(xm);
}

/* Opens the tapes of the build without the choice, where the test was given them. */
static int read_tapes_as_written(int argc, char **argv) {
  if (argc > 1 && !(before = fopen(argv[1], "r"))) return printf("FAIL: cannot read %s\n", argv[1]), 1;
  return 0;
}
#endif
