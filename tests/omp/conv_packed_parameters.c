// A convolution layer as CNN code writes it, its parameters packed in one vector: the image, then the
// kernels (p = [image | kernels], as an optimiser hands them over), zero padding by `continue`, a leaky
// rectifier, parallel over output channels. Every thread reads the whole image: each keeps the image's
// adjoints in a private buffer, whole (runtime/omp.c, BUFFER_WHOLE), and its share of the kernels, whose
// range another thread's image reads reach by a float (the runs' hulls of the padded taps pass the image's
// end), goes in the buffer whole too (small beside it), so that no run of three taps decides where its
// adjoints go (reverse/rev_shared.c, shared_rev_enter_loop). Variants: a static schedule, a dynamic one
// (chunks of one channel), and floats. J = sum out^2 / 2. Gradients against forward tangents along random
// directions (1e-10; floats 1e-4) and central differences of the double version on sampled components
// (h = 1e-6, 1e-6), at 1, 2 and 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...) __asm__("__parad_fwddiff");

enum { G = 12, CI = 3, CO = 5, K = 3, NIN = CI * G * G, NW = CO * CI * K * K, NP = NIN + NW };

static double lrelu(double s) { return s > 0 ? s : 0.01 * s; }
static float lreluf(float s) { return s > 0 ? s : 0.01f * s; }

#define LAYER(NAME, T, ACT, SCHEDULE)                                                                       \
  static T NAME(const T *p, T *out) {                                                                      \
    const T *in = p, *w = p + NIN;                                                                         \
    _Pragma(SCHEDULE) for (int co = 0; co < CO; co++) for (int oy = 0; oy < G; oy++) for (int ox = 0; ox < G; ox++) { \
      T s = 0;                                                                                             \
      for (int ci = 0; ci < CI; ci++)                                                                      \
        for (int ky = 0; ky < K; ky++) {                                                                   \
          int iy = oy + ky - 1;                                                                            \
          if (iy < 0 || iy >= G) continue;                                                                 \
          for (int kx = 0; kx < K; kx++) {                                                                 \
            int ix = ox + kx - 1;                                                                          \
            if (ix < 0 || ix >= G) continue;                                                               \
            s += in[(ci * G + iy) * G + ix] * w[((co * CI + ci) * K + ky) * K + kx];                       \
          }                                                                                                \
        }                                                                                                  \
      out[(co * G + oy) * G + ox] = ACT(s);                                                                \
    }                                                                                                      \
    T J = 0;                                                                                               \
    for (int k = 0; k < CO * G * G; k++) J += out[k] * out[k] / 2;                                         \
    return J;                                                                                              \
  }

LAYER(layer_static, double, lrelu, "omp parallel for schedule(static)")
LAYER(layer_dynamic, double, lrelu, "omp parallel for schedule(dynamic, 1)")
LAYER(layer_float, float, lreluf, "omp parallel for schedule(static)")

static double out[CO * G * G], dout[CO * G * G];
static float outf[CO * G * G], doutf[CO * G * G];
static double (*plain)(const double *, double *);

static double J_of(const double *p) { return plain(p, out); }

static double unit(void) { return 2.0 * rand() / RAND_MAX - 1; }

int main(void) {
  static double p[NP], g[NP], v[NP];
  static float pf[NP], gf[NP], vf[NP];
  srand(7);
  for (int k = 0; k < NP; k++) p[k] = k < NIN ? unit() : 0.3 * unit(), pf[k] = (float)p[k];
  for (int l = 0; l < 2; l++) {
    for (int k = 0; k < NP; k++) g[k] = 0;
    for (int k = 0; k < CO * G * G; k++) dout[k] = 0;
    if (l == 0) __parad_autodiff((void *)layer_static, p, g, out, dout);
    else __parad_autodiff((void *)layer_dynamic, p, g, out, dout);
    for (int d = 0; d < 3; d++) { /* g . v against the tangent along v */
      double dot = 0;
      for (int k = 0; k < NP; k++) v[k] = unit(), dot += g[k] * v[k];
      double t = l == 0 ? __parad_fwddiff((void *)layer_static, p, v, out, dout) : __parad_fwddiff((void *)layer_dynamic, p, v, out, dout);
      CHECK_CLOSE(dot, t, 1e-10);
    }
    plain = l == 0 ? layer_static : layer_dynamic;
    for (int k = 0; k < NP; k += 37) CHECK_CLOSE(g[k], fd_component(J_of, p, NP, k, 1e-6), 1e-6);
    for (int k = NIN - 3; k < NIN + 3; k++) CHECK_CLOSE(g[k], fd_component(J_of, p, NP, k, 1e-6), 1e-6); /* where the two meet */
  }
  for (int k = 0; k < CO * G * G; k++) doutf[k] = 0;
  __parad_autodiff((void *)layer_float, pf, gf, outf, doutf);
  for (int d = 0; d < 3; d++) {
    double dot = 0;
    for (int k = 0; k < NP; k++) vf[k] = (float)unit(), dot += (double)gf[k] * vf[k];
    CHECK_CLOSE(dot, __parad_fwddiff_f((void *)layer_float, pf, vf, outf, doutf), 1e-4);
  }
  return check_done();
}
