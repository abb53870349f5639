// A linked list built as C programs build it: a constructor takes the next node (NULL for the last one)
// and copies the node's values in with memcpy from the caller's array. Two things went wrong here:
// - the values' copy into a block whose other bytes hold pointers was taken for a copy of pointers when
//   the nodes' links were also reached through another pointer (a loop's): a zero gradient, no message,
//   at -O1 and -O2 (memtype_of_copy trusted the block's kind over the copied bytes' own);
// - the constructor called with NULL beside active arguments was refused ("a parameter passed as
//   constant"), as a callee given NULL stores it where its nodes' shadows are.
// Each node holds (a_k, b_k) = (x_2k, x_2k+1); f = sum_k a_k b_k + (first node's a) * (last node's b).
// Gradient against the analytic one (1e-12) and central finite differences (h = 1e-6, 1e-6); forward
// tangents along each unit direction against it (1e-10); at -O2, -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { NODES = 3, N = 2 * NODES };

typedef struct Node {
  struct Node *next, *prev;
  double val[2];
} Node;

__attribute__((noinline)) static Node *make(Node *next, const double *v) {
  Node *n = malloc(sizeof *n);
  n->next = next;
  for (Node *p = n; p; p = p->next) p->prev = NULL; /* the block reached through another pointer too */
  memcpy(n->val, v, sizeof n->val);
  return n;
}

__attribute__((noinline)) static double f(const double *x) {
  Node *head = NULL;
  for (int k = NODES - 1; k >= 0; k--) head = make(head, x + 2 * k);
  double s = 0;
  Node *last = head;
  for (Node *p = head; p; p = p->next) s += p->val[0] * p->val[1], last = p;
  s += head->val[0] * last->val[1];
  while (head) {
    Node *q = head->next;
    free(head);
    head = q;
  }
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx);
  for (int i = 0; i < N; i++) {
    double want = i % 2 ? x[i - 1] : x[i + 1];
    if (i == 0) want += x[N - 1];
    if (i == N - 1) want += x[0];
    CHECK_CLOSE(dx[i], want, 1e-12);
    double p[N], m[N], v[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; j++) p[j] = m[j] = x[j];
    p[i] += h, m[i] -= h, v[i] = 1;
    CHECK_CLOSE((f(p) - f(m)) / (2 * h), dx[i], 1e-6);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), dx[i], 1e-10);
  }
  return check_done();
}
