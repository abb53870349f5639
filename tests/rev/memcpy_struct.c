// memcpy of structs made only of doubles, in reverse mode: a struct copied into a local with memcpy, an
// array of structs copied into a heap block with one memcpy, a struct assignment between array elements
// and memcpy out to an output struct whose shadow is seeded. The copies' adjoints flow from destination
// shadows back to source shadows (and are cleared at the destination). Analytic gradient (tolerance
// 1e-12, rounding only) and forward tangents along every unit direction (tolerance 1e-12). (At -O0 the
// memcpy into the malloc'd block is refused: see heap_O0.c.pending.)
// RUN: %parad-cc %cflags %s -o %t && %t
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { double x, y, z; } V3;
typedef struct { V3 pos; double mass; } Body;

__attribute__((noinline)) static double moment(const Body *bodies, int n, Body *heaviest) {
  Body *copy = malloc(n * sizeof *copy);
  memcpy(copy, bodies, n * sizeof *copy);
  Body best;
  memcpy(&best, &copy[0], sizeof best);
  double m = 0;
  for (int i = 0; i < n; i++) {
    V3 p;
    memcpy(&p, &copy[i].pos, sizeof p);
    m += copy[i].mass * (p.x * p.x + p.y * p.y + p.z * p.z);
    if (copy[i].mass > best.mass) best = copy[i];
  }
  memcpy(heaviest, &best, sizeof best);
  free(copy);
  return m;
}

enum { N = 4, F = 4 * N };

int main(void) {
  Body b[N], db[N], h, dh;
  for (int i = 0; i < N; i++) b[i] = (Body){{0.5 * i - 1, 0.3 * i, 1 - 0.2 * i}, 1 + (i * 7 % 5)};
  memset(db, 0, sizeof db);
  const double seed[4] = {0.25, -0.5, 1.5, 2.0};
  memcpy(&dh, seed, sizeof dh);
  __parad_autodiff((void *)moment, b, db, parad_const, N, &h, &dh);
  int heavy = 0;
  for (int i = 1; i < N; i++)
    if (b[i].mass > b[heavy].mass) heavy = i;
  CHECK_CLOSE(h.mass, b[heavy].mass, 0);
  for (int i = 0; i < N; i++) {
    const double *p = &b[i].pos.x;
    double *g = &db[i].pos.x;
    for (int c = 0; c < 3; c++) CHECK_CLOSE(g[c], 2 * b[i].mass * p[c] + (i == heavy) * seed[c], 1e-12);
    CHECK_CLOSE(db[i].mass, p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + (i == heavy) * seed[3], 1e-12);
  }
  for (int c = 0; c < 4; c++) CHECK_CLOSE(((double *)&dh)[c], 0.0, 0); /* consumed */
  for (int k = 0; k < F; k++) {
    Body e[N], h2, dh2;
    memset(e, 0, sizeof e);
    ((double *)e)[k] = 1;
    double t = __parad_fwddiff((void *)moment, b, e, parad_const, N, &h2, &dh2);
    for (int c = 0; c < 4; c++) t += seed[c] * ((double *)&dh2)[c];
    CHECK_CLOSE(((double *)db)[k], t, 1e-12);
  }
  return check_done();
}
