// Each thread of a parallel region builds a linked list of the chunk of pairs its loop iterations get: a
// constructor copies the pair into a node beside its link with memcpy, the thread walks its list, and
// frees it. At -O2 (the constructor inlined into the region) the copy was refused as "mixed data": the
// node's values are read only through the walk's pointer, which says nothing at the copy's offsets.
// f = sum_k a_k b_k^2 over the pairs (a_k, b_k) = (x_2k, x_2k+1).
// Gradient against the analytic one (1e-12) and central finite differences (h = 1e-6, 1e-6); forward
// tangents along each unit direction against it (1e-10); at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 14 };

typedef struct Node {
  struct Node *next;
  double val[2];
} Node;

static Node *make(Node *next, const double *v) {
  Node *n = malloc(sizeof *n);
  n->next = next;
  memcpy(n->val, v, sizeof n->val);
  return n;
}

static double f(const double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    Node *head = NULL;
#pragma omp for
    for (int k = 0; k < n / 2; k++) head = make(head, x + 2 * k);
    for (Node *p = head; p; p = p->next) s += p->val[0] * p->val[1] * p->val[1];
    while (head) {
      Node *next = head->next;
      free(head);
      head = next;
    }
  }
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i * (i % 3 - 1);
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double want = i % 2 ? 2 * x[i - 1] * x[i] : x[i + 1] * x[i + 1];
    CHECK_CLOSE(dx[i], want, 1e-12);
    double p[N], m[N], v[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; j++) p[j] = m[j] = x[j];
    p[i] += h, m[i] -= h, v[i] = 1;
    CHECK_CLOSE((f(p, N) - f(m, N)) / (2 * h), dx[i], 1e-6);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), dx[i], 1e-10);
  }
  return check_done();
}
