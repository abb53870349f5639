// Reads of a particle's x, y and z (fields of one element of an array) in a run of a loop, decided as one
// for the run in the reverse sweep of a parallel region (reverse/rev_shared.c, RunGroup): adds plainly
// where the run's union is the thread's own, at the thread's buffer where it lies apart from it, else
// tested read by read. Particles sorted into cells along a line (cell c holds cstart[c] .. cstart[c+1]-1,
// of 1 to 6 particles); each cell's particles pair with those of the cells around it within a cut-off, as
// a link-cell force loop does. The runs a thread reverses: its own cells' (its own), its edge cells'
// neighbours (another thread's, or straddling the edge). Three arrays of particles: xyz (fields 8 bytes
// apart, a step of 24), xyzw (floats of another thread's element 32 bytes on), and the positions read
// twice at offsets a step apart (x[3j] and x[3j+3]: not merged, each its own test).
// f(x) = the sum of a pair energy; gradients against tangents (1e-11) and central differences (h = 1e-5,
// tolerance 1e-6), at 1, 2, 3 and 4 threads at -O2, 3 at -O0. Built with PARAD_CHECK_CLEAN (`check`), every
// add of a run decided as the thread's own is checked against its own part (the program stops on one
// outside it); some must have been so decided at 2 to 4 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_CHECK_CLEAN=1 %parad-cc %cflags -fopenmp %s -o %t.check -lm && OMP_NUM_THREADS=2 %t.check check && OMP_NUM_THREADS=3 %t.check check && OMP_NUM_THREADS=4 %t.check check
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);
extern unsigned long long __parad_rt_clean_adds; /* PARAD_CHECK_CLEAN's count */

enum { CELLS = 40, NP = 142 /* 1 + (7c + 3) % 6 a cell */, MAXP = NP, REACH = 2 };
static int cstart[CELLS + 1], np;
static const double CUT2 = 2.2;

static double pair(double rx, double ry, double rz) {
  double r2 = rx * rx + ry * ry + rz * rz;
  if (r2 >= CUT2) return 0;
  double s = 1 / (0.5 + r2);
  return s * s - 0.3 * s;
}

__attribute__((noinline)) static double xyz(const double *x, const int *cstart) {
  double e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int c = 0; c < CELLS; c++)
    for (int i = cstart[c]; i < cstart[c + 1]; i++)
      for (int d = c - REACH; d <= c + REACH; d++) {
        if (d < 0 || d >= CELLS) continue;
        for (int j = cstart[d]; j < cstart[d + 1]; j++)
          if (j != i) e += 0.5 * pair(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]);
      }
  return e;
}

__attribute__((noinline)) static double xyzw(const double *q, const int *cstart) {
  double e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int c = 0; c < CELLS; c++)
    for (int i = cstart[c]; i < cstart[c + 1]; i++)
      for (int d = c - 1; d <= c + 1; d++) {
        if (d < 0 || d >= CELLS) continue;
        for (int j = cstart[d]; j < cstart[d + 1]; j++)
          if (j != i) e += q[4 * j + 3] * pair(q[4 * i] - q[4 * j], q[4 * i + 1] - q[4 * j + 1], q[4 * i + 2] - q[4 * j + 2]);
      }
  return e;
}

/* each particle with the next one in its neighbour cells' order: x[3j] and x[3j+3] (a step apart) */
__attribute__((noinline)) static double chained(const double *x, const int *cstart) {
  double e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int c = 0; c < CELLS; c++)
    for (int d = c - 1; d <= c + 1; d++) {
      if (d < 0 || d >= CELLS) continue;
      for (int j = cstart[d]; j + 1 < cstart[d + 1]; j++) e += x[3 * j] * x[3 * j + 3] * (c + 1);
    }
  return e;
}

static double f(const double *in) {
  double x[3 * MAXP], q[4 * MAXP];
  for (int i = 0; i < np; i++) {
    for (int a = 0; a < 3; a++) x[3 * i + a] = in[3 * i + a];
    for (int a = 0; a < 3; a++) q[4 * i + a] = 0.9 * in[3 * i + a] + 0.1 * in[3 * ((i + 1) % np) + a];
    q[4 * i + 3] = 1 + 0.1 * in[3 * i];
  }
  return xyz(x, cstart) + xyzw(q, cstart) + 0.01 * chained(x, cstart);
}

int main(int argc, char **argv) {
  int checking = argc > 1 && !strcmp(argv[1], "check");
  for (int c = 0; c < CELLS; c++) cstart[c] = np, np += 1 + (c * 7 + 3) % 6;
  cstart[CELLS] = np;
  if (np != NP) {
    printf("FAIL: %d particles\n", np);
    return 1;
  }
  double in[3 * MAXP];
  for (int c = 0; c < CELLS; c++)
    for (int i = cstart[c]; i < cstart[c + 1]; i++) {
      int k = i - cstart[c];
      in[3 * i] = c + 0.15 * k + 0.05 * sin(i), in[3 * i + 1] = 0.3 * cos(1.3 * i), in[3 * i + 2] = 0.2 * sin(0.7 * i + k);
    }
  CHECK_GRADIENT(f, in, 3 * NP, 1e-11, 1e-5, 1e-6);
  if (checking) CHECK_CLOSE((double)(__parad_rt_clean_adds > 0), 1, 0); /* some runs were the threads' own */
  return check_done();
}
