// Objects moved a byte at a time, as generic C code moves them: a memcpy of its own (pointer steps, an
// index, a pointer to the end), and the swap of a generic insertion sort (sizes known where the swap is
// inlined, not known where it is not), over doubles, records of doubles and an int, and pointers to
// doubles. Reverse mode refused each of these loops ("a part of a float's bits moved as a smaller
// integer", or "cannot tell whether this integer store ... carries floating-point data or a pointer");
// they are block moves now (ad/byte_loops.h).
//   copied(x):  w = x copied by a helper, f = sum_i (i+1) w_i^2 + w_0 w_{n-1}
//   indexed(x): a heap block filled by an inlined copy, f = sum_i sin(w_i) w_i
//   ranged(x):  copied up to an end pointer, f = sum_i w_i^3 / (i+1)
//   sorted(x):  y_i = x_i^2 + 0.1 i sorted by the generic sort, f = sum_k (k+1) y_(k)
//   records(x): {key x_i sin x_i, id i, w x_i^2} sorted by key, f = sum_k (k+1)(key + 2 w) + sum_k id_(k) x_k
//   pointers(x): pointers to y_i = x_i^2 + 0.1 i sorted by what they point to, f = sum_k (k+1) *p_k^2
// Gradients against tangents along each unit direction (1e-12) and central differences (h 1e-6, 1e-6);
// two-direction vector forward mode against the tangents (1e-12). The keys are distinct: no kink is met.
// A copy whose destination starts inside its source repeats bytes, as the loop does (checked: the primal
// and its tangents, by hand, 1e-12); reverse mode stops there with a message.
// RUN: %parad-cc %cflags %s -o %t -lm && %t && not %t overlapping 2>&1 | FileCheck %s
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1 && not %t1 overlapping 2>&1 | FileCheck %s
// RUN: %parad-cc -O2 -fno-strict-aliasing -I%S/../include %s -o %t2 -lm && %t2
// At -O0, from the optimised copies of the functions (ad/optimised_copies.h):
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 && not %t0 overlapping 2>&1 | FileCheck %s
// CHECK: parad runtime: reverse mode cannot differentiate a byte-by-byte copy whose destination starts inside its source
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_w2(void *, ...);

enum { N = 7 };

__attribute__((noinline)) static void copy_bytes(void *to, const void *from, size_t n) {
  unsigned char *d = to;
  const unsigned char *s = from;
  while (n--) *d++ = *s++;
}

static void copy_indexed(void *to, const void *from, size_t n) {
  unsigned char *d = to;
  const unsigned char *s = from;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
}

__attribute__((noinline)) static void copy_range(char *d, const char *s, const char *end) {
  while (s != end) *d++ = *s++;
}

__attribute__((noinline)) static void swap_bytes(void *a, void *b, size_t size) {
  char *p = a, *q = b, t;
  while (size--) {
    t = *p;
    *p++ = *q;
    *q++ = t;
  }
}

static void swap_indexed(void *a, void *b, size_t size) {
  unsigned char *p = a, *q = b;
  for (int i = 0; i < (int)size; i++) {
    unsigned char t = p[i];
    p[i] = q[i];
    q[i] = t;
  }
}

/* a generic insertion sort, as a library would write it; indexed: which swap exchanges two elements */
static void insertion_sort(void *base, size_t n, size_t size, int (*less)(const void *, const void *), int indexed) {
  char *b = base;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && less(b + j * size, b + (j - 1) * size); j--) {
      if (indexed) swap_indexed(b + j * size, b + (j - 1) * size, size);
      else swap_bytes(b + j * size, b + (j - 1) * size, size);
    }
}

static double copied(const double *x) {
  double w[N];
  copy_bytes(w, x, sizeof w);
  double s = w[0] * w[N - 1];
  for (int i = 0; i < N; i++) s += (i + 1) * w[i] * w[i];
  return s;
}

static double indexed(const double *x) {
  double *w = malloc(N * sizeof *w), s = 0;
  copy_indexed(w, x, N * sizeof *w);
  for (int i = 0; i < N; i++) s += sin(w[i]) * w[i];
  free(w);
  return s;
}

