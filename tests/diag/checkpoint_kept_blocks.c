// Checkpointed loops whose pointer variables the recomputation cannot follow are refused at the store,
// where they gave wrong gradients silently (user-style probes): a block a step allocates kept for the
// next steps (`h = nh` with nh fresh from malloc: the gradient was 0; a workspace calloc'd on the first
// step: 0.656 and, under a budget, 0.469 for 0.832), and a pointer variable set to addresses in a global
// that change from step to step (11.1 for 5.46). Also where the pointer is a field of a local struct (a
// contact list `{Item *c; int cap;}` grown with realloc when a step needs more room: the store went into
// the struct's field, not a variable, and the program aborted with a double free, or at -O0 gave 1e188
// for 0.219), and where that struct is the caller's, copied in and out. A block a step allocates and frees, and swapped buffers,
// stay supported (tests/omp/checkpoint_region.c, tests/rev/checkpoint_pointers.c). No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: not %parad-cc %cflags -DGLOBAL %s -o %t 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: test ! -e %t
#include <math.h>
#include <stdlib.h>
#include <parad.h>

double grown(const double *p, int T) {
  double *h = malloc(sizeof *h);
  h[0] = p[0];
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    double *nh = malloc(sizeof *nh);
    nh[0] = sin(h[0]);
    free(h);
    // CHECK: checkpoint_kept_blocks.c:[[@LINE+1]]:{{[0-9]+}}: error: a checkpointed loop that keeps a block its step allocates in a pointer variable for the next steps is not supported yet: allocate the blocks before the loop and swap the pointers in function 'grown'
    h = nh;
  }
  double r = h[0];
  free(h);
  return r;
}

double lazy(const double *p, int T) {
  double *w = NULL, y = p[0];
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    // CHECK: checkpoint_kept_blocks.c:[[@LINE+1]]:{{[0-9]+}}: error: a checkpointed loop that keeps a block its step allocates in a pointer variable for the next steps is not supported yet
    if (!w) w = calloc(4, sizeof *w);
    w[t % 4] += y;
    y = sin(y) + 0.1 * w[(t + 3) % 4];
  }
  free(w);
  return y;
}

typedef struct { double *c; int cap; } List;

double listed(double *x, int n, int T) {
  List l = {NULL, 0};
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    int m = 2 + t;
    // CHECK-DAG: checkpoint_kept_blocks.c:[[@LINE+1]]:{{[0-9]+}}: error: a checkpointed loop that keeps a block its step allocates in a pointer variable for the next steps is not supported yet{{.*}}'listed'
    if (m > l.cap) l.cap = m, l.c = realloc(l.c, sizeof(double) * l.cap);
    for (int i = 0; i < m; i++) l.c[i] = sin(x[i % n]);
    for (int i = 0; i < m; i++) x[i % n] += 0.1 * l.c[i] * l.c[i];
  }
  free(l.c);
  return x[0];
}

double copied_in(double *x, int n, List *lp, int T) {
  List l = *lp;
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    // CHECK-DAG: checkpoint_kept_blocks.c:[[@LINE+1]]:{{[0-9]+}}: error: a checkpointed loop that keeps a block its step allocates in a pointer variable for the next steps is not supported yet{{.*}}'copied_in'
    if (t + 2 > l.cap) l.cap = t + 2, l.c = realloc(l.c, sizeof(double) * l.cap);
    for (int i = 0; i < t + 2; i++) l.c[i] = cos(x[i % n]);
    x[t % n] += l.c[t] * l.c[0];
  }
  *lp = l;
  return x[0];
}

#ifdef GLOBAL
static double K[4];

double into_global(const double *x, int n) {
  for (int k = 0; k < 4; k++) K[k] = 0.5 + 0.1 * k;
  double *q = K, s = 0;
  for (int t = 0; t < n; t++) {
    __parad_checkpoint_loop();
    s += q[t % 4] * x[t % 2] * x[t % 2] + K[(t + 1) % 4] * x[0];
    // GLOBAL: checkpoint_kept_blocks.c:[[@LINE+1]]:{{[0-9]+}}: error: a checkpointed loop that sets a pointer variable to addresses in a global that change from step to step is not supported yet: keep the index into the global in an integer variable instead in function 'into_global'
    q = t % 2 ? K : K + 1;
  }
  return s;
}
#endif

int main(void) {
  double p[2] = {0.5, 0.7}, g[2] = {0};
#ifdef GLOBAL
  __parad_autodiff((void *)into_global, p, g, parad_const, 10);
#else
  __parad_autodiff((void *)grown, p, g, parad_const, 3);
  __parad_autodiff((void *)lazy, p, g, parad_const, 6);
  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {0};
  List l = {NULL, 0};
  __parad_autodiff((void *)listed, x, dx, 4, 5);
  __parad_autodiff((void *)copied_in, x, dx, 4, parad_const, &l, 5);
#endif
  return 0;
}
