// A linked list whose constructor, walk and free live in another file (Inputs/list_nodes/list.c), the
// derivative asked for here: the link differentiates the constructor, which copies each pair into a node
// beside its link with memcpy. At -O2 file by file this was refused at the link ("mixed data": the
// node's values are read only by the walk, through its own pointer), and the constructor is called with
// NULL for the last node.
// f = sum_k a_k b_k^2 over the pairs (a_k, b_k) = (x_2k, x_2k+1). Gradient and forward tangents along
// each unit direction against the analytic derivative (1e-12), at -O2 file by file and -O0 in one command.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -I%S/Inputs/list_nodes -c %s -o %t/main.o
// RUN: %parad-cc %cflags -c %S/Inputs/list_nodes/list.c -o %t/list.o
// RUN: %parad-cc %t/main.o %t/list.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O0 -I%S/../include -I%S/Inputs/list_nodes %s %S/Inputs/list_nodes/list.c -o %t/prog0 -lm && %t/prog0
#include "check.h"
#include "list.h"
#include "parad.h"

enum { N = 8 };

static double f(const double *x, int n) {
  Node *head = NULL;
  for (int k = 0; k < n / 2; k++) head = node_make(head, x + 2 * k);
  double s = list_energy(head);
  list_free(head);
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.1, 0.9, 0.5}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double want = i % 2 ? 2 * x[i - 1] * x[i] : x[i + 1] * x[i + 1], v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), want, 1e-12);
  }
  return check_done();
}