static double ranged(const double *x) {
  double w[N], s = 0;
  copy_range((char *)w, (const char *)x, (const char *)(x + N));
  for (int i = 0; i < N; i++) s += w[i] * w[i] * w[i] / (i + 1);
  return s;
}

static int double_less(const void *a, const void *b) { return *(const double *)a < *(const double *)b; }

static double sorted(const double *x) {
  double y[N], s = 0;
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + 0.1 * i;
  insertion_sort(y, N, sizeof *y, double_less, 0);
  for (int k = 0; k < N; k++) s += (k + 1) * y[k];
  return s;
}

typedef struct {
  double key;
  int id;
  double w;
} Rec;

static int key_less(const void *a, const void *b) { return ((const Rec *)a)->key < ((const Rec *)b)->key; }

static double records(const double *x) {
  Rec r[N];
  double s = 0;
  for (int i = 0; i < N; i++) r[i].key = x[i] * sin(x[i]), r[i].id = i, r[i].w = x[i] * x[i];
  insertion_sort(r, N, sizeof *r, key_less, 1);
  for (int k = 0; k < N; k++) s += (k + 1) * (r[k].key + 2 * r[k].w) + r[k].id * x[k];
  return s;
}

static int pointee_less(const void *a, const void *b) { return **(double *const *)a < **(double *const *)b; }

static double pointers(const double *x) {
  double y[N], *p[N], s = 0;
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + 0.1 * i, p[i] = &y[i];
  insertion_sort(p, N, sizeof *p, pointee_less, 0);
  for (int k = 0; k < N; k++) s += (k + 1) * *p[k] * *p[k];
  return s;
}

/* w_0 repeated over the block by a copy one element ahead of its source: f = sum_i (i+1) w_i^2 */
static double repeated(const double *x) {
  double w[N], s = 0;
  memcpy(w, x, sizeof w);
  copy_bytes(w + 1, w, (N - 1) * sizeof *w);
  for (int i = 0; i < N; i++) s += (i + 1) * w[i] * w[i];
  return s;
}

/* two-direction vector forward mode against one direction at a time (a macro: requests name their function) */
#define VECTOR_FORWARD(f, x)                                                                             \
  for (int j_ = 0; j_ + 1 < N; j_++) {                                                                 \
    double v0_[N] = {0}, v1_[N] = {0};                                                                 \
    v0_[j_] = 1, v1_[j_ + 1] = 1;                                                                      \
    Two t_ = __parad_fwddiff_w2((void *)f, parad_width, 2, x, v0_, v1_);                               \
    CHECK_CLOSE(t_.d[0], __parad_fwddiff((void *)f, x, v0_), 1e-12);                                   \
    CHECK_CLOSE(t_.d[1], __parad_fwddiff((void *)f, x, v1_), 1e-12);                                   \
  }

#define CHECK_ALL(f)                                                                                     \
  do {                                                                                                 \
    CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-6);                                                        \
    VECTOR_FORWARD(f, x);                                                                              \
  } while (0)

int main(int argc, char **argv) {
  const double x[N] = {0.7, -0.35, 1.2, 0.15, -0.9, 0.55, 1.05};
  if (argc > 1) { /* reverse mode over the repeating copy: a message, no gradient */
    double g[N] = {0};
    __parad_autodiff((void *)repeated, x, g);
    printf("no message\n");
    return 0;
  }
  CHECK_ALL(copied);
  CHECK_ALL(indexed);
  CHECK_ALL(ranged);
  CHECK_ALL(sorted);
  CHECK_ALL(records);
  CHECK_ALL(pointers);
  /* the repeating copy: primal and tangents by hand (every w_i is x_0) */
  double want = 0;
  for (int i = 0; i < N; i++) want += (i + 1) * x[0] * x[0];
  CHECK_CLOSE(repeated(x), want, 1e-12);
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)repeated, x, v), j == 0 ? N * (N + 1) * x[0] : 0, 1e-12);
  }
  VECTOR_FORWARD(repeated, x);
  return check_done();
}
