// A struct with a flexible array member copied whole in a helper (the optimiser addresses it by byte
// offsets), where the block's address is also kept in a global: other code may put anything in bytes
// that no access here shows, so the copy's layout cannot be told from the accesses. Refused with the
// place, no output file; before, the helper's read of `n` made the copy one of integers, and the
// gradient was 0 with no message.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: flexible_struct_kept.c:[[@LINE+12]]:3: error: reverse mode cannot tell what this copy moves (mixed data){{.*}}in function 'poly_copy'
#include <stdlib.h>
#include <string.h>
double __parad_autodiff(void *, ...);
typedef struct {
  int n;
  double c[];
} Poly;
Poly *kept;

__attribute__((noinline)) static Poly *poly_copy(const Poly *p) {
  Poly *q = malloc(sizeof(Poly) + (size_t)p->n * sizeof(double));
  memcpy(q, p, sizeof(Poly) + (size_t)p->n * sizeof(double));
  return q;
}

double value(const double *a, int n) {
  Poly *p = malloc(sizeof(Poly) + (size_t)n * sizeof(double));
  p->n = n;
  for (int i = 0; i < n; i++) p->c[i] = a[i];
  kept = p;
  Poly *q = poly_copy(p);
  double s = 0;
  for (int i = 0; i < n; i++) s += q->c[i] * q->c[i];
  free(q);
  return s;
}

int main(void) {
  double a[4] = {1, 2, 3, 4}, g[4] = {0};
  __parad_autodiff((void *)value, a, g, 4);
  return g[0] != 2;
}
