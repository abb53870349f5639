/* element_mesh.h: the quad mesh of tests/omp/element_gathers.c and tests/omp/element_local_arrays.c (a
 * struct of arrays, LULESH's shape), its node loop, the objective, the checks and main. The including test
 * defines element_forces, its element loop, written its own way. */
#ifndef PARAD_TEST_ELEMENT_MESH_H
#define PARAD_TEST_ELEMENT_MESH_H

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

static void element_forces(Mesh *m);

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
#endif
