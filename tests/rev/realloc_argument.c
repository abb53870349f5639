// A function that grows a block its caller passed in (`*p = realloc(*p, ...)`): the derivative sets the
// caller's shadow pointer to the new block's shadow, as the function sets the caller's pointer. The
// adjoints of what the block held came back into the old shadow, which was freed with the tape (realloc
// freed the old block): the caller read a gradient of zeros from the new shadow, with no message. They now
// go to the new shadow as the tape ends, through any number of reallocs.
//   grow: q = the block grown to 2n, q[n+i] = q[i]^2, f = sum q:  df/dq_i = 1 + 2 q_i.
//   grow_twice: the same, then grown again to 3n with q[2n+i] = 3 q[i]:  df/dq_i = 4 + 2 q_i.
// Against those (1e-12), at -O2 and -O0; the caller frees the new blocks (valgrind-clean).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
extern int parad_const;

enum { N = 4 };

__attribute__((noinline)) double grow(double **p, int n) {
  double *q = realloc(*p, 2 * n * sizeof(double));
  *p = q;
  for (int i = 0; i < n; i++) q[n + i] = q[i] * q[i];
  double s = 0;
  for (int i = 0; i < 2 * n; i++) s += q[i];
  return s;
}

__attribute__((noinline)) double grow_twice(double **p, int n) {
  double s = grow(p, n), *q = realloc(*p, 3 * n * sizeof(double));
  *p = q;
  for (int i = 0; i < n; i++) q[2 * n + i] = 3 * q[i];
  for (int i = 0; i < n; i++) s += q[2 * n + i];
  return s;
}

int main(void) {
  for (int twice = 0; twice < 2; twice++) {
    double *x = malloc(N * sizeof(double)), *dx = calloc(N, sizeof(double)), x0[N];
    for (int i = 0; i < N; i++) x[i] = x0[i] = 0.3 - 0.2 * i;
    if (twice) __parad_autodiff((void *)grow_twice, &x, &dx, parad_const, N);
    else __parad_autodiff((void *)grow, &x, &dx, parad_const, N);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], (twice ? 4 : 1) + 2 * x0[i], 1e-12);
    free(x);
    free(dx);
  }
  return check_done();
}
