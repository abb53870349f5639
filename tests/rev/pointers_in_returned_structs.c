// Structs of pointers returned by value from functions kept calls, as C code returns views and ranges:
//   span_value:   `Span tail(x, n)` = {x + 1, n - 1} ({ptr, i64} in registers), read by the caller;
//   pair_value:   `Pair halves(x, n)` = {x, x + n/2} ({ptr, ptr}), both read;
//   mixed_value:  {double *p; double s} with s computed from x: a pointer and an active double together;
//   write_value:  the caller writes active values through a span a helper returns of the caller's own
//                 heap block, and reads them back (the block's shadow comes through the struct);
//   chosen_value: a span chosen between two helpers' results (a phi of structs), then walked;
//   nested_value: a helper returning another helper's span, narrowed by one on each side;
//   walk_value:   a span advanced in a loop by a helper (a struct carried around the loop);
//   table_value:  {const double *w; double *x}, a constant table beside the active data, and
//                 {double *x; int *count}, the active data beside a global of counts that has no shadow;
//   smallest_value: a recursion returning a span (from the smallest element on), whose length was
//                 taken for a float's bits at first (refused at every level).
// Forward mode followed them; reverse mode refused every one where the helper was not inlined ("cannot
// differentiate this pointer computation", then "memory without a shadow"): at -O2 and -O3 here, and at
// -Os wherever libstdc++ returns a pair of iterators. A struct of pointers now has a struct of their
// shadows, returned beside it.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O0,
// -O2 and -O3; span_value and pair_value also against their analytic gradients (1e-12).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 6 };

typedef struct {
  double *data;
  long n;
} Span;
typedef struct {
  double *lo, *hi;
} Pair;

__attribute__((noinline)) static Span tail(double *x, long n) { return (Span){x + 1, n - 1}; }
__attribute__((noinline)) static Span head(double *x, long n) { return (Span){x, n - 1}; }
__attribute__((noinline)) static Pair halves(double *x, long n) { return (Pair){x, x + n / 2}; }

static double span_value(const double *x) {
  Span s = tail((double *)x, N);
  double r = 0;
  for (long i = 0; i < s.n; i++) r += s.data[i] * s.data[i] * (double)(i + 1);
  return r;
}

static double pair_value(const double *x) {
  Pair p = halves((double *)x, N);
  double r = 0;
  for (long i = 0; i < N / 2; i++) r += p.lo[i] * p.hi[i];
  return r + sin(p.hi[0]);
}

typedef struct {
  double *p;
  double s;
} Mixed;
__attribute__((noinline)) static Mixed summed(double *x, long n) {
  Mixed m = {x + 2, 0};
  for (long i = 0; i < n; i++) m.s += x[i] * x[i];
  return m;
}
static double mixed_value(const double *x) {
  Mixed m = summed((double *)x, N);
  return m.s * m.p[0] + m.p[1];
}

__attribute__((noinline)) static Span view(double *block, long from, long n) { return (Span){block + from, n}; }
static double write_value(const double *x) {
  double *y = malloc(sizeof(double) * 2 * N);
  Span a = view(y, 0, N), b = view(y, N, N);
  for (long i = 0; i < a.n; i++) a.data[i] = x[i] * x[(i + 1) % N];
  for (long i = 0; i < b.n; i++) b.data[i] = exp(0.1 * x[i]);
  double r = 0;
  for (long i = 0; i < 2 * N; i++) r += y[i] * (double)(i + 1);
  free(y);
  return r;
}

static double chosen_value(const double *x) {
  Span s = x[0] > 0 ? tail((double *)x, N) : head((double *)x, N);
  double r = 1;
  for (long i = 0; i < s.n; i++) r += s.data[i] * cos(s.data[i]);
  return r;
}

__attribute__((noinline)) static Span inner(double *x, long n) {
  Span s = tail(x, n);
  return (Span){s.data + 1, s.n - 2};
}
static double nested_value(const double *x) {
  Span s = inner((double *)x, N);
  double r = 0;
  for (long i = 0; i < s.n; i++) r += s.data[i] * s.data[i] * s.data[i];
  return r;
}

__attribute__((noinline)) static Span advance(Span s) { return (Span){s.data + 1, s.n - 1}; }
static double walk_value(const double *x) {
  Span s = {(double *)x, N};
  double r = 0;
  while (s.n > 1) {
    r += s.data[0] * s.data[1];
    s = advance(s);
  }
  return r;
}

static const double weights[N] = {1, 2, 3, 4, 5, 6};
static int counts[N];
typedef struct {
  const double *w;
  double *x;
} Table;
typedef struct {
  double *x;
  int *count;
} Counted;
__attribute__((noinline)) static Table table_of(double *x) { return (Table){weights, x}; }
__attribute__((noinline)) static Counted counted(double *x) { return (Counted){x, counts}; }
static double table_value(const double *x) {
  Table t = table_of((double *)x);
  Counted c = counted((double *)x);
  double r = 0;
  for (int i = 0; i < N; i++) {
    c.count[i]++;
    r += t.w[i] * t.x[i] * c.x[i];
  }
  return r;
}

/* the span from the smallest element on: found by a recursion over the tail */
__attribute__((noinline)) static Span from_smallest(Span s) {
  if (s.n <= 1) return s;
  Span r = from_smallest((Span){s.data + 1, s.n - 1});
  return r.data[0] < s.data[0] ? r : s;
}
static double smallest_value(const double *x) {
  Span s = from_smallest((Span){(double *)x, N});
  double r = 0;
  for (long i = 0; i < s.n; i++) r += s.data[i] * s.data[i] * (double)s.n;
  return r;
}

int main(void) {
  const double x[N] = {0.7, -1.3, 2.1, 0.4, -0.6, 1.5};
  CHECK_GRADIENT(span_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(pair_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(mixed_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(write_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(chosen_value, x, N, 1e-12, 1e-5, 1e-6);
  const double y[N] = {-0.7, -1.3, 2.1, 0.4, -0.6, 1.5}; /* the other helper */
  CHECK_GRADIENT(chosen_value, y, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(nested_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(walk_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(table_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(smallest_value, x, N, 1e-12, 1e-5, 1e-6);

  /* analytic: span_value = sum_{i>=1} i x_i^2; pair_value = sum x_i x_{i+3} + sin(x_3) */
  double g[N] = {0};
  __parad_autodiff((void *)span_value, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], i ? 2 * i * x[i] : 0, 1e-12);
  double h[N] = {0};
  __parad_autodiff((void *)pair_value, x, h);
  for (int i = 0; i < N; i++) CHECK_CLOSE(h[i], x[(i + 3) % N] + (i == 3 ? cos(x[3]) : 0), 1e-12);
  return check_done();
}
