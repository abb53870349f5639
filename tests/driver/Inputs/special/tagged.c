/* A pointer to active memory rebuilt from its tagged integer address: refused. */
#include <stdint.h>

double tagged_square(double *x) {
  double *p = (double *)(((uintptr_t)x | 1) & ~(uintptr_t)1);
  return *p * *x;
}
