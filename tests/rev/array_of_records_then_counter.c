// A tree built in a record whose array of nodes comes first and a counter after it (`struct { Node
// nodes[8]; int nn; }`, as a BVH or kd-tree keeps its nodes): at -O1 and up the recursive build indexes
// the nodes as an array from the record's start, and the memory analysis took the record for an array
// of nodes only, so the counter lay where a ninth node's first double would be: the counter's reads and
// the returned node numbers were taken for a float's bits ("floats moved as integer bits into or out of
// a call", refused). The callers' record, which starts with that array, is the object now
// (analysis/memtype.c).
//   f(c) = sum over the tree's nodes (hi - lo)(left + 2): each node spans its points, leaves left = -1
// The gradient against central differences (h = 1e-6, 1e-7) and the tangents along each direction
// (1e-12). At -O2, -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { P = 6 };

typedef struct {
  double lo, hi;
  int left, right;
} Node;

typedef struct {
  Node nodes[2 * P];
  int nn;
} Tree;

static int build(Tree *t, const double *c, int first, int count) {
  int me = t->nn++;
  Node *n = &t->nodes[me];
  n->lo = 1e30, n->hi = -1e30;
  for (int k = first; k < first + count; k++) n->lo = fmin(n->lo, c[k]), n->hi = fmax(n->hi, c[k]);
  if (count <= 1) {
    n->left = n->right = -1;
    return me;
  }
  int l = build(t, c, first, count / 2), r = build(t, c, first + count / 2, count - count / 2);
  t->nodes[me].left = l, t->nodes[me].right = r;
  return me;
}

double f(const double *c) {
  Tree t;
  t.nn = 0;
  build(&t, c, 0, P);
  double s = 0;
  for (int i = 0; i < t.nn; i++) s += (t.nodes[i].hi - t.nodes[i].lo) * (t.nodes[i].left + 2);
  return s;
}

int main(void) {
  double c[P] = {0.3, -0.2, 0.8, 0.1, -0.65, 0.45}, g[P] = {0};
  __parad_autodiff((void *)f, c, g);
  for (int j = 0; j < P; j++) {
    double up[P], down[P], t[P] = {0};
    for (int i = 0; i < P; i++) up[i] = down[i] = c[i];
    up[j] += 1e-6, down[j] -= 1e-6, t[j] = 1;
    CHECK_CLOSE(g[j], (f(up) - f(down)) / 2e-6, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)f, c, t), g[j], 1e-12);
  }
  return check_done();
}
