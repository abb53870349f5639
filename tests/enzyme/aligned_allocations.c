// Aligned heap blocks inside the differentiated function, written as Enzyme's users write them, in both
// modes (forward also at width 2): posix_memalign (the block returned through its first argument: a
// local pointer, a struct's field; one that fails, EINVAL for an alignment of 3, and falls back to
// malloc), aligned_alloc and memalign, each freed by free. Their shadows are aligned like the blocks:
// the code reads them through __builtin_assume_aligned, which lets -O2 use aligned vector accesses on
// the shadows too.
//   pm:     p_i = x_i^2, sum p_i x_i                     d/dx_i = 3 x_i^2
//   field:  b.data_i = sin x_i, sum b.data_i^2           d/dx_i = 2 sin x_i cos x_i
//   failed: as pm, through malloc                        d/dx_i = 3 x_i^2
//   aa:     p_i = e^x_i, sum p_i p_{n-1-i}               d/dx_i = 2 e^(x_i + x_{n-1-i})
//   ma:     p_i = 3 x_i, then p_i *= x_i, sum p_i        d/dx_i = 6 x_i
// Against analytic derivatives (1e-12) and central differences (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#define _GNU_SOURCE
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Two;
extern Two __enzyme_fwddiff2(void *, ...) __asm__("__enzyme_fwddiff");
int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;

enum { N = 12 };

static double pm(const double *x, int n) {
  double *p;
  if (posix_memalign((void **)&p, 64, n * sizeof *p)) return 0;
  double *a = __builtin_assume_aligned(p, 64), s = 0;
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) s += a[i] * x[i];
  free(p);
  return s;
}

struct Buffer {
  int n;
  double *data;
};

static double field(const double *x, int n) {
  struct Buffer b = {n, NULL};
  if (posix_memalign((void **)&b.data, 32, n * sizeof *b.data)) return 0;
  for (int i = 0; i < b.n; i++) b.data[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < b.n; i++) s += b.data[i] * b.data[i];
  free(b.data);
  return s;
}

static double failed(const double *x, int n) {
  double *p = NULL;
  if (posix_memalign((void **)&p, 3, n * sizeof *p)) p = malloc(n * sizeof *p); /* 3: not a power of two */
  for (int i = 0; i < n; i++) p[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * x[i];
  free(p);
  return s;
}

static double aa(const double *x, int n) {
  double *p = aligned_alloc(64, (n * sizeof *p + 63) / 64 * 64);
  double *a = __builtin_assume_aligned(p, 64), s = 0;
  for (int i = 0; i < n; i++) a[i] = exp(x[i]);
  for (int i = 0; i < n; i++) s += a[i] * a[n - 1 - i];
  free(p);
  return s;
}

static double ma(const double *x, int n) {
  double *p = memalign(32, n * sizeof *p);
  for (int i = 0; i < n; i++) p[i] = 3 * x[i];
  for (int i = 0; i < n; i++) p[i] *= x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  free(p);
  return s;
}

typedef double (*Objective)(const double *, int);
typedef struct {
  Objective f;
  double *x;
  int i;
} Along;
static double along(void *ctx, double t) {
  Along *a = ctx;
  double keep = a->x[a->i];
  a->x[a->i] = t;
  double v = a->f(a->x, N);
  a->x[a->i] = keep;
  return v;
}

/* the request names the function: a macro. want(i) is the analytic d/dx_i. */
#define CHECK_GRADIENT(f, want)                                                                   \
  do {                                                                                            \
    double dx[N] = {0}, e0[N] = {0}, e1[N] = {0};                                                 \
    __enzyme_autodiff((void *)f, x, dx, N);                                                       \
    for (int i = 0; i < N; i++) {                                                                 \
      CHECK_CLOSE(dx[i], want(i), 1e-12);                                                         \
      e0[i] = 1;                                                                                  \
      CHECK_CLOSE(__enzyme_fwddiff((void *)f, x, e0, N), want(i), 1e-12);                         \
      e0[i] = 0;                                                                                  \
    }                                                                                             \
    e0[2] = 1, e1[5] = 1;                                                                         \
    Two t = __enzyme_fwddiff2((void *)f, enzyme_width, 2, x, e0, e1, N);                          \
    CHECK_CLOSE(t.d[0], want(2), 1e-12);                                                          \
    CHECK_CLOSE(t.d[1], want(5), 1e-12);                                                          \
    Along a = {f, x, 7};                                                                          \
    CHECK_CLOSE(dx[7], fd_central(along, &a, x[7], 1e-5), 1e-6);                                  \
  } while (0)

static double x[N];
#define PM(i) (3 * x[i] * x[i])
#define FIELD(i) (2 * sin(x[i]) * cos(x[i]))
#define AA(i) (2 * exp(x[i] + x[N - 1 - i]))
#define MA(i) (6 * x[i])

int main(void) {
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.17 * i - 0.02 * i * i;
  CHECK_GRADIENT(pm, PM);
  CHECK_GRADIENT(field, FIELD);
  CHECK_GRADIENT(failed, PM);
  CHECK_GRADIENT(aa, AA);
  CHECK_GRADIENT(ma, MA);
  return check_done();
}
