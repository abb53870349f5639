// A padded convolution as CNN code in plain C writes it: the taps that fall outside the image skipped
// with `continue`, a leaky ReLU after, the loss a sum of squares, the stride a constant per layer. The
// reverse sweep recorded, for every tap row and every tap, which way its border test went, and the count
// of each 3-tap loop: about 12 bytes of tape per multiply-add (5.5-16 primals on a loaded machine). The
// tests move with the taps' counters and are recomputed in the reverse sweep (reverse/rev_replay.c), and
// the short loops' counts are constants (reverse/rev_loops.c): the tape keeps the sums before the ReLU.
//   out[co][y][x] = lrelu(sum_{ci,ky,kx inside} in[ci][y+ky-P][x+kx-P] w[co][ci][ky][kx]),  L = sum out^2
// Gradients for the input and the weights against a hand-written adjoint (1e-12) and central differences
// (h = 1e-6, 1e-7); the tape at most 16 bytes per output pixel (it was 215 at stride 1). At -O2 and -O0,
// with a stride of 1 and of 2. The arrays are `restrict`: without it the reads are copied per pixel
// (reverse/rev_snapshot.c), as the check that they are apart cannot bound the padded reads.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void); /* resets both figures */

enum { H = 9, W = 8, CI = 2, CO = 3, K = 3, P = 1 };
#define IN(ci, y, x) ((ci) * H * W + (y) * W + (x))
#define WT(co, ci, ky, kx) ((((co) * CI + (ci)) * K + (ky)) * K + (kx))

static double lrelu(double s) { return s > 0 ? s : 0.01 * s; }

static inline __attribute__((always_inline)) double conv(const double *restrict in, const double *restrict w, double *restrict out, int stride) {
  int oh = (H + 2 * P - K) / stride + 1, ow = (W + 2 * P - K) / stride + 1;
  for (int co = 0; co < CO; co++)
    for (int oy = 0; oy < oh; oy++)
      for (int ox = 0; ox < ow; ox++) {
        double s = 0;
        for (int ci = 0; ci < CI; ci++)
          for (int ky = 0; ky < K; ky++) {
            int iy = oy * stride + ky - P;
            if (iy < 0 || iy >= H) continue;
            for (int kx = 0; kx < K; kx++) {
              int ix = ox * stride + kx - P;
              if (ix < 0 || ix >= W) continue;
              s += in[IN(ci, iy, ix)] * w[WT(co, ci, ky, kx)];
            }
          }
        out[(co * oh + oy) * ow + ox] = lrelu(s);
      }
  double l = 0;
  for (int k = 0; k < CO * oh * ow; k++) l += out[k] * out[k];
  return l;
}

/* the stride a constant in each, as a network's layers have it */
double conv_s1(const double *restrict in, const double *restrict w, double *restrict out) { return conv(in, w, out, 1); }
double conv_s2(const double *restrict in, const double *restrict w, double *restrict out) { return conv(in, w, out, 2); }

/* the adjoint written by hand */
static void conv_adjoint(const double *in, const double *w, int stride, double *din, double *dw) {
  int oh = (H + 2 * P - K) / stride + 1, ow = (W + 2 * P - K) / stride + 1;
  for (int co = 0; co < CO; co++)
    for (int oy = 0; oy < oh; oy++)
      for (int ox = 0; ox < ow; ox++) {
        double s = 0;
        for (int ci = 0; ci < CI; ci++)
          for (int ky = 0; ky < K; ky++)
            for (int kx = 0; kx < K; kx++) {
              int iy = oy * stride + ky - P, ix = ox * stride + kx - P;
              if (iy >= 0 && iy < H && ix >= 0 && ix < W) s += in[IN(ci, iy, ix)] * w[WT(co, ci, ky, kx)];
            }
        double ds = 2 * lrelu(s) * (s > 0 ? 1 : 0.01);
        for (int ci = 0; ci < CI; ci++)
          for (int ky = 0; ky < K; ky++)
            for (int kx = 0; kx < K; kx++) {
              int iy = oy * stride + ky - P, ix = ox * stride + kx - P;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
              din[IN(ci, iy, ix)] += ds * w[WT(co, ci, ky, kx)];
              dw[WT(co, ci, ky, kx)] += ds * in[IN(ci, iy, ix)];
            }
      }
}

static double in[CI * H * W], w[CO * CI * K * K], out[CO * H * W];

static double loss_at(double *v, int k, double x, int stride) {
  double save = v[k];
  v[k] = x;
  double l = conv(in, w, out, stride);
  v[k] = save;
  return l;
}

int main(void) {
  for (int k = 0; k < CI * H * W; k++) in[k] = sin(0.37 * k + 0.1);
  for (int k = 0; k < CO * CI * K * K; k++) w[k] = 0.4 * cos(1.3 * k);
  for (int stride = 1; stride <= 2; stride++) {
    double din[CI * H * W] = {0}, dw[CO * CI * K * K] = {0}, dout[CO * H * W] = {0};
    double hin[CI * H * W] = {0}, hw[CO * CI * K * K] = {0};
    parad_tape_reset_peak();
    if (stride == 1) __parad_autodiff((void *)conv_s1, in, din, w, dw, out, dout);
    else __parad_autodiff((void *)conv_s2, in, din, w, dw, out, dout);
    size_t tape = parad_tape_recorded_bytes();
    int oh = (H + 2 * P - K) / stride + 1, ow = (W + 2 * P - K) / stride + 1;
    if (tape > (size_t)16 * CO * oh * ow + 4096) {
      printf("FAIL: the tape holds %zu bytes for %d output pixels\n", tape, CO * oh * ow);
      return 1;
    }
    conv_adjoint(in, w, stride, hin, hw);
    for (int k = 0; k < CI * H * W; k++) CHECK_CLOSE(din[k], hin[k], 1e-12);
    for (int k = 0; k < CO * CI * K * K; k++) CHECK_CLOSE(dw[k], hw[k], 1e-12);
    double h = 1e-6;
    for (int k = 0; k < CI * H * W; k += 5)
      CHECK_CLOSE(din[k], (loss_at(in, k, in[k] + h, stride) - loss_at(in, k, in[k] - h, stride)) / (2 * h), 1e-7);
    for (int k = 0; k < CO * CI * K * K; k += 4)
      CHECK_CLOSE(dw[k], (loss_at(w, k, w[k] + h, stride) - loss_at(w, k, w[k] - h, stride)) / (2 * h), 1e-7);
  }
  return check_done();
}
