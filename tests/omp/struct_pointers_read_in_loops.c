// A parallel image filter reading its images through struct pointers inside the loop (`src->px[...]`,
// `dst->px[...]`, as image code keeps `{int w, h, channels; double *px}`): without type tags on the
// field's load (a store of doubles that may alias it keeps it in the rows' loop), the pixel arrays were
// not "the same object on every thread", and every adjoint update of the image was atomic (100% at 2
// threads; hoisting the pointers into locals made them all plain). A pointer loaded in a loop from a
// constant offset of such an object is that object throughout where the function stores no pointer
// others see (reverse/rev_shared.c).
//   L = sum dst^2, dst = a vertical 5-tap blur of src with clamped rows, per channel
// Gradients against the hand-written adjoint (1e-12), central differences (h = 1e-6, 1e-7) and the
// tangent (1e-10), at 1 to 4 threads; built counting updates, under 5% atomic at 2 and 3 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 -lm && %t2 2 && %t2 3
#include <omp.h>
#include <parad.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

typedef struct {
  int w, h, channels;
  double *px;
} Image;

enum { W = 12, H = 10, C = 3, N = W * H * C };
static const double K[5] = {0.1, 0.2, 0.4, 0.2, 0.1};

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

double blur(const Image *src, Image *dst) {
#pragma omp parallel for
  for (int y = 0; y < src->h; y++)
    for (int x = 0; x < src->w; x++)
      for (int c = 0; c < src->channels; c++) {
        double acc = 0;
        for (int t = -2; t <= 2; t++) acc += K[t + 2] * src->px[(clampi(y + t, 0, src->h - 1) * src->w + x) * src->channels + c];
        dst->px[(y * dst->w + x) * dst->channels + c] = acc;
      }
  double s = 0;
  for (int i = 0; i < dst->w * dst->h * dst->channels; i++) s += dst->px[i] * dst->px[i];
  return s;
}

static double a[N], b[N];

static double loss_of(const double *px) {
  Image s = {W, H, C, (double *)px}, d = {W, H, C, b};
  return blur(&s, &d);
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  for (int i = 0; i < N; i++) a[i] = sin(0.37 * i) + 0.1 * (i % 7);
  double da[N] = {0}, db[N] = {0}, hand[N] = {0};
  Image src = {W, H, C, a}, dsrc = {W, H, C, da}, dst = {W, H, C, b}, ddst = {W, H, C, db};
#ifdef COUNTED
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
#endif
  __parad_autodiff((void *)blur, &src, &dsrc, &dst, &ddst);
#ifdef COUNTED
  parad_adjoint_update_counts(&plain1, &atomic1);
  printf("adjoint updates: %llu plain, %llu atomic\n", plain1 - plain0, atomic1 - atomic0);
  CHECK_CLOSE(atomic1 - atomic0 < (plain1 + atomic1 - plain0 - atomic0) / 20, 1, 0);
#endif
  /* by hand: dL/da = sum over outputs 2 dst K[t] at the clamped row */
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < C; c++) {
        double acc = 0;
        for (int t = -2; t <= 2; t++) acc += K[t + 2] * a[(clampi(y + t, 0, H - 1) * W + x) * C + c];
        for (int t = -2; t <= 2; t++) hand[(clampi(y + t, 0, H - 1) * W + x) * C + c] += 2 * acc * K[t + 2];
      }
  for (int i = 0; i < N; i++) CHECK_CLOSE(da[i], hand[i], 1e-12);
  for (int i = 0; i < N; i += 17) {
    double up[N], down[N];
    memcpy(up, a, sizeof a), memcpy(down, a, sizeof a);
    up[i] += 1e-6, down[i] -= 1e-6;
    CHECK_CLOSE(da[i], (loss_of(up) - loss_of(down)) / 2e-6, 1e-7);
  }
  double v[N], dv[N] = {0}, dot = 0;
  for (int i = 0; i < N; i++) v[i] = cos(1.3 * i), dot += v[i] * da[i];
  Image tsrc = {W, H, C, v}, tdst = {W, H, C, dv};
  CHECK_CLOSE(__parad_fwddiff((void *)blur, &src, &tsrc, &dst, &tdst), dot, 1e-10);
  return check_done();
}
