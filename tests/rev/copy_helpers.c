// Records {int id; double x;} copied as bytes by helpers that never look inside them (not inlined): a
// memcpy of n records, a memmove one level further down, and a scratch buffer (void *) filled by one
// helper and read back by another. What the callers know of the records (their fields) must reach the
// helpers' copies: once refused with "cannot tell what this copy moves". And a helper that copies the
// ids, from memory passed as constant, into a block it allocates, with nothing there to say they are
// integers: from memory without a shadow nothing active can come. Objective:
// f(r) = sum_i id_i x_i^2 + 0.5 x_i over the copies; analytic gradient dx_i = 2 id_i x_i + 0.5 through each
// path (tolerance 1e-12); forward tangents along every x_i (1e-12). The ids get no adjoint: their shadows
// keep the values the test put there.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  int id;
  double x;
} Rec;

enum { N = 7 };

__attribute__((noinline)) static void copy_recs(Rec *dst, const Rec *src, int n) { memcpy(dst, src, n * sizeof *src); }

__attribute__((noinline)) static void move_bytes(void *dst, const void *src, size_t bytes) { memmove(dst, src, bytes); }

__attribute__((noinline)) static void move_recs(Rec *dst, const Rec *src, int n) { move_bytes(dst, src, n * sizeof *src); }

static double energy(const Rec *t, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i].id * t[i].x * t[i].x + 0.5 * t[i].x;
  return s;
}

__attribute__((noinline)) static double by_memcpy(const Rec *r, int n) {
  Rec *t = malloc(n * sizeof *t);
  copy_recs(t, r, n);
  double s = energy(t, n);
  free(t);
  return s;
}

__attribute__((noinline)) static double by_memmove(const Rec *r, int n) {
  Rec *t = malloc(n * sizeof *t);
  move_recs(t, r, n);
  double s = energy(t, n);
  free(t);
  return s;
}

__attribute__((noinline)) static void *pack(const Rec *r, int n) {
  void *buf = malloc(n * sizeof *r);
  memcpy(buf, r, n * sizeof *r);
  return buf;
}

__attribute__((noinline)) static void unpack(Rec *t, const void *buf, int n) { memcpy(t, buf, n * sizeof *t); }

__attribute__((noinline)) static double by_scratch(const Rec *r, int n) {
  void *buf = pack(r, n);
  Rec *t = malloc(n * sizeof *t);
  unpack(t, buf, n);
  double s = energy(t, n);
  free(buf);
  free(t);
  return s;
}

typedef struct {
  double *x;
  int *id;
} Copy;

__attribute__((noinline)) static void copy_apart(Copy *c, const double *x, const int *id, int n) {
  c->x = malloc(n * sizeof *c->x);
  c->id = malloc(n * sizeof *c->id);
  memcpy(c->x, x, n * sizeof *x);
  memcpy(c->id, id, n * sizeof *id);
}

__attribute__((noinline)) static double apart(const double *x, const int *id, int n) {
  Copy c;
  copy_apart(&c, x, id, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += c.id[i] * c.x[i] * c.x[i] + 0.5 * c.x[i];
  free(c.x);
  free(c.id);
  return s;
}

int main(void) {
  Rec r[N], dr[N];
  for (int i = 0; i < N; i++) r[i].id = i % 3 + 1, r[i].x = 0.3 * i - 0.8;
#define CHECK_FUNCTION(fn)                                                                 \
  do {                                                                                     \
    for (int i = 0; i < N; i++) dr[i].id = 77, dr[i].x = 0;                                \
    __parad_autodiff((void *)fn, r, dr, N);                                                \
    for (int i = 0; i < N; i++) {                                                          \
      CHECK_CLOSE(dr[i].x, 2 * r[i].id * r[i].x + 0.5, 1e-12);                             \
      CHECK_CLOSE(dr[i].id, 77, 0);                                                        \
      Rec e[N];                                                                            \
      for (int k = 0; k < N; k++) e[k].id = 0, e[k].x = k == i;                            \
      CHECK_CLOSE(__parad_fwddiff((void *)fn, r, e, N), dr[i].x, 1e-12);                   \
    }                                                                                      \
  } while (0)
  CHECK_FUNCTION(by_memcpy);
  CHECK_FUNCTION(by_memmove);
  CHECK_FUNCTION(by_scratch);
  double xs[N], dxs[N] = {0};
  int ids[N];
  for (int i = 0; i < N; i++) xs[i] = r[i].x, ids[i] = r[i].id;
  __parad_autodiff((void *)apart, xs, dxs, parad_const, ids, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dxs[i], 2 * ids[i] * xs[i] + 0.5, 1e-12);
  return check_done();
}
