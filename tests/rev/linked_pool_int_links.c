// An event list as C programs keep one: nodes {double t, w; int next;} in a local array pool with a free
// list, inserted in time order by walking an `int *link` over the nodes' `next` fields, every third node
// then unlinked onto the free list with its weight merged into its successor. At -O0 reverse mode refused
// it ("a part of a float's bits moved as a smaller integer", at the stores through `link`): without type
// tags nothing said that the 4 bytes stored beside the doubles were an int field. The stores' addresses
// now say it (a struct's integer field, a local int, or a pointer slot only ever given those).
//   J = sum over the list in order of w_c (t_c - t_prev)^2 + sin(t_c) w_c
// Gradient against tangents along each unit direction (1e-12) and central differences (1e-6), at -O0,
// -O2 and -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double t, w;
  int next;
} Event;
enum { POOL = 24, NE = 9 };

/* x: NE times, then NE weights */
static double schedule_cost(const double *x) {
  Event pool[POOL];
  int free_list = 0, head = -1;
  for (int i = 0; i < POOL - 1; i++) pool[i].next = i + 1;
  pool[POOL - 1].next = -1;
  for (int e = 0; e < NE; e++) {
    int node = free_list;
    free_list = pool[node].next;
    pool[node].t = x[e], pool[node].w = x[NE + e];
    int *link = &head;
    while (*link != -1 && pool[*link].t < x[e]) link = &pool[*link].next;
    pool[node].next = *link;
    *link = node;
  }
  int *link = &head, count = 0;
  while (*link != -1) {
    int cur = *link;
    if (++count % 3 == 0 && pool[cur].next != -1) {
      pool[pool[cur].next].w += 0.5 * pool[cur].w;
      *link = pool[cur].next;
      pool[cur].next = free_list;
      free_list = cur;
    } else {
      link = &pool[cur].next;
    }
  }
  double J = 0, prev = 0;
  for (int c = head; c != -1; c = pool[c].next) {
    double gap = pool[c].t - prev;
    J += pool[c].w * gap * gap + sin(pool[c].t) * pool[c].w;
    prev = pool[c].t;
  }
  return J;
}

int main(void) {
  double x[2 * NE];
  for (int i = 0; i < NE; i++) x[i] = 5 + 4 * sin(2.3 * i), x[NE + i] = 1 + 0.3 * cos(i); /* times apart */
  CHECK_GRADIENT(schedule_cost, x, 2 * NE, 1e-12, 1e-6, 1e-6);
  return check_done();
}
