// Reads behind a bounds test (`if (j < 0 || j >= n) continue;`, a padded stencil's or convolution's
// border) and the check that the arrays are apart (ad/apart.c): from the loop counters alone a read
// in[i + k - 1] reaches one element before the array and one after, which overlaps the next object, and
// the check always failed for arrays next to each other, leaving the general version (for a padded
// convolution, a copy of all its input channels per output pixel: 330 primals). The branches on the way
// to an access now narrow its indices (ad/apart_guards.c). The check must still see a real overlap:
//   blur:  out[i] = sum_{k=0..2, 0 <= i+k-1 < n} w_k in[i+k-1],  L = sum_i out[i]^2, with out = in + 3
//          (overlapping: the loop reads what it wrote), out = in + n (next to it), and apart;
//   conv2: a 2-D padded 3 x 3 blur of a 9 x 8 image into the same block right after it.
// Gradients for the whole buffer against central differences of the program as written (h = 1e-6,
// 1e-7) and, where apart, the hand-written adjoint (1e-12); the tape of the block's 2-D blur at most 96
// bytes per pixel (copies of the reads per pixel made it 200). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 12, H = 9, W = 8, TOTAL = 40 };
static const double WT[3] = {0.25, 0.5, -0.75};

double blur(const double *in, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < 3; k++) {
      int j = i + k - 1;
      if (j < 0 || j >= n) continue;
      s += WT[k] * in[j];
    }
    out[i] = s;
  }
  double l = 0;
  for (int i = 0; i < n; i++) l += out[i] * out[i];
  return l;
}

double conv2(const double *in, double *out) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      double s = 0;
      for (int ky = 0; ky < 3; ky++) {
        int iy = y + ky - 1;
        if (iy < 0 || iy >= H) continue;
        for (int kx = 0; kx < 3; kx++) {
          int ix = x + kx - 1;
          if (ix < 0 || ix >= W) continue;
          s += WT[ky] * WT[2 - kx] * in[iy * W + ix];
        }
      }
      out[y * W + x] = s > 0 ? s : 0.1 * s;
    }
  double l = 0;
  for (int k = 0; k < H * W; k++) l += out[k] * out[k];
  return l;
}

static double buf[2 * H * W + 8], dbuf[2 * H * W + 8];

static double blur_at(const double *init, int shift, int k, double h) {
  double b[TOTAL];
  memcpy(b, init, sizeof b);
  b[k] += h;
  return blur(b, b + shift, N);
}

int main(void) {
  /* blur with out overlapping in, next to it, and apart (the shift between them) */
  int shifts[3] = {3, N, N + 7};
  for (int s = 0; s < 3; s++) {
    double init[TOTAL], b[TOTAL], db[TOTAL] = {0};
    for (int k = 0; k < TOTAL; k++) init[k] = b[k] = sin(0.7 * k + 0.3);
    __parad_autodiff((void *)blur, b, db, b + shifts[s], db + shifts[s], N);
    for (int k = 0; k < TOTAL; k++)
      CHECK_CLOSE(db[k], (blur_at(init, shifts[s], k, 1e-6) - blur_at(init, shifts[s], k, -1e-6)) / 2e-6, 1e-7);
    if (s > 0) /* apart: out's adjoint 2 out, through the weights */
      for (int j = 0; j < N; j++) {
        double want = 0;
        for (int k = 0; k < 3; k++) {
          int i = j - k + 1;
          if (i < 0 || i >= N) continue;
          double o = 0;
          for (int q = 0; q < 3; q++)
            if (i + q - 1 >= 0 && i + q - 1 < N) o += WT[q] * init[i + q - 1];
          want += 2 * o * WT[k];
        }
        CHECK_CLOSE(db[j], want, 1e-12);
      }
  }
  /* the 2-D blur into the block right after its image */
  for (int k = 0; k < H * W; k++) buf[k] = cos(0.37 * k);
  parad_tape_reset_peak();
  __parad_autodiff((void *)conv2, buf, dbuf, buf + H * W, dbuf + H * W);
  size_t tape = parad_tape_recorded_bytes();
  if (tape > (size_t)96 * H * W) printf("FAIL: the tape holds %zu bytes for %d pixels\n", tape, H * W);
  CHECK_CLOSE(tape <= (size_t)96 * H * W, 1, 0);
  double save[2 * H * W + 8];
  memcpy(save, buf, sizeof save);
  for (int k = 0; k < H * W; k += 3) {
    double h = 1e-6;
    memcpy(buf, save, sizeof save), buf[k] += h;
    double up = conv2(buf, buf + H * W);
    memcpy(buf, save, sizeof save), buf[k] -= h;
    double down = conv2(buf, buf + H * W);
    CHECK_CLOSE(dbuf[k], (up - down) / (2 * h), 1e-7);
  }
  return check_done();
}
