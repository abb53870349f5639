// An element loop as hydrodynamics and finite-element codes write it (LULESH's shape): each element reads
// its four nodes' indices from a node list and gathers their coordinates by name (x0 = m->x[n0], ...),
// computes its area and a pressure, and writes a force per corner; a node loop then sums its corners'
// forces through a corner list (a loop behind its zero-trip guard) and moves the node, for T steps, over a
// quad mesh held in a struct of arrays. J = sum_n x_n^2 + 2 y_n x_n of the final positions.
// Gradient against forward tangents (tolerance 1e-10) and central differences (h = 1e-6, 1e-6) at 1 to 4
// threads, -O2 and -O0. What the regions' plans once missed, built with -O2:
//   - the struct's arrays (m->x, read from the struct the region captures) were no object a plan knew:
//     every adjoint update of the gradient atomic (built with PARAD_COUNT_UPDATES, at 2 and 4 threads, all
//     2,628; under 5% may be now, none is), the node loop's even once the struct's arrays were objects (its
//     arrays' addresses loaded in the corner loop's guarded preheader, a different value each iteration);
//   - four indices a block per element (nodelist[4 e + c]) were no gather through an index array, and each
//     difference of two gathered coordinates was recorded rather than recomputed from the gathers, which
//     the reverse sweep reads from the region's copies: 134 bytes of tape per element, at most 72 now (the
//     four indices, the pressure's products, the loop's bookkeeping).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 && %t2 2 && %t2 4
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && %t0 2
#include "element_mesh.h"

/* As LULESH writes its element loops: the nodes' indices, then each coordinate gathered by name. */
static void element_forces(Mesh *m) {
#pragma omp parallel for
  for (int e = 0; e < m->numElem; e++) {
    const int *nl = &m->nodelist[4 * e];
    int n0 = nl[0], n1 = nl[1], n2 = nl[2], n3 = nl[3];
    double x0 = m->x[n0], x1 = m->x[n1], x2 = m->x[n2], x3 = m->x[n3];
    double y0 = m->y[n0], y1 = m->y[n1], y2 = m->y[n2], y3 = m->y[n3];
    double a = 0.5 * ((x0 - x2) * (y1 - y3) - (x1 - x3) * (y0 - y2));
    m->area[e] = a;
    double p = m->stiff * (1 / a - NX * NX);
    double *fx = &m->fx[4 * e], *fy = &m->fy[4 * e];
    fx[0] = 0.5 * p * (y1 - y3), fy[0] = -0.5 * p * (x1 - x3);
    fx[1] = 0.5 * p * (y2 - y0), fy[1] = -0.5 * p * (x2 - x0);
    fx[2] = 0.5 * p * (y3 - y1), fy[2] = -0.5 * p * (x3 - x1);
    fx[3] = 0.5 * p * (y0 - y2), fy[3] = -0.5 * p * (x0 - x2);
  }
}
