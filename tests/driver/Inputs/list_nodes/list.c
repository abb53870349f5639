#include <stdlib.h>
#include <string.h>
#include "list.h"

Node *node_make(Node *next, const double *pair) {
  Node *n = malloc(sizeof *n);
  n->next = next;
  memcpy(n->val, pair, sizeof n->val);
  return n;
}

/* sum over the nodes of a b^2 */
double list_energy(const Node *n) {
  double s = 0;
  for (; n; n = n->next) s += n->val[0] * n->val[1] * n->val[1];
  return s;
}

void list_free(Node *n) {
  while (n) {
    Node *next = n->next;
    free(n);
    n = next;
  }
}
