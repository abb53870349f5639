// Structs whose small first field is followed by padding and then a double, swapped by a helper kept a
// call (`R t = a[1]; if (...) { a[1] = a[0]; a[0] = t; }`). The optimiser splits the temporary into the
// small field and a byte copy of the rest, from byte 1 (or 4): that copy's struct tag names one double at
// byte 7 (or 4) of it, and was read as a copy of doubles from its start, so the double's adjoint went to
// the wrong bytes; with a `char` first field the whole struct's copy was taken for integers (the char's
// tag says "any bytes") and its adjoints were dropped. Gradients wrong with no message at -O1 and up
// (at -O0 right). A float not at a multiple of its width from a copy's start now makes the copy one of a
// layout, and a char field narrower than a float holds integers.
//   char_value: {char tag; double v}; int_value: {int id; double v; double w}; short_value: {short k;
//   double v} sorted by an insertion sort of such swaps; key_value: {double key; int tag; double w}.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O2,
// -O1, -Os and -O0; char_value also against its analytic gradient (1e-12).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };

typedef struct {
  char tag;
  double v;
} C;
__attribute__((noinline)) static void order_c(C *a) {
  C t = a[1];
  if (a[0].tag > t.tag) a[1] = a[0], a[0] = t;
}
static double char_value(const double *x) {
  C a[2] = {{2, x[0]}, {1, x[1]}};
  order_c(a);
  C b[2] = {{1, x[2]}, {2, x[3]}};
  order_c(b);
  return a[0].v * a[0].v + 2 * a[1].v * a[1].v * a[1].v + b[0].v * b[1].v;
}

typedef struct {
  int id;
  double v, w;
} I;
__attribute__((noinline)) static void order_i(I *a) {
  I t = a[1];
  if (a[0].id > t.id) a[1] = a[0], a[0] = t;
}
static double int_value(const double *x) {
  I a[2] = {{3, x[0], sin(x[1])}, {1, x[2], x[3] * x[0]}};
  order_i(a);
  return a[0].v * a[1].w + a[1].v * a[0].w * 3;
}

typedef struct {
  short k;
  double v;
} S;
__attribute__((noinline)) static void swap_s(S *a, S *b) {
  S t = *a;
  *a = *b, *b = t;
}
static double short_value(const double *x) {
  S s[N];
  for (int i = 0; i < N; i++) s[i] = (S){(short)((3 * i + 1) % N), x[i]};
  for (int i = 1; i < N; i++)
    for (int j = i; j > 0 && s[j - 1].k > s[j].k; j--) swap_s(&s[j - 1], &s[j]);
  double r = 0;
  for (int i = 0; i < N; i++) r += (i + 1) * s[i].v * s[i].v;
  return r;
}

typedef struct {
  double key;
  int tag;
  double w;
} K;
__attribute__((noinline)) static void order_k(K *a) {
  K t = a[1];
  if (a[0].tag > t.tag) a[1] = a[0], a[0] = t;
}
static double key_value(const double *x) {
  K a[2] = {{x[0], 5, x[1] * x[1]}, {x[2], 2, exp(x[3])}};
  order_k(a);
  return a[0].key * a[0].w + 2 * a[1].key * a[1].w;
}

int main(void) {
  const double x[N] = {1.5, 0.5, -0.7, 1.1};
  CHECK_GRADIENT(char_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(int_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(short_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(key_value, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0};
  __parad_autodiff((void *)char_value, x, g);
  CHECK_CLOSE(g[0], 6 * x[0] * x[0], 1e-12);
  CHECK_CLOSE(g[1], 2 * x[1], 1e-12);
  CHECK_CLOSE(g[2], x[3], 1e-12);
  CHECK_CLOSE(g[3], x[2], 1e-12);
  return check_done();
}
