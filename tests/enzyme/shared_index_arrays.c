// A shadow record sharing the primal's integer arrays, as Enzyme's users write them: the mesh's index
// list has no derivative, so the shadow mesh points at the same list (`dm = {n, dx, idx}`). Enzyme gives a
// true integer's shadow the integer itself; Parad stored 0 there in forward mode and zeroed it in the
// reverse sweep, which through the shared list erased the primal's indices: reverse mode left idx all
// zero, and forward mode, reading the zeros back, gave twice the tangent. Now a true integer (by the
// program's types) stored into memory with a shadow leaves the shadow as the caller made it, in both
// modes; a separate shadow list's contents are checked to stay as given. So for a list filled by memset
// and memcpy (llm.c's token buffer): forward mode zeroed the shared list (a tangent and a loss of 0) and
// reverse mode erased it, and a shadow record with no list (NULL: integers need none) crashed.
//   build: idx_i = n-1-i (written in the differentiated function)
//   f(x)  = sum_i (i+1) x[idx_i]^2 + n,  n read back from the record       d/dx_j = 2 (n-j) x_j
// Both modes, scalar and at width 2, against the analytic derivative (1e-12) and central differences
// (1e-6); the list after each call, exactly. At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __enzyme_fwddiff_w2(void *, ...) __asm__("__enzyme_fwddiff");

enum { N = 4 };

typedef struct {
  int n;
  double *x;
  int *idx;
} Mesh;

__attribute__((noinline)) static void build(Mesh *m) {
  for (int i = 0; i < m->n; i++) m->idx[i] = m->n - 1 - i;
}

static double f(Mesh *m) {
  build(m);
  double s = m->n;
  for (int i = 0; i < m->n; i++) s += (i + 1) * m->x[m->idx[i]] * m->x[m->idx[i]];
  return s;
}

/* the list cleared and copied in from a table, as llm.c keeps its tokens */
static const int order[N] = {N - 1, N - 2, N - 3, N - 4};
static double f_copied(Mesh *m) {
  memset(m->idx, 0, sizeof(int) * m->n);
  memcpy(m->idx, order, sizeof(int) * m->n);
  double s = m->n;
  for (int i = 0; i < m->n; i++) s += (i + 1) * m->x[m->idx[i]] * m->x[m->idx[i]];
  return s;
}

static int idx[N];

static void list_intact(void) {
  for (int i = 0; i < N; i++) CHECK_CLOSE(idx[i], N - 1 - i, 0);
}

static double f_at(double *x) {
  Mesh m = {N, x, idx};
  return f(&m);
}

int main(void) {
  double x[N] = {0.5, -1.5, 2.0, 0.25}, dx[N] = {0};
  int own[N] = {7, 7, 7, 7}; /* a shadow list of its own: left as given */
  Mesh apart = {N, x, idx}, dapart = {N, dx, own};
  __enzyme_autodiff((void *)f, enzyme_dup, &apart, &dapart);
  for (int i = 0; i < N; i++) CHECK_CLOSE(own[i], 7, 0), dx[i] = 0;
  Mesh m = {N, x, idx}, dm = {N, dx, idx};
  __enzyme_autodiff((void *)f, enzyme_dup, &m, &dm);
  list_intact();
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(dx[j], 2 * (N - j) * x[j], 1e-12);
    double xp[N], xm[N];
    for (int i = 0; i < N; i++) xp[i] = xm[i] = x[i];
    xp[j] += 1e-6, xm[j] -= 1e-6;
    CHECK_CLOSE((f_at(xp) - f_at(xm)) / 2e-6, dx[j], 1e-6);
    double t[N] = {0}, t2[N] = {0};
    t[j] = 1, t2[(j + 1) % N] = 1;
    Mesh tm = {N, t, idx}, tm2 = {N, t2, idx};
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, &m, &tm), dx[j], 1e-12);
    list_intact();
    Two w = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, enzyme_dup, &m, &tm, &tm2);
    CHECK_CLOSE(w.d[0], dx[j], 1e-12);
    CHECK_CLOSE(w.d[1], dx[(j + 1) % N], 1e-12);
    list_intact();
    double tc[N] = {0}, dxc[N] = {0};
    tc[j] = 1;
    Mesh tmc = {N, tc, idx}, dmc = {N, dxc, idx}, dnone = {N, dxc, NULL};
    CHECK_CLOSE(__enzyme_fwddiff((void *)f_copied, enzyme_dup, &m, &tmc), dx[j], 1e-12);
    list_intact();
    __enzyme_autodiff((void *)f_copied, enzyme_dup, &m, &dmc);
    list_intact();
    CHECK_CLOSE(dxc[j], dx[j], 1e-12);
    dxc[j] = 0;
    __enzyme_autodiff((void *)f_copied, enzyme_dup, &m, &dnone);
    CHECK_CLOSE(dxc[j], dx[j], 1e-12);
  }
  return check_done();
}
