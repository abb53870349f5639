// A record of table pointers copied out of a global without a shadow into a local, whose axis pointer a
// helper then stores beside an active value (a search key passed to a helper not inlined): the local
// needs a shadow, and the copy gave its pointers null ones. The reverse sweep added the table's adjoints
// at address zero, forward mode read tangents there: both programs segfaulted, with no message. The copy
// is refused now, in both modes, with the global named; no output written. (At -O0 the same program
// builds and is right: the optimised copies read the table straight from the global.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc %cflags -DFORWARD %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <string.h>
#include "parad.h"

typedef struct {
  int n;
  double *ax, *p;
} Tab;
Tab g_tab;
struct key {
  double x;
  const double *base;
  int n;
};

__attribute__((noinline)) static int find(const struct key *key) {
  int i = 0;
  while (i < key->n - 2 && key->base[i + 1] <= key->x) i++;
  return i;
}

__attribute__((noinline)) double lookup(const Tab *t, double x) {
  struct key key = {x, t->ax, t->n};
  int i = find(&key);
  double u = (x - t->ax[i]) / (t->ax[i + 1] - t->ax[i]);
  return (1 - u) * t->p[i] + u * t->p[i + 1];
}

double march(const double *x, int n) {
  Tab t;
  // CHECK: pointers_copied_without_shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: this copy moves pointers into memory with derivatives, and their shadows would be null: the memory they are copied from has none (the pointer global variable 'g_tab', which has no shadow: {{.*}}) in function 'march'
  memcpy(&t, &g_tab, sizeof t);
  double s = x[0], w = 0;
  for (int k = 0; k < n; k++) {
    double p = lookup(&t, s);
    w += p * 0.01;
    s += 0.01 * p;
  }
  return w;
}

double x[1] = {0.5}, dx[1], v[1] = {1};
int main(void) {
#ifdef FORWARD
  return __parad_fwddiff((void *)march, x, v, 300) > 0;
#else
  __parad_autodiff((void *)march, x, dx, 300);
  return 0;
#endif
}
