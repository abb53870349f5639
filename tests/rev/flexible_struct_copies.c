// Structs with a flexible array member, copied whole with one memcpy as C programs copy them:
//   memcpy(q, p, sizeof *p + p->n * sizeof p->c[0])
// At -O2 the optimiser addresses such a block by byte offsets, so no struct type says where its doubles
// are. A helper that copies the block and reads only the header's `int n` (not inlined) took the copy
// for integers: the doubles' adjoints were dropped, a wrong gradient with no message (1 against 1.6 by
// differences). Inlined, the copy was refused ("mixed data"). The copy's layout now comes from the
// accesses of the blocks it may copy (the helper's and its callers'): a header of fields at fixed
// offsets, then elements indexed to the end of the block.
//   poly_value:   {int n; double c[]}, the copy in a helper kept a call, and one inlined
//   scaled_value: {double *w; float scale; int n; double c[]}: a pointer to an active block (its shadow
//                 goes with the copy), a float, then the elements
//   float_value:  {int n; float v[]}
//   sized_value:  Poly of a length known only at run time, filled by a loop the optimiser makes a copy
// Gradient against tangents along each unit direction and central differences, at -O0, -O2 and -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include "check.h"
#include <string.h>

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  int n;
  double c[];
} Poly;

static Poly *poly_new(int n) {
  Poly *p = malloc(sizeof(Poly) + (size_t)n * sizeof(double));
  p->n = n;
  return p;
}

__attribute__((noinline)) static Poly *poly_copy(const Poly *p) {
  Poly *q = malloc(sizeof(Poly) + (size_t)p->n * sizeof(double));
  memcpy(q, p, sizeof(Poly) + (size_t)p->n * sizeof(double));
  return q;
}

static inline Poly *poly_copy_inline(const Poly *p) {
  Poly *q = malloc(sizeof(Poly) + (size_t)p->n * sizeof(double));
  memcpy(q, p, sizeof(Poly) + (size_t)p->n * sizeof(double));
  return q;
}

static double horner(const Poly *p, double x) {
  double s = 0;
  for (int i = p->n - 1; i >= 0; i--) s = s * x + p->c[i];
  return s;
}

enum { NP = 6 };

static double poly_value(const double *a) {
  Poly *p = poly_new(NP);
  for (int i = 0; i < NP; i++) p->c[i] = a[i];
  Poly *q = poly_copy(p), *r = poly_copy_inline(p);
  for (int i = 0; i < NP; i++) q->c[i] *= q->c[i], r->c[i] = sin(r->c[i]);
  double s = horner(q, 0.7) + horner(p, -0.3) + horner(r, 1.1);
  free(p), free(q), free(r);
  return s;
}

typedef struct {
  double *w; /* weights: an active block */
  float scale;
  int n;
  double c[];
} Scaled;

__attribute__((noinline)) static Scaled *scaled_copy(const Scaled *p) {
  size_t bytes = sizeof(Scaled) + (size_t)p->n * sizeof(double);
  Scaled *q = malloc(bytes);
  memcpy(q, p, bytes);
  return q;
}

enum { NS = 5 };

/* x: NS coefficients, NS weights, a scale */
static double scaled_value(const double *x) {
  Scaled *p = malloc(sizeof(Scaled) + NS * sizeof(double));
  p->w = malloc(NS * sizeof(double));
  p->n = NS;
  p->scale = (float)x[2 * NS];
  for (int i = 0; i < NS; i++) p->c[i] = x[i], p->w[i] = x[NS + i];
  Scaled *q = scaled_copy(p);
  double s = 0;
  for (int i = 0; i < q->n; i++) s += q->w[i] * q->c[i] * q->c[i] * q->scale;
  free(p->w), free(p), free(q);
  return s;
}

typedef struct {
  int n;
  float v[];
} Floats;

__attribute__((noinline)) static Floats *floats_copy(const Floats *p) {
  Floats *q = malloc(sizeof(Floats) + (size_t)p->n * sizeof(float));
  memcpy(q, p, sizeof(Floats) + (size_t)p->n * sizeof(float));
  return q;
}

enum { NF = 7 };

static double float_value(const double *x) {
  Floats *p = malloc(sizeof(Floats) + NF * sizeof(float));
  p->n = NF;
  for (int i = 0; i < NF; i++) p->v[i] = (float)x[i];
  Floats *q = floats_copy(p);
  double s = 0;
  for (int i = 0; i < q->n; i++) s += (double)q->v[i] * q->v[i] * (i + 1);
  free(p), free(q);
  return s;
}

static int sized_n = 5; /* not a constant the optimiser folds */

static double sized_value(const double *a) {
  int n = sized_n;
  Poly *p = poly_new(n);
  for (int i = 0; i < n; i++) p->c[i] = a[i];
  Poly *q = poly_copy(p);
  double s = 0;
  for (int i = 0; i < n; i++) s += q->c[i] * q->c[i] * (i + 2);
  free(p), free(q);
  return s;
}

int main(void) {
  double a[NP], x[2 * NS + 1], f[NF];
  for (int i = 0; i < NP; i++) a[i] = 0.3 + 0.1 * i;
  for (int i = 0; i < 2 * NS + 1; i++) x[i] = 0.5 + 0.25 * cos(1.7 * i);
  for (int i = 0; i < NF; i++) f[i] = 0.25 * (i + 1); /* exact in float */
  CHECK_GRADIENT(poly_value, a, NP, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(scaled_value, x, 2 * NS + 1, 1e-6, 1e-3, 1e-4); /* the scale is a float */
  CHECK_GRADIENT(float_value, f, NF, 1e-6, 1e-2, 1e-5);
  CHECK_GRADIENT(sized_value, a, 5, 1e-12, 1e-6, 1e-6);
  return check_done();
}
