// A marked loop in a function no request reaches (a variant of the model kept beside the one
// differentiated): nothing is checkpointed there, and no derivative of its steps is made. Its steps'
// derivatives were made all the same, and at -O0, where they are made of the code as compiled, one was
// refused (a helper growing an int list with malloc and memcpy: "cannot tell what this copy moves"), which
// stopped a build whose gradients were all possible. Both functions run as the program wrote them (equal
// results); the gradient of the unmarked one against central differences (h = 1e-6, 1e-6), at -O0 and -O2.
//   pairs (i, j) closer than 2.5 listed every tenth step; x_i += 0.01 / d^3 over the pairs; J = x_0 x_1.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 6, STEPS = 30 };

static int build(const double *x, int **list, int *cap) {
  int pairs = 0;
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++)
      if (fabs(x[i] - x[j]) < 2.5) {
        if (pairs == *cap) {
          *cap = *cap ? 2 * *cap : 4;
          int *grown = malloc(2 * *cap * sizeof(int));
          if (*list) {
            memcpy(grown, *list, 2 * pairs * sizeof(int));
            free(*list);
          }
          *list = grown;
        }
        (*list)[2 * pairs] = i, (*list)[2 * pairs + 1] = j, pairs++;
      }
  return pairs;
}

double md(double *x) {
  int *list = NULL, cap = 0, pairs = build(x, &list, &cap);
  for (int t = 0; t < STEPS; t++) {
    if (t % 10 == 9) pairs = build(x, &list, &cap);
    for (int p = 0; p < pairs; p++) {
      double d = x[list[2 * p]] - x[list[2 * p + 1]];
      x[list[2 * p]] += 0.01 / (d * d * d);
    }
  }
  free(list);
  return x[0] * x[1];
}

/* the same, its time loop marked: never differentiated */
double md_checkpointed(double *x) {
  int *list = NULL, cap = 0, pairs = build(x, &list, &cap);
  for (int t = 0; t < STEPS; t++) {
    __parad_checkpoint_loop();
    if (t % 10 == 9) pairs = build(x, &list, &cap);
    for (int p = 0; p < pairs; p++) {
      double d = x[list[2 * p]] - x[list[2 * p + 1]];
      x[list[2 * p]] += 0.01 / (d * d * d);
    }
  }
  free(list);
  return x[0] * x[1];
}

static double md_at(const double *x0) {
  double x[N];
  memcpy(x, x0, sizeof x);
  return md(x);
}

int main(void) {
  const double x0[N] = {0, 1.1, 2.3, 3.2, 4.5, 5.4};
  double x[N], y[N], g[N] = {0};
  memcpy(x, x0, sizeof x), memcpy(y, x0, sizeof y);
  CHECK_CLOSE(md_checkpointed(y), md(x), 0);
  memcpy(x, x0, sizeof x);
  __parad_autodiff((void *)md, x, g);
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], fd_component(md_at, x0, N, j, 1e-6), 1e-6);
  return check_done();
}
