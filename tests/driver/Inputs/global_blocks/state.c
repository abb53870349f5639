#include <stdlib.h>
#include "state.h"

double *field, *flux;
int cells;

void setup(int n) {
  cells = n;
  field = calloc(n, sizeof *field);
  flux = malloc(sizeof *flux * (n + 1));
}
