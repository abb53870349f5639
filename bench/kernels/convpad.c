/* convpad: a convolutional layer as CNN code in plain C writes it: CI input channels of a G x G image, CO
 * output channels, 3 x 3 kernels, zero padding by skipping the taps outside the image with `continue`, a
 * leaky rectifier, parallel over output channels. The objective J(image, kernels) = sum out^2 / 2. Built
 * without `restrict`, as such code is: the check that the arrays are apart narrows the padded reads by
 * their border tests (ad/apart_guards.c), the border tests are recomputed in the reverse sweep and the
 * short tap loops' counts are constants, so the tape keeps one sum per output pixel. The hand-written
 * adjoint skips the same taps. */
#include "kernel.h"

enum { G = 96, CI = 8, CO = 8, K = 3, P = 1 };
enum { NIN = CI * G * G, NW = CO * CI * K * K };
static double *out, *dout;

static double lrelu(double s) { return s > 0 ? s : 0.01 * s; }

static double convpad(const double *in, const double *w, double *out) {
#pragma omp parallel for schedule(static)
  for (int co = 0; co < CO; co++)
    for (int oy = 0; oy < G; oy++)
      for (int ox = 0; ox < G; ox++) {
        double s = 0;
        for (int ci = 0; ci < CI; ci++)
          for (int ky = 0; ky < K; ky++) {
            int iy = oy + ky - P;
            if (iy < 0 || iy >= G) continue;
            for (int kx = 0; kx < K; kx++) {
              int ix = ox + kx - P;
              if (ix < 0 || ix >= G) continue;
              s += in[(ci * G + iy) * G + ix] * w[((co * CI + ci) * K + ky) * K + kx];
            }
          }
        out[(co * G + oy) * G + ox] = lrelu(s);
      }
  double J = 0;
  for (int k = 0; k < CO * G * G; k++) J += 0.5 * out[k] * out[k];
  return J;
}

static double primal(const double *x) { return convpad(x, x + NIN, out); }

static void gradient(const double *x, double *g) {
  kernel_zero(dout, sizeof(double) * CO * G * G);
  __parad_autodiff((void *)convpad, x, g, x + NIN, g + NIN, out, dout);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)convpad, x, v, x + NIN, v + NIN, out, dout);
}

/* the adjoint by hand: the output's adjoint per pixel, then the kernels' (parallel over output channels)
 * and the image's (gathered, parallel over input channels: no two threads add to one place) */
static double *ds;

static double hand(const double *x, double *g) {
  const double *in = x, *w = x + NIN;
  double *din = g, *dw = g + NIN, J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int co = 0; co < CO; co++)
    for (int oy = 0; oy < G; oy++)
      for (int ox = 0; ox < G; ox++) {
        double s = 0;
        for (int ci = 0; ci < CI; ci++)
          for (int ky = 0; ky < K; ky++) {
            int iy = oy + ky - P;
            if (iy < 0 || iy >= G) continue;
            for (int kx = 0; kx < K; kx++) {
              int ix = ox + kx - P;
              if (ix < 0 || ix >= G) continue;
              s += in[(ci * G + iy) * G + ix] * w[((co * CI + ci) * K + ky) * K + kx];
            }
          }
        double o = lrelu(s);
        J += 0.5 * o * o;
        ds[(co * G + oy) * G + ox] = o * (s > 0 ? 1 : 0.01);
      }
#pragma omp parallel for schedule(static)
  for (int co = 0; co < CO; co++)
    for (int ci = 0; ci < CI; ci++)
      for (int ky = 0; ky < K; ky++)
        for (int kx = 0; kx < K; kx++) {
          double a = 0;
          for (int oy = 0; oy < G; oy++) {
            int iy = oy + ky - P;
            if (iy < 0 || iy >= G) continue;
            for (int ox = 0; ox < G; ox++) {
              int ix = ox + kx - P;
              if (ix < 0 || ix >= G) continue;
              a += ds[(co * G + oy) * G + ox] * in[(ci * G + iy) * G + ix];
            }
          }
          dw[((co * CI + ci) * K + ky) * K + kx] = a;
        }
#pragma omp parallel for schedule(static)
  for (int ci = 0; ci < CI; ci++)
    for (int iy = 0; iy < G; iy++)
      for (int ix = 0; ix < G; ix++) {
        double a = 0;
        for (int co = 0; co < CO; co++)
          for (int ky = 0; ky < K; ky++) {
            int oy = iy - ky + P;
            if (oy < 0 || oy >= G) continue;
            for (int kx = 0; kx < K; kx++) {
              int ox = ix - kx + P;
              if (ox < 0 || ox >= G) continue;
              a += ds[(co * G + oy) * G + ox] * w[((co * CI + ci) * K + ky) * K + kx];
            }
          }
        din[(ci * G + iy) * G + ix] = a;
      }
  return J;
}

static void init(double *x) {
  out = malloc(sizeof(double) * CO * G * G), dout = malloc(sizeof(double) * CO * G * G), ds = malloc(sizeof(double) * CO * G * G);
  rng_seed(23);
  for (int k = 0; k < NIN; k++) x[k] = rng_range(-1, 1);
  for (int k = 0; k < NW; k++) x[NIN + k] = rng_range(-0.3, 0.3);
}

int main(void) {
  static const Kernel k = {.name = "convpad",
                           .title = "a 3 x 3 convolution, 8 -> 8 channels of 96 x 96, zero padding by `continue`, leaky ReLU, J = sum out^2 / 2",
                           .parallel = 1,
                           .n = NIN + NW,
                           .iterations = (double)CO * G * G * CI * K * K,
                           .iteration = "tap",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
