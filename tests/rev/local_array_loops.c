// Element loops as finite-element and hydrodynamics codes write them, with small local arrays filled and
// read in short loops: an element's four nodes gathered into xl[4], yl[4] in a loop of four, the shape
// functions' gradients in B[2][4] (two nested loops), the local stiffness applied to the element's
// values in three nested loops, the result scattered to the nodes. Beside it, arrays that must stay in memory: a
// table indexed by a value read from memory (w[idx[e] & 3]), and one passed to a function kept out of line.
// J = sum_n r_n^2 + sum_e w-weighted terms. Gradient against forward tangents (1e-10) and central
// differences (h = 1e-6, tolerance 1e-6), at -O2 and -O0.
// The short loops are unrolled before differentiating (ad/local_array_loops.h), the arrays made values:
// the element loop recorded every value read back from xl, yl, ul, B and f (740 bytes of tape an element at
// -O2 before); at most 600 now (522: the element's products, which its adjoint needs).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);

enum { NX = 5, NE = NX * NX, NN = (NX + 1) * (NX + 1), N = 2 * NN };

static int nodes[4 * NE], idx[NE];
static double r[NN];

__attribute__((noinline)) static double norm4(const double *v) {
  double s = 0;
  for (int k = 0; k < 4; k++) s += v[k] * v[k];
  return sqrt(s);
}

__attribute__((noinline)) static double assemble(const double *q) {
  for (int n = 0; n < NN; n++) r[n] = 0;
  double extra = 0;
  for (int e = 0; e < NE; e++) {
    double xl[4], yl[4], ul[4], B[2][4], f[4];
    for (int k = 0; k < 4; k++) {
      int n = nodes[4 * e + k];
      xl[k] = (double)(n % (NX + 1)) + 0.1 * q[n];
      yl[k] = (double)(n / (NX + 1)) + 0.1 * q[NN + n] * q[n];
      ul[k] = sin(q[n]);
    }
    /* the bilinear element's gradients at its centre, scaled by its area */
    double area = 0.5 * ((xl[0] - xl[2]) * (yl[1] - yl[3]) - (xl[1] - xl[3]) * (yl[0] - yl[2]));
    for (int k = 0; k < 4; k++) {
      int kp = (k + 1) % 4, km = (k + 3) % 4;
      B[0][k] = (yl[kp] - yl[km]) / (2 * area);
      B[1][k] = (xl[km] - xl[kp]) / (2 * area);
    }
    for (int a = 0; a < 4; a++) {
      double s = 0;
      for (int b = 0; b < 4; b++) {
        double kab = 0;
        for (int d = 0; d < 2; d++) kab += B[d][a] * B[d][b];
        s += area * kab * ul[b];
      }
      f[a] = s;
    }
    for (int k = 0; k < 4; k++) r[nodes[4 * e + k]] += f[k];
    /* a table read at an index from memory: stays in memory, recorded as before */
    double w[4];
    for (int k = 0; k < 4; k++) w[k] = xl[k] * yl[(k + 2) % 4];
    extra += w[idx[e] & 3];
    /* an array a call reads: stays in memory */
    extra += 0.01 * norm4(f);
  }
  double J = extra;
  for (int n = 0; n < NN; n++) J += r[n] * r[n];
  return J;
}

int main(void) {
  for (int j = 0; j < NX; j++)
    for (int i = 0; i < NX; i++) {
      int e = j * NX + i, n0 = j * (NX + 1) + i;
      nodes[4 * e] = n0, nodes[4 * e + 1] = n0 + 1, nodes[4 * e + 2] = n0 + NX + 2, nodes[4 * e + 3] = n0 + NX + 1;
      idx[e] = (7 * e) % 5;
    }
  double q[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) q[i] = 0.5 * sin(0.7 * i), v[i] = cos(1.3 * i);
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)assemble, q, g);
  double per_element = (double)(parad_tape_recorded_bytes() - before) / NE;
  double t = __parad_fwddiff((void *)assemble, q, v), dot = 0;
  for (int i = 0; i < N; i++) dot += g[i] * v[i];
  CHECK_CLOSE(t, dot, 1e-10);
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], fd_component(assemble, q, N, j, 1e-6), 1e-6);
  printf("%.1f bytes of tape per element\n", per_element);
#ifdef __OPTIMIZE__
  CHECK_CLOSE(per_element <= 600, 1, 0);
#endif
  return check_done();
}
