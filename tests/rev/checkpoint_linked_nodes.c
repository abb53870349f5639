// A checkpointed loop whose steps walk a linked list of heap nodes, each its own base for the steps' notes,
// more of them than a store site keeps hulls for (four): every node's value must come back as it was when
// a step is recomputed. A first attempt at taking back hulls given way (for a vector of structs, whose
// snapshots grow as T^2) gave every node but the head a zero derivative here. The gradient is checked
// against its closed form (relative 1e-12) for 3, 5 and 50 nodes, without a budget and under one that
// makes the reverse sweep recompute steps, at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_checkpoint_loop(void);
double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);

typedef struct Node {
  double v;
  struct Node *next;
} Node;

enum { T = 20 };
static int nodes;

static double run(const double *k) {
  Node *head = NULL;
  for (int i = 0; i < nodes; i++) {
    Node *n = malloc(sizeof *n);
    n->v = 0.001 * i, n->next = head, head = n;
  }
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    for (Node *n = head; n; n = n->next) n->v += 0.01 * k[0] * n->v;
  }
  double s = 0;
  for (Node *n = head; n;) {
    Node *m = n->next;
    s += n->v;
    free(n);
    n = m;
  }
  return s;
}

int main(void) {
  int counts[3] = {3, 5, 50};
  size_t budgets[2] = {0, 64u << 10};
  for (int c = 0; c < 3; c++)
    for (int b = 0; b < 2; b++) {
      nodes = counts[c];
      parad_set_tape_limit(budgets[b]);
      double k[1] = {1}, g[1] = {0};
      __parad_autodiff((void *)run, k, g);
      /* v_i = 0.001 i (1 + 0.01 k)^T: ds/dk = 0.001 T 0.01 (1 + 0.01 k)^(T - 1) sum i */
      double want = 0.001 * T * 0.01 * pow(1 + 0.01 * k[0], T - 1) * nodes * (nodes - 1) / 2;
      CHECK_CLOSE(g[0], want, 1e-12);
    }
  parad_set_tape_limit(0);
  return check_done();
}
