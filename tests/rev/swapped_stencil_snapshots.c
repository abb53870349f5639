// Two arrays swapped by pointer every step (`double *t = v; v = w; w = t;`), as explicit stencils and
// tree pricers write them: each step reads v at three places per node and writes w. The reverse sweep
// recorded all three reads of every node (a trinomial tree's 32 bytes of tape per node, 24 of them the
// reads): nothing told v and w apart (phis of the loop, not objects), and a run of the innermost loop was
// never copied. Two phis that take each other's values and start from two distinct allocations are apart
// now, and an innermost loop that reads an object at several places an iteration copies its run
// (reverse/rev_snapshot.c): one element per node.
//   per step: w_j = v_j + c (v_{j-1} v_{j+1} - v_j^2) + 0.01 sin(v_j), j = 1 .. n-2 (ends kept); swap;
//   f = sum v_j^2 after the steps
// The gradient in x and c against a hand-written adjoint that keeps every level (1e-12) and central
// differences (h = 1e-6, 1e-6); the tape under 20 bytes per node and step (it was 32). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 40, STEPS = 30 };

static double sweep(const double *x, double c) {
  double *v = malloc(N * sizeof *v), *w = malloc(N * sizeof *w);
  memcpy(v, x, N * sizeof *v);
  w[0] = v[0], w[N - 1] = v[N - 1];
  for (int s = 0; s < STEPS; s++) {
    for (int j = 1; j < N - 1; j++) w[j] = v[j] + c * (v[j - 1] * v[j + 1] - v[j] * v[j]) + 0.01 * sin(v[j]);
    double *t = v;
    v = w;
    w = t;
  }
  double f = 0;
  for (int j = 0; j < N; j++) f += v[j] * v[j];
  free(v);
  free(w);
  return f;
}

/* every level kept, then the steps backwards */
static void sweep_adjoint(const double *x, double c, double *dx, double *dc) {
  static double lv[STEPS + 1][N], a[N], b[N];
  memcpy(lv[0], x, sizeof lv[0]);
  for (int s = 0; s < STEPS; s++) {
    lv[s + 1][0] = lv[s][0], lv[s + 1][N - 1] = lv[s][N - 1];
    for (int j = 1; j < N - 1; j++) {
      const double *v = lv[s];
      lv[s + 1][j] = v[j] + c * (v[j - 1] * v[j + 1] - v[j] * v[j]) + 0.01 * sin(v[j]);
    }
  }
  for (int j = 0; j < N; j++) a[j] = 2 * lv[STEPS][j];
  *dc = 0;
  for (int s = STEPS - 1; s >= 0; s--) {
    const double *v = lv[s];
    memset(b, 0, sizeof b);
    b[0] += a[0], b[N - 1] += a[N - 1];
    for (int j = 1; j < N - 1; j++) {
      b[j] += a[j] * (1 - 2 * c * v[j] + 0.01 * cos(v[j]));
      b[j - 1] += a[j] * c * v[j + 1];
      b[j + 1] += a[j] * c * v[j - 1];
      *dc += a[j] * (v[j - 1] * v[j + 1] - v[j] * v[j]);
    }
    memcpy(a, b, sizeof a);
  }
  memcpy(dx, a, sizeof a);
}

static double c_now;
static double of_x(const double *x) { return sweep(x, c_now); }

int main(void) {
  double x[N], dx[N] = {0}, hx[N], hc, c = 0.05;
  for (int j = 0; j < N; j++) x[j] = 0.5 + 0.3 * sin(0.37 * j);
  parad_tape_reset_peak();
  double dc = __parad_autodiff((void *)sweep, x, dx, c);
  size_t tape = parad_tape_recorded_bytes();
  sweep_adjoint(x, c, hx, &hc);
  for (int j = 0; j < N; j++) CHECK_CLOSE(dx[j], hx[j], 1e-12);
  CHECK_CLOSE(dc, hc, 1e-12);
  c_now = c;
  for (int j = 0; j < N; j += 3) CHECK_CLOSE(dx[j], fd_component(of_x, x, N, j, 1e-6), 1e-6);
  CHECK_CLOSE(dc, (sweep(x, c + 1e-6) - sweep(x, c - 1e-6)) / 2e-6, 1e-6);
#ifdef __OPTIMIZE__
  if (!(tape < 20.0 * N * STEPS)) printf("FAIL tape %zu bytes for %d nodes and steps\n", tape, N * STEPS), check_failures++;
#endif
  printf("tape %.1f bytes per node and step\n", (double)tape / (N * STEPS));
  return check_done();
}
