// Reads a guard keeps inside an array, in parallel loops whose runs' first or last iterations the guard
// skips: the range the forward sweep notes for a thread is bounded by the addresses of those iterations.
// - A float stencil, `if (xx < 0 || xx >= w) continue;` before `img[y * w + xx]`: the optimiser widened the
//   index with `zext nneg` (non-negative under the guard), and evaluated at the skipped iteration xx = -1
//   that is 2^32 - 1: the noted range ran 16 GiB on and the runtime's copy of it crashed. The ends are
//   evaluated without the promises now (reverse/rev_loops.c, loop_rebuild).
// - A column running sum over a heap copy, `if (y + 2 < h) s += t[(y + 2) * w + x]`: the range ran two rows
//   past the block, and the merge of the threads' private buffers added zeros into memory past the
//   shadow's block (valgrind: invalid reads and writes; with -ffast-math malloc's own words were hit and
//   the program aborted). Only nonzero adjoints are added now (runtime/omp.c, add_plainly).
// Gradients against central differences (double: h = 1e-6, relative 1e-6) and the float stencil against
// its forward tangents along random directions (1e-4), at 1 to 3 threads, -O2, -O2 -ffast-math, -O0,
// and under valgrind at 2 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc %cflags -ffast-math -fopenmp %s -o %tf -lm && OMP_NUM_THREADS=2 %tf && OMP_NUM_THREADS=3 %tf
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc -O2 -gdwarf-4 -fopenmp -I%S/../include %s -o %tv -lm && OMP_NUM_THREADS=2 valgrind -q --error-exitcode=9 %tv
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
float __parad_fwddiff_f(void *, ...) __asm__("__parad_fwddiff");

enum { W = 15, H = 11 };

static float stencil(const float *img, int w, int h) {
  float L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float c = img[y * w + x], num = 0;
      for (int dx = -1; dx <= 1; dx++) {
        int xx = x + dx;
        if (xx < 0 || y < 0 || xx >= w || y >= h) continue;
        float d = img[y * w + xx] - c;
        num += expf(-d * d);
      }
      L += num * num;
    }
  return L;
}

static double running_sums(const double *in, int w, int h) {
  double *t = malloc(sizeof(double) * w * h), *out = malloc(sizeof(double) * w * h);
  for (int i = 0; i < w * h; i++) t[i] = in[i] * in[i];
#pragma omp parallel for
  for (int x = 0; x < w; x++) {
    double s = 0;
    for (int y = 0; y < 2; y++) s += t[y * w + x];
    for (int y = 0; y < h; y++) {
      if (y + 2 < h) s += t[(y + 2) * w + x];
      out[y * w + x] = s;
      if (y - 2 >= 0) s -= t[(y - 2) * w + x];
    }
  }
  double L = 0;
  for (int i = 0; i < w * h; i++) L += out[i] * out[i];
  free(t);
  free(out);
  return L;
}

static double sums_of(const double *x) { return running_sums(x, W, H); }

int main(void) {
  static float img[W * H], dimg[W * H], v[W * H];
  static double in[W * H], din[W * H];
  for (int i = 0; i < W * H; i++) img[i] = (float)(i * 37 % 101) / 101.0f, in[i] = img[i];
  __parad_autodiff((void *)stencil, img, dimg, W, H);
  srand(3);
  for (int d = 0; d < 3; d++) {
    double dot = 0;
    for (int i = 0; i < W * H; i++) v[i] = (float)(rand() / (double)RAND_MAX) - 0.5f, dot += (double)dimg[i] * v[i];
    CHECK_CLOSE(dot, __parad_fwddiff_f((void *)stencil, img, v, W, H), 1e-4);
  }
  __parad_autodiff((void *)running_sums, in, din, W, H);
  for (int i = 0; i < W * H; i += 7) CHECK_CLOSE(din[i], fd_component(sums_of, in, W * H, i, 1e-6), 1e-6);
  return check_done();
}
