// Reverse sweeps whose loops keep their adjoints in registers are paired by the SLP vectoriser, as their
// primals are (ad/slp_outside_reverse.h). A Riccati recursion over 4 x 4 and 4 x 2 local arrays, unrolled
// and scalarised at -O2, records only P (16 values) a step; its reverse sweep recomputes and reverses the
// step, about three times the primal's arithmetic, which without pairing took 11-12 primals and with it 6.
// The gradient is checked against central differences (h = 1e-6, relative 1e-6) and against the
// tangents of forward mode (1e-10), at -O2 and -O0; the -O2 build's IR (loop vectoriser off, so that every
// vector is SLP's) must hold paired arithmetic in the reverse sweep.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fno-vectorize -S -emit-llvm %s -o %t.ll
// RUN: awk '/^define/ { rev = /@reverse[.]top[.]riccati/ } rev && /fmul <[0-9]+ x double>/ { n++ } END { exit n == 0 }' %t.ll
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { NX = 4, NU = 2, STEPS = 30, NIN = NX * NX + NX * NU };

static void mul(const double *a, const double *b, double *c, int n, int m, int k) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++) {
      double s = 0;
      for (int l = 0; l < m; l++) s += a[i * m + l] * b[l * k + j];
      c[i * k + j] = s;
    }
}

static void transpose(const double *a, double *b, int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) b[j * n + i] = a[i * m + j];
}

/* P <- A^T P (A - B K), K = (1 + B^T P B)^-1 B^T P A, P <- P + I; returns a weighted sum of P */
__attribute__((noinline)) double riccati(const double *x) {
  const double *A = x, *B = x + NX * NX;
  double P[16] = {0}, At[16], Bt[8], PB[8], S[4], PA[16], BtPA[8], K[8], BK[16], AmBK[16], T[16];
  for (int i = 0; i < NX; i++) P[i * 5] = 1;
  transpose(A, At, NX, NX);
  transpose(B, Bt, NX, NU);
  for (int k = 0; k < STEPS; k++) {
    mul(P, B, PB, NX, NX, NU);
    mul(Bt, PB, S, NU, NX, NU);
    S[0] += 1, S[3] += 1;
    mul(P, A, PA, NX, NX, NX);
    mul(Bt, PA, BtPA, NU, NX, NX);
    double det = S[0] * S[3] - S[1] * S[2];
    double Si[4] = {S[3] / det, -S[1] / det, -S[2] / det, S[0] / det};
    mul(Si, BtPA, K, NU, NU, NX);
    mul(B, K, BK, NX, NU, NX);
    for (int i = 0; i < 16; i++) AmBK[i] = A[i] - BK[i];
    mul(P, AmBK, T, NX, NX, NX);
    mul(At, T, P, NX, NX, NX);
    for (int i = 0; i < NX; i++) P[i * 5] += 1;
  }
  double s = 0;
  for (int i = 0; i < 16; i++) s += P[i] * (i % 5 == 0 ? 1 : 0.1);
  return s;
}

int main(void) {
  double x[NIN];
  for (int i = 0; i < 16; i++) x[i] = i % 5 == 0 ? 0.95 : 0.05 * sin(i + 1.0);
  for (int i = 0; i < 8; i++) x[16 + i] = 0.3 * cos(i + 0.5);
  CHECK_GRADIENT(riccati, x, NIN, 1e-10, 1e-6, 1e-6);
  return check_done();
}
