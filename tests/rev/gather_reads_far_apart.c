// A loop reading an array at several places an iteration has its reads copied per run of the loop where
// they are a stencil's taps, near each other (rev_snapshot.c, taps_in_run). A mesh smoothing step walks a
// vertex's one-ring with a do/while over links and reads a triangle's three vertices an iteration, x[i],
// x[j], x[k], far apart; the step may write into x itself (Gauss-Seidel: `out = gs ? x : tmp`), so the
// reads are kept. Two of them near each other made the run copy everything between all of them: the tape
// grew as the square of the mesh (1 GB for a probe's 10,242 vertices, 5.6 MB now). A copy is made only where
// every read of the object in the loop is near the others.
// Gradients against central differences (h = 1e-6, tolerance 1e-6 relative) for both choices of out, and
// the tape per vertex at 1,000 and 8,000 vertices within 1.5 of each other (16 and 128 KB before, 352 bytes
// now).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

typedef struct {
  int n;
  int *ring, *link; /* vertex v's neighbours ring[4 v .. 4 v + 3], walked by link */
} Mesh;

/* positions in space, x[3 v], x[3 v + 1], x[3 v + 2] (of which two are used): a vertex's coordinates are
   reads near each other */
static void smooth(const Mesh *m, double *x, double *tmp, int gs) {
  double *out = gs ? x : tmp;
  for (int v = 0; v < m->n; v++) {
    int start = 4 * v, h = start;
    double s0 = 0, s1 = 0, ws = 0;
    do {
      int j = m->ring[h], k = m->ring[m->link[h]];
      double u0 = x[3 * v] - x[3 * k], u1 = x[3 * v + 1] - x[3 * k + 1];
      double w = 1.0 / (1.5 + u0 * (x[3 * j] - x[3 * k]) + u1 * (x[3 * j + 1] - x[3 * k + 1]));
      s0 += w * x[3 * j], s1 += w * x[3 * j + 1], ws += w;
      h = m->link[h];
    } while (h != start);
    out[3 * v] = 0.5 * x[3 * v] + 0.5 * s0 / ws;
    out[3 * v + 1] = 0.5 * x[3 * v + 1] + 0.5 * s1 / ws;
  }
}

double energy(const double *x0, const Mesh *m, int gs) {
  int n = 3 * m->n;
  double *x = malloc(n * sizeof *x), *tmp = malloc(n * sizeof *tmp), E = 0;
  for (int i = 0; i < n; i++) x[i] = tmp[i] = x0[i];
  smooth(m, x, tmp, gs);
  for (int i = 0; i < n; i++) E += (gs ? x[i] : tmp[i]) * (gs ? x[i] : tmp[i]) + 0.1 * x[i];
  free(x), free(tmp);
  return E;
}

static Mesh make(int n) {
  Mesh m = {n, malloc(4 * n * sizeof(int)), malloc(4 * n * sizeof(int))};
  int s = n / 3;
  for (int v = 0; v < n; v++) {
    int nb[4] = {(v + 1) % n, (v + s) % n, (v + n - 1) % n, (v + n - s) % n};
    for (int k = 0; k < 4; k++) m.ring[4 * v + k] = nb[k], m.link[4 * v + k] = 4 * v + (k + 1) % 4;
  }
  return m;
}

static Mesh mesh;
static int gs;
static double energy_now(const double *x) { return energy(x, &mesh, gs); }

static double tape_per_vertex(int n) {
  Mesh m = make(n);
  double *x = malloc(3 * n * sizeof *x), *g = calloc(3 * n, sizeof *g);
  for (int i = 0; i < 3 * n; i++) x[i] = 0.3 * ((i * 7919) % 101) / 101.0;
  parad_tape_reset_peak();
  __parad_autodiff((void *)energy, x, g, parad_const, &m, 1);
  double per = (double)parad_tape_peak_bytes() / n;
  free(x), free(g), free(m.ring), free(m.link);
  return per;
}

int main(void) {
  enum { N = 30 };
  mesh = make(N);
  double x[3 * N];
  for (int i = 0; i < 3 * N; i++) x[i] = 0.3 * ((i * 7919) % 101) / 101.0;
  for (gs = 0; gs < 2; gs++) {
    double g[3 * N] = {0};
    __parad_autodiff((void *)energy, x, g, parad_const, &mesh, gs);
    for (int j = 0; j < 3 * N; j += 5) CHECK_CLOSE(g[j], fd_component(energy_now, x, 3 * N, j, 1e-6), 1e-6);
  }
  double small = tape_per_vertex(1000), large = tape_per_vertex(8000);
  printf("tape per vertex: %.0f bytes at 1000 vertices, %.0f at 8000\n", small, large);
  CHECK_CLOSE(large <= 1.5 * small, 1, 0);
  return check_done();
}
