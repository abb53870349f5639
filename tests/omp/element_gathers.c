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
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { NX = 6, NE = NX * NX, NN = (NX + 1) * (NX + 1), T = 3 };

typedef struct {
  int numElem, numNode;
  int *nodelist, *cornerStart, *cornerList;
  double *x, *y, *xd, *yd, *fx, *fy, *area;
  double stiff;
} Mesh;

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

static void move_nodes(Mesh *m, double dt) {
#pragma omp parallel for
  for (int n = 0; n < m->numNode; n++) {
    double fx = 0, fy = 0;
    for (int c = m->cornerStart[n]; c < m->cornerStart[n + 1]; c++) fx += m->fx[m->cornerList[c]], fy += m->fy[m->cornerList[c]];
    m->xd[n] += dt * fx, m->yd[n] += dt * fy;
    m->x[n] += dt * m->xd[n], m->y[n] += dt * m->yd[n];
  }
}

__attribute__((noinline)) static double run(Mesh *m, const double *q) {
  for (int n = 0; n < m->numNode; n++) {
    m->x[n] = (double)(n % (NX + 1)) / NX + 0.01 * q[n];
    m->y[n] = (double)(n / (NX + 1)) / NX + 0.01 * q[NN + n] * q[n];
    m->xd[n] = m->yd[n] = 0;
  }
  for (int t = 0; t < T; t++) {
    element_forces(m);
    move_nodes(m, 0.002);
  }
  double J = 0;
  for (int n = 0; n < m->numNode; n++) J += m->x[n] * m->x[n] + 2 * m->y[n] * m->x[n];
  return J;
}

/* The element loop alone, its forces summed (linearly: the sum records nothing): for the tape's size. */
__attribute__((noinline)) static double forces_only(Mesh *m) {
  element_forces(m);
  double J = 0;
  for (int c = 0; c < 4 * m->numElem; c++) J += m->fx[c] + 2 * m->fy[c];
  return J;
}

static Mesh mesh, shadow;
static double J(const double *q) { return run(&mesh, q); }

static double *zeros(int n) { return calloc(n, sizeof(double)); }

static void clear_shadow(void) {
  double *a[] = {shadow.x, shadow.y, shadow.xd, shadow.yd, shadow.fx, shadow.fy, shadow.area};
  int len[] = {NN, NN, NN, NN, 4 * NE, 4 * NE, NE};
  for (int k = 0; k < 7; k++)
    for (int i = 0; i < len[k]; i++) a[k][i] = 0;
  shadow.stiff = 0;
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  Mesh *m = &mesh;
  m->numElem = NE, m->numNode = NN, m->stiff = 0.7;
  m->nodelist = malloc(sizeof(int) * 4 * NE);
  m->cornerStart = calloc(NN + 1, sizeof(int));
  m->cornerList = malloc(sizeof(int) * 4 * NE);
  for (int j = 0; j < NX; j++)
    for (int i = 0; i < NX; i++) {
      int e = j * NX + i, n0 = j * (NX + 1) + i, nl[4] = {n0, n0 + 1, n0 + NX + 2, n0 + NX + 1};
      for (int k = 0; k < 4; k++) m->nodelist[4 * e + k] = nl[k], m->cornerStart[nl[k] + 1]++;
    }
  for (int n = 0; n < NN; n++) m->cornerStart[n + 1] += m->cornerStart[n];
  int fill[NN] = {0};
  for (int c = 0; c < 4 * NE; c++) {
    int n = m->nodelist[c];
    m->cornerList[m->cornerStart[n] + fill[n]++] = c;
  }
  m->x = zeros(NN), m->y = zeros(NN), m->xd = zeros(NN), m->yd = zeros(NN);
  m->fx = zeros(4 * NE), m->fy = zeros(4 * NE), m->area = zeros(NE);
  shadow = mesh; /* the same index lists; floats of its own */
  shadow.x = zeros(NN), shadow.y = zeros(NN), shadow.xd = zeros(NN), shadow.yd = zeros(NN);
  shadow.fx = zeros(4 * NE), shadow.fy = zeros(4 * NE), shadow.area = zeros(NE);

  double q[2 * NN], g[2 * NN] = {0}, v[2 * NN];
  for (int i = 0; i < 2 * NN; i++) q[i] = sin(0.7 * i), v[i] = cos(1.3 * i);
  clear_shadow();
  __parad_autodiff((void *)run, &mesh, &shadow, q, g);
  clear_shadow();
  double t = __parad_fwddiff((void *)run, &mesh, &shadow, q, v), dot = 0;
  for (int i = 0; i < 2 * NN; i++) dot += g[i] * v[i];
  CHECK_CLOSE(t, dot, 1e-10);
  for (int j = 0; j < 2 * NN; j += 3) CHECK_CLOSE(g[j], fd_component(J, q, 2 * NN, j, 1e-6), 1e-6);

#ifdef COUNTED /* the adjoint updates of the whole gradient: a thread's elements and nodes share nodes and
                  corners with the next thread's only at the edge of its rows */
  unsigned long long plain0, atomic0, plain1, atomic1;
  clear_shadow();
  parad_adjoint_update_counts(&plain0, &atomic0);
  __parad_autodiff((void *)run, &mesh, &shadow, q, g);
  parad_adjoint_update_counts(&plain1, &atomic1);
  printf("adjoint updates: %llu plain, %llu atomic\n", plain1 - plain0, atomic1 - atomic0);
  CHECK_CLOSE(atomic1 - atomic0 < (plain1 - plain0) / 20, 1, 0);
#endif

  /* the element loop's tape, at one thread (a region records on its threads' tapes) */
  omp_set_num_threads(1);
  clear_shadow();
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)forces_only, &mesh, &shadow);
  double per_element = (double)(parad_tape_recorded_bytes() - before) / NE;
  printf("element loop: %.1f bytes of tape per element\n", per_element);
#ifdef __OPTIMIZE__ /* at -O0 the regions are differentiated as compiled: no bound */
  CHECK_CLOSE(per_element <= 72, 1, 0);
#endif
  return check_done();
}
