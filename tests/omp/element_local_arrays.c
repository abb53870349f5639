// The element loop of tests/omp/element_gathers.c written with small local arrays, as LULESH and
// finite-element codes often write it: the four nodes' indices and coordinates gathered into nl[4], px[4],
// py[4] in a loop of four, the area from the arrays, the corner forces in a loop of four with the
// neighbours' indices computed ((k + 1) % 4). The node loop and J are the same.
// Gradient against forward tangents (tolerance 1e-10) and central differences (h = 1e-6, 1e-6) at 1 to 4
// threads, -O2 and -O0; built with PARAD_COUNT_UPDATES, under 5% of the adjoint updates atomic at 2 and 4
// threads. The short loops are unrolled before differentiating (ad/local_array_loops.h): the element
// loop recorded every value read back from the arrays, 141 bytes of tape an element at -O2; at most 72 now
// (63, as the same loop written with names).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 && %t2 2 && %t2 4
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && %t0 2
#include "element_mesh.h"

/* The nodes gathered into local arrays in a loop, the corners' forces in another. */
static void element_forces(Mesh *m) {
#pragma omp parallel for
  for (int e = 0; e < m->numElem; e++) {
    int nl[4];
    double px[4], py[4];
    for (int k = 0; k < 4; k++) {
      nl[k] = m->nodelist[4 * e + k];
      px[k] = m->x[nl[k]], py[k] = m->y[nl[k]];
    }
    double a = 0.5 * ((px[0] - px[2]) * (py[1] - py[3]) - (px[1] - px[3]) * (py[0] - py[2]));
    m->area[e] = a;
    double p = m->stiff * (1 / a - NX * NX);
    for (int k = 0; k < 4; k++) {
      int kp = (k + 1) % 4, km = (k + 3) % 4;
      m->fx[4 * e + k] = 0.5 * p * (py[kp] - py[km]);
      m->fy[4 * e + k] = -0.5 * p * (px[kp] - px[km]);
    }
  }
}
